import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { ValidationError } from '../../errors/index.js';
import { iso } from '../../lib/time.js';
import { analyticsBuckets, METRICS, type MetricSums, topPosts } from '../../repos/analytics.js';
import { resolveWorkspace } from '../accounts/accounts.js';
import { requireProviderInWorkspace } from '../providers/providers.js';
import { readDateTime } from '../threads/schedule-time.js';

const MAX_RANGE_MS = 366 * 86_400_000;
const TOP_POSTS = 10;

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
  const from = readDateTime(query.from, account.timezone, 'from');
  const to = readDateTime(query.to, account.timezone, 'to');
  if (from > to) throw new ValidationError({ path: 'from', message: 'must not be after to' });
  if (to.getTime() - from.getTime() > MAX_RANGE_MS) throw new ValidationError({ path: 'to', message: 'the range may span at most 366 days' });
  return { from, to };
}

/**
 * A provider's analytics over a range read as List Posts reads it (local times in the caller's
 * zone, or with an offset; at most 366 days): the latest stored analytics of its posts published
 * in the range, summed per local day of the caller's zone and in total, and its top posts.
 */
export async function providerAnalytics(
  ctx: AppContext,
  account: AccountRow,
  query: { providerId: string; from: string; to: string; teamId?: string },
): Promise<AnalyticsView> {
  const { from, to } = readRange(account, query);
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  const provider = await requireProviderInWorkspace(ctx.db, workspace, query.providerId);
  const range = { providerId: provider.id, from, to, zone: account.timezone };
  const buckets = await analyticsBuckets(ctx.db, range);
  const top = await topPosts(ctx.db, range, TOP_POSTS);
  const total = buckets.find((b) => b.date === null)!;
  return {
    providerId: provider.id,
    from: iso(from),
    to: iso(to),
    totals: { posts: total.posts, ...sums(total) },
    days: buckets.filter((b) => b.date !== null).map((b) => ({ date: b.date!, posts: b.posts, ...sums(b) })),
    topPosts: top.map((p) => ({ threadId: p.threadId, postId: p.postId, permaLink: p.permaLink, publishedAt: iso(p.publishedAt), ...sums(p) })),
  };
}
