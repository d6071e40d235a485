import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { saveFollowerCount } from '../../src/repos/followers.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';

async function followers(app: FastifyInstance, user: TestUser, providerId: string, query: string) {
  return user.call(app, { method: 'GET', url: `/api/v1/providers/${providerId}/followers?${query}` });
}

describeEachDb('follower history over a range', (env) => {
  test('the range is read in the account zone; history is dated by the UTC day of each fetch; current is the latest whatever the range', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const provider = await createProvider(ctx, user.account);
    const other = await createProvider(ctx, user.account);
    await saveFollowerCount(ctx.db, provider.id, 50, new Date('2026-11-01T00:30:00.000Z'));
    await saveFollowerCount(ctx.db, provider.id, 52, new Date('2026-11-02T00:30:00.000Z'));
    await saveFollowerCount(ctx.db, provider.id, 55, new Date('2026-11-03T23:30:00.000Z'));
    await saveFollowerCount(ctx.db, provider.id, 60, new Date('2026-11-05T12:00:00.000Z'));
    await saveFollowerCount(ctx.db, other.id, 999, new Date('2026-11-02T12:00:00.000Z'));
    // A second fetch the same UTC day replaces that day's count.
    await saveFollowerCount(ctx.db, provider.id, 51, new Date('2026-11-01T20:00:00.000Z'));

    // Berlin is UTC+1: local 2026-11-02 00:00 to 2026-11-04 00:00 is 2026-11-01T23:00Z to 2026-11-03T23:00Z.
    const local = await followers(app, user, provider.id, 'from=2026-11-02T00:00:00&to=2026-11-04T00:00:00');
    assert.equal(local.statusCode, 200, local.body);
    assert.deepEqual(local.json(), {
      providerId: provider.id,
      current: { count: 60, fetchedAt: '2026-11-05T12:00:00.000Z' },
      history: [{ date: '2026-11-02', count: 52 }],
    });
    const utc = await followers(app, user, provider.id, 'from=2026-11-01T00:00:00Z&to=2026-11-03T23:59:59Z');
    assert.deepEqual(utc.json().history, [
      { date: '2026-11-01', count: 51 },
      { date: '2026-11-02', count: 52 },
      { date: '2026-11-03', count: 55 },
    ]);
    const quiet = await followers(app, user, provider.id, 'from=2026-12-01T00:00:00&to=2026-12-02T00:00:00');
    assert.deepEqual(quiet.json().history, []);
    assert.equal(quiet.json().current.count, 60);

    const none = await followers(app, user, (await createProvider(ctx, user.account, 'BLUESKY')).id, 'from=2026-11-01T00:00:00&to=2026-11-02T00:00:00');
    assert.deepEqual(none.json().current, null);
    assert.deepEqual(none.json().history, []);
  });

  test('range rules as List Posts: each fault named, at most 366 days, from not after to', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const cases: Array<[string, string[]]> = [
      ['from=2026-11-05T00:00:00&to=2026-11-01T00:00:00', ['from']],
      ['from=2026-01-01T00:00:00&to=2027-01-03T00:00:00', ['to']],
      ['from=yesterday&to=2026-11-01T00:00:00', ['from']],
      ['from=2026-11-01T00:00:00', ['to']],
    ];
    for (const [query, paths] of cases) {
      const res = await followers(app, user, provider.id, query);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        paths,
        query,
      );
    }
    const year = await followers(app, user, provider.id, 'from=2026-01-01T00:00:00&to=2027-01-02T00:00:00');
    assert.equal(year.statusCode, 200, '366 days is allowed');
  });

  test("another account's provider, or an unknown one, is not found; a team's provider is seen by its members", async () => {
    const { app, ctx } = env();
    const owner = await createUser(ctx);
    const member = await createUser(ctx);
    const stranger = await createUser(ctx);
    const personal = await createProvider(ctx, owner.account);
    const team = await createTeamWith(ctx, owner.account, [member.account]);
    const shared = await createProvider(ctx, owner.account, 'THREADS', team.id);
    await saveFollowerCount(ctx.db, personal.id, 10, new Date('2026-11-02T00:00:00.000Z'));
    const range = 'from=2026-11-01T00:00:00&to=2026-11-03T00:00:00';

    for (const [user, id] of [
      [stranger, personal.id],
      [member, personal.id],
      [stranger, shared.id],
      [owner, 'no-such-provider'],
    ] as const) {
      const res = await followers(app, user, id, range);
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.json().code, 'NOT_FOUND');
    }
    assert.equal((await followers(app, owner, personal.id, range)).json().current.count, 10);
    assert.equal((await followers(app, member, shared.id, range)).statusCode, 200);
  });
});
