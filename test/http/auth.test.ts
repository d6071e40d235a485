import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enumerateRoutes } from '../fuzz/routes.js';
import { describeEachDb } from '../helpers/context.js';
import { createUser } from '../helpers/seeds.js';

describeEachDb('API keys and authentication', (env) => {
  test('both headers work; missing, malformed, unknown keys get one 401', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `Bearer ${user.key}` } })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/account', headers: { 'x-api-key': user.key } })).statusCode, 200);
    const bodies = new Set<string>();
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Basic ${user.key}` },
      { 'x-api-key': `skein_${'A'.repeat(43)}` },
      { authorization: `Bearer ${user.key}x` },
    ]) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/account', headers });
      assert.equal(res.statusCode, 401, JSON.stringify(headers));
      assert.equal(res.json().code, 'UNAUTHENTICATED');
      bodies.add(res.json().detail);
    }
    assert.equal(bodies.size, 1);
  });

  test('a key is needed by the route reached, however its path is spelled (%-encoded letters)', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    for (const url of ['/%61pi/v1/providers/threads/setup', '/%61pi/v1/account', '/api/v1/%61ccount', '/ap%69/v1/posts', '/%61%70%69/v1/keys']) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 401, `${url}: ${res.body}`);
      assert.equal(res.json().code, 'UNAUTHENTICATED');
      // The same spelling with a key reaches the route (so the 401 is not a 404 in disguise).
      const keyed = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${user.key}` } });
      assert.ok(![401, 404].includes(keyed.statusCode), `${url} with a key: ${keyed.statusCode}`);
    }
  });

  test('every route that needs a key answers 401 without one, its path %-encoded or not', async () => {
    const { app } = env();
    const keyed = enumerateRoutes(app).filter((r) => r.needsKey);
    assert.ok(keyed.length > 30, `${keyed.length} keyed routes`);
    for (const route of keyed) {
      const path = route.path.replace(/:(\w+)/g, 'x').replace('*', 'x');
      for (const url of [path, path.replace(/^\/api\//, '/%61pi/')]) {
        const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {};
        const res = await app.inject({ method: route.method as 'GET', url, ...body });
        assert.equal(res.statusCode, 401, `${route.method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
  });

  test('keys: create shows the key once, list never shows it, revoke is effective at once', async () => {
    const { app, ctx, clock } = env();
    const user = await createUser(ctx);
    const created = await user.call(app, { method: 'POST', url: '/api/v1/keys', payload: { name: 'zapier' } });
    assert.equal(created.statusCode, 201, created.body);
    const key = created.json();
    assert.deepEqual(Object.keys(key).sort(), ['createdAt', 'id', 'key', 'last4', 'name']);
    assert.match(key.key, /^skein_[A-Za-z0-9_-]{32,}$/);
    assert.equal(key.last4, key.key.slice(-4));
    const stored = await ctx.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    assert.notEqual(stored.key_hash, key.key);
    assert.ok(!JSON.stringify(stored).includes(key.key));

    const list = await user.call(app, { method: 'GET', url: '/api/v1/keys' });
    assert.equal(list.statusCode, 200);
    assert.ok(!list.body.includes(key.key));
    const listed = list.json().keys.find((k: { id: string }) => k.id === key.id);
    assert.deepEqual(Object.keys(listed).sort(), ['createdAt', 'id', 'last4', 'lastUsedAt', 'name']);
    assert.equal(listed.lastUsedAt, null);

    const use = () => app.inject({ method: 'GET', url: '/api/v1/account', headers: { 'x-api-key': key.key } });
    assert.equal((await use()).statusCode, 200);
    const firstUse = (await ctx.db.selectFrom('api_keys').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow()).last_used_at;
    assert.equal(firstUse?.toISOString(), clock.now().toISOString());
    clock.advance(30_000);
    await use();
    const within = (await ctx.db.selectFrom('api_keys').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow()).last_used_at;
    assert.equal(within?.toISOString(), firstUse?.toISOString(), 'at most one write per minute');
    clock.advance(31_000);
    await use();
    const later = (await ctx.db.selectFrom('api_keys').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow()).last_used_at;
    assert.equal(later?.toISOString(), clock.now().toISOString());

    const revoke = await user.call(app, { method: 'DELETE', url: `/api/v1/keys/${key.id}` });
    assert.equal(revoke.statusCode, 200);
    assert.deepEqual(revoke.json(), { id: key.id, revoked: true });
    assert.equal((await use()).statusCode, 401);
    assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/keys/${key.id}` })).statusCode, 404);
    const other = await createUser(ctx);
    assert.equal(
      (await other.call(app, { method: 'DELETE', url: `/api/v1/keys/${(await user.call(app, { method: 'GET', url: '/api/v1/keys' })).json().keys[0].id}` }))
        .statusCode,
      404,
    );
  });
});
