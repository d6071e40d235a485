import type { AppContext } from '../../context.js';
import type { ApprovalState, PublishStatus } from '../../db/schema/index.js';
import { NotFoundError, RateLimitedError, ReviewReadOnlyError, ValidationError } from '../../errors/index.js';
import { iso } from '../../lib/time.js';
import { listCommentsOfThreads } from '../../repos/comments.js';
import { findLiveReviewLink } from '../../repos/review-links.js';
import { findThread, listReviewThreadAggregates, type ReviewScope } from '../../repos/threads.js';
import { recordDecision } from './approvals.js';
import { addCommentAs, type CommentView, commentView } from './comments.js';
import { hashReviewToken } from './review-links.js';
import type { Actor } from './thread-access.js';

/**
 * The page a review link opens, without sign-in (decisions.md "Teams"): the link's threads as
 * each network will show them, and, with `canApprove`, a reviewer's approval, rejection or comment
 * under the name they give. Every request finds the link by its token's hash; an expired or
 * revoked one (deleted) is "not found", with nothing else said.
 */

interface ReviewPost {
  id: string;
  text: string;
  contentWarning: string | null;
  spoilerRanges: Array<{ offset: number; length: number }>;
  media: Array<{ url: string; altText: string | null; type: 'IMAGE' | 'VIDEO' }>;
}

interface ReviewThread {
  threadId: string;
  scheduledAt: string | null;
  status: PublishStatus;
  account: { network: string; username: string };
  approval: { state: ApprovalState; by: string | null; at: string | null; note: string | null } | null;
  posts: ReviewPost[];
  comments: CommentView[];
}

export interface ReviewPage {
  team: string;
  from: string;
  to: string;
  expiresAt: string;
  canApprove: boolean;
  threads: ReviewThread[];
}

interface OpenLink {
  scope: ReviewScope;
  canApprove: boolean;
  row: { team_name: string; range_from: Date; range_to: Date; expires_at: Date };
}

/** Counts a request of a review page for its client's address; refuses (429, Retry-After) past the allowance. */
export async function countReviewRequest(ctx: AppContext, ip: string): Promise<void> {
  const { perIp, windowMs } = ctx.config.review;
  const result = await ctx.rateLimits.hit([{ key: `review-ip:${ip}`, limit: perIp }], ctx.clock.now().getTime(), windowMs);
  if (!result.allowed) throw new RateLimitedError(result.retryAfterSeconds ?? 1);
}

async function openLink(ctx: AppContext, token: string): Promise<OpenLink> {
  const row = await findLiveReviewLink(ctx.db, hashReviewToken(token), ctx.clock.now());
  if (!row) throw new NotFoundError('Review link');
  return { scope: { teamId: row.team_id, from: row.range_from, to: row.range_to, providerIds: row.provider_ids }, canApprove: row.can_approve, row };
}

export async function reviewPage(ctx: AppContext, token: string): Promise<ReviewPage> {
  const link = await openLink(ctx, token);
  const aggregates = await listReviewThreadAggregates(ctx.db, link.scope);
  const comments = await listCommentsOfThreads(
    ctx.db,
    aggregates.map((a) => a.thread.id),
  );
  return {
    team: link.row.team_name,
    from: link.row.range_from.toISOString(),
    to: link.row.range_to.toISOString(),
    expiresAt: link.row.expires_at.toISOString(),
    canApprove: link.canApprove,
    threads: aggregates.map(({ thread, providerKind, username, posts }) => ({
      threadId: thread.id,
      scheduledAt: iso(thread.scheduled_at),
      status: thread.status,
      account: { network: providerKind, username },
      approval: thread.approval_state && { state: thread.approval_state, by: thread.approval_by, at: iso(thread.approval_at), note: thread.approval_note },
      posts: posts.map(({ post, media, spoilerRanges }) => ({
        id: post.id,
        text: post.content,
        contentWarning: post.content_warning,
        spoilerRanges: spoilerRanges.map((r) => ({ offset: r.offset, length: r.length })),
        media: media.map((m) => ({ url: m.url, altText: m.alt_text, type: m.type })),
      })),
      comments: comments.filter((c) => c.thread_id === thread.id).map(commentView),
    })),
  };
}

/** The reviewer of an open link, reaching only the link's threads (any other is not found). */
async function reviewer(ctx: AppContext, token: string, name: string): Promise<Actor> {
  const faults = reviewerFaults({ name });
  if (faults.length) throw new ValidationError(faults);
  const link = await openLink(ctx, token);
  if (!link.canApprove) throw new ReviewReadOnlyError();
  return {
    name: name.trim(),
    accountId: null,
    thread: async (db, threadId, options) => {
      const reached = (await listReviewThreadAggregates(db, link.scope, threadId)).length > 0;
      const thread = reached ? await findThread(db, threadId, options) : undefined;
      if (!thread) throw new NotFoundError(`Thread ${threadId}`);
      return thread;
    },
  };
}

export async function reviewDecision(
  ctx: AppContext,
  token: string,
  threadId: string,
  input: { name: string; state: 'APPROVED' | 'REJECTED'; note: string | null },
) {
  await recordDecision(ctx, await reviewer(ctx, token, input.name), threadId, { state: input.state, note: input.note });
  const page = await reviewPage(ctx, token);
  const thread = page.threads.find((t) => t.threadId === threadId);
  if (!thread) throw new NotFoundError(`Thread ${threadId}`);
  return thread;
}

export async function reviewComment(ctx: AppContext, token: string, threadId: string, input: { name: string; text: string; postId?: string | null }) {
  return addCommentAs(ctx, await reviewer(ctx, token, input.name), threadId, input);
}

/** The reviewer's name: 1 to 100 characters, not only white space. */
export function reviewerFaults(body: unknown): Array<{ path: string; message: string }> {
  const name = typeof body === 'object' && body !== null ? (body as { name?: unknown }).name : undefined;
  return typeof name === 'string' && !name.trim() ? [{ path: 'name', message: 'must not be empty or only white space' }] : [];
}
