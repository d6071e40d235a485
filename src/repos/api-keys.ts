import { type Insertable, sql } from 'kysely';
import type { AccountRow, ApiKeyRow, ApiKeysTable } from '../db/schema/index.js';
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

/** Sets last_used_at unless it was set after `notAfter` (at most one write per key per interval). */
export async function touchApiKey(db: DbOrTrx, id: string, now: Date, notAfter: Date): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', notAfter)]))
    .execute();
}

/** The key with its account, in one statement (undefined when no key has this hash). */
export async function findApiKeyWithAccount(db: DbOrTrx, keyHash: string): Promise<{ key: ApiKeyRow; account: AccountRow | null } | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .leftJoin('accounts as a', 'a.id', 'k.account_id')
    .selectAll('k')
    .select((eb) => eb.fn.toJson('a').as('account'))
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { account, ...key } = row as ApiKeyRow & { account: (Omit<AccountRow, 'created_at'> & { created_at: string }) | null };
  return { key, account: account ? { ...account, created_at: new Date(account.created_at) } : null };
}

/** Last uses of keys, many at once: each key's last_used_at moves forward only. */
export async function touchApiKeys(db: DbOrTrx, uses: Array<{ keyId: string; at: Date }>): Promise<void> {
  if (uses.length === 0) return;
  const values = sql.join(uses.map((u) => sql`(${u.keyId}, ${u.at}::timestamptz)`));
  await sql`
    UPDATE api_keys AS k SET last_used_at = u.at
    FROM (VALUES ${values}) AS u (id, at)
    WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.at)`.execute(db);
}
