import { sql } from 'kysely';
import { emailOutbox, teamMembers } from './email.js';
import type { DbOrTrx } from './types.js';
import { changeWithEventRows } from './webhook-outbox.js';

export interface CommentRow {
  id: string;
  thread_id: string;
  post_id: string | null;
  author_name: string;
  text: string;
  created_at: Date;
}

/** A thread's comments, oldest first. */
export function listComments(db: DbOrTrx, threadId: string): Promise<CommentRow[]> {
  return listCommentsOfThreads(db, [threadId]);
}

/**
 * Adds a comment and, in the same statement, its comment.created event (decisions.md "Teams"),
 * naming the members it mentions (`mentions`, by email), and a COMMENT_MENTION email to each of
 * them still in the thread's team (the event id and the member make it once per comment).
 * `postId` must be a post of the thread: otherwise nothing is written and false is answered.
 */
export async function insertComment(
  db: DbOrTrx,
  row: { id: string; threadId: string; postId: string | null; authorAccountId: string | null; authorName: string; text: string },
  mentions: ReadonlyArray<{ id: string; email: string }>,
  now: Date,
): Promise<boolean> {
  const inserted = sql`
    INSERT INTO thread_comments AS c (id, thread_id, post_id, author_account_id, author_name, text, created_at)
    SELECT ${row.id}, t.id, ${row.postId}::text, ${row.authorAccountId}::text, ${row.authorName}, ${row.text}, ${now}::timestamptz
      FROM threads AS t
     WHERE t.id = ${row.threadId}
       AND (${row.postId}::text IS NULL OR EXISTS (SELECT 1 FROM posts AS p WHERE p.id = ${row.postId}::text AND p.thread_id = t.id))
    RETURNING (SELECT account_id FROM threads WHERE id = c.thread_id) AS account_id, (SELECT team_id FROM threads WHERE id = c.thread_id) AS team_id,
      jsonb_build_object('threadId', c.thread_id, 'comment', jsonb_build_object('id', c.id, 'author', c.author_name, 'text', c.text, 'postId', c.post_id,
        'createdAt', c.created_at, 'mentions', ${JSON.stringify(mentions.map((m) => m.email))}::jsonb)) AS data`;
  const ids = mentions.map((m) => sql`${m.id}::text`);
  const rows = await changeWithEventRows(db, 'comment.created', inserted, now, (_src, eventId) =>
    ids.length
      ? [emailOutbox('em_mention', 'COMMENT_MENTION', 'src', eventId, now, { to: (src) => sql`a.id IN (${sql.join(ids)}) AND ${teamMembers(src)}` })]
      : [],
  );
  return rows.length > 0;
}

/** The comments of several threads at once (a review page's), oldest first. */
export function listCommentsOfThreads(db: DbOrTrx, threadIds: string[]): Promise<CommentRow[]> {
  if (threadIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('thread_comments')
    .select(['id', 'thread_id', 'post_id', 'author_name', 'text', 'created_at'])
    .where('thread_id', 'in', threadIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
