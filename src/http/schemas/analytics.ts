import { Type } from '@sinclair/typebox';
import { Id, IsoDateTime, LocalDateTime, TeamIdQuery } from './common.js';

export const AnalyticsQuery = Type.Object({
  providerId: Type.String({ description: 'The provider whose posts are counted' }),
  from: LocalDateTime,
  to: LocalDateTime,
  teamId: TeamIdQuery,
});

const Count = Type.Integer({ minimum: 0 });
const Sum = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
  description:
    'Sum over the bucket’s posts that have a value; null when the bucket has posts and none has one (a metric the network lacks); 0 for a bucket without posts',
});
const metrics = { views: Sum, likes: Sum, replies: Sum, reposts: Sum, quotes: Sum, shares: Sum };

export const AnalyticsDay = Type.Object({
  date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'A calendar day in the account’s time zone' }),
  posts: Count,
  ...metrics,
});

export const AnalyticsTopPost = Type.Object({
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
});
