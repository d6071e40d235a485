import { type RawBuilder, sql } from 'kysely';
import type { ThreadRow } from '../db/schema/index.js';
import { newId } from '../lib/ids.js';
import { CompiledStatements, type Param } from './compiled.js';
import { cte } from './cte.js';
import { followUpsDue } from './follow-ups.js';
import { type FollowUpJobsPlan, followUpJobs } from './jobs.js';
import { type PublishedPostRef, postPublished } from './posts.js';
import { claimDue, isDue, type Lease, leasedQueue, leaseHeld } from './queue/leased-queue.js';
import { THREADS } from './queue/tables.js';
import type { DbOrTrx } from './types.js';
import { changeWithEvent, errorJson, eventWrites, withEvent } from './webhook-outbox.js';

/**
 * The publisher's queue of threads (the thread row is the job of publishing its posts): the
 * leased queue of queue/leased-queue.ts on `threads`, with what only threads have: a claim
 * spread over providers that also marks the posts, and completion and failure statements that
 * write their webhook event (and, on completion, the follow-up work) in the same statement.
 */

/** What a claim may take besides `limit`: see claimThreads. */
export interface ClaimSpread {
  /**
   * At most this many threads of one connected account (a provider) in flight at once, across
   * every worker (SKEIN_PUBLISHER_PER_ACCOUNT): those being published (PUBLISHING under a live
   * lease, whoever holds them) count.
   */
  perAccount: number;
  /**
   * When the worker last served each provider (a rising number): providers not in it come
   * first, then the least recently served, so the claims go round the accounts in turn.
   */
  lastServed: ReadonlyMap<string, number>;
  /** How many due threads the claim reads in schedule order before probing each provider (spreadDueThreads); tests set it low. */
  window?: number;
}

/** Due threads a claim reads in schedule order before it looks at each provider (ClaimSpread.window). */
const CLAIM_WINDOW = 512;
/**
 * Candidates re-checked and locked per thread claimed: the rest are rows that workers claiming
 * at the same moment locked first (SKIP LOCKED); past that margin a claim takes fewer, never twice.
 */
const CANDIDATES_PER_SLOT = 4;

/**
 * The `due` CTE of a claim spread over providers and bounded per provider across workers.
 * `busy` counts each provider's threads in flight (any worker's, threads_publishing_idx). The
 * candidates are each provider's earliest due threads, numbered from its in-flight count, and
 * only those within `perAccount` are taken: the least busy providers first, then round-robin
 * (`lastServed`), then by schedule. So an account with thousands of due threads cannot fill the
 * slots while another account's single thread waits, and no account has more than `perAccount`
 * in flight. Two workers claiming at once rank the same rows alike and lock them with SKIP
 * LOCKED, so they cannot both take a provider's last free place.
 *
 * Where the candidates come from (issue 26): `head` reads the first `window` due threads through
 * the due index (threads_due_idx, in schedule order) and numbers them per provider. That is
 * every due thread while the backlog is shorter than the window, so the ranking is exact, and
 * its cost follows the backlog, not the number of connected accounts. Only when the window is
 * full and still yields fewer than `limit` candidates (a few accounts' backlogs fill it: a quiet
 * account's thread may lie beyond it) does `probed` probe each provider for its earliest due
 * threads (threads_claim_idx, migration 0008), the claim's former plan, and its candidates are
 * used instead; otherwise that scan never runs (a one-time filter). Only the best
 * `limit × CANDIDATES_PER_SLOT` candidates are re-checked and locked.
 *
 * PostgreSQL allows no FOR UPDATE beside a window function, so the rows are locked one level
 * up, where the due conditions are repeated: a row another worker claimed and committed
 * meanwhile is re-checked on its newest version there (READ COMMITTED) and dropped.
 */
function spreadDueThreads(now: Date, limit: number, param: Param<SpreadValues>): RawBuilder<unknown> {
  const window = param('window');
  const perAccount = param('perAccount');
  const perProvider = sql`least(${perAccount}::int, ${limit}::int)`;
  // Arrays, not a VALUES list: the statement's text stays the same whatever was served (a named statement).
  return sql`
      WITH served AS (
        SELECT * FROM unnest(${param('servedIds')}::text[], ${param('servedTurns')}::bigint[]) AS s (provider_id, turn)
      ),
      busy AS (
        SELECT b.provider_id, count(*) AS n FROM threads AS b
        WHERE b.status = 'PUBLISHING' AND b.locked_until >= ${now} GROUP BY b.provider_id
      ),
      head AS (
        SELECT r.id, r.provider_id, r.scheduled_at FROM threads AS r WHERE ${isDue(THREADS, 'r', now)}
        ORDER BY r.scheduled_at, r.id
        LIMIT ${window}::int
      ),
      ranked AS (
        SELECT h.id, h.provider_id, h.scheduled_at, row_number() OVER (PARTITION BY h.provider_id ORDER BY h.scheduled_at, h.id) AS rank
        FROM head AS h
      ),
      usable AS (
        SELECT ranked.* FROM ranked LEFT JOIN busy ON busy.provider_id = ranked.provider_id
        WHERE ranked.rank <= ${perProvider} AND COALESCE(busy.n, 0) + ranked.rank <= ${perAccount}
      ),
      probed AS (
        SELECT r.id, p.id AS provider_id, r.scheduled_at, r.rank
        FROM providers AS p
        CROSS JOIN LATERAL (
          SELECT r.id, r.scheduled_at, row_number() OVER (ORDER BY r.scheduled_at, r.id) AS rank
          FROM threads AS r WHERE r.provider_id = p.id AND ${isDue(THREADS, 'r', now)}
          ORDER BY r.scheduled_at, r.id
          LIMIT ${perProvider}
        ) AS r
        WHERE (SELECT count(*) FROM head) >= ${window}::int AND (SELECT count(*) FROM usable) < ${limit}::int
      ),
      pool AS (
        SELECT id, provider_id, scheduled_at, rank FROM ranked WHERE NOT EXISTS (SELECT 1 FROM probed)
        UNION ALL
        SELECT id, provider_id, scheduled_at, rank FROM probed
      ),
      candidates AS (
        SELECT pool.id, pool.scheduled_at, COALESCE(served.turn, 0) AS turn, COALESCE(busy.n, 0) + pool.rank AS load
        FROM pool
        LEFT JOIN served ON served.provider_id = pool.provider_id
        LEFT JOIN busy ON busy.provider_id = pool.provider_id
        WHERE pool.rank <= ${perProvider} AND COALESCE(busy.n, 0) + pool.rank <= ${perAccount}
        ORDER BY load, turn, pool.scheduled_at, pool.id
        LIMIT ${param('candidates')}::int
      )
      SELECT c.id, c.status = 'PUBLISHING' AS taken_over FROM threads AS c JOIN candidates ON candidates.id = c.id
      WHERE ${isDue(THREADS, 'c', now)}
      ORDER BY candidates.load, candidates.turn, candidates.scheduled_at, candidates.id
      LIMIT ${limit}
      FOR UPDATE OF c SKIP LOCKED`;
}

/** The values of the spread claim's placeholders (spreadDueThreads). */
interface SpreadValues {
  window: number;
  perAccount: number;
  servedIds: string[];
  servedTurns: number[];
  candidates: number;
}

/**
 * Claims up to `limit` due threads (READY and due, or PUBLISHING under an expired lease: a
 * takeover) and, in the same statement, turns their unpublished posts PUBLISHING; with `spread`,
 * spread over providers (spreadDueThreads). The threads come back in schedule order.
 */
async function claimThreads(db: DbOrTrx, lease: Lease, limit: number, spread?: ClaimSpread) {
  const served = spread ? [...spread.lastServed] : [];
  const claimed = await claimDue<ThreadRow, SpreadValues>(db, THREADS, lease, limit, {
    ...(spread
      ? {
          name: 'spread',
          due: (held, most, param) => spreadDueThreads(held.now, most, param),
          values: {
            window: spread.window ?? CLAIM_WINDOW,
            perAccount: spread.perAccount,
            servedIds: served.map(([id]) => id),
            servedTurns: served.map(([, turn]) => turn),
            candidates: limit * CANDIDATES_PER_SLOT,
          },
        }
      : {}),
    also: (threads, held) => [
      cte(
        'marked',
        sql`UPDATE posts AS p SET status = 'PUBLISHING', updated_at = ${held.now}
            FROM ${threads.from} WHERE p.thread_id = ${threads.col('id')} AND p.status IN ('READY', 'PUBLISHING')`,
      ),
    ],
  });
  claimed.rows.sort((a, b) => Number(a.scheduled_at) - Number(b.scheduled_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return claimed;
}

export const threadQueue = leasedQueue(THREADS, claimThreads);

/** The completion's two shapes, compiled once (see compiled.ts): it runs once per published thread. */
const statements = new CompiledStatements();

/** Threads due and not yet published (READY or PUBLISHING, scheduled at or before `now`): a gauge. */
export async function countDueUnpublishedThreads(db: DbOrTrx, now: Date): Promise<number> {
  const row = await db
    .selectFrom('threads')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', 'in', ['READY', 'PUBLISHING'])
    .where('scheduled_at', '<=', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The completed thread as its completing statement returns it. */
type CompletedThread = ThreadRow & { first_post_published_at: Date | null; data: unknown };

/** A thread that ends (published or failed) is held by no worker and waits for no retry. */
const LEASE_ENDED = { locked_by: null, locked_until: null, next_attempt_at: null } as const;

/**
 * The thread is PUBLISHED (while `workerId` holds it), and in the same statement its
 * `thread.published` event is written when a webhook of its workspace wants it, its follow-up
 * jobs are enqueued (`jobs`, see jobs.ts followUpJobs) and its follow-up replies get their due
 * time (follow-ups.ts followUpsDue): they exist, and are due, if and only if the thread is
 * PUBLISHED, whatever crashes; one round trip, no transaction. Undefined when the lease was not held.
 *
 * With `lastPost`, the same statement first marks that post (the thread's last) PUBLISHED with
 * its network reference and its `post.published` event (posts.ts postPublished), whether or not
 * the lease is still held: a post that went out is recorded as such by whoever learnt it. One
 * snapshot serves the whole statement, so what reads the posts (the first post's time for the
 * jobs, the last post's for the follow-ups) counts a post not yet published there as published now.
 */
export async function completeThread(
  db: DbOrTrx,
  id: string,
  workerId: string,
  now: Date,
  jobs: FollowUpJobsPlan,
  lastPost?: { id: string; ref: PublishedPostRef },
): Promise<ThreadRow | undefined> {
  // The post's event is made first: its id sorts before the thread's, as when written apart.
  const postEventId = lastPost ? newId(now.getTime()) : null;
  const values: CompletionValues = {
    id,
    workerId,
    now,
    eventId: newId(now.getTime()),
    analyticsId: jobs.analytics.id,
    analyticsAt: jobs.analytics.runAt,
    repostId: jobs.repost.id,
    plugId: jobs.plug.id,
    plugCheckMs: jobs.plug.firstCheckMs,
  };
  const { rows } = lastPost
    ? await statements.runRaw(db, 'complete with last post', (param) => completion(db, param, param), {
        ...values,
        postEventId: postEventId!,
        postId: lastPost.id,
        networkPostId: lastPost.ref.networkPostId,
        cid: lastPost.ref.cid,
        permalink: lastPost.ref.permalink,
      })
    : await statements.runRaw(db, 'complete', (param) => completion(db, param), values);
  const row = rows[0];
  if (!row) return undefined;
  const { first_post_published_at: _first, data: _event, ...thread } = row;
  return thread;
}

/** The values of completeThread's statement. */
interface CompletionValues {
  id: string;
  workerId: string;
  now: Date;
  eventId: string;
  analyticsId: string;
  analyticsAt: Date;
  repostId: string;
  plugId: string;
  plugCheckMs: number;
}

/** The values the statement reads besides when it also records the thread's last post. */
interface LastPostValues extends PublishedPostRef {
  postEventId: string;
  postId: string;
}

/**
 * The statement of completeThread, from placeholders (compiled once per shape); with `post`
 * (the last post's placeholders), the shape that also records the last post.
 */
function completion(db: DbOrTrx, param: Param<CompletionValues>, post?: Param<LastPostValues>): RawBuilder<CompletedThread> {
  const now = param('now');
  const completed = db
    .updateTable('threads')
    .set((eb) => ({
      status: 'PUBLISHED',
      published_at: now,
      // The first post's time (in this statement's snapshot the last post is not yet published: a
      // one-post thread's first post goes out now). Analytics finds late threads by it (migration
      // 0036); the follow-up jobs count from it (jobs.ts followUpJobs, through the RETURNING).
      first_published_at: sql<Date>`coalesce((SELECT fp.published_at FROM posts AS fp WHERE fp.thread_id = threads.id ORDER BY fp.post_order LIMIT 1), ${now}::timestamptz)`,
      ...LEASE_ENDED,
      last_error: null,
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', param('id'))
    .where(leaseHeld(THREADS, param('workerId')))
    .returningAll()
    .returning('first_published_at as first_post_published_at')
    .returning(threadEventData());
  const plan: FollowUpJobsPlan = {
    analytics: { id: param('analyticsId'), runAt: param('analyticsAt') },
    repost: { id: param('repostId') },
    plug: { id: param('plugId'), firstCheckMs: param('plugCheckMs') },
  };
  const lastPost = post
    ? [
        cte('post_published', postPublished(post('postId'), { networkPostId: post('networkPostId'), cid: post('cid'), permalink: post('permalink') }, now)),
        ...eventWrites('post.published', 'post_published', post('postEventId'), now, 'post_'),
      ]
    : [];
  return withEvent<CompletedThread>('thread.published', completed, param('eventId'), now, (thread) => [
    ...lastPost,
    followUpJobs(thread, plan, now),
    followUpsDue(thread, now, post !== undefined),
  ]);
}

/** The thread is FAILED (while `workerId` holds it), with its `thread.failed` event (`error`: what the post shows). False when not held. */
export async function failThread(trx: DbOrTrx, id: string, workerId: string, error: { code: string; message: string }, now: Date): Promise<boolean> {
  const failed = trx
    .updateTable('threads')
    .set((eb) => ({
      status: 'FAILED',
      ...LEASE_ENDED,
      last_error: `${error.code}: ${error.message}`,
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', id)
    .where(leaseHeld(THREADS, workerId))
    .returning(['account_id', 'team_id', threadEventData(errorJson(error))]);
  return (await changeWithEvent(trx, 'thread.failed', failed, now)) > 0;
}

/** A thread event's `data`, from the thread row being changed. */
function threadEventData(error?: RawBuilder<unknown>) {
  const base = sql`jsonb_build_object('threadId', id, 'providerId', provider_id, 'teamId', team_id)`;
  return (error ? sql`${base} || jsonb_build_object('error', ${error})` : base).as('data');
}
