import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { AccountRow } from '../db/schema/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors/index.js';
import { newId } from '../lib/ids.js';
import { isValidTimeZone } from '../lib/time.js';
import { personalWorkspace, teamWorkspace, type Workspace } from '../lib/workspace.js';
import type { DbOrTrx } from '../repos/threads.js';

export interface AccountView {
  id: string;
  email: string;
  timezone: string;
  activeTeamId: string | null;
}

export function accountView(row: AccountRow): AccountView {
  return { id: row.id, email: row.email, timezone: row.timezone, activeTeamId: row.active_team_id };
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export async function createAccount(ctx: AppContext, input: { email: string; timezone: string; passwordHash?: string | null }): Promise<AccountRow> {
  const email = input.email.trim();
  if (!EMAIL.test(email) || email.length > 254) throw new ValidationError({ path: 'email', message: 'must be an email address' });
  if (!isValidTimeZone(input.timezone)) throw new ValidationError({ path: 'timezone', message: 'must be an IANA time zone such as Europe/Berlin' });
  const existing = await findAccountByEmail(ctx.db, email);
  if (existing) throw new ConflictError('CONFLICT', `An account with email ${email} exists already.`);
  return ctx.db
    .insertInto('accounts')
    .values({ id: newId(), email, timezone: input.timezone, password_hash: input.passwordHash ?? null, active_team_id: null, created_at: ctx.clock.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findAccountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

export async function requireAccountByEmail(db: Db, email: string): Promise<AccountRow> {
  const account = await findAccountByEmail(db, email);
  if (!account) throw new NotFoundError(`Account ${email}`);
  return account;
}

export async function getAccount(db: Db, id: string): Promise<AccountRow> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError('Account');
  return row;
}

export async function updateAccount(ctx: AppContext, account: AccountRow, patch: { timezone?: string; activeTeamId?: string | null }): Promise<AccountRow> {
  const faults = [];
  if (patch.timezone !== undefined && !isValidTimeZone(patch.timezone))
    faults.push({ path: 'timezone', message: 'must be an IANA time zone such as Europe/Berlin' });
  if (faults.length) throw new ValidationError(faults);
  if (typeof patch.activeTeamId === 'string') await requireMembership(ctx.db, account.id, patch.activeTeamId);
  return ctx.db
    .updateTable('accounts')
    .set({
      ...(patch.timezone !== undefined ? { timezone: patch.timezone } : {}),
      ...(patch.activeTeamId !== undefined ? { active_team_id: patch.activeTeamId } : {}),
    })
    .where('id', '=', account.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function createTeam(ctx: AppContext, owner: AccountRow, name: string): Promise<{ id: string; name: string }> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new ValidationError({ path: 'name', message: 'must be 1 to 100 characters' });
  return ctx.db.transaction().execute(async (trx) => {
    const team = await trx
      .insertInto('teams')
      .values({ id: newId(), name: trimmed, created_at: ctx.clock.now() })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    await trx.insertInto('memberships').values({ team_id: team.id, account_id: owner.id, role: 'owner', created_at: ctx.clock.now() }).execute();
    return team;
  });
}

export async function addTeamMember(ctx: AppContext, teamId: string, account: AccountRow, role: 'owner' | 'member' = 'member') {
  const team = await ctx.db.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst();
  if (!team) throw new NotFoundError(`Team ${teamId}`);
  await ctx.db
    .insertInto('memberships')
    .values({ team_id: teamId, account_id: account.id, role, created_at: ctx.clock.now() })
    .onConflict((oc) => oc.columns(['team_id', 'account_id']).doNothing())
    .execute();
  const row = await ctx.db
    .selectFrom('memberships')
    .select(['team_id', 'account_id', 'role'])
    .where('team_id', '=', teamId)
    .where('account_id', '=', account.id)
    .executeTakeFirstOrThrow();
  return { teamId: row.team_id, accountId: row.account_id, role: row.role };
}

export async function isMember(db: DbOrTrx, accountId: string, teamId: string): Promise<boolean> {
  const row = await db.selectFrom('memberships').select('team_id').where('team_id', '=', teamId).where('account_id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}

/** A team the caller is not a member of is reported as not found: its existence stays private. */
export async function requireMembership(db: Db, accountId: string, teamId: string): Promise<void> {
  if (!(await isMember(db, accountId, teamId))) throw new NotFoundError(`Team ${teamId}`);
}

/**
 * The workspace a request addresses: `teamId` omitted → the account's active one;
 * `personal` → the personal one; otherwise a team the caller belongs to.
 */
export async function resolveWorkspace(db: Db, account: AccountRow, teamId: string | undefined): Promise<Workspace> {
  if (teamId === 'personal') return personalWorkspace(account.id);
  const target = teamId ?? account.active_team_id;
  if (!target) return personalWorkspace(account.id);
  await requireMembership(db, account.id, target);
  return teamWorkspace(target);
}

/** Whether `account` may see and change rows of the workspace (owner, or team member). */
export async function canAccess(db: DbOrTrx, accountId: string, row: { account_id: string; team_id: string | null }): Promise<boolean> {
  return row.team_id ? isMember(db, accountId, row.team_id) : row.account_id === accountId;
}
