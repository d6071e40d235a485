import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';

// Found by the fuzz suite: answers the OpenAPI document did not list for their route.
describeEachDb('the OpenAPI document lists every status a route answers with', (env) => {
  const documented = async (method: string, path: string): Promise<number[]> => {
    const doc = (await env().app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    return Object.keys(doc.paths[path][method].responses).map(Number);
  };

  test('a NUL character in the query string is a 400 on every route, and every operation documents 400', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const res = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect?from=%00' });
    assert.equal(res.statusCode, 400, res.body);
    assert.ok((await documented('get', '/api/v1/providers/{network}/connect')).includes(400));
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    for (const [path, operations] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) assert.ok('400' in operation.responses, `${method} ${path}`);
    }
  });

  test('a DELETE with a body that is not JSON is a 415, one too large a 413, and both are documented', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const created = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'x' }] } });
    const keys = (await user.call(app, { method: 'GET', url: '/api/v1/keys' })).json().keys;
    const cases = [
      { url: `/api/v1/posts/${created.json().threadId}`, path: '/api/v1/posts/{threadId}' },
      { url: `/api/v1/keys/${keys[0].id}`, path: '/api/v1/keys/{id}' },
      { url: `/api/v1/providers/${provider.id}`, path: '/api/v1/providers/{id}' },
    ];
    for (const { url, path } of cases) {
      const plain = await user.call(app, { method: 'DELETE', url, headers: { 'content-type': 'text/plain' }, payload: 'x' });
      assert.equal(plain.statusCode, 415, plain.body);
      const huge = await user.call(app, { method: 'DELETE', url, headers: { 'content-type': 'application/json' }, payload: `"${'x'.repeat(1_100_000)}"` });
      assert.equal(huge.statusCode, 413, huge.body);
      const statuses = await documented('delete', path);
      for (const status of [400, 413, 415]) assert.ok(statuses.includes(status), `${path} documents ${statuses.join(', ')}, not ${status}`);
    }
  });

  // Found again by the fuzz suite on a route added later (DELETE /api/v1/time-slots/:id): the
  // statuses are now added for every route that reads a body, so a new route cannot miss them.
  test('every operation that reads a body documents 413 and 415', async () => {
    const doc = (await env().app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    let checked = 0;
    for (const [path, operations] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
        checked++;
        for (const status of ['413', '415']) assert.ok(status in operation.responses, `${method} ${path} does not document ${status}`);
      }
    }
    assert.ok(checked > 10);
  });
});
