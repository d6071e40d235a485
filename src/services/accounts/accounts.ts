import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { ConflictError, type FieldFault, NotFoundError, ValidationError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { isValidTimeZone } from '../../lib/time.js';
import { personalWorkspace, teamWorkspace, type Workspace } from '../../lib/workspace.js';
import {
  addMembership,
  findAccount,
  findAccountByEmail,
  findMembership,
  insertAccount,
  insertTeam,
  listTeamsOf,
  updateAccountSettings,
} from '../../repos/accounts.js';
import type { DbOrTrx } from '../../repos/types.js';

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
  const exists = () => new ConflictError('CONFLICT', `An account with email ${email} exists already.`);
  if (await findAccountByEmail(ctx.db, email)) throw exists();
  const inserted = await insertAccount(ctx.db, {
    id: newId(),
    email,
    timezone: input.timezone,
    password_hash: input.passwordHash ?? null,
    active_team_id: null,
    created_at: ctx.clock.now(),
  });
  // Created meanwhile by a concurrent call (another instance's first start).
  if (!inserted) throw exists();
  return inserted;
}

export async function requireAccountByEmail(db: DbOrTrx, email: string): Promise<AccountRow> {
  const account = await findAccountByEmail(db, email);
  if (!account) throw new NotFoundError(`Account ${email}`);
  return account;
}

async function getAccount(db: DbOrTrx, id: string): Promise<AccountRow> {
  const row = await findAccount(db, id);
  if (!row) throw new NotFoundError('Account');
  return row;
}

/** The content rules of Update Account, over what is well-formed in `patch` (it may have shape faults too). */
export function accountPatchFaults(patch: unknown): FieldFault[] {
  if (typeof patch !== 'object' || patch === null) return [];
  const { timezone } = patch as { timezone?: unknown };
  return typeof timezone === 'string' && !isValidTimeZone(timezone) ? [{ path: 'timezone', message: 'must be an IANA time zone such as Europe/Berlin' }] : [];
}

export async function updateAccount(ctx: AppContext, account: AccountRow, patch: { timezone?: string; activeTeamId?: string | null }): Promise<AccountRow> {
  const faults = accountPatchFaults(patch);
  if (faults.length) throw new ValidationError(faults);
  if (typeof patch.activeTeamId === 'string') await requireMembership(ctx.db, account.id, patch.activeTeamId);
  // Nothing to change (`{}`, or unknown fields only): the account as it is (docs/api.md).
  if (patch.timezone === undefined && patch.activeTeamId === undefined) return getAccount(ctx.db, account.id);
  const updated = await updateAccountSettings(ctx.db, account.id, patch);
  // The key cache holds accounts: every instance reads this one afresh at its next request.
  await ctx.apiKeys.announceChange();
  return updated;
}

export async function createTeam(ctx: AppContext, owner: AccountRow, name: string): Promise<{ id: string; name: string }> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new ValidationError({ path: 'name', message: 'must be 1 to 100 characters' });
  return ctx.db.transaction().execute(async (trx) => {
    const team = await insertTeam(trx, { id: newId(), name: trimmed, created_at: ctx.clock.now() });
    await addMembership(trx, team.id, owner.id, 'owner', ctx.clock.now());
    return team;
  });
}

/** The teams of the account (the web app's workspace picker). */
export function listTeams(db: DbOrTrx, account: AccountRow) {
  return listTeamsOf(db, account.id);
}

async function isMember(db: DbOrTrx, accountId: string, teamId: string): Promise<boolean> {
  return (await findMembership(db, teamId, accountId)) !== undefined;
}

/** A team the caller is not a member of is reported as not found: its existence stays private. */
async function requireMembership(db: DbOrTrx, accountId: string, teamId: string): Promise<void> {
  if (!(await isMember(db, accountId, teamId))) throw new NotFoundError(`Team ${teamId}`);
}

/**
 * The workspace a request addresses: `teamId` omitted → the account's active one;
 * `personal` → the personal one; otherwise a team the caller belongs to.
 */
export async function resolveWorkspace(db: DbOrTrx, account: AccountRow, teamId: string | undefined): Promise<Workspace> {
  const workspace = addressedWorkspace(account, teamId);
  if (workspace.teamId) await requireMembership(db, account.id, workspace.teamId);
  return workspace;
}

/**
 * The workspace a request addresses, before the membership check (the caller makes it, as
 * resolveWorkspace does, or reads it with other rows in one statement as Create Post does).
 */
export function addressedWorkspace(account: AccountRow, teamId: string | undefined): Workspace {
  if (teamId === 'personal') return personalWorkspace(account.id);
  const target = teamId ?? account.active_team_id;
  return target ? teamWorkspace(target) : personalWorkspace(account.id);
}

/** Whether `account` may see and change rows of the workspace (owner, or team member). */
export async function canAccess(db: DbOrTrx, accountId: string, row: { account_id: string; team_id: string | null }): Promise<boolean> {
  return row.team_id ? isMember(db, accountId, row.team_id) : row.account_id === accountId;
}
