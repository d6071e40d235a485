import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { analyticsSummary, providerAnalytics } from '../../services/analytics/analytics.js';
import { refreshThreadAnalytics } from '../../services/analytics/analytics-refresh.js';
import { providerFollowers } from '../../services/providers/followers.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import {
  AnalyticsQuery,
  AnalyticsSummary,
  AnalyticsSummaryQuery,
  FollowersQuery,
  ProviderAnalytics,
  ProviderFollowers,
  RefreshBody,
} from '../schemas/analytics.js';
import { Id, ThreadIdParams, withProblems } from '../schemas/common.js';
import { Thread } from '../schemas/threads.js';

export const analyticsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/analytics', {
    config: { access: ACCESS.analytics },
    schema: {
      tags: ['Analytics'],
      summary: "A provider's analytics over a range: totals, every day in the account's zone, top posts",
      querystring: AnalyticsQuery,
      response: withProblems({ 200: ProviderAnalytics }),
    },
    handler: async (request) => providerAnalytics(ctx, caller(request), request.query),
  });

  app.get('/api/v1/analytics/summary', {
    config: { access: ACCESS.analytics },
    schema: {
      tags: ['Analytics'],
      summary: "The workspace's range at a glance: threads published and failed, its top posts across every account",
      querystring: AnalyticsSummaryQuery,
      response: withProblems({ 200: AnalyticsSummary }),
    },
    handler: async (request) => analyticsSummary(ctx, caller(request), request.query),
  });

  app.get('/api/v1/providers/:id/followers', {
    config: { access: ACCESS.followers },
    schema: {
      tags: ['Analytics'],
      summary: "A provider's follower count now and one per UTC day over a range (fetched daily)",
      params: Type.Object({ id: Id }),
      querystring: FollowersQuery,
      response: withProblems({ 200: ProviderFollowers }),
    },
    handler: async (request) => providerFollowers(ctx, caller(request), request.params.id, request.query),
  });

  app.post('/api/v1/posts/:threadId/analytics/refresh', {
    config: { access: ACCESS.refreshAnalytics },
    schema: {
      tags: ['Analytics'],
      summary: "Fetch the analytics of the thread's published posts from the network now; answers the thread",
      params: ThreadIdParams,
      body: RefreshBody,
      response: withProblems({ 200: Type.Object({ thread: Thread }) }, [409, 502]),
    },
    // The body is optional: no body means the same as {}.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => ({ thread: await refreshThreadAnalytics(ctx, caller(request), request.params.threadId) }),
  });
};
