import type { Transaction } from 'kysely';
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

/** Counts the rows a claim took over from an expired lease, and strips the flag from them. */
export function withoutTakeoverFlag<Row>(rows: Array<Row & { taken_over: boolean }>): { rows: Row[]; takeovers: number } {
  let takeovers = 0;
  const plain = rows.map(({ taken_over, ...row }) => {
    if (taken_over) takeovers++;
    return row as unknown as Row;
  });
  return { rows: plain, takeovers };
}
