import type { Insertable } from 'kysely';
import type { ConnectPickRow, ConnectPicksTable } from '../db/schema/index.js';
import type { DbOrTrx } from './types.js';

/** The accounts a sign-in offered, waiting for the user's pick (services/providers/connect/picks.ts). */

/** Saves a pick; picks expired by `now` are removed on the way. */
export async function insertConnectPick(db: DbOrTrx, row: Insertable<ConnectPicksTable>, now: Date): Promise<void> {
  await db.deleteFrom('connect_picks').where('expires_at', '<', now).execute();
  await db.insertInto('connect_picks').values(row).execute();
}

/** A live pick of the account; undefined when unknown, taken, expired or another account's. */
export function findConnectPick(db: DbOrTrx, id: string, accountId: string, now: Date): Promise<ConnectPickRow | undefined> {
  return db.selectFrom('connect_picks').selectAll().where('id', '=', id).where('account_id', '=', accountId).where('expires_at', '>=', now).executeTakeFirst();
}

/** Takes the pick (deleting it: it is used once); undefined when another request took it first. */
export function takeConnectPick(db: DbOrTrx, id: string): Promise<ConnectPickRow | undefined> {
  return db.deleteFrom('connect_picks').where('id', '=', id).returningAll().executeTakeFirst();
}
