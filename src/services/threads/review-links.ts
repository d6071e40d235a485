import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { type FieldFault, ForbiddenError, NotFoundError, ValidationError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { roleAtLeast } from '../../lib/roles.js';
import { teamWorkspace } from '../../lib/workspace.js';
import { roleInTeam } from '../../repos/memberships.js';
import { listProvidersInWorkspace } from '../../repos/providers.js';
import { deleteReviewLink, findReviewLink, insertReviewLink, listReviewLinks, type ReviewLinkRow } from '../../repos/review-links.js';

/**
 * Review links (decisions.md "Teams"): an admin lets a client without an account see, and with
 * `canApprove` approve, reject and comment on, the team's threads in a range. The token is 32
 * random bytes (256 bits, base64url) shown once in the link's url; only its SHA-256 is stored,
 * and a page's request finds the link by that hash (docs/security.md "Review links").
 */
const MAX_DAYS = 30;
const DAY_MS = 86_400_000;

export interface NewReviewLinkInput {
  teamId: string;
  from: string;
  to: string;
  providerIds?: string[] | null;
  canApprove: boolean;
  expiresAt: string;
}

export interface ReviewLinkView {
  id: string;
  teamId: string;
  from: string;
  to: string;
  providerIds: string[] | null;
  canApprove: boolean;
  expiresAt: string;
  createdAt: string;
  /** Whether it has expired: it opens nothing then. */
  expired: boolean;
}

export function hashReviewToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function linkView(row: ReviewLinkRow, now: Date): ReviewLinkView {
  return {
    id: row.id,
    teamId: row.team_id,
    from: row.range_from.toISOString(),
    to: row.range_to.toISOString(),
    providerIds: row.provider_ids,
    canApprove: row.can_approve,
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    expired: row.expires_at <= now,
  };
}

/** The faults of a new link's times (the schema checked their shape): the range's order and the expiry's window. */
export function reviewLinkTimeFaults(body: unknown, now: Date): FieldFault[] {
  const { from, to, expiresAt } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const time = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : Number.NaN);
  const faults: FieldFault[] = [];
  if (time(from) >= time(to)) faults.push({ path: 'to', message: 'must be after from' });
  const expires = time(expiresAt);
  if (expires <= now.getTime()) faults.push({ path: 'expiresAt', message: 'must be in the future' });
  else if (expires > now.getTime() + MAX_DAYS * DAY_MS) faults.push({ path: 'expiresAt', message: `must be at most ${MAX_DAYS} days ahead` });
  return faults;
}

/** The caller must be an admin of the team (a team they are not in is not found: its existence stays private). */
async function requireAdmin(ctx: AppContext, caller: AccountRow, teamId: string): Promise<void> {
  const role = await roleInTeam(ctx.db, teamId, caller.id);
  if (!role) throw new NotFoundError(`Team ${teamId}`);
  if (!roleAtLeast(role, 'admin')) throw new ForbiddenError('admin');
}

async function providerFaults(ctx: AppContext, teamId: string, providerIds: string[]): Promise<FieldFault[]> {
  if (providerIds.length === 0) return [{ path: 'providerIds', message: 'must name at least one account (or be null: every account)' }];
  const own = new Set((await listProvidersInWorkspace(ctx.db, teamWorkspace(teamId))).map((p) => p.id));
  return providerIds.flatMap((id, i) => (own.has(id) ? [] : [{ path: `providerIds.${i}`, message: `${id} is not an account of this team` }]));
}

export async function createReviewLink(ctx: AppContext, caller: AccountRow, input: NewReviewLinkInput): Promise<ReviewLinkView & { url: string }> {
  await requireAdmin(ctx, caller, input.teamId);
  const now = ctx.clock.now();
  const providerIds = input.providerIds ?? null;
  const faults = [...reviewLinkTimeFaults(input, now), ...(providerIds ? await providerFaults(ctx, input.teamId, providerIds) : [])];
  if (faults.length) throw new ValidationError(faults);
  const token = randomBytes(32).toString('base64url');
  const row = await insertReviewLink(
    ctx.db,
    {
      id: newId(now.getTime()),
      teamId: input.teamId,
      tokenHash: hashReviewToken(token),
      from: new Date(input.from),
      to: new Date(input.to),
      providerIds: providerIds && [...new Set(providerIds)],
      canApprove: input.canApprove,
      expiresAt: new Date(input.expiresAt),
      createdBy: caller.id,
    },
    now,
  );
  return { ...linkView(row, now), url: `${ctx.config.http.publicUrl.replace(/\/+$/, '')}/review/${token}` };
}

/** A team's links, newest first; their tokens are not kept, so never shown again. */
export async function teamReviewLinks(ctx: AppContext, caller: AccountRow, teamId: string | null): Promise<ReviewLinkView[]> {
  if (!teamId) throw new ValidationError({ path: 'teamId', message: 'review links belong to a team: name one' });
  await requireAdmin(ctx, caller, teamId);
  const now = ctx.clock.now();
  return (await listReviewLinks(ctx.db, teamId)).map((row) => linkView(row, now));
}

/** Revokes a link at once: it is deleted, so its next request finds nothing. */
export async function revokeReviewLink(ctx: AppContext, caller: AccountRow, id: string): Promise<void> {
  const row = await findReviewLink(ctx.db, id);
  if (!row) throw new NotFoundError(`Review link ${id}`);
  await requireAdmin(ctx, caller, row.team_id).catch((err) => {
    throw err instanceof NotFoundError ? new NotFoundError(`Review link ${id}`) : err;
  });
  await deleteReviewLink(ctx.db, id);
}
