import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ProblemRef } from '../schemas/common.js';

/** Methods whose requests Skein reads a body of (DELETE too: a client may send one). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** OpenAPI 3.1 generated from the route schemas; `/docs` renders it. */
export const openApiPlugin = fp(async (app: FastifyInstance, { publicUrl }: { publicUrl: string }) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Skein API', version: '1.0.0', description: 'Schedule posts and threads on Threads and Bluesky.' },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer skein_…' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          session: { type: 'apiKey', in: 'cookie', name: 'skein_session', description: 'The web app: state changes also need X-CSRF-Token' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }, { session: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (document) => problemsAsProblemJson('openapiObject' in document ? document.openapiObject : {}),
  });
  // Any route that reads a body can answer 413 (too large) and 415 (not JSON) before its handler
  // runs; say so in every such operation rather than in each route file.
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (!response || ![route.method].flat().some((m) => BODY_METHODS.has(m))) return;
    for (const status of [413, 415]) response[status] ??= ProblemRef;
    // Signed in by the session cookie, a state change without its CSRF token is refused.
    if (!route.config?.public) response[403] ??= ProblemRef;
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/api/v1/openapi.json' } as never });
  app.get('/api/v1/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
});

type Responses = Record<string, { content?: Record<string, unknown> }>;

/**
 * Error answers are sent as `application/problem+json` (RFC 9457); the schema of one serialises
 * both, but the document should say what goes over the wire.
 */
function problemsAsProblemJson<D extends { paths?: Record<string, unknown> }>(document: D): D {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations as Record<string, { responses?: Responses }>)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const json = response.content?.['application/json'];
        if (Number(status) < 400 || !json) continue;
        response.content = { 'application/problem+json': json };
      }
    }
  }
  return document;
}
