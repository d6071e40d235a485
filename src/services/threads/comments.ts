import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { type CommentRow, insertComment, listComments } from '../../repos/comments.js';
import { type Actor, memberActor, requireAccessibleThread } from './thread-access.js';

/** decisions.md "Teams": a comment is at most 5,000 characters, and not only white space. */
const MAX_COMMENT = 5_000;

export interface CommentView {
  id: string;
  author: string;
  text: string;
  postId: string | null;
  createdAt: string;
}

export function commentView(row: CommentRow): CommentView {
  return { id: row.id, author: row.author_name, text: row.text, postId: row.post_id, createdAt: row.created_at.toISOString() };
}

export function commentFaults(body: unknown): Array<{ path: string; message: string }> {
  const text = typeof body === 'object' && body !== null ? (body as { text?: unknown }).text : undefined;
  if (typeof text !== 'string') return [];
  if (!text.trim()) return [{ path: 'text', message: 'must not be empty or only white space' }];
  return [...text].length > MAX_COMMENT ? [{ path: 'text', message: `must be at most ${MAX_COMMENT} characters` }] : [];
}

export async function threadComments(ctx: AppContext, account: AccountRow, threadId: string): Promise<CommentView[]> {
  const thread = await requireAccessibleThread(ctx.db, account, threadId);
  return (await listComments(ctx.db, thread.id)).map(commentView);
}

/** A member's comment, signed with their email; `postId` names one of the thread's posts. */
export function addComment(ctx: AppContext, account: AccountRow, threadId: string, input: { text: string; postId?: string | null }): Promise<CommentView> {
  return addCommentAs(ctx, memberActor(account), threadId, input);
}

/** A comment by `actor` (a member, or a review link's reviewer under the name they gave), with its comment.created event. */
export async function addCommentAs(ctx: AppContext, actor: Actor, threadId: string, input: { text: string; postId?: string | null }): Promise<CommentView> {
  const faults = commentFaults(input);
  if (faults.length) throw new ValidationError(faults);
  const thread = await actor.thread(ctx.db, threadId);
  const now = ctx.clock.now();
  const id = newId(now.getTime());
  const postId = input.postId ?? null;
  const added = await insertComment(
    ctx.db,
    { id, threadId: thread.id, postId, authorAccountId: actor.accountId, authorName: actor.name, text: input.text },
    now,
  );
  if (!added) throw new NotFoundError(`Post ${postId}`);
  return { id, author: actor.name, text: input.text, postId, createdAt: now.toISOString() };
}
