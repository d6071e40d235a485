import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { CreatePostBody, EditPostBody, EditThreadBody, ListPostsQuery, RescheduleBody, RetryBody } from '../../src/http/schemas/threads.js';
import { createTestEnv } from '../helpers/context.js';
import { DIALECTS, postgresSkipReason } from '../helpers/db.js';
import { type Answer, checkAnswer, comparable, formatReport, fuzz } from './harness.js';
import { toPlain } from './nodes.js';
import { type FuzzRequest, fuzzRequest, render } from './requests.js';
import { enumerateRoutes, parseRouteTree, type RouteSpec, routeKey } from './routes.js';
import { arbitraryOf, type JsonSchema } from './schema-arb.js';
import { unknownId } from './world.js';

/** A short run of the fuzz suite on every `npm test` (npm run fuzz runs long ones). */
const RUNS = Number(process.env.SKEIN_FUZZ_RUNS ?? 200);
const SEED = Number(process.env.SKEIN_FUZZ_SEED ?? Date.now() % 2 ** 31);

describe('fuzz generators', () => {
  test('values drawn from a TypeBox schema are valid against it', () => {
    for (const schema of [CreatePostBody, EditPostBody, EditThreadBody, RescheduleBody, RetryBody, ListPostsQuery]) {
      fc.assert(
        fc.property(arbitraryOf(schema as unknown as JsonSchema), (node) => {
          const value = toPlain(node, () => 'id');
          assert.ok(
            Value.Check(schema, value),
            `${JSON.stringify(value)}: ${[...Value.Errors(schema, value)].map((e) => `${e.path} ${e.message}`).join('; ')}`,
          );
        }),
        { numRuns: 100 },
      );
    }
  });

  test('the route tree Fastify prints is read back into full paths', () => {
    const tree = [
      '├── /api/v1/posts (GET, HEAD, POST)',
      '│   ├── /drafts (GET, HEAD)',
      '│   └── /:threadId (GET, DELETE)',
      '│       └── /tags (PUT)',
      '└── /healthz (GET)',
    ].join('\n');
    assert.deepEqual(parseRouteTree(tree), [
      { path: '/api/v1/posts', methods: ['GET', 'HEAD', 'POST'] },
      { path: '/api/v1/posts/drafts', methods: ['GET', 'HEAD'] },
      { path: '/api/v1/posts/:threadId', methods: ['GET', 'DELETE'] },
      { path: '/api/v1/posts/:threadId/tags', methods: ['PUT'] },
      { path: '/healthz', methods: ['GET'] },
    ]);
  });

  test('every registered route has a generator, and its valid requests render', async () => {
    const env = await createTestEnv('pglite');
    try {
      // (Also a first query: a PGlite closed before any query keeps the process from exiting.)
      assert.equal((await env.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      const routes = enumerateRoutes(env.app);
      const keys = routes.map(routeKey);
      for (const expected of [
        'POST /api/v1/posts',
        'PATCH /api/v1/account',
        'DELETE /api/v1/keys/:id',
        'GET /api/v1/providers/:network/callback',
        'DELETE /api/v1/providers/:id',
        'POST /mcp',
        'GET /healthz',
      ]) {
        assert.ok(keys.includes(expected), `${expected} is missing from ${keys.join(', ')}`);
      }
      for (const route of routes) {
        // Throws for a route whose path parameter has no id source: add one in requests.ts.
        const [request] = fc.sample(fuzzRequest(route), { seed: 1, numRuns: 1 });
        const concrete = render(request!, (ref) => unknownId(ref.kind, ref.index), { a: 'key-a', b: 'key-b' });
        assert.equal(concrete.method, route.method);
        // An object, or an array of them (the import's rows).
        if (route.documented && route.body?.required) assert.ok(['object', 'array'].includes(String(route.body.schema.type)), routeKey(route));
      }
    } finally {
      await env.close();
    }
  });
});

describe('fuzz properties', () => {
  const route: RouteSpec = {
    method: 'POST',
    path: '/api/v1/providers/bluesky',
    documented: true,
    params: [],
    query: null,
    headers: null,
    body: null,
    csv: false,
    statuses: new Set([201, 400, 401, 404, 413, 415, 429, 502]),
    needsKey: true,
  };
  const request = { route: 'POST /api/v1/providers/bluesky', params: {}, mutations: [] } as unknown as FuzzRequest;
  const problem = (status: number, extra: object = {}): Answer => ({
    status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8' },
    body: Buffer.from(JSON.stringify({ type: 't', title: 't', detail: 'd', code: 'X', status, ...extra })),
  });
  const same = { a: { threads: '1' }, b: { threads: '2' } };
  const check = (answer: Answer | null, after = same, caller: 'a' | 'b' = 'a', authenticated = true) =>
    checkAnswer({ route, request, method: 'POST', answer, before: same, after, caller, authenticated }).map((f) => f.kind);

  test('each property is checked: 5xx, problem+json, documented status, unchanged rows', () => {
    assert.deepEqual(check(problem(400)), []);
    assert.deepEqual(check(problem(500)), ['server-error']);
    assert.deepEqual(check(problem(502)), [], 'a 502 the route documents (network unreachable) is allowed');
    assert.deepEqual(check({ status: 400, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"error":"Bad Request"}') }), [
      'not-problem-json',
    ]);
    assert.deepEqual(check(problem(400, { status: 422 })), ['not-problem-json']);
    assert.deepEqual(check(problem(400, { code: undefined })), ['not-problem-json']);
    assert.deepEqual(check(problem(409)), ['undocumented-status']);
    assert.deepEqual(check(null), ['no-answer']);
    const callerChanged = { a: { threads: 'changed' }, b: { threads: '2' } };
    const otherChanged = { a: { threads: '1' }, b: { threads: 'changed' } };
    assert.deepEqual(check(problem(400), callerChanged), ['refused-but-changed']);
    assert.deepEqual(check({ status: 201, headers: {}, body: Buffer.from('{}') }, callerChanged), []);
    assert.deepEqual(check({ status: 201, headers: {}, body: Buffer.from('{}') }, otherChanged), ['other-tenant-changed']);
    assert.deepEqual(check({ status: 201, headers: {}, body: Buffer.from('{}') }, same, 'a', false), ['unauthenticated-served']);
    assert.deepEqual(check(problem(401), same, 'a', false), []);
  });

  test('the encoded-path mutation spells a letter of the fixed path %-encoded, never one of a parameter', () => {
    const setup: RouteSpec = { ...route, method: 'GET', path: '/api/v1/providers/:id' };
    const seen = new Set<string>();
    for (const r of fc.sample(fuzzRequest(setup), { seed: 7, numRuns: 3_000 })) {
      const mutated = r.mutations.find((m) => m.startsWith('encoded-path'));
      if (!mutated) continue;
      assert.match(r.path, /%[0-9A-F]{2}/, mutated);
      assert.ok(r.path.endsWith(':id'), r.path);
      assert.equal(decodeURIComponent(r.path), setup.path);
      seen.add(r.path);
    }
    assert.ok(seen.size > 5, [...seen].join(' '));
  });

  test("another account's id and an unknown one compare equal only when the answers match but for the id", () => {
    const notFound = (id: string, detail = `Thread ${id} was not found.`) => problem(404, { detail });
    assert.equal(comparable(notFound('id-1'), ['id-1', 'id-2'], 'GET'), comparable(notFound('id-2'), ['id-1', 'id-2'], 'GET'));
    assert.notEqual(comparable(notFound('id-1', 'Forbidden.'), ['id-1', 'id-2'], 'GET'), comparable(notFound('id-2'), ['id-1', 'id-2'], 'GET'));
    assert.notEqual(comparable(problem(403), [], 'GET'), comparable(problem(404), [], 'GET'));
  });
});

for (const kind of DIALECTS) {
  const skip = kind === 'postgres' ? postgresSkipReason() : null;
  test(`fuzz [${kind}]: ${RUNS} hostile requests, no new failure (seed ${SEED}; replay with npm run fuzz -- --db ${kind} --seed ${SEED})`, {
    skip: skip ?? false,
  }, async (t) => {
    const report = await fuzz({ kind, runs: RUNS, seed: SEED });
    const text = formatReport(report);
    for (const line of text.split('\n')) t.diagnostic(line);
    const fresh = report.failures.filter((f) => !f.known);
    assert.equal(fresh.length, 0, text);
  });
}
