import { sql } from 'kysely';
import type { Role } from '../lib/roles.js';
import type { DbOrTrx } from './types.js';

/** The tables whose rows name their workspace by `team_id` (null: the personal one), by id. */
export type WorkspaceRowKind = 'thread' | 'provider' | 'webhook' | 'media' | 'timeSlot' | 'reviewLink';

/**
 * The team of the row `id` of `kind` and `accountId`'s role there, in one indexed lookup by
 * primary key: undefined when there is no such row, `teamId` null for a personal workspace's row,
 * `role` undefined when the account is not in the team.
 */
export async function teamRoleOfRow(
  db: DbOrTrx,
  kind: WorkspaceRowKind,
  id: string,
  accountId: string,
): Promise<{ teamId: string | null; role: Role | undefined } | undefined> {
  const table = (
    { thread: 'threads', provider: 'providers', webhook: 'webhooks', media: 'media_files', timeSlot: 'time_slots', reviewLink: 'review_links' } as const
  )[kind];
  // A time slot's workspace is its provider's.
  const from = kind === 'timeSlot' ? sql`time_slots AS k JOIN providers AS r ON r.id = k.provider_id` : sql`${sql.table(table)} AS r`;
  const key = kind === 'timeSlot' ? sql`k.id` : sql`r.id`;
  const { rows } = await sql<{ team_id: string | null; role: Role | null }>`
    SELECT r.team_id, m.role FROM ${from}
    LEFT JOIN memberships AS m ON m.team_id = r.team_id AND m.account_id = ${accountId}
    WHERE ${key} = ${id}`.execute(db);
  const row = rows[0];
  return row && { teamId: row.team_id, role: row.role ?? undefined };
}

export async function roleInTeam(db: DbOrTrx, teamId: string, accountId: string): Promise<Role | undefined> {
  const row = await db.selectFrom('memberships').select('role').where('team_id', '=', teamId).where('account_id', '=', accountId).executeTakeFirst();
  return row?.role;
}

export function listMembers(db: DbOrTrx, teamId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['a.id as accountId', 'a.email', 'm.role', 'm.created_at as createdAt'])
    .where('m.team_id', '=', teamId)
    .orderBy('a.email')
    .execute();
}

export function setMemberRole(db: DbOrTrx, teamId: string, accountId: string, role: Role) {
  return db
    .updateTable('memberships')
    .set({ role })
    .where('team_id', '=', teamId)
    .where('account_id', '=', accountId)
    .returning(['account_id', 'role'])
    .executeTakeFirst();
}

export async function removeMember(db: DbOrTrx, teamId: string, accountId: string): Promise<boolean> {
  const result = await db.deleteFrom('memberships').where('team_id', '=', teamId).where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countOwners(db: DbOrTrx, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The team's members among `emails` (matched without regard to case), each once. */
export function membersByEmail(db: DbOrTrx, teamId: string, emails: readonly string[]): Promise<Array<{ id: string; email: string }>> {
  if (emails.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('memberships as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['a.id', 'a.email'])
    .where('m.team_id', '=', teamId)
    .where(
      (eb) => eb.fn('lower', ['a.email']),
      'in',
      emails.map((e) => e.toLowerCase()),
    )
    .orderBy('a.email')
    .execute();
}
