import type { Insertable } from 'kysely';
import type { AccountRow, AccountsTable } from '../db/schema/index.js';
import type { Role } from '../lib/roles.js';
import type { DbOrTrx } from './types.js';

/** Accounts, teams and team memberships. */

/**
 * Inserts the account unless one with its email (case-insensitively) exists, whoever inserted it
 * first: undefined then. Two instances starting at once on an empty database race here.
 */
export function insertAccount(db: DbOrTrx, row: Insertable<AccountsTable>): Promise<AccountRow | undefined> {
  return db
    .insertInto('accounts')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Emails compare case-insensitively. */
export function findAccountByEmail(db: DbOrTrx, email: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

export function findAccount(db: DbOrTrx, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function anyAccountExists(db: DbOrTrx): Promise<boolean> {
  return (await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export function updateAccountSettings(db: DbOrTrx, id: string, patch: { timezone?: string; activeTeamId?: string | null }): Promise<AccountRow> {
  return db
    .updateTable('accounts')
    .set({
      ...(patch.timezone !== undefined ? { timezone: patch.timezone } : {}),
      ...(patch.activeTeamId !== undefined ? { active_team_id: patch.activeTeamId } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function insertTeam(db: DbOrTrx, row: { id: string; name: string; created_at: Date }): Promise<{ id: string; name: string }> {
  return db.insertInto('teams').values(row).returning(['id', 'name']).executeTakeFirstOrThrow();
}

export async function teamExists(db: DbOrTrx, id: string): Promise<boolean> {
  return (await db.selectFrom('teams').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Adds a member; an existing membership is kept as it is. */
export async function addMembership(db: DbOrTrx, teamId: string, accountId: string, role: Role, now: Date): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ team_id: teamId, account_id: accountId, role, created_at: now })
    .onConflict((oc) => oc.columns(['team_id', 'account_id']).doNothing())
    .execute();
}

export function findMembership(db: DbOrTrx, teamId: string, accountId: string) {
  return db
    .selectFrom('memberships')
    .select(['team_id', 'account_id', 'role'])
    .where('team_id', '=', teamId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** The teams an account belongs to, by name. */
export function listTeamsOf(db: DbOrTrx, accountId: string): Promise<Array<{ id: string; name: string; role: Role }>> {
  return db
    .selectFrom('memberships as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select(['t.id', 't.name', 'm.role'])
    .where('m.account_id', '=', accountId)
    .orderBy('t.name')
    .orderBy('t.id')
    .execute();
}
