import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { pingDatabase } from '../../db/database.js';
import { PROBLEM_CONTENT_TYPE, problemType } from '../../errors/problem.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const notReady = (detail: string) =>
      reply
        .status(503)
        .type(PROBLEM_CONTENT_TYPE)
        .send({ type: problemType('NOT_READY'), title: 'Not ready', status: 503, detail, code: 'NOT_READY' });
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
