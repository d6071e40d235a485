import { type RawBuilder, sql } from 'kysely';
import { httpUrlOrNull } from '../lib/http-url.js';
import type { DbOrTrx } from './types.js';

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

/** The published posts of the provider with published_at in [from, to], with their local day and metrics. */
function publishedPosts(range: AnalyticsRange): RawBuilder<unknown> {
  return sql`
    select p.id, p.thread_id, p.permalink, p.published_at,
           to_char((p.published_at at time zone ${range.zone})::date, 'YYYY-MM-DD') as day,
           ${sql.join(
             METRICS.map((m) => sql`${metric(m)} as ${sql.ref(m)}`),
             sql`, `,
           )}
      from posts p
      join (
        -- A post is published before (or as) its thread is: the account's threads published
        -- since the range's start, and those not published (failed part-way), hold its posts.
        select id from threads where provider_id = ${range.providerId} and status = 'PUBLISHED' and published_at >= ${range.from}
        union all
        select id from threads where provider_id = ${range.providerId} and status = 'PUBLISHED' and published_at is null
        union all
        select id from threads where provider_id = ${range.providerId} and status <> 'PUBLISHED'
      ) t on t.id = p.thread_id
     where p.status = 'PUBLISHED'
       and p.published_at >= ${range.from}
       and (p.published_at <= ${range.to} or p.published_at < ${range.before ?? range.to}::timestamptz)`;
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
    with published as (${publishedPosts(range)}),
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
    with published as (${publishedPosts(range)})
    select * from published
     order by views desc nulls last, likes desc nulls last, id collate "C"
     limit ${limit}`.execute(db);
  return rows.map((row) => {
    const top = {
      threadId: row.thread_id as string,
      postId: row.id as string,
      permaLink: httpUrlOrNull(row.permalink as string | null),
      publishedAt: new Date(row.published_at as Date | string),
    } as TopPostRow;
    for (const m of METRICS) top[m] = toNumber(row[m]);
    return top;
  });
}
