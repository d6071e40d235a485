import type { Insertable } from 'kysely';
import type { AccountRow, SessionRow, SessionsTable, SignInLinkRow, SignInLinksTable } from '../db/schema/index.js';
import type { DbOrTrx } from './types.js';

/** Browser sessions and one-time sign-in links; both stored as an HMAC of their token. */

export async function insertSession(db: DbOrTrx, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/**
 * The unexpired session of a token hash with its account, in one statement; a session started
 * before `startedAfter` is over whatever its expiry says (one an earlier version slid forward).
 */
export async function findLiveSession(
  db: DbOrTrx,
  tokenHash: string,
  now: Date,
  startedAfter: Date,
): Promise<{ session: SessionRow; account: AccountRow } | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select([
      's.id as s_id',
      's.account_id as s_account_id',
      's.token_hash as s_token_hash',
      's.created_at as s_created_at',
      's.last_seen_at as s_last_seen_at',
      's.expires_at as s_expires_at',
      'a.id',
      'a.email',
      'a.password_hash',
      'a.timezone',
      'a.active_team_id',
      'a.created_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .where('s.created_at', '>', startedAfter)
    .executeTakeFirst();
  if (!row) return undefined;
  const { s_id, s_account_id, s_token_hash, s_created_at, s_last_seen_at, s_expires_at, ...account } = row;
  return {
    session: { id: s_id, account_id: s_account_id, token_hash: s_token_hash, created_at: s_created_at, last_seen_at: s_last_seen_at, expires_at: s_expires_at },
    account,
  };
}

/** Notes the session's use; a no-op when it was seen after `notAfter` (one write per interval). Its expiry never moves. */
export async function touchSession(db: DbOrTrx, id: string, now: Date, notAfter: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).where('last_seen_at', '<', notAfter).execute();
}

export async function deleteSessionByHash(db: DbOrTrx, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Every session of the account (a password was set), and any expired one while at it. */
export async function deleteSessionsOf(db: DbOrTrx, accountId: string, now: Date): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('account_id', '=', accountId), eb('expires_at', '<=', now)]))
    .execute();
}

/** The account's expired sessions (run at each sign-in, so the table does not grow without bound). */
export async function deleteExpiredSessionsOf(db: DbOrTrx, accountId: string, now: Date): Promise<void> {
  await db.deleteFrom('sessions').where('account_id', '=', accountId).where('expires_at', '<=', now).execute();
}

export async function setPasswordHash(db: DbOrTrx, accountId: string, hash: string): Promise<void> {
  await db.updateTable('accounts').set({ password_hash: hash }).where('id', '=', accountId).execute();
}

export async function insertSignInLink(db: DbOrTrx, row: Insertable<SignInLinksTable>): Promise<void> {
  await db.insertInto('sign_in_links').values(row).execute();
}

/** Every unused sign-in link of the account ends (marked used): a password was set or changed. */
export async function endSignInLinksOf(db: DbOrTrx, accountId: string, now: Date): Promise<void> {
  await db.updateTable('sign_in_links').set({ used_at: now }).where('account_id', '=', accountId).where('used_at', 'is', null).execute();
}

/**
 * Marks the link used and returns it, iff it is unused and unexpired: one conditional update, so
 * two requests racing with the same link cannot both succeed.
 */
export function consumeSignInLink(db: DbOrTrx, tokenHash: string, now: Date): Promise<SignInLinkRow | undefined> {
  return db
    .updateTable('sign_in_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}
