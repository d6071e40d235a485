import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { attentionItems } from '../../services/notices/attention.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { AttentionList, AttentionQuery } from '../schemas/attention.js';
import { withProblems } from '../schemas/common.js';

export const attentionRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/attention', {
    config: { access: ACCESS.attention },
    schema: {
      tags: ['Attention'],
      summary: 'What needs the user now, newest first: failed threads and follow-ups, expired or revoked accounts, due threads on them',
      querystring: AttentionQuery,
      response: withProblems({ 200: AttentionList }),
    },
    handler: async (request) => {
      const { items, nextCursor } = await attentionItems(ctx, caller(request), request.query);
      // Unpaged, the answer is as it always was: no nextCursor.
      return nextCursor === undefined ? { items, count: items.length } : { items, count: items.length, nextCursor };
    },
  });
};
