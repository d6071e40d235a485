import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { AccountRow, NetworkLimits, OAuthStateRow, ProviderRow } from '../db/schema/index.js';
import { type FieldFault, ValidationError } from '../errors/index.js';
import { personalWorkspace, teamWorkspace } from '../lib/workspace.js';
import type { MastodonApp, MastodonClient } from '../networks/mastodon/client.js';
import { findMastodonApp, saveMastodonApp } from '../repos/mastodon-apps.js';
import { findProviderByNetworkUser } from '../repos/providers.js';
import { resolveWorkspace } from './accounts.js';
import { networkFailure, scheduleFollowerFetch } from './connect-shared.js';
import { newConnectState } from './connect-states.js';
import { addProvider } from './providers.js';

/**
 * Connecting a Mastodon account on any server (decisions.md "Mastodon"): Skein registers itself
 * on the server once (the app kept per server, its secret encrypted), then the OAuth code flow
 * with a single-use state and PKCE S256; or, for scripts, a token made on the server. The
 * server's limits are read at connect and kept on the provider for the content rules.
 */

const SCOPES = 'read write:statuses write:media';

/** `mastodon.social`, `https://mastodon.social/` → `https://mastodon.social`; null when it is no server address. */
function instanceOrigin(raw: string): string | null {
  const value = raw.trim();
  if (!value) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname || url.username || url.password) return null;
    if (url.pathname !== '/' || url.search || url.hash) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** The content rules of the Mastodon connects, over what is well-formed in `input`. */
export function mastodonConnectFaults(input: unknown): FieldFault[] {
  if (typeof input !== 'object' || input === null) return [];
  const { instance, accessToken } = input as { instance?: unknown; accessToken?: unknown };
  const faults: FieldFault[] = [];
  if (typeof instance === 'string' && instanceOrigin(instance) === null) {
    faults.push({ path: 'instance', message: 'must be the address of a Mastodon server, such as mastodon.social or https://mastodon.social' });
  }
  if (typeof accessToken === 'string' && !accessToken.trim()) faults.push({ path: 'accessToken', message: 'must not be empty' });
  return faults;
}

function redirectUri(ctx: AppContext): string {
  return `${ctx.config.http.publicUrl}/api/v1/providers/mastodon/callback`;
}

async function client(ctx: AppContext): Promise<MastodonClient> {
  return (await ctx.network()).mastodon;
}

/** The server's limits; a server that does not answer as Mastodon is the user's fault at `instance`. */
async function readLimits(ctx: AppContext, instance: string): Promise<NetworkLimits> {
  try {
    return await (await client(ctx)).instanceLimits(instance);
  } catch (err) {
    throw networkFailure(err, 'instance', 'The Mastodon server');
  }
}

/** The app registered on the server for this PUBLIC_URL, registered now when there is none. */
async function appFor(ctx: AppContext, instance: string): Promise<MastodonApp> {
  const saved = await findMastodonApp(ctx.db, instance);
  const callback = redirectUri(ctx);
  if (saved && saved.redirect_uri === callback && saved.scopes === SCOPES) {
    return { clientId: saved.client_id, clientSecret: ctx.secrets.decrypt(saved.client_secret_enc) };
  }
  let app: MastodonApp;
  try {
    app = await (await client(ctx)).registerApp(instance, { name: 'Skein', redirectUri: callback, scopes: SCOPES, website: ctx.config.http.publicUrl });
  } catch (err) {
    throw networkFailure(err, 'instance', 'The Mastodon server');
  }
  await saveMastodonApp(ctx.db, {
    instance,
    client_id: app.clientId,
    client_secret_enc: ctx.secrets.encrypt(app.clientSecret),
    redirect_uri: callback,
    scopes: SCOPES,
    created_at: ctx.clock.now(),
  });
  return app;
}

function checkedInstance(input: { instance: string; accessToken?: string }): string {
  const faults = mastodonConnectFaults(input);
  if (faults.length) throw new ValidationError(faults);
  return instanceOrigin(input.instance)!;
}

/**
 * Step 1: the server is checked and Skein's app found or registered; the state binds the caller,
 * workspace, server and, when a browser signed in to Skein asked, that browser's connect cookie
 * (`browserToken`; null for an API key). The server is asked to show its sign-in form even to a
 * browser signed in there (`force_login`), so the person sees which account they approve.
 */
export async function startMastodonConnect(
  ctx: AppContext,
  account: AccountRow,
  input: { instance: string; teamId?: string; returnTo?: 'web' },
  browserToken: string | null,
): Promise<{ authorizeUrl: string }> {
  const instance = checkedInstance(input);
  const workspace = await resolveWorkspace(ctx.db, account, input.teamId);
  await readLimits(ctx, instance);
  const app = await appFor(ctx, instance);
  const verifier = randomBytes(32).toString('base64url');
  const state = await newConnectState(
    ctx,
    {
      account_id: account.id,
      team_id: workspace.teamId,
      kind: 'MASTODON',
      return_to: input.returnTo ?? null,
      instance,
      code_verifier_enc: ctx.secrets.encrypt(verifier),
    },
    browserToken,
  );
  const codeChallenge = createHash('sha256').update(verifier).digest('base64url');
  return {
    authorizeUrl: (await client(ctx)).authorizeUrl(instance, { clientId: app.clientId, redirectUri: redirectUri(ctx), scopes: SCOPES, state, codeChallenge }),
  };
}

/** Step 2, after the callback's checks (`finishConnect`): the code (with the PKCE verifier) becomes the token. */
export async function completeMastodonConnect(ctx: AppContext, row: OAuthStateRow, code: string): Promise<ProviderRow> {
  const instance = row.instance!;
  const app = await appFor(ctx, instance);
  let token: string;
  try {
    token = await (await client(ctx)).exchangeCode(instance, app, {
      code,
      redirectUri: redirectUri(ctx),
      codeVerifier: ctx.secrets.decrypt(row.code_verifier_enc!),
    });
  } catch (err) {
    throw networkFailure(err, 'code', 'The Mastodon server');
  }
  const workspace = row.team_id ? teamWorkspace(row.team_id) : personalWorkspace(row.account_id);
  const { provider } = await saveAccount(ctx, row.account_id, workspace, instance, token, 'code');
  return provider;
}

/** For scripts: a token made on the server (Preferences → Development). The same account again is a reconnect (`created` false). */
export async function connectMastodonWithToken(
  ctx: AppContext,
  account: AccountRow,
  input: { instance: string; accessToken: string; teamId?: string },
): Promise<{ provider: ProviderRow; created: boolean }> {
  const instance = checkedInstance(input);
  const workspace = await resolveWorkspace(ctx.db, account, input.teamId);
  return saveAccount(ctx, account.id, workspace, instance, input.accessToken.trim(), 'accessToken');
}

async function saveAccount(
  ctx: AppContext,
  accountId: string,
  workspace: Parameters<typeof addProvider>[2],
  instance: string,
  token: string,
  field: string,
): Promise<{ provider: ProviderRow; created: boolean }> {
  const limits = await readLimits(ctx, instance);
  let me;
  try {
    me = await (await client(ctx)).verifyCredentials(instance, token);
  } catch (err) {
    throw networkFailure(err, field, 'The Mastodon server');
  }
  const existing = await findProviderByNetworkUser(ctx.db, workspace, 'MASTODON', me.id, instance);
  const provider = await addProvider(ctx, accountId, workspace, {
    kind: 'MASTODON',
    providerUserId: me.id,
    username: `${me.username}@${new URL(instance).host}`,
    accessToken: token,
    serviceUrl: instance,
    networkLimits: limits,
  });
  return { provider: await scheduleFollowerFetch(ctx, provider), created: !existing };
}

/**
 * Disconnect revokes the token at the server, with the app that got it. A token given by a
 * script belongs to the user's own app: the server keeps it (the user revokes it there). A
 * server that cannot be reached does not keep the account connected in Skein.
 */
export async function revokeMastodonToken(ctx: AppContext, provider: ProviderRow): Promise<void> {
  if (!provider.access_token_enc || !provider.service_url) return;
  const saved = await findMastodonApp(ctx.db, provider.service_url);
  if (!saved) return;
  try {
    await (await client(ctx)).revokeToken(
      provider.service_url,
      { clientId: saved.client_id, clientSecret: ctx.secrets.decrypt(saved.client_secret_enc) },
      ctx.secrets.decrypt(provider.access_token_enc),
    );
  } catch (err) {
    ctx.logger.warn({ err, providerId: provider.id }, 'revoking a Mastodon token at its server failed; Skein forgets it anyway');
  }
}
