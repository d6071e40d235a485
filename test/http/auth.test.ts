import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';

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

  test('Idempotency-Key: same body replays the first response and creates one thread; other body → 409', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const body = { providerId: provider.id, scheduleAt: '2026-12-01T00:00:00Z', posts: [{ text: 'once' }] };
    const send = (payload: object, key = 'abc-123') => user.call(app, { method: 'POST', url: '/api/v1/posts', headers: { 'idempotency-key': key }, payload });
    const [a, b] = await Promise.all([send(body), send({ posts: body.posts, scheduleAt: body.scheduleAt, providerId: body.providerId })]);
    assert.equal(a.statusCode, 201, a.body);
    assert.equal(b.statusCode, 201, b.body);
    assert.deepEqual(a.json(), b.json());
    const again = await send(body);
    assert.deepEqual(again.json(), a.json());
    const count = await ctx.db
      .selectFrom('threads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', user.account.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
    const other = await send({ ...body, posts: [{ text: 'different' }] });
    assert.equal(other.statusCode, 409);
    assert.equal(other.json().code, 'IDEMPOTENCY_KEY_REUSED');
    const fresh = await send(body, 'another-key');
    assert.equal(fresh.statusCode, 201);
    assert.notEqual(fresh.json().threadId, a.json().threadId);
  });

  test('Idempotency-Key: a replay gets the first response even once its scheduleAt has passed', async (t) => {
    const { app, ctx, clock } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const body = { providerId: provider.id, scheduleAt: new Date(clock.now().getTime() + 20_000).toISOString(), posts: [{ text: 'soon' }] };
    const send = () => user.call(app, { method: 'POST', url: '/api/v1/posts', headers: { 'idempotency-key': 'retry-later' }, payload: body });
    const first = await send();
    assert.equal(first.statusCode, 201, first.body);
    clock.advance(90_000); // the client's retry comes after scheduleAt, past the 60 s grace
    const replay = await send();
    assert.equal(replay.statusCode, 201, replay.body);
    assert.deepEqual(replay.json(), first.json());
    const count = await ctx.db
      .selectFrom('threads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', user.account.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
  });

  test('Idempotency-Key expires after 24 hours', async (t) => {
    const { app, ctx, clock } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const body = { providerId: provider.id, posts: [{ text: 'draft' }] };
    const send = () => user.call(app, { method: 'POST', url: '/api/v1/posts', headers: { 'idempotency-key': 'day' }, payload: body });
    const first = await send();
    clock.advance(24 * 3600_000 + 1000);
    const second = await send();
    assert.equal(second.statusCode, 201);
    assert.notEqual(second.json().threadId, first.json().threadId);
  });
});
