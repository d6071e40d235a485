import { Type } from '@sinclair/typebox';
import { Id, IsoDateTime, LocalDateTime, NextCursor, pageQuery, TeamIdQuery } from './common.js';

export const AnalyticsQuery = Type.Object({
  providerId: Type.String({ description: 'The provider whose posts are counted' }),
  from: LocalDateTime,
  to: LocalDateTime,
  teamId: TeamIdQuery,
  ...pageQuery(
    'Local days',
    'A page answers its days alone (from, to, totals and topPosts of those days). Without limit and cursor the whole range (at most 366 days) in one answer, as ever (no nextCursor).',
  ),
});

const Count = Type.Integer({ minimum: 0 });
const Sum = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
  description:
    'Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts',
});
const metrics = { views: Sum, likes: Sum, replies: Sum, reposts: Sum, quotes: Sum, shares: Sum };

const AnalyticsDay = Type.Object({
  date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'A calendar day in the account’s time zone' }),
  posts: Count,
  ...metrics,
});

const AnalyticsTopPost = Type.Object({
  threadId: Id,
  postId: Id,
  permaLink: Type.Union([Type.String(), Type.Null()]),
  publishedAt: IsoDateTime,
  views: Type.Union([Type.Integer(), Type.Null()]),
  likes: Type.Union([Type.Integer(), Type.Null()]),
  replies: Type.Union([Type.Integer(), Type.Null()]),
  reposts: Type.Union([Type.Integer(), Type.Null()]),
  quotes: Type.Union([Type.Integer(), Type.Null()]),
  shares: Type.Union([Type.Integer(), Type.Null()]),
});

export const ProviderAnalytics = Type.Object({
  providerId: Id,
  from: IsoDateTime,
  to: IsoDateTime,
  totals: Type.Object({ posts: Count, ...metrics }),
  days: Type.Array(AnalyticsDay, { description: 'Every day of the range in the account’s zone, in order, quiet days included' }),
  topPosts: Type.Array(AnalyticsTopPost, { maxItems: 10, description: 'By views, then likes (nulls last), then post id' }),
  nextCursor: Type.Optional(NextCursor),
});

export const AnalyticsSummaryQuery = Type.Object({
  from: LocalDateTime,
  to: LocalDateTime,
  teamId: TeamIdQuery,
});

export const AnalyticsSummary = Type.Object({
  from: IsoDateTime,
  to: IsoDateTime,
  published: Type.Integer({ minimum: 0, description: 'The workspace’s threads published in the range (the time its last post went out)' }),
  failed: Type.Integer({ minimum: 0, description: 'The workspace’s FAILED threads scheduled in the range' }),
  topPosts: Type.Array(
    Type.Object({
      ...AnalyticsTopPost.properties,
      providerId: Id,
      text: Type.Union([Type.String(), Type.Null()], {
        description: 'The post’s text, trimmed, at most 100 characters (a longer one cut to 99 and …); null for one without text',
      }),
    }),
    { maxItems: 5, description: 'Across every account of the workspace, as Analytics orders them: by views, then likes (nulls last), then post id' },
  ),
});

export const FollowersQuery = Type.Object({
  from: LocalDateTime,
  to: LocalDateTime,
});

export const ProviderFollowers = Type.Object({
  providerId: Id,
  current: Type.Union(
    [
      Type.Object({
        count: Count,
        fetchedAt: IsoDateTime,
      }),
      Type.Null(),
    ],
    { description: 'The latest count fetched, whatever the range; null before the first fetch' },
  ),
  history: Type.Array(
    Type.Object({
      date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'The UTC day of the fetch' }),
      count: Count,
    }),
    { description: 'One count per UTC day, fetched within the range, oldest first; days without a fetch are absent' },
  ),
});

/** Refresh now takes an empty object (or no body). */
export const RefreshBody = Type.Object({});
