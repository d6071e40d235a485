import type { ServerOptions } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { lazyCompilers } from './http/lazy-compilers.js';
import { accessPlugin } from './http/plugins/access.js';
import { authAndLimitsPlugin } from './http/plugins/auth-and-limits.js';
import { answerUnmetExpectation, clientErrorHandler, errorsPlugin, frameworkErrors } from './http/plugins/errors.js';
import { jsonBodyPlugin } from './http/plugins/json-body.js';
import { openApiPlugin } from './http/plugins/openapi.js';
import { validationPlugin } from './http/plugins/validation.js';
import { registerRoutes } from './http/routes/index.js';
import { Problem } from './http/schemas/common.js';
import { webAppHandler } from './http/web-app.js';
import { newId } from './lib/ids.js';

/** Node checks its request timeouts every `connectionsCheckingInterval` (30 s by default). */
function requestTimeouts(timeoutMs: number): ServerOptions {
  if (timeoutMs === 0) return {};
  return { headersTimeout: Math.min(60_000, timeoutMs), connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(timeoutMs / 4))) };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles the routes' schema functions not used yet (http/lazy-compilers.ts); how many. */
    warmUpSchemas(): Promise<number>;
  }
}

/** The HTTP application. Never listens: server.ts does, tests use inject() or listen themselves. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const compilers = lazyCompilers();
  const app = Fastify({
    schemaController: { compilersFactory: compilers.compilersFactory },
    loggerInstance: ctx.logger as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : newId();
    },
    requestIdHeader: false,
    bodyLimit: ctx.config.http.bodyLimit,
    // A request (headers and body) not received within the timeout is answered 408 and its
    // connection closed, so a slow client cannot hold a connection open (0 = no limit).
    requestTimeout: ctx.config.http.requestTimeoutMs,
    http: requestTimeouts(ctx.config.http.requestTimeoutMs),
    trustProxy: ctx.config.http.trustProxy,
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false, useDefaults: false } },
    // Every answer Fastify or Node would write on its own is a problem+json (plugins/errors.ts).
    return503OnClosing: false,
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('warmUpSchemas', compilers.warmUp);
  app.server.on('checkExpectation', answerUnmetExpectation);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // By route pattern (`/api/v1/posts/:id`), never the raw URL: one series per route, not per id.
  if (ctx.metrics.enabled) {
    app.addHook('onResponse', async (request, reply) => {
      ctx.metrics.httpRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    });
  }
  app.addSchema(Problem);
  await app.register(errorsPlugin, { webApp: webAppHandler(ctx.config.http.webDir) });
  await app.register(jsonBodyPlugin);
  await app.register(validationPlugin);
  await app.register(openApiPlugin, { publicUrl: ctx.config.http.publicUrl });
  await app.register(authAndLimitsPlugin, { ctx });
  await app.register(accessPlugin, { ctx });
  await registerRoutes(app, ctx);
  return app;
}
