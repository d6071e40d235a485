import type { Insertable } from 'kysely';
import type { OAuthStateRow, OAuthStatesTable } from '../db/schema/index.js';
import type { DbOrTrx } from './types.js';

/** Single-use OAuth `state` values of a connect flow in progress. */

/** Saves a new state; states expired by `now` are removed on the way. */
export async function insertOAuthState(db: DbOrTrx, row: Insertable<OAuthStatesTable>, now: Date): Promise<void> {
  await db.deleteFrom('oauth_states').where('expires_at', '<', now).execute();
  await db.insertInto('oauth_states').values(row).execute();
}

/** Takes a state (deleting it: it can be used once); undefined when unknown or used already. */
export function takeOAuthState(db: DbOrTrx, state: string): Promise<OAuthStateRow | undefined> {
  return db.deleteFrom('oauth_states').where('state', '=', state).returningAll().executeTakeFirst();
}
