import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { cookieName } from '../cookies.js';
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
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: cookieName(publicUrl, 'skein_session'),
            description: 'The web app: state changes also need X-CSRF-Token',
          },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }, { session: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (document) => problemsAsProblemJson('openapiObject' in document ? document.openapiObject : {}),
  });
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (!response) return;
    for (const status of impliedProblemStatuses(route)) response[status] ??= ProblemRef;
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/api/v1/openapi.json' } as never });
  app.get('/api/v1/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
});

interface RouteShape {
  method: string | string[];
  url: string;
  schema?: { querystring?: unknown; body?: unknown; headers?: unknown };
  config?: { public?: boolean; access?: unknown };
}

/**
 * The error statuses a route answers because of what it is, not what it does: every request may
 * be malformed (400) or over its rate limit (429); a route behind a key may meet a missing one
 * (401); one that reads a body may get too large a body (413) or one not JSON (415), and, signed
 * in by the session cookie, lack its CSRF token (403); one that names a resource by id (a path
 * parameter, or a query or body field ending in `Id`) may not find it (404); one that takes
 * `If-Match` may find it changed (412). Derived here so that a new route cannot forget one.
 */
function impliedProblemStatuses(route: RouteShape): number[] {
  const statuses = [400, 429];
  const isPublic = route.config?.public === true;
  if (!isPublic) statuses.push(401);
  if ([route.method].flat().some((method) => BODY_METHODS.has(method))) {
    statuses.push(413, 415);
    if (!isPublic) statuses.push(403);
  }
  const { querystring, body, headers } = route.schema ?? {};
  // A route a team role guards may meet a caller whose role is below it (FORBIDDEN).
  if (typeof route.config?.access === 'object') statuses.push(403);
  if (route.url.includes('/:') || namesAnId(querystring) || namesAnId(body)) statuses.push(404);
  if (propertyNames(headers).includes('if-match')) statuses.push(412);
  return statuses;
}

function namesAnId(schema: unknown): boolean {
  return propertyNames(schema).some((name) => /Id$/.test(name));
}

function propertyNames(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

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
