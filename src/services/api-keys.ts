import type { AppContext } from '../context.js';
import type { AccountRow, ApiKeyRow } from '../db/schema/index.js';
import { NotFoundError, UnauthenticatedError, ValidationError } from '../errors/index.js';
import { API_KEY_PATTERN, generateApiKey, SecretBox } from '../lib/crypto.js';
import { newId } from '../lib/ids.js';
import { iso } from '../lib/time.js';

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
  const key = generateApiKey();
  const row = await ctx.db
    .insertInto('api_keys')
    .values({
      id: newId(),
      account_id: account.id,
      name: trimmed,
      key_hash: ctx.secrets.hashApiKey(key),
      last4: key.slice(-4),
      created_at: ctx.clock.now(),
      last_used_at: null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...view(row), key };
}

export async function listApiKeys(ctx: AppContext, account: AccountRow): Promise<ApiKeyView[]> {
  const rows = await ctx.db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', account.id)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(view);
}

export async function revokeApiKey(ctx: AppContext, account: AccountRow, id: string): Promise<void> {
  const result = await ctx.db
    .updateTable('api_keys')
    .set({ revoked_at: ctx.clock.now() })
    .where('id', '=', id)
    .where('account_id', '=', account.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new NotFoundError(`API key ${id}`);
}

/**
 * The account behind a presented key. Every request reads the key row, so a revocation is
 * effective on the next request on every instance. Unknown, malformed and revoked keys get one
 * and the same answer.
 */
export async function authenticate(ctx: AppContext, presented: string | undefined): Promise<{ account: AccountRow; keyId: string }> {
  if (!presented || !API_KEY_PATTERN.test(presented)) throw new UnauthenticatedError();
  const hash = ctx.secrets.hashApiKey(presented);
  const key = await ctx.db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
  if (!key || key.revoked_at !== null || !SecretBox.sameHash(key.key_hash, hash)) throw new UnauthenticatedError();
  const account = await ctx.db.selectFrom('accounts').selectAll().where('id', '=', key.account_id).executeTakeFirst();
  if (!account) throw new UnauthenticatedError();
  await touchLastUsed(ctx, key);
  return { account, keyId: key.id };
}

/** At most one write per key per minute: the conditional update is a no-op within the minute. */
async function touchLastUsed(ctx: AppContext, key: ApiKeyRow): Promise<void> {
  const now = ctx.clock.now();
  if (key.last_used_at && now.getTime() - key.last_used_at.getTime() < LAST_USED_RESOLUTION_MS) return;
  const cutoff = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await ctx.db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', key.id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', cutoff)]))
    .execute();
}
