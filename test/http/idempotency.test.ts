import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';

describeEachDb('Idempotency-Key on POST /api/v1/posts', (env) => {
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
