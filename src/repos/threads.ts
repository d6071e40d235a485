import { type Insertable, type RawBuilder, sql } from 'kysely';
import type {
  ApprovalState,
  MediaRow,
  PostRow,
  ProviderKind,
  ProviderRow,
  ReplyControl,
  SpoilerRangeRow,
  ThreadRow,
  ThreadsTable,
} from '../db/schema/index.js';
import type { Workspace } from '../lib/workspace.js';
import { CompiledStatements } from './compiled.js';
import { type DbOrTrx, inChunks } from './types.js';

export type { DbOrTrx } from './types.js';

/**
 * Thread rows as the API reads and changes them. The thread row is also the publisher's job;
 * what the publisher does to it under its lease is in thread-queue.ts.
 */

/** A thread with everything the API shows of it, as stored. */
export interface ThreadAggregate {
  thread: ThreadRow;
  providerKind: ProviderKind;
  providerUserId: string;
  posts: PostAggregate[];
}

/** A thread's tag as thread-tag answers show it. */
interface ReducedTagRow {
  id: string;
  name: string;
  color: string;
}

export interface PostAggregate {
  post: PostRow;
  media: MediaRow[];
  spoilerRanges: SpoilerRangeRow[];
}

export async function findThread(db: DbOrTrx, id: string, options: { forUpdate?: boolean } = {}): Promise<ThreadRow | undefined> {
  let query = db.selectFrom('threads').selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
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
        network_container_at: post.network_container_at === null ? null : new Date(post.network_container_at),
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

/** A claimed thread's provider row and posts: what publishing it reads. */
export interface PublishWork {
  provider: ProviderRow;
  posts: PostAggregate[];
}

/** Every column of a provider row, read beside the posts by loadPublishWork. */
const PROVIDER_COLUMNS = {
  id: true,
  account_id: true,
  team_id: true,
  kind: true,
  provider_user_id: true,
  username: true,
  status: true,
  access_token_enc: true,
  refresh_token_enc: true,
  token_expires_at: true,
  token_refresh_until: true,
  status_reason: true,
  service_url: true,
  session_enc: true,
  network_limits: true,
  limits_read_at: true,
  connected_at: true,
  updated_at: true,
} satisfies Record<keyof ProviderRow, true>;

/**
 * The provider rows and posts (with media and spoiler ranges) of the threads a claim took, in one
 * statement for the whole claim: the publisher's read, one round trip per claim instead of two
 * per thread. The provider's columns come as columns (`pr__…`), so the driver reads them as it
 * reads the provider table. A thread missing from the answer was deleted meanwhile.
 */
export async function loadPublishWork(db: DbOrTrx, threadIds: readonly string[]): Promise<Map<string, PublishWork>> {
  const work = new Map<string, PublishWork>();
  if (threadIds.length === 0) return work;
  const columns = Object.keys(PROVIDER_COLUMNS) as (keyof ProviderRow)[];
  // An array, not an IN list: one statement text (compiled once, one named statement) whatever the claim's size.
  const { rows } = await compiled.run(
    db,
    'publish work',
    (param) =>
      selectThreadAggregates(db)
        .select(columns.map((c) => sql.ref(`pr.${c}`).as(`pr__${c}`)))
        .where(sql<boolean>`t.id = ANY (${param('ids')}::text[])`),
    { ids: threadIds },
  );
  for (const row of rows as unknown as Array<AggregateRow & Record<string, unknown>>) {
    const provider = Object.fromEntries(columns.map((c) => [c, row[`pr__${c}`]])) as unknown as ProviderRow;
    work.set(row.id, { provider, posts: toAggregate(row).posts });
  }
  return work;
}

/** The API's two hot reads and the publisher's, compiled once (see compiled.ts). */
const compiled = new CompiledStatements();

/**
 * Whether `accountId` may see the thread `alias` (canAccess, in SQL): its own personal thread, or
 * a thread of a team it belongs to.
 */
export function threadVisibleTo(alias: string, accountId: unknown): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`((${column('team_id')} IS NULL AND ${column('account_id')} = ${accountId})
    OR EXISTS (SELECT 1 FROM memberships AS ms WHERE ms.team_id = ${column('team_id')} AND ms.account_id = ${accountId}))`;
}

/** The thread as the API shows it, if `accountId` may see it (its owner, or a member of its team). */
export async function findAccessibleThreadAggregate(db: DbOrTrx, threadId: string, accountId: string): Promise<ThreadAggregate | undefined> {
  const { rows } = await compiled.run(
    db,
    'accessible',
    (param) =>
      selectThreadAggregates(db)
        .where('t.id', '=', param('threadId'))
        .where(threadVisibleTo('t', param('accountId'))),
    { threadId, accountId },
  );
  return rows[0] ? toAggregate(rows[0] as AggregateRow) : undefined;
}

/** A page of List Posts: at most `limit` threads after the key (scheduled time, id), of one approval state if given. */
export interface ScheduledPage {
  limit: number;
  after: { scheduledAt: string; id: string } | null;
  approval?: ApprovalState;
}

/** A listed thread's position: its exact scheduled time (microseconds, UTC) and id, as a cursor holds them. */
export type ScheduledListed = ThreadAggregate & { tags?: ReducedTagRow[]; pageKey: [string, string] };

/**
 * Scheduled threads of a workspace in [from, to], by scheduled time then id, as the API shows
 * them: at most `page.limit` of them after `page.after` (the caller reads one more than it shows
 * to know whether a next page exists). With `withTags`, each thread's tags come in the same
 * statement (List Posts' `include=tags`). The key is compared as a row, so the workspace's
 * (team_id, scheduled_at, id) index (a personal one's (account_id, scheduled_at, id), migration 0034) seeks to it, and threads at the same time are
 * ordered, and cut, by id.
 */
export async function listScheduledThreadAggregates(
  db: DbOrTrx,
  workspace: Workspace,
  range: { from: Date; to: Date; providerId?: string; tagId?: string },
  page: ScheduledPage,
  options: { withTags?: boolean } = {},
): Promise<ScheduledListed[]> {
  const byProvider = range.providerId !== undefined;
  const byTag = range.tagId !== undefined;
  const withTags = options.withTags === true;
  const after = page.after !== null;
  const byApproval = page.approval !== undefined;
  const { rows } = await compiled.run(
    db,
    `scheduled:${workspace.teamId ? 'team' : 'personal'}:${byProvider}:${withTags}:${after}:${byApproval}:${byTag}`,
    (param) => {
      // Without tags the column is a constant null: one query shape to build either way.
      let select = selectThreadAggregates(db)
        .select((withTags ? threadTagParts : sql<ReducedTagRow[] | null>`null`).as('tag_parts'))
        .select(sql<string>`to_char(t.scheduled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('page_key'));
      select = workspace.teamId
        ? select.where('t.team_id', '=', param('teamId'))
        : select.where('t.team_id', 'is', null).where('t.account_id', '=', param('ownerId'));
      select = select.where('t.scheduled_at', '>=', param('from')).where('t.scheduled_at', '<=', param('to'));
      // Read only by the shape that filters by provider, whose calls give one.
      if (byProvider) select = select.where('t.provider_id', '=', param('providerId')!);
      if (byApproval) select = select.where('t.approval_state', '=', param('approval')!);
      if (byTag) select = select.where(sql<boolean>`EXISTS (SELECT 1 FROM thread_tags AS tt WHERE tt.thread_id = t.id AND tt.tag_id = ${param('tagId')})`);
      if (after) select = select.where(sql<boolean>`(t.scheduled_at, t.id) > (${param('afterAt')}::timestamptz, ${param('afterId')}::text)`);
      return select.orderBy('t.scheduled_at').orderBy('t.id').limit(param('limit'));
    },
    {
      teamId: workspace.teamId,
      ownerId: workspace.ownerAccountId,
      from: range.from,
      to: range.to,
      providerId: range.providerId,
      tagId: range.tagId,
      approval: page.approval,
      afterAt: page.after?.scheduledAt,
      afterId: page.after?.id,
      limit: page.limit,
    },
  );
  return rows.map((r) => {
    const { tag_parts, page_key, ...row } = r as TaggedAggregateRow & { page_key: string };
    const aggregate = toAggregate(row);
    const pageKey: [string, string] = [page_key, row.id];
    return withTags ? { ...aggregate, tags: tagsOf(tag_parts), pageKey } : { ...aggregate, pageKey };
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

/** Inserts threads, one statement per INSERT_CHUNK_ROWS of them (an import writes up to 1,000). */
export async function insertThread(trx: DbOrTrx, rows: Insertable<ThreadsTable> | Array<Insertable<ThreadsTable>>): Promise<void> {
  for (const chunk of inChunks(Array.isArray(rows) ? rows : [rows])) await trx.insertInto('threads').values(chunk).execute();
}

/** Deletes the thread; its posts, media, tags links and jobs go with it (ON DELETE CASCADE). */
export async function deleteThread(trx: DbOrTrx, id: string): Promise<void> {
  await trx.deleteFrom('threads').where('id', '=', id).execute();
}

/**
 * Every change the API makes to a thread, its posts, tags or schedule ends here: a new version
 * (the ETag of Get Thread), and with `scheduledAt` a new time (a retry's backoff forgotten).
 */
export async function bumpThreadVersion(
  trx: DbOrTrx,
  id: string,
  now: Date,
  changes: { scheduledAt?: Date; replyControl?: ReplyControl; quotesDisabled?: boolean; changedBy?: string } = {},
): Promise<{ approvalAsked: boolean }> {
  // A change by a team member below editor to a scheduled thread asks for approval again
  // (decisions.md "Teams"), read in this statement: no round trip more.
  const asks = changes.changedBy
    ? sql<boolean>`(team_id IS NOT NULL AND scheduled_at IS NOT NULL
        AND (SELECT m.role FROM memberships AS m WHERE m.team_id = threads.team_id AND m.account_id = ${changes.changedBy}) IN ('writer', 'viewer'))`
    : null;
  const approval = asks
    ? {
        approval_state: sql<ApprovalState | null>`CASE WHEN ${asks} THEN 'PENDING' ELSE approval_state END`,
        approval_by: sql<string | null>`CASE WHEN ${asks} THEN NULL ELSE approval_by END`,
        approval_at: sql<Date | null>`CASE WHEN ${asks} THEN NULL ELSE approval_at END`,
        approval_note: sql<string | null>`CASE WHEN ${asks} THEN NULL ELSE approval_note END`,
        // A new request only when it was not waiting already: its emails are keyed by the round.
        approval_round: sql<number>`CASE WHEN ${asks} AND approval_state IS DISTINCT FROM 'PENDING' THEN approval_round + 1 ELSE approval_round END`,
        approval_asked_by: sql<string | null>`CASE WHEN ${asks} THEN ${changes.changedBy}::text ELSE approval_asked_by END`,
      }
    : {};
  const row = await trx
    .updateTable('threads')
    .set((eb) => ({
      version: eb('version', '+', 1),
      updated_at: now,
      ...approval,
      ...(changes.scheduledAt ? { scheduled_at: changes.scheduledAt, next_attempt_at: null } : {}),
      ...(changes.replyControl !== undefined ? { reply_control: changes.replyControl } : {}),
      ...(changes.quotesDisabled !== undefined ? { quotes_disabled: changes.quotesDisabled } : {}),
    }))
    .where('id', '=', id)
    .returning(sql<boolean>`${asks ?? sql`false`}`.as('asked'))
    .executeTakeFirst();
  return { approvalAsked: row?.asked === true };
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

/** What a review link shows: its team's threads scheduled in [from, to), on its accounts (every one when null). */
export interface ReviewScope {
  teamId: string;
  from: Date;
  to: Date;
  providerIds: string[] | null;
}

/**
 * A review link's threads, by scheduled time, each with its account's name (`username`); with
 * `threadId`, only that one if the link reaches it (none otherwise).
 */
export async function listReviewThreadAggregates(db: DbOrTrx, scope: ReviewScope, threadId?: string): Promise<Array<ThreadAggregate & { username: string }>> {
  let select = selectThreadAggregates(db)
    .select('pr.username as provider_username')
    .where('t.team_id', '=', scope.teamId)
    .where('t.scheduled_at', '>=', scope.from)
    .where('t.scheduled_at', '<', scope.to);
  if (scope.providerIds !== null) {
    if (scope.providerIds.length === 0) return [];
    select = select.where('t.provider_id', 'in', scope.providerIds);
  }
  if (threadId !== undefined) select = select.where('t.id', '=', threadId);
  const rows = await select.orderBy('t.scheduled_at').orderBy('t.id').execute();
  return rows.map((r) => {
    const { provider_username, ...row } = r as AggregateRow & { provider_username: string };
    return { ...toAggregate(row), username: provider_username };
  });
}
