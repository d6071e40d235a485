import { type Insertable, type RawBuilder, sql } from 'kysely';
import type { MediaRow, PostRow, ProviderKind, SpoilerRangeRow, ThreadRow, ThreadsTable } from '../db/schema/index.js';
import type { Workspace } from '../lib/workspace.js';
import { CompiledStatements } from './compiled.js';
import { type DbOrTrx, inWorkspace, withoutTakeoverFlag } from './types.js';
import { changeWithEvent, changeWithEventRows, errorJson } from './webhook-outbox.js';

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

/** A thread's tag as thread-tag answers show it. */
export interface ReducedTagRow {
  id: string;
  name: string;
  color: string;
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

/**
 * Threads with their provider, posts, media and spoiler ranges, in one statement: the posts
 * and their parts are aggregated as JSON by correlated subqueries (one round trip however many
 * threads and posts). `filter` restricts the threads (alias `t`), `order` orders them.
 */
function selectThreadAggregates(db: DbOrTrx) {
  return db
    .selectFrom('threads as t')
    .innerJoin('providers as pr', 'pr.id', 't.provider_id')
    .selectAll('t')
    .select(['pr.kind as provider_kind', 'pr.provider_user_id as provider_user_id'])
    .select(
      sql<JsonPost[]>`coalesce((
        SELECT json_agg(json_build_object(
          'post', to_jsonb(p),
          'media', coalesce((SELECT json_agg(to_jsonb(m) ORDER BY m.position) FROM media m WHERE m.post_id = p.id), '[]'),
          'ranges', coalesce((SELECT json_agg(to_jsonb(r) ORDER BY r.position) FROM spoiler_ranges r WHERE r.post_id = p.id), '[]')
        ) ORDER BY p.post_order)
        FROM posts p WHERE p.thread_id = t.id), '[]')`.as('post_parts'),
    );
}

interface JsonPost {
  post: Omit<PostRow, 'published_at' | 'created_at' | 'updated_at'> & { published_at: string | null; created_at: string; updated_at: string };
  media: MediaRow[];
  ranges: SpoilerRangeRow[];
}

type AggregateRow = ThreadRow & { provider_kind: ProviderKind; provider_user_id: string; post_parts: JsonPost[] | string };
type TaggedAggregateRow = AggregateRow & { tag_parts: ReducedTagRow[] | string | null };

/**
 * The thread's tags (id, name, color) as JSON, by a correlated subquery of the same statement.
 * Unordered here: the service sorts them as Get Thread Tags does (by name, case-insensitively).
 */
const threadTagParts = sql<ReducedTagRow[] | null>`coalesce((
  SELECT json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color))
  FROM thread_tags tt JOIN tags tg ON tg.id = tt.tag_id WHERE tt.thread_id = t.id), '[]')`;

function tagsOf(parts: TaggedAggregateRow['tag_parts']): ReducedTagRow[] {
  return typeof parts === 'string' ? JSON.parse(parts) : (parts ?? []);
}

function toAggregate(row: AggregateRow): ThreadAggregate {
  const { provider_kind, provider_user_id, post_parts, ...thread } = row;
  const parts: JsonPost[] = typeof post_parts === 'string' ? JSON.parse(post_parts) : post_parts;
  return {
    thread,
    providerKind: provider_kind,
    providerUserId: provider_user_id,
    posts: parts.map(({ post, media, ranges }) => ({
      post: {
        ...post,
        published_at: post.published_at === null ? null : new Date(post.published_at),
        created_at: new Date(post.created_at),
        updated_at: new Date(post.updated_at),
      },
      media,
      spoilerRanges: ranges,
    })),
  };
}

/** A thread's posts with their media and spoiler ranges, in order, in one statement (the publisher's read). */
export async function loadThreadPosts(db: DbOrTrx, threadId: string): Promise<PostAggregate[]> {
  const row = await selectThreadAggregates(db).where('t.id', '=', threadId).executeTakeFirst();
  return row ? toAggregate(row as AggregateRow).posts : [];
}

/** The API's two hot reads, compiled once (see compiled.ts). */
const compiled = new CompiledStatements();

/** The thread as the API shows it, if `accountId` may see it (its owner, or a member of its team). */
export async function findAccessibleThreadAggregate(db: DbOrTrx, threadId: string, accountId: string): Promise<ThreadAggregate | undefined> {
  const { rows } = await compiled.run(
    db,
    'accessible',
    (param) =>
      selectThreadAggregates(db)
        .where('t.id', '=', param('threadId'))
        .where((eb) =>
          eb.or([
            eb.and([eb('t.team_id', 'is', null), eb('t.account_id', '=', param('accountId'))]),
            eb.exists(
              eb.selectFrom('memberships as ms').select('ms.team_id').whereRef('ms.team_id', '=', 't.team_id').where('ms.account_id', '=', param('accountId')),
            ),
          ]),
        ),
    { threadId, accountId },
  );
  return rows[0] ? toAggregate(rows[0] as AggregateRow) : undefined;
}

/**
 * Scheduled threads of a workspace in [from, to], by scheduled time, as the API shows them.
 * With `withTags`, each thread's tags come in the same statement (List Posts' `include=tags`).
 */
export async function listScheduledThreadAggregates(
  db: DbOrTrx,
  workspace: Workspace,
  range: { from: Date; to: Date; providerId?: string },
  options: { withTags?: boolean } = {},
): Promise<Array<ThreadAggregate & { tags?: ReducedTagRow[] }>> {
  const byProvider = range.providerId !== undefined;
  const withTags = options.withTags === true;
  const { rows } = await compiled.run(
    db,
    `scheduled:${workspace.teamId ? 'team' : 'personal'}:${byProvider}:${withTags}`,
    (param) => {
      // Without tags the column is a constant null: one query shape to build either way.
      let select = selectThreadAggregates(db).select((withTags ? threadTagParts : sql<ReducedTagRow[] | null>`null`).as('tag_parts'));
      select = workspace.teamId
        ? select.where('t.team_id', '=', param('teamId'))
        : select.where('t.team_id', 'is', null).where('t.account_id', '=', param('ownerId'));
      select = select.where('t.scheduled_at', '>=', param('from')).where('t.scheduled_at', '<=', param('to'));
      if (byProvider) select = select.where('t.provider_id', '=', param('providerId'));
      return select.orderBy('t.scheduled_at').orderBy('t.id');
    },
    { teamId: workspace.teamId, ownerId: workspace.ownerAccountId, from: range.from, to: range.to, providerId: range.providerId },
  );
  return rows.map((r) => {
    const { tag_parts, ...row } = r as TaggedAggregateRow;
    const aggregate = toAggregate(row);
    return withTags ? { ...aggregate, tags: tagsOf(tag_parts) } : aggregate;
  });
}

/** Drafts (no scheduled time) of a workspace, newest first, as the API shows them. */
export async function listDraftThreadAggregates(db: DbOrTrx, workspace: Workspace): Promise<ThreadAggregate[]> {
  let select = selectThreadAggregates(db);
  select = workspace.teamId
    ? select.where('t.team_id', '=', workspace.teamId)
    : select.where('t.team_id', 'is', null).where('t.account_id', '=', workspace.ownerAccountId!);
  const rows = await select.where('t.scheduled_at', 'is', null).orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').execute();
  return rows.map((r) => toAggregate(r as AggregateRow));
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

/**
 * Every change the API makes to a thread, its posts, tags or schedule ends here: a new version
 * (the ETag of Get Thread), and with `scheduledAt` a new time (a retry's backoff forgotten).
 */
export async function bumpThreadVersion(trx: DbOrTrx, id: string, now: Date, changes: { scheduledAt?: Date } = {}): Promise<void> {
  await trx
    .updateTable('threads')
    .set((eb) => ({
      version: eb('version', '+', 1),
      updated_at: now,
      ...(changes.scheduledAt ? { scheduled_at: changes.scheduledAt, next_attempt_at: null } : {}),
    }))
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

/** What a claim may take besides `limit`: see claimDueThreads. */
export interface ClaimSpread {
  /**
   * At most this many threads of one provider in flight at once, across every worker: those
   * being published (PUBLISHING under a live lease, whoever holds them) count.
   */
  perProvider: number;
  /**
   * When the worker last served each provider (a rising number): providers not in it come
   * first, then the least recently served, so the claims go round the accounts in turn.
   */
  lastServed: ReadonlyMap<string, number>;
}

/**
 * Claims up to `limit` due threads for `workerId` in one statement, graphile-worker style: the
 * CTE locks due rows with SKIP LOCKED (so concurrent workers take disjoint sets), the UPDATE
 * marks them PUBLISHING with a lease, and their unpublished posts PUBLISHING. A thread whose lease ran out (its worker crashed) is due
 * again: such a claim is a takeover, counted in `takeovers`.
 *
 * With `spread`, the claim is spread over providers and bounded per provider across workers:
 * `busy` counts each provider's threads in flight (any worker's), `candidates` takes each
 * provider's earliest due threads (threads_claim_idx, migration 0008: an index probe per
 * provider, never a sort of the whole backlog), numbered from its in-flight count, and only those
 * within `perProvider` are taken: the least busy providers first, then round-robin (`lastServed`),
 * then by schedule. So an account with thousands of due threads cannot fill the slots while
 * another account's single thread waits, and no account has more than `perProvider` in flight.
 * Two workers claiming at once rank the same rows alike and lock them with SKIP LOCKED, so they
 * cannot both take a provider's last free place.
 * PostgreSQL allows no FOR UPDATE beside a window function, so the rows are locked one level
 * up, where the due conditions are repeated: a row another worker claimed and committed
 * meanwhile is re-checked on its newest version there (READ COMMITTED) and dropped, never
 * claimed twice.
 */
export async function claimDueThreads(
  trx: DbOrTrx,
  workerId: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
  spread?: ClaimSpread,
): Promise<{ rows: ThreadRow[]; takeovers: number }> {
  const isDue = (t: string) => sql`
        ${sql.ref(`${t}.scheduled_at`)} IS NOT NULL AND ${sql.ref(`${t}.scheduled_at`)} <= ${now}
        AND (
          (${sql.ref(`${t}.status`)} = 'READY' AND (${sql.ref(`${t}.next_attempt_at`)} IS NULL OR ${sql.ref(`${t}.next_attempt_at`)} <= ${now}))
          OR (${sql.ref(`${t}.status`)} = 'PUBLISHING' AND ${sql.ref(`${t}.locked_until`)} < ${now})
        )`;
  const served = spread ? [...spread.lastServed] : [];
  // Arrays, not a VALUES list: the statement's text stays the same whatever was served (a named statement).
  const due = spread
    ? sql`
    WITH served AS (
      SELECT * FROM unnest(${served.map(([id]) => id)}::text[], ${served.map(([, turn]) => turn)}::bigint[]) AS s (provider_id, turn)
    ),
    busy AS (
      SELECT b.provider_id, count(*) AS n FROM threads AS b
      WHERE b.status = 'PUBLISHING' AND b.locked_until >= ${now} GROUP BY b.provider_id
    ),
    candidates AS (
      SELECT r.id, r.scheduled_at, COALESCE(served.turn, 0) AS turn, COALESCE(busy.n, 0) + r.rank AS load
      FROM providers AS p
      LEFT JOIN served ON served.provider_id = p.id
      LEFT JOIN busy ON busy.provider_id = p.id
      CROSS JOIN LATERAL (
        SELECT r.id, r.scheduled_at, row_number() OVER (ORDER BY r.scheduled_at, r.id) AS rank
        FROM threads AS r WHERE r.provider_id = p.id AND ${isDue('r')}
        ORDER BY r.scheduled_at, r.id
        LIMIT least(${spread.perProvider}::int, ${limit}::int)
      ) AS r
      WHERE COALESCE(busy.n, 0) < ${spread.perProvider}
    ),
    due AS (
      SELECT c.id, c.status = 'PUBLISHING' AS taken_over FROM threads AS c JOIN candidates ON candidates.id = c.id
      WHERE candidates.load <= ${spread.perProvider} AND ${isDue('c')}
      ORDER BY candidates.load, candidates.turn, candidates.scheduled_at, candidates.id
      LIMIT ${limit}
      FOR UPDATE OF c SKIP LOCKED
    )`
    : sql`
    WITH due AS (
      SELECT id, status = 'PUBLISHING' AS taken_over FROM threads AS c
      WHERE ${isDue('c')}
      ORDER BY scheduled_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )`;
  // The claimed threads' unpublished posts turn PUBLISHING in the same statement (one round trip, atomic without a transaction).
  const claimed = await sql<ThreadRow & { taken_over: boolean }>`
    ${due},
    claimed AS (
      UPDATE threads AS t
      SET status = 'PUBLISHING', locked_by = ${workerId}, locked_until = ${leaseUntil},
          attempts = t.attempts + 1, version = t.version + 1, updated_at = ${now}
      FROM due WHERE t.id = due.id
      RETURNING t.*, due.taken_over
    ),
    marked AS (
      UPDATE posts AS p SET status = 'PUBLISHING', updated_at = ${now}
      FROM claimed WHERE p.thread_id = claimed.id AND p.status IN ('READY', 'PUBLISHING')
    )
    SELECT * FROM claimed`.execute(trx);
  return withoutTakeoverFlag(claimed.rows);
}

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
 * The thread is PUBLISHED (while `workerId` holds it), and in the same statement its
 * `thread.published` event is written when a webhook of its workspace wants it, plus `also`
 * (the follow-up jobs and replies, CTEs reading the completed row and its first post's publish
 * time from `src`): one round trip, no transaction. Undefined when the lease was not held.
 */
export async function completeThread(db: DbOrTrx, id: string, workerId: string, now: Date, also: RawBuilder<unknown>[] = []): Promise<ThreadRow | undefined> {
  const completed = whereLeaseHeld(
    db
      .updateTable('threads')
      .set((eb) => ({
        status: 'PUBLISHED',
        published_at: now,
        locked_by: null,
        locked_until: null,
        next_attempt_at: null,
        last_error: null,
        version: eb('version', '+', 1),
        updated_at: now,
      }))
      .where('id', '=', id),
    workerId,
  )
    .returningAll()
    .returning((eb) =>
      eb
        .selectFrom('posts')
        .select('posts.published_at')
        .whereRef('posts.thread_id', '=', 'threads.id')
        .orderBy('posts.post_order')
        .limit(1)
        .as('first_post_published_at'),
    )
    .returning(threadEventData());
  const [row] = await changeWithEventRows<ThreadRow & { first_post_published_at: Date | null; data: unknown }>(db, 'thread.published', completed, now, also);
  if (!row) return undefined;
  const { first_post_published_at: _first, data: _event, ...thread } = row;
  return thread;
}

/**
 * Saves a new container on a post while `workerId` holds the thread, and extends the lease,
 * in one statement: the thread row is locked first, as the claim locks it, so a claim by
 * another worker either happens before (and this finds the lease gone) or skips the thread
 * until the container is saved. The container is saved only if the post's saved container is
 * still `expected` and no post id is saved yet. False when nothing was saved.
 */
export async function adoptContainerWhileLeaseHeld(
  db: DbOrTrx,
  threadId: string,
  workerId: string,
  post: { id: string; expected: string | null; next: { containerId: string | null; networkPostId: string | null; cid: string | null } },
  now: Date,
  leaseUntil: Date,
): Promise<boolean> {
  const { next } = post;
  const { rows } = await sql<{ id: string }>`
    WITH held AS (
      SELECT id FROM threads WHERE id = ${threadId} AND locked_by = ${workerId} AND status = 'PUBLISHING' FOR UPDATE
    ),
    adopted AS (
      UPDATE posts
      SET network_container_id = ${next.containerId}::text, network_post_id = ${next.networkPostId}::text,
          network_cid = ${next.cid}::text, updated_at = ${now}::timestamptz
      WHERE id = ${post.id} AND network_container_id IS NOT DISTINCT FROM ${post.expected}::text AND network_post_id IS NULL
        AND EXISTS (SELECT 1 FROM held)
      RETURNING id
    )
    UPDATE threads AS t SET locked_until = ${leaseUntil}::timestamptz
    FROM held WHERE t.id = held.id AND EXISTS (SELECT 1 FROM adopted)
    RETURNING t.id`.execute(db);
  return rows.length > 0;
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
      .set((eb) => ({ status: 'READY', locked_by: null, locked_until: null, ...changes, version: eb('version', '+', 1), updated_at: now }))
      .where('id', '=', id),
    workerId,
  ).executeTakeFirst();
  return released.numUpdatedRows > 0n;
}

/** FAILED, lease released. False when `workerId` no longer held it. */
/** The thread is FAILED (while `workerId` holds it), with its `thread.failed` event (`error`: what the post shows). */
export async function failThread(trx: DbOrTrx, id: string, workerId: string, error: { code: string; message: string }, now: Date): Promise<boolean> {
  const failed = whereLeaseHeld(
    trx
      .updateTable('threads')
      .set((eb) => ({
        status: 'FAILED',
        locked_by: null,
        locked_until: null,
        next_attempt_at: null,
        last_error: `${error.code}: ${error.message}`,
        version: eb('version', '+', 1),
        updated_at: now,
      }))
      .where('id', '=', id),
    workerId,
  ).returning(['account_id', 'team_id', threadEventData(errorJson(error))]);
  return (await changeWithEvent(trx, 'thread.failed', failed, now)) > 0;
}

/** A thread event's `data`, from the thread row being changed. */
function threadEventData(error?: RawBuilder<unknown>) {
  const base = sql`jsonb_build_object('threadId', id, 'providerId', provider_id, 'teamId', team_id)`;
  return (error ? sql`${base} || jsonb_build_object('error', ${error})` : base).as('data');
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
