import type { AppContext } from './context.js';
import { ConflictError } from './errors/index.js';
import { anyAccountExists } from './repos/accounts.js';
import { createAccount } from './services/accounts/accounts.js';
import { createApiKey } from './services/accounts/api-keys.js';
import { createSignInLink, signInLinkUrl } from './services/accounts/web-auth.js';

/**
 * On the first start with an empty database, make an owner account and one API key, and show
 * the key once. Returns what to print, or null when accounts exist already.
 */
export async function createOwnerIfEmpty(ctx: AppContext): Promise<string | null> {
  if (await anyAccountExists(ctx.db)) return null;
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  let account: Awaited<ReturnType<typeof createAccount>>;
  try {
    account = await createAccount(ctx, { email: 'owner@localhost', timezone });
  } catch (err) {
    // Several instances started at once on an empty database: the one that created the owner
    // prints its key; the others start as on a database that had accounts.
    if (err instanceof ConflictError) return null;
    throw err;
  }
  const { key } = await createApiKey(ctx, account, 'first key');
  const link = await createSignInLink(ctx, account);
  const base = ctx.config.http.publicUrl;
  return [
    '',
    `Skein created an owner account (owner@localhost, time zone ${timezone}) and its first API key.`,
    'This key is shown only now; keep it somewhere safe:',
    '',
    `  ${key}`,
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer ${key}" ${base}/api/v1/account`,
    '',
    'Web app: open this one-time link within 24 hours to set your password and sign in',
    '(`npx skein user sign-in-link --email owner@localhost` makes a new one):',
    `  Sign in: ${signInLinkUrl(ctx, link.token)}`,
    '',
    `API docs: ${base}/docs`,
    '',
  ].join('\n');
}
