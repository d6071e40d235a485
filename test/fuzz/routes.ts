import type { FastifyInstance } from 'fastify';
import type { JsonSchema } from './schema-arb.js';

/** One registered route, with the input schemas the route declares (via its OpenAPI operation). */
export interface RouteSpec {
  method: string;
  /** Fastify form: `/api/v1/posts/:threadId`. */
  path: string;
  /** Listed in the OpenAPI document (hidden routes take no declared input). */
  documented: boolean;
  params: Array<{ name: string; schema: JsonSchema }>;
  /** An object schema of the query string; null when the route declares none. */
  query: JsonSchema | null;
  /** An object schema of the declared request headers; null when none. */
  headers: JsonSchema | null;
  body: { schema: JsonSchema; required: boolean } | null;
  /** The operation also takes a text/csv body (the import). */
  csv: boolean;
  /** Status codes the operation documents. */
  statuses: Set<number>;
  /** Under /api and not declared open (`security: []`), or naming its own schemes (/mcp): a caller without a valid key gets a 401. */
  needsKey: boolean;
}

export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/**
 * Every route the app has, read from Fastify's own route tree (so a route added tomorrow is
 * here too), joined with its operation in the OpenAPI document, which Fastify generates from
 * the very TypeBox schemas the route validates with.
 */
export function enumerateRoutes(app: FastifyInstance): RouteSpec[] {
  const doc = (app as unknown as { swagger(): OpenApi }).swagger();
  const routes: RouteSpec[] = [];
  const operationOf = (path: string, method: string) => doc.paths?.[path.replace(/:(\w+)/g, '{$1}')]?.[(method === 'HEAD' ? 'GET' : method).toLowerCase()];
  for (const { path: tree, methods } of parseRouteTree(app.printRoutes({ commonPrefix: false }))) {
    for (const method of methods) {
      const spellings = pathSpellings(tree);
      const path = spellings.find((p) => operationOf(p, method)) ?? spellings[0]!;
      const operation = operationOf(path, method);
      routes.push(operation ? fromOperation(method, path, operation) : hiddenRoute(method, path));
    }
  }
  return routes;
}

/**
 * Routes whose parameters at one place have different names (`/providers/:id/followers`,
 * `/providers/:network/connect`) share a node the tree prints as `:network|:id`: each spelling
 * of the path, of which the route's own is the one its operation is documented under.
 */
function pathSpellings(tree: string): string[] {
  return tree
    .split('/')
    .reduce<string[]>((paths, segment, i) => segment.split('|').flatMap((name) => paths.map((p) => (i === 0 ? name : `${p}/${name}`))), ['']);
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, unknown>;
  security?: unknown[];
}

interface OpenApi {
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

function objectOf(parameters: OpenApiParameter[]): JsonSchema | null {
  if (parameters.length === 0) return null;
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  };
}

function fromOperation(method: string, path: string, operation: OpenApiOperation): RouteSpec {
  const parameters = operation.parameters ?? [];
  const params = [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name: name!,
    schema: parameters.find((p) => p.in === 'path' && p.name === name)?.schema ?? { type: 'string' },
  }));
  const json = operation.requestBody?.content?.['application/json'];
  return {
    method,
    path,
    documented: true,
    params,
    query: objectOf(parameters.filter((p) => p.in === 'query')),
    headers: objectOf(parameters.filter((p) => p.in === 'header')),
    body: json ? { schema: json.schema, required: operation.requestBody?.required === true } : null,
    csv: operation.requestBody?.content?.['text/csv'] !== undefined,
    statuses: new Set(Object.keys(operation.responses ?? {}).map(Number)),
    // Open when it says so (`security: []`); /mcp, outside /api, names its schemes (the key only).
    needsKey: Array.isArray(operation.security) ? operation.security.length > 0 : path.startsWith('/api/'),
  };
}

function hiddenRoute(method: string, path: string): RouteSpec {
  const params = [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name: name!, schema: { type: 'string' } }));
  if (path.endsWith('*')) params.push({ name: '*', schema: { type: 'string' } });
  return { method, path, documented: false, params, query: null, headers: null, body: null, csv: false, statuses: new Set(), needsKey: false };
}

/**
 * `printRoutes({ commonPrefix: false })` draws a tree: `├── /api/v1/posts (GET, HEAD, POST)`,
 * children indented by four columns and holding the rest of the path.
 */
export function parseRouteTree(tree: string): Array<{ path: string; methods: string[] }> {
  const out: Array<{ path: string; methods: string[] }> = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const prefix = stack.join('');
    stack.push(match[2]!);
    if (match[3]) out.push({ path: prefix + match[2]!, methods: match[3].split(',').map((m) => m.trim()) });
  }
  return out;
}
