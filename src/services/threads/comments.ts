import type { AppContext } from '../../context.js';
import type { AccountRow, ThreadRow } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import { newId } from '../../lib/ids.js';
import { type CommentRow, insertComment, listComments } from '../../repos/comments.js';
import { membersByEmail } from '../../repos/memberships.js';
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

/**
 * `@email` in a comment's text: the address after an `@` that does not continue a word or an
 * address (`me@x.org` mentions no one), trailing punctuation left out; each once, lower-cased.
 */
const MENTION = /(?<![\w.%+@-])@([\w.%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi;

function mentionedEmails(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((m) => m[1]!.toLowerCase()))];
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
  return writeComment(ctx, thread, { accountId: actor.accountId, name: actor.name }, input);
}

/**
 * Writes a checked comment on `thread` by `author` (a member, or a reviewer without an account:
 * `accountId` null), with its event. The members of the thread's team its text mentions are
 * notified (the event names them, each gets a COMMENT_MENTION email): never the author, nobody
 * outside the team, each once. The one path of every comment, so every author's mentions count.
 */
export async function writeComment(
  ctx: AppContext,
  thread: ThreadRow,
  author: { accountId: string | null; name: string },
  input: { text: string; postId?: string | null },
): Promise<CommentView> {
  const now = ctx.clock.now();
  const id = newId(now.getTime());
  const postId = input.postId ?? null;
  const members = thread.team_id ? await membersByEmail(ctx.db, thread.team_id, mentionedEmails(input.text)) : [];
  const mentions = members.filter((m) => m.id !== author.accountId);
  const row = { id, threadId: thread.id, postId, authorAccountId: author.accountId, authorName: author.name, text: input.text };
  if (!(await insertComment(ctx.db, row, mentions, now))) throw new NotFoundError(`Post ${postId}`);
  return { id, author: author.name, text: input.text, postId, createdAt: now.toISOString() };
}
