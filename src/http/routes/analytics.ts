import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { providerAnalytics } from '../../services/analytics.js';
import { caller } from '../plugins/auth-and-limits.js';
import { AnalyticsQuery, ProviderAnalytics } from '../schemas/analytics.js';
import { withProblems } from '../schemas/common.js';

export const analyticsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/analytics', {
    schema: {
      tags: ['Analytics'],
      summary: "A provider's analytics over a range: totals, every day in the account's zone, top posts",
      querystring: AnalyticsQuery,
      response: withProblems({ 200: ProviderAnalytics }),
    },
    handler: async (request) => providerAnalytics(ctx, caller(request), request.query),
  });
};
