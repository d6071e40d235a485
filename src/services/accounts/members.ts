import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors/index.js';
import type { Role } from '../../lib/roles.js';
import { addMembership, findAccountByEmail, teamExists } from '../../repos/accounts.js';
import { countOwners, listMembers, removeMember, roleInTeam, setMemberRole } from '../../repos/memberships.js';

/**
 * A team's members (decisions.md "Teams"). An admin manages the members below admin; only an
 * owner gives or takes the admin and owner roles (which is how ownership is transferred), and a
 * team always keeps an owner.
 */
export interface MemberView {
  accountId: string;
  email: string;
  role: Role;
  createdAt: string;
}

const RESERVED_TO_OWNER: ReadonlySet<Role> = new Set(['owner', 'admin']);

/** The caller's role in the team; a team they are not in is not found (its existence stays private). */
async function callerRole(ctx: AppContext, caller: AccountRow, teamId: string): Promise<Role> {
  const role = await roleInTeam(ctx.db, teamId, caller.id);
  if (!role) throw new NotFoundError(`Team ${teamId}`);
  return role;
}

function requireOwnerFor(callerRole: Role, ...roles: Array<Role | undefined>): void {
  if (callerRole !== 'owner' && roles.some((role) => role !== undefined && RESERVED_TO_OWNER.has(role)))
    throw new ForbiddenError('owner', 'Only an owner gives or changes the admin and owner roles.');
}

async function membersOf(ctx: AppContext, teamId: string): Promise<MemberView[]> {
  const rows = await listMembers(ctx.db, teamId);
  return rows.map((row) => ({ accountId: row.accountId, email: row.email, role: row.role, createdAt: row.createdAt.toISOString() }));
}

export async function listTeamMembers(ctx: AppContext, caller: AccountRow, teamId: string): Promise<MemberView[]> {
  await callerRole(ctx, caller, teamId);
  return membersOf(ctx, teamId);
}

async function memberView(ctx: AppContext, teamId: string, accountId: string): Promise<MemberView> {
  const member = (await membersOf(ctx, teamId)).find((m) => m.accountId === accountId);
  if (!member) throw new NotFoundError(`Member ${accountId}`);
  return member;
}

export async function addTeamMemberByEmail(ctx: AppContext, caller: AccountRow, teamId: string, input: { email: string; role: Role }): Promise<MemberView> {
  requireOwnerFor(await callerRole(ctx, caller, teamId), input.role);
  const account = await findAccountByEmail(ctx.db, input.email);
  if (!account) throw new NotFoundError(`Account ${input.email}`);
  if (await roleInTeam(ctx.db, teamId, account.id))
    throw new ConflictError('CONFLICT', `${account.email} is a member of the team already; change their role instead.`);
  await addMembership(ctx.db, teamId, account.id, input.role, ctx.clock.now());
  return memberView(ctx, teamId, account.id);
}

/** Changes a member's role or removes them, in one transaction that keeps the team an owner. */
async function changeMember(ctx: AppContext, caller: AccountRow, teamId: string, accountId: string, role: Role | null): Promise<void> {
  const own = await callerRole(ctx, caller, teamId);
  await ctx.db.transaction().execute(async (trx) => {
    // Locks the team's owners so two demotions at once cannot leave it without one.
    await trx.selectFrom('memberships').select('account_id').where('team_id', '=', teamId).where('role', '=', 'owner').forUpdate().execute();
    const current = await roleInTeam(trx, teamId, accountId);
    if (!current) throw new NotFoundError(`Member ${accountId}`);
    requireOwnerFor(own, current, role ?? undefined);
    if (current === 'owner' && role !== 'owner' && (await countOwners(trx, teamId)) === 1) {
      throw new ConflictError('CONFLICT', 'A team keeps at least one owner: make another member owner first.');
    }
    if (role === null) await removeMember(trx, teamId, accountId);
    else await setMemberRole(trx, teamId, accountId, role);
  });
}

export async function changeMemberRole(ctx: AppContext, caller: AccountRow, teamId: string, accountId: string, role: Role): Promise<MemberView> {
  await changeMember(ctx, caller, teamId, accountId, role);
  return memberView(ctx, teamId, accountId);
}

export async function removeTeamMember(ctx: AppContext, caller: AccountRow, teamId: string, accountId: string): Promise<void> {
  await changeMember(ctx, caller, teamId, accountId, null);
}

/** The CLI's `team add-member` (the server's operator): adds the account, or sets its role. */
export async function setTeamMember(
  ctx: AppContext,
  teamId: string,
  account: AccountRow,
  role: Role,
): Promise<{ teamId: string; accountId: string; role: Role }> {
  if (!(await teamExists(ctx.db, teamId))) throw new NotFoundError(`Team ${teamId}`);
  await addMembership(ctx.db, teamId, account.id, role, ctx.clock.now());
  await setMemberRole(ctx.db, teamId, account.id, role);
  return { teamId, accountId: account.id, role };
}
