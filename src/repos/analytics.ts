import { type RawBuilder, sql } from 'kysely';
import { httpUrlOrNull } from '../lib/http-url.js';
import type { Workspace } from '../lib/workspace.js';
import { textSnippet } from './snippet.js';
import { type DbOrTrx, ofWorkspace } from './types.js';

export const METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'] as const;
type Metric = (typeof METRICS)[number];
export type MetricSums = Record<Metric, number | null>;

/** One bucket (a local day, or the whole range when `date` is null). */
export interface AnalyticsBucket extends MetricSums {
  date: string | null;
  posts: number;
}

export interface TopPostRow extends MetricSums {
  threadId: string;
  postId: string;
  permaLink: string | null;
  publishedAt: Date;
}

export interface AnalyticsRange {
  providerId: string;
  from: Date;
  to: Date;
  /** An end excluded instead of `to` (a page ending at a local midnight; `to` is 1 ms before it, for its last day). */
  before?: Date;
  /** IANA zone whose calendar days the range is cut into. */
  zone: string;
}

/** A metric of posts.analytics as a number; anything but a JSON number (null, absent) is SQL NULL. */
function metric(name: Metric): RawBuilder<unknown> {
  return sql`case when jsonb_typeof(p.analytics -> ${sql.lit(name)}) = 'number' then (p.analytics ->> ${sql.lit(name)})::numeric end`;
}

/** Whose posts a read covers: one provider's, or those of every provider of a workspace. */
type PostsOf = { providerId: string } | { workspace: Workspace };

/** How long after a range's end its threads are read by their completion time (heldThreads). */
const COMPLETION_MARGIN_MS = 2 * 86_400_000;

/**
 * The threads that hold the published posts of a range of `of` (a provider's, or each provider's
 * of a workspace). A post goes out only once its thread is due and before (or as) its thread
 * completes, so a post of the range is in a thread published at or after the range's start, or
 * in one not published yet that was scheduled up to its end (failed part-way, put back,
 * publishing). Of the published ones, those completed up to two days after the range's end are
 * read by their completion time; any later one that holds a post of the range completed more than
 * a day after its first post went out, and is among the few late threads read apart (migration
 * 0036), so a range a year back reads its own threads, not the year since. Each part is one index
 * range per provider (threads_provider_published_idx, threads_provider_late_idx and
 * threads_provider_unpublished_at_idx), never a provider's whole history nor its schedule ahead.
 */
function heldThreads(of: PostsOf, range: Omit<AnalyticsRange, 'providerId'>): RawBuilder<unknown> {
  const end = range.before ?? range.to;
  const completedBy = new Date(end.getTime() + COMPLETION_MARGIN_MS);
  const branches = (provider: RawBuilder<unknown>) => sql`
    select id, provider_id from threads
     where provider_id = ${provider} and status = 'PUBLISHED' and published_at >= ${range.from} and published_at <= ${completedBy}
    union all
    select id, provider_id from threads
     where provider_id = ${provider} and status = 'PUBLISHED' and published_at > ${completedBy}
       and published_at - first_published_at > interval '1 day'
    union all
    select id, provider_id from threads
     where provider_id = ${provider} and status = 'PUBLISHED' and published_at is null
    union all
    select id, provider_id from threads
     where provider_id = ${provider} and status <> 'PUBLISHED'
       and ${range.before ? sql`scheduled_at < ${range.before}::timestamptz` : sql`scheduled_at <= ${range.to}::timestamptz`}`;
  return 'providerId' in of
    ? sql`(${branches(sql`${of.providerId}::text`)})`
    : sql`(select t.id, t.provider_id from providers as pr cross join lateral (${branches(sql.ref('pr.id'))}) as t
           where ${ofWorkspace('pr', of.workspace)})`;
}

/** The published posts of `of` with published_at in [from, to], with their provider, local day and metrics. */
function publishedPosts(of: PostsOf, range: Omit<AnalyticsRange, 'providerId'>): RawBuilder<unknown> {
  // Each thread's posts by posts_thread_order_key (`offset 0` keeps the lateral a nested loop):
  // the cost follows the range's threads, never the whole table's posts.
  return sql`
    select p.*, t.provider_id
      from ${heldThreads(of, range)} as t
     cross join lateral (
      select p.id, p.thread_id, p.permalink, p.published_at,
             to_char((p.published_at at time zone ${range.zone})::date, 'YYYY-MM-DD') as day,
             ${sql.join(
               METRICS.map((m) => sql`${metric(m)} as ${sql.ref(m)}`),
               sql`, `,
             )}
        from posts p
       where p.thread_id = t.id and p.status = 'PUBLISHED'
         and p.published_at >= ${range.from}
         and (p.published_at <= ${range.to} or p.published_at < ${range.before ?? range.to}::timestamptz)
      offset 0
     ) as p`;
}

const toNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/**
 * One row per local day of the range (every day, quiet ones included, in order) and a last row
 * with `date` null for the whole range. In a bucket with no posts every metric is 0; in one with
 * posts a metric is the sum of the values present, so null when no post of the bucket has one.
 */
export async function analyticsBuckets(db: DbOrTrx, range: AnalyticsRange): Promise<AnalyticsBucket[]> {
  const sums = (empty: RawBuilder<unknown>) =>
    sql.join(
      METRICS.map((m) => sql`case when ${empty} then 0 else sum(published.${sql.ref(m)}) end as ${sql.ref(m)}`),
      sql`, `,
    );
  const { rows } = await sql<Record<string, unknown>>`
    with published as (${publishedPosts({ providerId: range.providerId }, range)}),
    days as (
      select to_char(d, 'YYYY-MM-DD') as day
        from generate_series(
               (${range.from}::timestamptz at time zone ${range.zone})::date::timestamp,
               (${range.to}::timestamptz at time zone ${range.zone})::date::timestamp,
               interval '1 day') as d
    )
    select * from (
      select days.day as date, count(published.id) as posts, ${sums(sql`count(published.id) = 0`)}, 0 as bucket
        from days left join published on published.day = days.day
       group by days.day
      union all
      select null, count(published.id), ${sums(sql`count(published.id) = 0`)}, 1
        from published
    ) buckets
    order by bucket, date`.execute(db);
  return rows.map((row) => {
    const bucket = { date: (row.date as string | null) ?? null, posts: Number(row.posts) } as AnalyticsBucket;
    for (const m of METRICS) bucket[m] = toNumber(row[m]);
    return bucket;
  });
}

/** Up to `limit` published posts of the range by views, then likes (nulls last), then post id. */
export async function topPosts(db: DbOrTrx, range: AnalyticsRange, limit: number): Promise<TopPostRow[]> {
  const { rows } = await sql<Record<string, unknown>>`
    with published as (${publishedPosts({ providerId: range.providerId }, range)})
    select * from published
     order by views desc nulls last, likes desc nulls last, id collate "C"
     limit ${limit}`.execute(db);
  return rows.map(topPostOf);
}

function topPostOf(row: Record<string, unknown>): TopPostRow {
  const top = {
    threadId: row.thread_id as string,
    postId: row.id as string,
    permaLink: httpUrlOrNull(row.permalink as string | null),
    publishedAt: new Date(row.published_at as Date | string),
  } as TopPostRow;
  for (const m of METRICS) top[m] = toNumber(row[m]);
  return top;
}

export interface WorkspaceSummaryRow {
  published: number;
  failed: number;
  topPosts: Array<TopPostRow & { providerId: string; text: string | null }>;
}

/**
 * A workspace's range at a glance, in one statement: its threads published in [from, to]
 * (threads.published_at, set when the last post went out), its FAILED threads scheduled in it,
 * and up to `limit` of its published posts of the range (as the per-account analytics count
 * them) by views, then likes (nulls last), then post id, each with a snippet of its text.
 * Every part reads by index: the published threads through threads_provider_published_idx for
 * each of the workspace's providers, the failed ones through threads_failed_idx (docs/api.md,
 * "Workspace summary").
 */
export async function workspaceSummary(db: DbOrTrx, workspace: Workspace, range: { from: Date; to: Date }, limit: number): Promise<WorkspaceSummaryRow> {
  const posts = publishedPosts({ workspace }, { ...range, zone: 'UTC' });
  const { rows } = await sql<Record<string, unknown>>`
    with top as (
      select * from (${posts}) as published
       order by views desc nulls last, likes desc nulls last, id collate "C"
       limit ${limit}
    )
    select
      (select count(*) from providers as pr join threads as t on t.provider_id = pr.id
        where ${ofWorkspace('pr', workspace)}
          and t.status = 'PUBLISHED' and t.published_at >= ${range.from} and t.published_at <= ${range.to}) as published_count,
      (select count(*) from threads as t
        where t.status = 'FAILED' and ${ofWorkspace('t', workspace)}
          and t.scheduled_at >= ${range.from} and t.scheduled_at <= ${range.to}) as failed_count,
      top.*,
      (select ${textSnippet(sql.ref('c.content'))} from posts as c where c.id = top.id) as text
    from (select 1) as one left join top on true
    order by top.views desc nulls last, top.likes desc nulls last, top.id collate "C"`.execute(db);
  const first = rows[0]!;
  return {
    published: Number(first.published_count),
    failed: Number(first.failed_count),
    topPosts: rows
      .filter((row) => row.id != null)
      .map((row) => ({ ...topPostOf(row), providerId: row.provider_id as string, text: (row.text as string | null) ?? null })),
  };
}
