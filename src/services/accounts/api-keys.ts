import type { AppContext } from '../../context.js';
import type { AccountRow, ApiKeyRow } from '../../db/schema/index.js';
import { LimitReachedError, NotFoundError, UnauthenticatedError, ValidationError } from '../../errors/index.js';
import { API_KEY_PATTERN, generateApiKey, SecretBox } from '../../lib/crypto.js';
import { newId } from '../../lib/ids.js';
import { iso } from '../../lib/time.js';
import * as apiKeysRepo from '../../repos/api-keys.js';

/** Active API keys one account may have. */
export const MAX_API_KEYS_PER_ACCOUNT = 25;

export interface ApiKeyView {
  id: string;
  name: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const LAST_USED_RESOLUTION_MS = 60_000;

function view(row: ApiKeyRow): ApiKeyView {
  return { id: row.id, name: row.name, last4: row.last4, createdAt: iso(row.created_at), lastUsedAt: iso(row.last_used_at) };
}

export async function createApiKey(ctx: AppContext, account: AccountRow, name = 'default'): Promise<ApiKeyView & { key: string }> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new ValidationError({ path: 'name', message: 'must be 1 to 100 characters' });
  if ((await apiKeysRepo.listActiveApiKeys(ctx.db, account.id)).length >= MAX_API_KEYS_PER_ACCOUNT)
    throw new LimitReachedError(`An account has at most ${MAX_API_KEYS_PER_ACCOUNT} keys; revoke one first.`);
  const key = generateApiKey();
  const row = await apiKeysRepo.insertApiKey(ctx.db, {
    id: newId(),
    account_id: account.id,
    name: trimmed,
    key_hash: ctx.secrets.hashApiKey(key),
    last4: key.slice(-4),
    created_at: ctx.clock.now(),
    last_used_at: null,
    revoked_at: null,
  });
  return { ...view(row), key };
}

export async function listApiKeys(ctx: AppContext, account: AccountRow): Promise<ApiKeyView[]> {
  return (await apiKeysRepo.listActiveApiKeys(ctx.db, account.id)).map(view);
}

export async function revokeApiKey(ctx: AppContext, account: AccountRow, id: string): Promise<void> {
  if (!(await apiKeysRepo.revokeApiKey(ctx.db, account.id, id, ctx.clock.now()))) throw new NotFoundError(`API key ${id}`);
  await ctx.apiKeys.announceChange();
}

/**
 * The account behind a presented key. A key seen lately is answered from the key cache (no
 * round trip); a revocation or an account change on any instance clears every instance's cache
 * at once, so it is effective at the next request everywhere. Otherwise the key and its account
 * are read in one statement. Unknown, malformed and revoked keys get one and the same answer.
 */
export async function authenticate(ctx: AppContext, presented: string | undefined): Promise<{ account: AccountRow; keyId: string }> {
  if (!presented || !API_KEY_PATTERN.test(presented)) throw new UnauthenticatedError();
  const hash = ctx.apiKeys.hashOf(presented, (key) => ctx.secrets.hashApiKey(key));
  const now = ctx.clock.now();
  const cached = await ctx.apiKeys.lookupSettled(hash, now.getTime());
  if (cached) {
    ctx.apiKeys.noteUse(cached.keyId, now);
    return { account: cached.account, keyId: cached.keyId };
  }
  const generation = ctx.apiKeys.generation;
  const found = await apiKeysRepo.findApiKeyWithAccount(ctx.db, hash);
  if (!found || found.key.revoked_at !== null || !SecretBox.sameHash(found.key.key_hash, hash)) throw new UnauthenticatedError();
  const { key, account } = found;
  if (!account) throw new UnauthenticatedError();
  await touchLastUsed(ctx, key);
  ctx.apiKeys.store(hash, account, key.id, generation, now.getTime(), presented);
  return { account, keyId: key.id };
}

/** At most one write per key per minute: the conditional update is a no-op within the minute. */
async function touchLastUsed(ctx: AppContext, key: ApiKeyRow): Promise<void> {
  const now = ctx.clock.now();
  if (key.last_used_at && now.getTime() - key.last_used_at.getTime() < LAST_USED_RESOLUTION_MS) return;
  const cutoff = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await apiKeysRepo.touchApiKey(ctx.db, key.id, now, cutoff);
}
