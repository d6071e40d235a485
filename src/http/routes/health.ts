import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { pingDatabase } from '../../db/database.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await pingDatabase(ctx.db);
      return { status: 'ready', database: ctx.dbKind };
    } catch {
      return reply.status(503).type('application/problem+json').send({
        type: 'https://skein.dev/problems/not-ready',
        title: 'Not ready',
        status: 503,
        detail: 'The database is not reachable.',
        code: 'NOT_READY',
      });
    }
  });
};
