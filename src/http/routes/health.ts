import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { pingDatabase } from '../../db/database.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const notReady = (detail: string) =>
      reply
        .status(503)
        .type('application/problem+json')
        .send({ type: 'https://skein.dev/problems/not-ready', title: 'Not ready', status: 503, detail, code: 'NOT_READY' });
    try {
      await pingDatabase(ctx.db);
    } catch {
      return notReady('The database is not reachable.');
    }
    // Only in a process whose publisher loop has ticked at least once (see Metrics.publisherStall).
    const stall = ctx.metrics.publisherStall();
    if (stall) return notReady(stall);
    return { status: 'ready', database: ctx.dbKind };
  });
};
