import { type Insertable, sql } from 'kysely';
import type { MediaRow, PostRow, ProviderKind, SpoilerRangeRow, ThreadRow, ThreadsTable } from '../db/schema/index.js';
import type { Workspace } from '../lib/workspace.js';
import { type DbOrTrx, inWorkspace } from './types.js';

export type { DbOrTrx } from './types.js';

/**
 * Thread rows. The thread row is also the publisher's job: a worker holds it while `status` is
 * PUBLISHING and `locked_by` names it (`whereLeaseHeld`, the one definition of holding the lease);
 * every change a worker makes to a claimed thread is guarded by it.
 */

/** A thread with everything the API shows of it, as stored. */
export interface ThreadAggregate {
  thread: ThreadRow;
  providerKind: ProviderKind;
  providerUserId: string;
  posts: PostAggregate[];
}

export interface PostAggregate {
  post: PostRow;
  media: MediaRow[];
  spoilerRanges: SpoilerRangeRow[];
}

/** The lease rule: `workerId` holds the thread while it is PUBLISHING under its name. */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's where() overloads differ per builder; this helper only chains two calls.
function whereLeaseHeld<QB extends { where: any }>(qb: QB, workerId: string): QB {
  return qb.where('locked_by', '=', workerId).where('status', '=', 'PUBLISHING');
}

export async function findThread(db: DbOrTrx, id: string, options: { forUpdate?: boolean } = {}): Promise<ThreadRow | undefined> {
  let query = db.selectFrom('threads').selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function loadThreadAggregates(db: DbOrTrx, threads: ThreadRow[]): Promise<ThreadAggregate[]> {
  if (threads.length === 0) return [];
  const threadIds = threads.map((t) => t.id);
  const providerIds = [...new Set(threads.map((t) => t.provider_id))];
  const [providers, posts] = await Promise.all([
    db.selectFrom('providers').select(['id', 'kind', 'provider_user_id']).where('id', 'in', providerIds).execute(),
    db.selectFrom('posts').selectAll().where('thread_id', 'in', threadIds).orderBy('thread_id').orderBy('post_order').execute(),
  ]);
  const postAggregates = await loadPostParts(db, posts);
  const providerById = new Map(providers.map((p) => [p.id, p]));
  const postsByThread = groupBy(postAggregates, (p) => p.post.thread_id);
  return threads.map((thread) => {
    const provider = providerById.get(thread.provider_id)!;
    return { thread, providerKind: provider.kind, providerUserId: provider.provider_user_id, posts: postsByThread.get(thread.id) ?? [] };
  });
}

async function loadPostParts(db: DbOrTrx, posts: PostRow[]): Promise<PostAggregate[]> {
  if (posts.length === 0) return [];
  const postIds = posts.map((p) => p.id);
  const [media, ranges] = await Promise.all([
    db.selectFrom('media').selectAll().where('post_id', 'in', postIds).orderBy('post_id').orderBy('position').execute(),
    db.selectFrom('spoiler_ranges').selectAll().where('post_id', 'in', postIds).orderBy('post_id').orderBy('position').execute(),
  ]);
  const mediaByPost = groupBy(media, (m) => m.post_id);
  const rangesByPost = groupBy(ranges, (r) => r.post_id);
  return posts.map((post) => ({ post, media: mediaByPost.get(post.id) ?? [], spoilerRanges: rangesByPost.get(post.id) ?? [] }));
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

export async function insertThread(trx: DbOrTrx, row: Insertable<ThreadsTable>): Promise<void> {
  await trx.insertInto('threads').values(row).execute();
}

/** Scheduled threads of a workspace in [from, to], by scheduled time. */
export function listScheduledThreads(db: DbOrTrx, workspace: Workspace, range: { from: Date; to: Date; providerId?: string }): Promise<ThreadRow[]> {
  let select = inWorkspace(db.selectFrom('threads').selectAll(), workspace).where('scheduled_at', '>=', range.from).where('scheduled_at', '<=', range.to);
  if (range.providerId !== undefined) select = select.where('provider_id', '=', range.providerId);
  return select.orderBy('scheduled_at').orderBy('id').execute();
}

/** Drafts (no scheduled time) of a workspace, newest first. */
export function listDraftThreads(db: DbOrTrx, workspace: Workspace): Promise<ThreadRow[]> {
  return inWorkspace(db.selectFrom('threads').selectAll(), workspace)
    .where('scheduled_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes the thread; its posts, media, tags links and jobs go with it (ON DELETE CASCADE). */
export async function deleteThread(trx: DbOrTrx, id: string): Promise<void> {
  await trx.deleteFrom('threads').where('id', '=', id).execute();
}

/** Every edit bumps the version. */
export async function bumpThreadVersion(trx: DbOrTrx, id: string, now: Date): Promise<void> {
  await trx
    .updateTable('threads')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .execute();
}

export async function rescheduleThread(trx: DbOrTrx, id: string, scheduledAt: Date, now: Date): Promise<void> {
  await trx
    .updateTable('threads')
    .set((eb) => ({ scheduled_at: scheduledAt, version: eb('version', '+', 1), next_attempt_at: null, updated_at: now }))
    .where('id', '=', id)
    .execute();
}

/** A retry: READY again at `scheduledAt`, attempts and error cleared, no lease. */
export async function resetThreadForRetry(trx: DbOrTrx, id: string, scheduledAt: Date, now: Date): Promise<void> {
  await trx
    .updateTable('threads')
    .set((eb) => ({
      status: 'READY',
      scheduled_at: scheduledAt,
      attempts: 0,
      next_attempt_at: null,
      last_error: null,
      locked_by: null,
      locked_until: null,
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', id)
    .execute();
}

/**
 * Claims up to `limit` due threads for `workerId` in one statement, graphile-worker style: the
 * CTE locks due rows with SKIP LOCKED (so concurrent workers take disjoint sets), the UPDATE
 * marks them PUBLISHING with a lease. A thread whose lease ran out (its worker crashed) is due
 * again.
 */
export async function claimDueThreads(trx: DbOrTrx, workerId: string, now: Date, leaseUntil: Date, limit: number): Promise<ThreadRow[]> {
  const claimed = await sql<ThreadRow>`
    WITH due AS (
      SELECT id FROM threads
      WHERE scheduled_at IS NOT NULL AND scheduled_at <= ${now}
        AND (
          (status = 'READY' AND (next_attempt_at IS NULL OR next_attempt_at <= ${now}))
          OR (status = 'PUBLISHING' AND locked_until < ${now})
        )
      ORDER BY scheduled_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE threads AS t
    SET status = 'PUBLISHING', locked_by = ${workerId}, locked_until = ${leaseUntil},
        attempts = t.attempts + 1, updated_at = ${now}
    FROM due WHERE t.id = due.id
    RETURNING t.*`.execute(trx);
  return claimed.rows;
}

/** Extends the lease while `workerId` still holds it; false when it was lost to another worker. */
export async function renewThreadLease(db: DbOrTrx, id: string, workerId: string, until: Date): Promise<boolean> {
  const result = await whereLeaseHeld(db.updateTable('threads').set({ locked_until: until }).where('id', '=', id), workerId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The heartbeat: extends every thread lease `workerId` holds. */
export async function renewThreadLeasesOf(db: DbOrTrx, workerId: string, until: Date): Promise<void> {
  await whereLeaseHeld(db.updateTable('threads').set({ locked_until: until }), workerId).execute();
}

/**
 * Locks the thread row (FOR UPDATE, as the claim locks it) if `workerId` holds its lease: a
 * claim by another worker either came first (false) or waits for the caller's transaction.
 */
export async function lockThreadIfLeaseHeld(trx: DbOrTrx, id: string, workerId: string): Promise<boolean> {
  const held = await whereLeaseHeld(trx.selectFrom('threads').select('id').where('id', '=', id), workerId)
    .forUpdate()
    .executeTakeFirst();
  return held !== undefined;
}

/** Every thread was published: PUBLISHED, lease released. False when `workerId` no longer held it. */
export async function completeThread(trx: DbOrTrx, id: string, workerId: string, now: Date): Promise<boolean> {
  const completed = await whereLeaseHeld(
    trx
      .updateTable('threads')
      .set({ status: 'PUBLISHED', published_at: now, locked_by: null, locked_until: null, next_attempt_at: null, last_error: null, updated_at: now })
      .where('id', '=', id),
    workerId,
  ).executeTakeFirst();
  return completed.numUpdatedRows > 0n;
}

/** Back to READY (a retry later, or handed back at shutdown), lease released. False when not held. */
export async function releaseThreadToReady(
  trx: DbOrTrx,
  id: string,
  workerId: string,
  changes: { next_attempt_at?: Date; last_error?: string; attempts?: number },
  now: Date,
): Promise<boolean> {
  const released = await whereLeaseHeld(
    trx
      .updateTable('threads')
      .set({ status: 'READY', locked_by: null, locked_until: null, ...changes, updated_at: now })
      .where('id', '=', id),
    workerId,
  ).executeTakeFirst();
  return released.numUpdatedRows > 0n;
}

/** FAILED, lease released. False when `workerId` no longer held it. */
export async function failThread(trx: DbOrTrx, id: string, workerId: string, lastError: string, now: Date): Promise<boolean> {
  const failed = await whereLeaseHeld(
    trx
      .updateTable('threads')
      .set({ status: 'FAILED', locked_by: null, locked_until: null, next_attempt_at: null, last_error: lastError, updated_at: now })
      .where('id', '=', id),
    workerId,
  ).executeTakeFirst();
  return failed.numUpdatedRows > 0n;
}

/**
 * The next moment a thread becomes claimable: a scheduled thread, a retry after backoff, or a
 * lease that runs out. Null when none is pending.
 */
export async function nextThreadDueAt(db: DbOrTrx): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    SELECT least(
      (SELECT min(scheduled_at) FROM threads WHERE status = 'READY' AND scheduled_at IS NOT NULL AND next_attempt_at IS NULL),
      (SELECT min(greatest(scheduled_at, next_attempt_at)) FROM threads WHERE status = 'READY' AND scheduled_at IS NOT NULL AND next_attempt_at IS NOT NULL),
      (SELECT min(locked_until) FROM threads WHERE status = 'PUBLISHING')
    ) AS at`.execute(db);
  return rows[0]?.at ?? null;
}
