import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { compiledAtFirstUse, lazyCompilers } from '../../src/http/lazy-compilers.js';
import { describeEachDb } from '../helpers/context.js';

/** A server with one route: a body to validate, an answer to serialise (which drops `extra`). */
async function oneRoute() {
  const compilers = lazyCompilers();
  const app = Fastify({
    schemaController: { compilersFactory: compilers.compilersFactory },
    ajv: { customOptions: { coerceTypes: false, allErrors: true } },
  });
  app.post(
    '/sum',
    {
      schema: {
        body: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
        response: { 200: { type: 'object', properties: { sum: { type: 'integer' } } } },
      },
    },
    async (request) => {
      const { a, b } = request.body as { a: number; b: number };
      return { sum: a + b, extra: 'not in the schema' };
    },
  );
  await app.ready();
  return { app, compilers };
}

test('a route part is compiled at its first use: it validates and serialises as Fastify’s own compilers do', async () => {
  const { app, compilers } = await oneRoute();
  const refused = await app.inject({ method: 'POST', url: '/sum', payload: { a: 1, b: 'two' } });
  assert.equal(refused.statusCode, 400);
  assert.match(refused.json().message, /body\/b must be integer/);
  // Every fault, not only the first (allErrors reaches the lazily compiled validator).
  const both = await app.inject({ method: 'POST', url: '/sum', payload: { a: 'one', b: 'two' } });
  assert.match(both.json().message, /body\/a must be integer, body\/b must be integer/);
  const answered = await app.inject({ method: 'POST', url: '/sum', payload: { a: 1, b: 2 } });
  assert.equal(answered.statusCode, 200);
  assert.equal(answered.body, '{"sum":3}');
  // Both were compiled by the requests: nothing is left for the warm-up.
  assert.equal(await compilers.warmUp(), 0);
  await app.close();
});

test('the warm-up compiles what no request has used yet, once; the route then answers as before', async () => {
  const { app, compilers } = await oneRoute();
  assert.equal(await compilers.warmUp(), 2);
  assert.equal(await compilers.warmUp(), 0);
  const answered = await app.inject({ method: 'POST', url: '/sum', payload: { a: 2, b: 3 } });
  assert.equal(answered.body, '{"sum":5}');
  await app.close();
});

test('a schema marked compiledAtFirstUse is left to its first request: the warm-up skips it, the route validates as before', async () => {
  const compilers = lazyCompilers();
  const app = Fastify({
    schemaController: { compilersFactory: compilers.compilersFactory },
    ajv: { customOptions: { coerceTypes: false, allErrors: true } },
  });
  const body = compiledAtFirstUse({ type: 'object', required: ['a'], properties: { a: { type: 'integer' } } });
  const answer = { type: 'object', properties: { ok: { type: 'boolean' } } };
  app.post('/cold', { schema: { body, response: { 200: answer } } }, async () => ({ ok: true, extra: 'dropped' }));
  await app.ready();
  // The answer's serializer is warmed up; the body's validator is not.
  assert.equal(await compilers.warmUp(), 1);
  const refused = await app.inject({ method: 'POST', url: '/cold', payload: { a: 'one' } });
  assert.equal(refused.statusCode, 400);
  assert.match(refused.json().message, /body\/a must be integer/);
  const answered = await app.inject({ method: 'POST', url: '/cold', payload: { a: 1 } });
  assert.equal(answered.body, '{"ok":true}');
  assert.equal(await compilers.warmUp(), 0);
  await app.close();
});

test('a headers schema naming a header other than in lower case is refused when the route is registered', async () => {
  const compilers = lazyCompilers();
  const app = Fastify({ schemaController: { compilersFactory: compilers.compilersFactory } });
  app.put('/x', { schema: { headers: { type: 'object', properties: { 'If-Match': { type: 'string' } } } } }, async () => ({}));
  await assert.rejects(async () => app.ready(), /PUT \/x: the headers schema names "If-Match"; header names in a schema must be lower case/);
});

describeEachDb('the app’s schemas, compiled lazily', (env) => {
  test('every route’s schema functions compile (the warm-up a server runs once it listens)', async () => {
    const { app } = env();
    const compiled = await app.warmUpSchemas();
    // Every route validates something or answers with a schema; most do both, with their problems.
    assert.ok(compiled > app.printRoutes({ commonPrefix: false }).split('\n').length, `${compiled} functions compiled`);
    assert.equal(await app.warmUpSchemas(), 0);
  });
});
