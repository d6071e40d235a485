import { type Insertable, type QueryCreator, type RawBuilder, sql } from 'kysely';
import type { PostRow, PublishStatus, ThreadsTable } from '../db/schema/index.js';
import { newId } from '../lib/ids.js';
import { mediaTypeOfUrl } from '../lib/media-type.js';
import { CompiledStatements } from './compiled.js';
import { type DbOrTrx, inChunks } from './types.js';
import { changeWithEvent } from './webhook-outbox.js';

/**
 * Post rows of a thread, with their media and spoiler ranges. Each post's network state
 * (network id, CID, permalink) is written here once it is published; while it is being
 * published, its container is saved by the compare-and-set only the thread's lease holder may
 * run, and facts about it by anyone (threadQueue.adoptContainer and recordFacts, thread-queue.ts).
 */

export interface MediaWrite {
  url: string;
  altText?: string | null;
}

export interface SpoilerRangeWrite {
  offset: number;
  length: number;
}

export interface PostWrite {
  content: string;
  topic: string | null;
  isSpoilerMedia: boolean;
  linkPreview: boolean;
  media: MediaWrite[];
  spoilerRanges: SpoilerRangeWrite[];
  quote: string | null;
  poll: { options: string[]; question?: string } | null;
  langs: string[];
  contentWarning: string | null;
}

/** The network options' columns of a post write (jsonb columns as JSON text, as both drivers take it). */
function optionColumns(post: PostWrite) {
  return {
    quote: post.quote,
    poll: post.poll === null ? null : JSON.stringify(post.poll),
    langs: JSON.stringify(post.langs),
    content_warning: post.contentWarning,
  };
}

export async function insertPost(trx: DbOrTrx, threadId: string, order: number, post: PostWrite, now: Date, status: PublishStatus = 'READY'): Promise<string> {
  const [id] = await insertPostsOfThreads(trx, [{ threadId, order, post }], now, status);
  return id!;
}

/**
 * New posts of any number of threads (one Create Post's, or an import's), with their media and
 * spoiler ranges: one INSERT per table however many posts (per 2,000 rows: inChunks), so a
 * thread of 1 post and 1,000 threads of 20 cost about the same round trips. Returns the posts'
 * ids, in the order given.
 */
export async function insertPostsOfThreads(
  trx: DbOrTrx,
  posts: Array<{ threadId: string; order: number; post: PostWrite }>,
  now: Date,
  status: PublishStatus = 'READY',
): Promise<string[]> {
  if (posts.length === 0) return [];
  const ids = posts.map(() => newId(now.getTime()));
  const rows = postRows(posts, ids, now, status);
  const { media, ranges } = partRows(posts, ids);
  for (const chunk of inChunks(rows)) await trx.insertInto('posts').values(chunk).execute();
  for (const chunk of inChunks(media, 8_000)) await trx.insertInto('media').values(chunk).execute();
  for (const chunk of inChunks(ranges, 10_000)) await trx.insertInto('spoiler_ranges').values(chunk).execute();
  return ids;
}

function postRows(posts: Array<{ threadId: string; order: number; post: PostWrite }>, ids: string[], now: Date, status: PublishStatus) {
  return posts.map(({ threadId, order, post }, i) => ({
    id: ids[i]!,
    thread_id: threadId,
    post_order: order,
    content: post.content,
    topic: post.topic,
    is_spoiler_media: post.isSpoilerMedia,
    link_preview: post.linkPreview,
    ...optionColumns(post),
    status,
    // The network's columns (network_container_id, network_post_id, network_cid, permalink,
    // published_at, error_code, error_message, analytics) are left to their default, NULL: fewer
    // parameters for the server to send and PostgreSQL to read (3 × 8 per Create of 3 posts).
    created_at: now,
    updated_at: now,
  }));
}

function partRows(posts: Array<{ post: PostWrite }>, ids: string[]) {
  const media = posts.flatMap(({ post }, i) =>
    post.media.map((m, position) => ({ id: newId(), post_id: ids[i]!, position, url: m.url, alt_text: m.altText ?? null, type: mediaTypeOfUrl(m.url) })),
  );
  const ranges = posts.flatMap(({ post }, i) => post.spoilerRanges.map((r, position) => ({ post_id: ids[i]!, position, offset: r.offset, length: r.length })));
  return { media, ranges };
}

/** Past this many posts, threads and their posts are inserted table by table (insertPostsOfThreads). */
const ONE_STATEMENT_MAX_POSTS = 100;

/**
 * Inserts threads with their posts, media and spoiler ranges in one statement (data-modifying
 * CTEs: one round trip, atomic without a transaction) when they are few, else table by table.
 * `insertThreads` is the table-by-table insert of the thread rows.
 */
export async function insertThreadsWithPosts(
  trx: DbOrTrx,
  threads: Array<Insertable<ThreadsTable>>,
  posts: Array<{ threadId: string; order: number; post: PostWrite }>,
  now: Date,
  insertThreads: () => Promise<void>,
): Promise<void> {
  if (posts.length > ONE_STATEMENT_MAX_POSTS || threads.length > ONE_STATEMENT_MAX_POSTS || posts.length === 0) {
    await insertThreads();
    await insertPostsOfThreads(trx, posts, now);
    return;
  }
  const ids = posts.map(() => newId(now.getTime()));
  const { media, ranges } = partRows(posts, ids);
  const tables = { threads, posts: postRows(posts, ids, now, 'READY'), media, ranges };
  const columns = Object.values(tables).map(columnsOf);
  if (columns.includes(null)) {
    await oneStatement(trx, tables, (rows) => rows).execute();
    return;
  }
  // The statement's text depends only on each table's columns and row count: it is compiled once
  // per such shape, and each call only lays out its values (compiled.ts).
  // Each value is named by its place in the statement (the placeholders below count the same way).
  const values: Record<string, unknown> = {};
  let named = 0;
  for (const rows of Object.values(tables))
    for (const row of rows) for (const value of Object.values(row)) if (value !== undefined) values[String(named++)] = value;
  await inserts.run(
    trx,
    `threads-with-posts:${Object.values(tables)
      .map((rows, i) => `${rows.length}:${columns[i]}`)
      .join(';')}`,
    (param) => {
      let next = 0;
      return oneStatement(trx, tables, (rows) =>
        rows.map((row) => {
          const placeholders: Record<string, unknown> = {};
          for (const [key, value] of Object.entries(row)) if (value !== undefined) placeholders[key] = param(String(next++));
          return placeholders as typeof row;
        }),
      );
    },
    values,
  );
}

/** Create Post's insert, compiled once per shape. */
const inserts = new CompiledStatements();

/**
 * The columns every row of `rows` gives a value, in order (a shape's name), or null when they
 * differ. An undefined value is no column at all, as Kysely takes it (the column's default).
 */
function columnsOf(rows: Array<Record<string, unknown>>): string | null {
  const given = (row: Record<string, unknown>) =>
    Object.keys(row)
      .filter((key) => row[key] !== undefined)
      .join(',');
  const first = given(rows[0] ?? {});
  for (let i = 1; i < rows.length; i++) if (given(rows[i]!) !== first) return null;
  return first;
}

interface OneStatementRows {
  threads: Array<Insertable<ThreadsTable>>;
  posts: ReturnType<typeof postRows>;
  media: ReturnType<typeof partRows>['media'];
  ranges: ReturnType<typeof partRows>['ranges'];
}

/** The one-statement insert of `tables` (data-modifying CTEs), each table's rows passed through `values` (placeholders, when compiled). */
function oneStatement(trx: DbOrTrx, tables: OneStatementRows, values: <R extends object>(rows: R[]) => R[]) {
  // biome-ignore lint/suspicious/noExplicitAny: each optional CTE adds a name to the builder's type; none is read.
  let statement: QueryCreator<any> = trx
    .with('new_threads', (db) => db.insertInto('threads').values(values(tables.threads)))
    .with('new_posts', (db) => db.insertInto('posts').values(values(tables.posts)));
  if (tables.media.length) statement = statement.with('new_media', (db) => db.insertInto('media').values(values(tables.media)));
  if (tables.ranges.length) statement = statement.with('new_ranges', (db) => db.insertInto('spoiler_ranges').values(values(tables.ranges)));
  // PostgreSQL runs every data-modifying CTE once, read or not; the outer query only completes the statement.
  return statement.selectNoFrom(sql<number>`1`.as('done'));
}

export async function replaceMedia(trx: DbOrTrx, postId: string, media: MediaWrite[]): Promise<void> {
  await trx.deleteFrom('media').where('post_id', '=', postId).execute();
  if (media.length === 0) return;
  await trx
    .insertInto('media')
    .values(media.map((m, position) => ({ id: newId(), post_id: postId, position, url: m.url, alt_text: m.altText ?? null, type: mediaTypeOfUrl(m.url) })))
    .execute();
}

export async function replaceSpoilerRanges(trx: DbOrTrx, postId: string, ranges: SpoilerRangeWrite[]): Promise<void> {
  await trx.deleteFrom('spoiler_ranges').where('post_id', '=', postId).execute();
  if (ranges.length === 0) return;
  await trx
    .insertInto('spoiler_ranges')
    .values(ranges.map((r, position) => ({ post_id: postId, position, offset: r.offset, length: r.length })))
    .execute();
}

/** A thread's posts in order. */
export function listPosts(db: DbOrTrx, threadId: string): Promise<PostRow[]> {
  return db.selectFrom('posts').selectAll().where('thread_id', '=', threadId).orderBy('post_order').execute();
}

export function findPostInThread(db: DbOrTrx, threadId: string, postId: string): Promise<PostRow | undefined> {
  return db.selectFrom('posts').selectAll().where('id', '=', postId).where('thread_id', '=', threadId).executeTakeFirst();
}

export function listSpoilerRanges(db: DbOrTrx, postId: string): Promise<Array<{ offset: number; length: number }>> {
  return db.selectFrom('spoiler_ranges').select(['offset', 'length']).where('post_id', '=', postId).orderBy('position').execute();
}

export async function countPosts(db: DbOrTrx, threadId: string): Promise<number> {
  const { count } = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('thread_id', '=', threadId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Changes only the fields given (an Edit Single Post). */
export async function updatePostFields(
  trx: DbOrTrx,
  postId: string,
  fields: { content?: string; topic?: string | null; isSpoilerMedia?: boolean },
  now: Date,
): Promise<void> {
  await trx
    .updateTable('posts')
    .set({
      ...(fields.content !== undefined ? { content: fields.content } : {}),
      ...(fields.topic !== undefined ? { topic: fields.topic } : {}),
      ...(fields.isSpoilerMedia !== undefined ? { is_spoiler_media: fields.isSpoilerMedia } : {}),
      updated_at: now,
    })
    .where('id', '=', postId)
    .execute();
}

/** Rewrites a post wholly, at a new place in the thread (an Edit Thread). */
export async function rewritePost(trx: DbOrTrx, postId: string, order: number, write: PostWrite, now: Date): Promise<void> {
  await trx
    .updateTable('posts')
    .set({
      post_order: order,
      content: write.content,
      topic: write.topic,
      is_spoiler_media: write.isSpoilerMedia,
      link_preview: write.linkPreview,
      ...optionColumns(write),
      updated_at: now,
    })
    .where('id', '=', postId)
    .execute();
  await replaceMedia(trx, postId, write.media);
  await replaceSpoilerRanges(trx, postId, write.spoilerRanges);
}

export async function deletePosts(trx: DbOrTrx, postIds: string[]): Promise<void> {
  if (postIds.length) await trx.deleteFrom('posts').where('id', 'in', postIds).execute();
}

/** A retry: every post not yet published is READY again, its error cleared. */
export async function resetUnpublishedPosts(trx: DbOrTrx, threadId: string, now: Date): Promise<void> {
  await trx
    .updateTable('posts')
    .set({ status: 'READY', error_code: null, error_message: null, updated_at: now })
    .where('thread_id', '=', threadId)
    .where('status', '!=', 'PUBLISHED')
    .execute();
}

/** A released thread's posts that were PUBLISHING are READY again (published ones stay published). */
export async function releasePublishingPosts(trx: DbOrTrx, threadId: string, now: Date): Promise<void> {
  await trx.updateTable('posts').set({ status: 'READY', updated_at: now }).where('thread_id', '=', threadId).where('status', '=', 'PUBLISHING').execute();
}

export async function failPost(trx: DbOrTrx, postId: string, error: { code: string; message: string }, now: Date): Promise<void> {
  await trx
    .updateTable('posts')
    .set({ status: 'FAILED', error_code: error.code, error_message: error.message, updated_at: now })
    .where('id', '=', postId)
    .where('status', '!=', 'PUBLISHED')
    .execute();
}

/**
 * The post is PUBLISHED, and in the same statement its `post.published` event is written (when
 * a webhook of the thread's workspace wants it): one round trip, as before there were events.
 */
export async function markPostPublished(db: DbOrTrx, postId: string, ref: PublishedPostRef, now: Date): Promise<void> {
  await changeWithEvent(db, 'post.published', postPublished(postId, ref, now), now);
}

/** A post's network reference as it is saved when it is published. */
export interface PublishedPostRef {
  networkPostId: string;
  cid: string | null;
  permalink: string | null;
}

/**
 * The post is PUBLISHED with its network reference (unless it already is), answering its
 * `post.published` event's source row (see webhook-outbox.ts); also a CTE of the statement that
 * completes a thread with its last post (thread-queue.ts completeThread).
 */
export function postPublished(postId: string, ref: PublishedPostRef, now: Date): RawBuilder<unknown> {
  return sql`UPDATE posts AS p
      SET status = 'PUBLISHED', network_post_id = ${ref.networkPostId}::text, network_cid = ${ref.cid}::text, permalink = ${ref.permalink}::text,
          published_at = ${now}::timestamptz, error_code = NULL, error_message = NULL, attempts = p.attempts + 1, updated_at = ${now}::timestamptz
      FROM threads AS t
      WHERE p.id = ${postId}::text AND p.status <> 'PUBLISHED' AND t.id = p.thread_id
      RETURNING t.account_id, t.team_id,
        jsonb_build_object('threadId', t.id, 'providerId', t.provider_id, 'postId', p.id, 'permaLink', CASE WHEN p.permalink ~* '^https?://' THEN p.permalink END, 'teamId', t.team_id) AS data`;
}

export async function savePostAnalytics(db: DbOrTrx, postId: string, analytics: unknown, now: Date): Promise<void> {
  await db
    .updateTable('posts')
    .set({ analytics: JSON.stringify(analytics), updated_at: now })
    .where('id', '=', postId)
    .execute();
}

/** A permalink read later (the read right after publishing failed); never overwrites one. */
export async function fillInPermalink(db: DbOrTrx, postId: string, permalink: string, now: Date): Promise<void> {
  await db.updateTable('posts').set({ permalink, updated_at: now }).where('id', '=', postId).where('permalink', 'is', null).execute();
}

/** A post with what quoting it needs: its thread's workspace and network, and its network reference. */
export function findQuotedPost(db: DbOrTrx, postId: string) {
  return db
    .selectFrom('posts as p')
    .innerJoin('threads as t', 't.id', 'p.thread_id')
    .innerJoin('providers as pr', 'pr.id', 't.provider_id')
    .select(['p.status', 'p.network_post_id', 'p.network_cid', 't.account_id', 't.team_id', 'pr.kind'])
    .where('p.id', '=', postId)
    .executeTakeFirst();
}
