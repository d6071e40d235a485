import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { authAndLimitsPlugin } from './http/plugins/auth-and-limits.js';
import { errorsPlugin } from './http/plugins/errors.js';
import { jsonBodyPlugin } from './http/plugins/json-body.js';
import { openApiPlugin } from './http/plugins/openapi.js';
import { utf8BodyPlugin } from './http/plugins/utf8-body.js';
import { registerRoutes } from './http/routes/index.js';
import { Problem } from './http/schemas/common.js';
import { newId } from './lib/ids.js';

/** The HTTP application. Never listens: server.ts does, tests use inject() or listen themselves. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : newId();
    },
    requestIdHeader: false,
    bodyLimit: ctx.config.http.bodyLimit,
    trustProxy: ctx.config.http.trustProxy,
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false, useDefaults: false } },
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addSchema(Problem);
  await app.register(errorsPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(openApiPlugin, { publicUrl: ctx.config.http.publicUrl });
  await app.register(authAndLimitsPlugin, { ctx });
  await app.register(utf8BodyPlugin);
  await registerRoutes(app, ctx);
  return app;
}
