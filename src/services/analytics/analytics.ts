import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { Faults, ValidationError } from '../../errors/index.js';
import { encodeCursor, keyAfter, type PageQuery, pageScope, readPage } from '../../lib/pages.js';
import { instantOfLocal, localDate, wallClockOf } from '../../lib/recurrence.js';
import { iso } from '../../lib/time.js';
import { type AnalyticsRange, analyticsBuckets, METRICS, type MetricSums, topPosts, workspaceSummary } from '../../repos/analytics.js';
import { resolveWorkspace } from '../accounts/accounts.js';
import { requireProviderInWorkspace } from '../providers/providers.js';
import { readDateTime } from '../threads/schedule-time.js';

const MAX_RANGE_MS = 366 * 86_400_000;
const TOP_POSTS = 10;
/** The workspace summary's top posts. */
const SUMMARY_TOP_POSTS = 5;

type DayView = { date: string; posts: number } & MetricSums;
type TopPostView = { threadId: string; postId: string; permaLink: string | null; publishedAt: string } & MetricSums;

export interface AnalyticsView {
  providerId: string;
  from: string;
  to: string;
  totals: { posts: number } & MetricSums;
  days: DayView[];
  topPosts: TopPostView[];
}

function sums(row: MetricSums): MetricSums {
  return Object.fromEntries(METRICS.map((m) => [m, row[m]])) as MetricSums;
}

/**
 * A range read as List Posts reads it: local times in the caller's zone (or with an offset),
 * `from` not after `to`, at most 366 days. Analytics and follower history share it.
 */
export function readRange(account: AccountRow, query: { from: string; to: string }): { from: Date; to: Date } {
  const faults = new Faults();
  const from = faults.check(() => readDateTime(query.from, account.timezone, 'from'));
  const to = faults.check(() => readDateTime(query.to, account.timezone, 'to'));
  if (from && to && from > to) faults.add({ path: 'from', message: 'must not be after to' });
  else if (from && to && to.getTime() - from.getTime() > MAX_RANGE_MS) faults.add({ path: 'to', message: 'the range may span at most 366 days' });
  faults.throwIfAny();
  return { from: from!, to: to! };
}

/**
 * A provider's analytics over a range read as List Posts reads it (local times in the caller's
 * zone, or with an offset; at most 366 days): the latest stored analytics of its posts published
 * in the range, summed per local day of the caller's zone and in total, and its top posts.
 */
export async function providerAnalytics(ctx: AppContext, account: AccountRow, query: AnalyticsQuery): Promise<AnalyticsView & { nextCursor?: string | null }> {
  if (query.limit !== undefined || query.cursor !== undefined) return analyticsPage(ctx, account, query);
  const { from, to } = readRange(account, query);
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  const provider = await requireProviderInWorkspace(ctx.db, workspace, query.providerId);
  return analyticsOf(ctx, { providerId: provider.id, from, to, zone: account.timezone });
}

type AnalyticsQuery = PageQuery & { providerId: string; from: string; to: string; teamId?: string };

/** A `YYYY-MM-DD` that is a real date: what an analytics cursor holds. */
const DATE_KEY = (value: string): boolean => /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const dayOf = (instant: Date, zone: string): string => localDate(wallClockOf(instant, zone));

/** The first instant of a local date in `zone` (the end of the gap when the clocks skip its midnight). */
function startOfDay(date: string, zone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return instantOfLocal({ year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
}

/**
 * A page of `limit` local days of the range, after the cursor's day: the analytics of those days
 * alone (its `from` and `to` are the page's first and last instants, its totals and top posts
 * the page's), so a page reads only its days' posts. The cursor holds the page's last day.
 */
async function analyticsPage(ctx: AppContext, account: AccountRow, query: AnalyticsQuery): Promise<AnalyticsView & { nextCursor: string | null }> {
  const faults = new Faults();
  const range = faults.check(() => readRange(account, query));
  const page = readPage(query, faults, 'analytics', [DATE_KEY], 31);
  faults.throwIfAny();
  const { from, to } = range!;
  const zone = account.timezone;
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  const provider = await requireProviderInWorkspace(ctx.db, workspace, query.providerId);
  const scope = pageScope([provider.id, iso(from), iso(to), zone]);
  const key = keyAfter(page!, scope);
  const [firstDay, lastDay] = [dayOf(from, zone), dayOf(to, zone)];
  const startDay = key ? addDays(key[0]!, 1) : firstDay;
  // A cursor of this scope names a day inside the range, before its last: anything else was forged.
  if ((key && startDay <= firstDay) || startDay > lastDay) throw new ValidationError({ path: 'cursor', message: 'not a cursor of this range' });
  const [endDay] = [addDays(startDay, page!.limit - 1), lastDay].sort() as [string];
  const pageFrom = key ? startOfDay(startDay, zone) : from;
  const before = endDay === lastDay ? undefined : startOfDay(addDays(endDay, 1), zone);
  const pageTo = before ? new Date(before.getTime() - 1) : to;
  const view = await analyticsOf(ctx, { providerId: provider.id, from: pageFrom, to: pageTo, ...(before ? { before } : {}), zone });
  return { ...view, nextCursor: before ? encodeCursor('analytics', scope, [endDay]) : null };
}

async function analyticsOf(ctx: AppContext, range: AnalyticsRange): Promise<AnalyticsView> {
  const { providerId, from, to } = range;
  const buckets = await analyticsBuckets(ctx.db, range);
  const top = await topPosts(ctx.db, range, TOP_POSTS);
  const total = buckets.find((b) => b.date === null)!;
  return {
    providerId,
    from: iso(from),
    to: iso(to),
    totals: { posts: total.posts, ...sums(total) },
    days: buckets.filter((b) => b.date !== null).map((b) => ({ date: b.date!, posts: b.posts, ...sums(b) })),
    topPosts: top.map((p) => ({ threadId: p.threadId, postId: p.postId, permaLink: p.permaLink, publishedAt: iso(p.publishedAt), ...sums(p) })),
  };
}

export interface AnalyticsSummaryView {
  from: string;
  to: string;
  published: number;
  failed: number;
  topPosts: Array<TopPostView & { providerId: string; text: string | null }>;
}

/**
 * A workspace's range at a glance (the home page's "Last 7 days"), whatever its number of
 * accounts and threads: its threads published in the range (threads.published_at), its FAILED
 * threads scheduled in it, and its top posts across every account, as the per-account analytics
 * order them, each with a snippet of its text. Two statements with a team (its membership), one
 * without: docs/api.md, "Workspace summary".
 */
export async function analyticsSummary(
  ctx: AppContext,
  account: AccountRow,
  query: { from: string; to: string; teamId?: string },
): Promise<AnalyticsSummaryView> {
  const { from, to } = readRange(account, query);
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  const summary = await workspaceSummary(ctx.db, workspace, { from, to }, SUMMARY_TOP_POSTS);
  return {
    from: iso(from),
    to: iso(to),
    published: summary.published,
    failed: summary.failed,
    topPosts: summary.topPosts.map((p) => ({
      threadId: p.threadId,
      postId: p.postId,
      providerId: p.providerId,
      text: p.text,
      permaLink: p.permaLink,
      publishedAt: iso(p.publishedAt),
      ...sums(p),
    })),
  };
}
