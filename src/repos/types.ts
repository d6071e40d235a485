import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema/index.js';
import type { Workspace } from '../lib/workspace.js';

/** Every repo function takes the database or the caller's transaction first: services own transactions. */
export type DbOrTrx = Db | Transaction<Database>;

/** Restricts a query on a table with `account_id` and `team_id` to one workspace. */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's where() overloads differ per builder; this helper only chains one call.
export function inWorkspace<QB extends { where: any }>(qb: QB, workspace: Workspace): QB {
  return workspace.teamId ? qb.where('team_id', '=', workspace.teamId) : qb.where('team_id', 'is', null).where('account_id', '=', workspace.ownerAccountId);
}

/** `alias`'s rows of the workspace (a table with account_id and team_id), as an SQL condition. */
export function ofWorkspace(alias: string, workspace: Workspace): RawBuilder<unknown> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return workspace.teamId
    ? sql`${col('team_id')} = ${workspace.teamId}::text`
    : sql`${col('team_id')} IS NULL AND ${col('account_id')} = ${workspace.ownerAccountId}::text`;
}

/**
 * A multi-row INSERT's rows in slices of at most `rows`: PostgreSQL takes at most 65,535
 * parameters per statement, and a wide row of 20 columns reaches that at 3,276 rows.
 */
export function inChunks<T>(all: T[], rows = 2_000): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < all.length; i += rows) chunks.push(all.slice(i, i + rows));
  return chunks;
}
