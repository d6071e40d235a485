import type { Insertable } from 'kysely';
import type { ApiKeyRow, ApiKeysTable } from '../db/schema/index.js';
import type { DbOrTrx } from './types.js';

/** API keys, stored as an HMAC of the key; revoked keys stay (revoked_at set). */

export function insertApiKey(db: DbOrTrx, row: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

export function listActiveApiKeys(db: DbOrTrx, accountId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** False when the account has no such unrevoked key. */
export async function revokeApiKey(db: DbOrTrx, accountId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function findApiKeyByHash(db: DbOrTrx, keyHash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

/** Sets last_used_at unless it was set after `notAfter` (at most one write per key per interval). */
export async function touchApiKey(db: DbOrTrx, id: string, now: Date, notAfter: Date): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', notAfter)]))
    .execute();
}
