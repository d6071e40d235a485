import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';

describeEachDb('over real HTTP', (env) => {
  test('listen, then health, readiness, OpenAPI, docs and a full create/read over fetch', async () => {
    const { app, ctx } = env();
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account, 'BLUESKY');

    assert.deepEqual(await (await fetch(`${address}/healthz`)).json(), { status: 'ok' });
    const ready = await fetch(`${address}/readyz`);
    assert.equal(ready.status, 200);
    assert.equal((await ready.json()).database, env().kind);

    const spec = await fetch(`${address}/api/v1/openapi.json`);
    assert.equal(spec.status, 200);
    const doc = await spec.json();
    assert.equal(doc.openapi, '3.1.0');
    const expected = {
      '/api/v1/posts': ['get', 'post'],
      '/api/v1/posts/drafts': ['get'],
      '/api/v1/posts/{threadId}': ['delete', 'get'],
      '/api/v1/posts/{threadId}/posts/{postId}': ['patch'],
      '/api/v1/posts/{threadId}/edit': ['put'],
      '/api/v1/posts/{threadId}/reschedule': ['put'],
      '/api/v1/posts/{threadId}/retry': ['post'],
      '/api/v1/posts/{threadId}/tags': ['get', 'put'],
      '/api/v1/tags': ['get'],
      '/api/v1/providers': ['get'],
      '/api/v1/account': ['get', 'patch'],
      '/api/v1/auto-plug': ['get', 'put'],
      '/api/v1/keys': ['get', 'post'],
      '/api/v1/keys/{id}': ['delete'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      assert.ok(doc.paths[path], `OpenAPI documents ${path}`);
      for (const m of methods) assert.ok(doc.paths[path][m], `${m} ${path}`);
    }
    assert.ok(doc.paths['/api/v1/posts'].post.requestBody.content['application/json'].schema.properties.posts);
    assert.ok(doc.paths['/api/v1/posts'].post.responses['201'].content['application/json']);
    assert.deepEqual(Object.keys(doc.paths['/api/v1/posts'].post.responses['400'].content), ['application/problem+json'], 'errors are documented as sent');
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { content?: object }> }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) >= 400 && response.content)
            assert.deepEqual(Object.keys(response.content), ['application/problem+json'], `${method} ${path} ${status}`);
        }
      }
    }

    const docs = await fetch(`${address}/docs`, { redirect: 'follow' });
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);

    const created = await fetch(`${address}/api/v1/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-123' },
      body: JSON.stringify({ providerId: provider.id, scheduleAt: '2026-12-01T10:00:00Z', posts: [{ text: 'über 🙂' }] }),
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('x-request-id'), 'req-123');
    assert.ok(created.headers.get('ratelimit-limit'));
    const { threadId } = await created.json();
    const got = await fetch(`${address}/api/v1/posts/${threadId}`, { headers: { 'x-api-key': user.key } });
    const { thread } = await got.json();
    assert.equal(thread.posts[0].content, 'über 🙂');

    const unauth = await fetch(`${address}/api/v1/posts/${threadId}`);
    assert.equal(unauth.status, 401);
    assert.equal(unauth.headers.get('content-type'), 'application/problem+json; charset=utf-8');
  });
});
