import type { AccountRow } from '../../db/schema/index.js';
import { ForbiddenError } from '../../errors/index.js';
import { type Role, roleAtLeast } from '../../lib/roles.js';
import { roleInTeam, teamRoleOfRow, type WorkspaceRowKind } from '../../repos/memberships.js';
import type { DbOrTrx } from '../../repos/types.js';

/**
 * Where a request names the workspace it acts in: `addressed` is its `teamId` (query, then body;
 * omitted = the caller's active workspace), `team` the `:id` of a team route, and a row kind the
 * row its `:id` (`:threadId` for threads) names. A `provider` route without `:id` acts in the
 * addressed workspace, as its handler does (a `providerId` of another workspace is not found there).
 */
type WorkspaceSource = 'addressed' | 'team' | WorkspaceRowKind;

/** An operation's rule: the least role it needs in the workspace it acts in. */
export interface RoleRule {
  role: Role;
  workspace: WorkspaceSource;
}

/** The request's parts a workspace is read from, as parsed (not yet validated: any shape). */
export interface RequestParts {
  params: unknown;
  query: unknown;
  body: unknown;
}

function field(part: unknown, name: string): unknown {
  return typeof part === 'object' && part !== null ? (part as Record<string, unknown>)[name] : undefined;
}

function stringField(part: unknown, name: string): string | undefined {
  const value = field(part, name);
  // An id holding U+0000 cannot be looked up (PostgreSQL refuses it): the handler answers it.
  return typeof value === 'string' && !value.includes('\u0000') ? value : undefined;
}

/** A team id, null for the personal workspace, undefined when the named row is not there. */
function addressedTeam(account: AccountRow, parts: RequestParts): string | null {
  const named = field(parts.query, 'teamId') ?? field(parts.body, 'teamId');
  if (named === null || named === 'personal') return null;
  return named === undefined ? account.active_team_id : (stringField({ named }, 'named') ?? null);
}

/** The team the request acts in and the caller's role there; undefined when it names no team row it can find. */
async function teamRoleOfRequest(
  db: DbOrTrx,
  account: AccountRow,
  source: WorkspaceSource,
  parts: RequestParts,
): Promise<{ teamId: string | null; role: Role | undefined } | undefined> {
  const inTeam = async (teamId: string | null | undefined) =>
    teamId ? { teamId, role: await roleInTeam(db, teamId, account.id) } : { teamId: null, role: undefined };
  if (source === 'addressed') return inTeam(addressedTeam(account, parts));
  if (source === 'team') return inTeam(stringField(parts.params, 'id'));
  const id = stringField(parts.params, source === 'thread' ? 'threadId' : 'id');
  // A provider route without `:id` acts in the addressed workspace, as its handler does.
  if (id === undefined) return source === 'provider' ? inTeam(addressedTeam(account, parts)) : undefined;
  return teamRoleOfRow(db, source, id, account.id);
}

/**
 * Refuses (403 naming the role needed) a request whose caller's role in the team it acts in is
 * below the rule's. A personal workspace is its owner's alone, and a team the caller is not in
 * or a row that is not there is left to the handler, which answers 404 as it always has: so a
 * stranger learns nothing from a 403.
 */
export async function enforceRole(db: DbOrTrx, account: AccountRow, rule: RoleRule, parts: RequestParts): Promise<void> {
  // Every member is a viewer at least: a viewer's operation costs no lookup (the handler's own
  // access check answers 404 to a non-member), so the reads stay as cheap as they were.
  if (rule.role === 'viewer') return;
  const found = await teamRoleOfRequest(db, account, rule.workspace, parts);
  if (found?.teamId && found.role && !roleAtLeast(found.role, rule.role)) throw new ForbiddenError(rule.role);
}
