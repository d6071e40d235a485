/**
 * The daily FOLLOWERS job against the fake Graph API over HTTP (the `followers_count` user
 * insight in Meta's documented shape): connect and start-up triggers, the daily schedule, the
 * EXPIRED path and transient failures.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../src/context.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { startPublisher } from '../../../src/publisher/runner.js';
import { saveFollowerCount } from '../../../src/repos/followers.js';
import { describeEachDb } from '../../helpers/context.js';
import { FakeGraphApi } from '../../helpers/fakes/threads-graph-api.js';
import { createUser, type TestUser } from '../../helpers/seeds.js';
import { until } from '../../helpers/wait.js';
import { callbackAndConfirm } from '../../helpers/web-browser.js';

const APP_ID = '1234567890';
const APP_SECRET = 'app-secret-for-tests';
const START = '2026-11-22T12:00:00.000Z';
const DAY = 86_400_000;
const clock = new ManualClock(START);
let fake: FakeGraphApi;
let seq = 0;

before(async () => {
  fake = await FakeGraphApi.start({ clock, appId: APP_ID, appSecret: APP_SECRET });
});
after(() => fake.close());

/** The OAuth connect flow; `userId` reconnects that Threads user. */
async function connect({ app, ctx }: { app: FastifyInstance; ctx: AppContext }, user: TestUser, userId?: string): Promise<{ id: string; userId: string }> {
  const start = (await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect' })).json();
  const url = new URL(start.authorizeUrl);
  const redirectUri = url.searchParams.get('redirect_uri')!;
  const consent = fake.authorize(userId ? { userId, redirectUri } : { username: `fol${++seq}`, redirectUri });
  const res = await callbackAndConfirm(
    app,
    ctx,
    user.account,
    `/api/v1/providers/threads/callback?code=${consent.code}&state=${url.searchParams.get('state')}`,
  );
  assert.equal(res.statusCode, 200, res.body);
  return { id: res.json().id, userId: consent.userId };
}

async function followers(app: FastifyInstance, user: TestUser, providerId: string, from = '2026-11-01T00:00:00', to = '2026-12-31T00:00:00') {
  const res = await user.call(app, { method: 'GET', url: `/api/v1/providers/${providerId}/followers?from=${from}&to=${to}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

function followersJob(ctx: AppContext, providerId: string) {
  return ctx.db.selectFrom('jobs').selectAll().where('provider_id', '=', providerId).where('kind', '=', 'FOLLOWERS').executeTakeFirst();
}

async function providerStatus(app: FastifyInstance, user: TestUser, providerId: string): Promise<string> {
  const list = (await user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
  return list.find((p: { id: string }) => p.id === providerId).status;
}

describeEachDb(
  'daily follower counts (fake Graph API over HTTP)',
  (env) => {
    const fresh = async () => {
      const { ctx } = env();
      await ctx.db.deleteFrom('jobs').execute();
      clock.set(START);
      return { ...env(), loop: new PublisherLoop(ctx, createPlatforms(ctx), 'w1') };
    };

    test('a connected account gets its count at once, then one per UTC day; a reconnect the same day fetches nothing more', async () => {
      const { app, ctx, loop } = await fresh();
      const user = await createUser(ctx);
      const callsBefore = fake.callsTo('threads_insights').length;
      const provider = await connect({ app, ctx }, user);
      let job = (await followersJob(ctx, provider.id))!;
      assert.deepEqual([job.status, job.run_at.toISOString()], ['PENDING', START], 'due at once');
      assert.deepEqual(await followers(app, user, provider.id), { providerId: provider.id, current: null, history: [] });

      fake.setFollowers(provider.userId, 42);
      assert.equal(await loop.runOnce(), 1);
      const calls = fake.callsTo('threads_insights').slice(callsBefore);
      assert.deepEqual(
        calls.map((c) => [c.method, c.path, c.params]),
        [['GET', '/v1.0/me/threads_insights', { metric: 'followers_count' }]],
      );
      assert.deepEqual(await followers(app, user, provider.id), {
        providerId: provider.id,
        current: { count: 42, fetchedAt: START },
        history: [{ date: '2026-11-22', count: 42 }],
      });
      job = (await followersJob(ctx, provider.id))!;
      const nextDay = Date.parse('2026-11-23T00:00:00.000Z');
      assert.equal(job.status, 'PENDING');
      assert.ok(job.run_at.getTime() >= nextDay && job.run_at.getTime() < nextDay + 2 * 3_600_000, `early next UTC day, got ${job.run_at.toISOString()}`);
      assert.equal(await loop.runOnce(), 0, 'nothing more today');

      await connect({ app, ctx }, user, provider.userId);
      assert.equal(
        (await followersJob(ctx, provider.id))!.run_at.getTime(),
        job.run_at.getTime(),
        'counted today: the reconnect leaves the next day as it was',
      );
      assert.equal(await loop.runOnce(), 0);

      fake.setFollowers(provider.userId, 45);
      clock.set(job.run_at);
      assert.equal(await loop.runOnce(), 1);
      clock.set(new Date(job.run_at.getTime() + DAY));
      fake.setFollowers(provider.userId, 44);
      assert.equal(await loop.runOnce(), 1);
      const body = await followers(app, user, provider.id);
      assert.deepEqual(body.current, { count: 44, fetchedAt: clock.now().toISOString() });
      assert.deepEqual(body.history, [
        { date: '2026-11-22', count: 42 },
        { date: '2026-11-23', count: 45 },
        { date: '2026-11-24', count: 44 },
      ]);
      assert.equal(fake.callsTo('threads_insights').length - callsBefore, 3);
    });

    test('a refused token turns the provider EXPIRED (the one place) and fails the job; reconnecting fetches again', async () => {
      const { app, ctx, loop } = await fresh();
      const user = await createUser(ctx);
      const provider = await connect({ app, ctx }, user);
      const tokenEnc = (await ctx.db.selectFrom('providers').select('access_token_enc').where('id', '=', provider.id).executeTakeFirstOrThrow())
        .access_token_enc!;
      fake.revokeToken(ctx.secrets.decrypt(tokenEnc));
      assert.equal(await loop.runOnce(), 1);
      assert.equal(await providerStatus(app, user, provider.id), 'EXPIRED');
      const job = (await followersJob(ctx, provider.id))!;
      assert.equal(job.status, 'FAILED');
      assert.match(job.last_error!, /^THREADS_\w+: /);
      assert.equal((await followers(app, user, provider.id)).current, null);
      clock.advance(DAY);
      assert.equal(await loop.runOnce(), 0, 'an EXPIRED provider is not asked again');

      fake.setFollowers(provider.userId, 7);
      await connect({ app, ctx }, user, provider.userId);
      assert.equal(await providerStatus(app, user, provider.id), 'ACTIVE');
      assert.deepEqual([(await followersJob(ctx, provider.id))!.status, (await followersJob(ctx, provider.id))!.attempts], ['PENDING', 0]);
      assert.equal(await loop.runOnce(), 1);
      assert.deepEqual((await followers(app, user, provider.id)).current, { count: 7, fetchedAt: clock.now().toISOString() });
    });

    test('transient failures back off; a day that keeps failing is skipped, the job goes on the next day', async () => {
      const { app, ctx, loop } = await fresh();
      const user = await createUser(ctx);
      const provider = await connect({ app, ctx }, user);
      fake.failNext('threads_insights', { kind: 'http500' }, 10);
      let job = (await followersJob(ctx, provider.id))!;
      for (let run = 1; run <= 10; run++) {
        clock.set(job.run_at);
        assert.equal(await loop.runOnce(), 1);
        job = (await followersJob(ctx, provider.id))!;
        assert.equal(job.status, 'PENDING');
        assert.match(job.last_error!, /^THREADS_/);
        assert.equal(job.attempts, run < 10 ? run : 0, `after run ${run}`);
      }
      const nextDay = Date.parse('2026-11-23T00:00:00.000Z');
      assert.ok(job.run_at.getTime() >= nextDay && job.run_at.getTime() < nextDay + 2 * 3_600_000, `the next UTC day, got ${job.run_at.toISOString()}`);
      assert.equal(await providerStatus(app, user, provider.id), 'ACTIVE');
      fake.setFollowers(provider.userId, 3);
      clock.set(job.run_at);
      assert.equal(await loop.runOnce(), 1);
      assert.deepEqual((await followers(app, user, provider.id)).history, [{ date: '2026-11-23', count: 3 }]);
    });

    test('at start-up every ACTIVE account without a count for the current UTC day gets one within the first round', async () => {
      const { app, ctx } = await fresh();
      const user = await createUser(ctx);
      const uncounted = await connect({ app, ctx }, user);
      const counted = await connect({ app, ctx }, user);
      const expired = await connect({ app, ctx }, user);
      await ctx.db.deleteFrom('jobs').execute(); // as before this version: no job rows yet
      await ctx.db.updateTable('providers').set({ status: 'EXPIRED' }).where('id', '=', expired.id).execute();
      await saveFollowerCount(ctx.db, counted.id, 100, new Date('2026-11-22T01:00:00.000Z'));
      await saveFollowerCount(ctx.db, uncounted.id, 5, new Date('2026-11-21T01:00:00.000Z'));
      fake.setFollowers(uncounted.userId, 6);

      const publisher = await startPublisher(ctx);
      try {
        // The test's clock does not move, so no later daily round comes due: a count fetched at
        // all was fetched by the start-up round. The real-time limit only guards against a hang.
        // (Read from the database: polling the API would spend the account's rate limit, whose
        // window does not move either.)
        await until(
          'the count of the current day to be fetched by the first round',
          async () =>
            (
              await ctx.db
                .selectFrom('follower_counts')
                .select('count')
                .where('provider_id', '=', uncounted.id)
                .where('day', '=', '2026-11-22')
                .executeTakeFirst()
            )?.count === 6,
          { intervalMs: 50 },
        );
      } finally {
        await publisher.stop();
      }
      assert.deepEqual(await followers(app, user, uncounted.id, '2026-11-21T00:00:00', '2026-11-22T23:59:59'), {
        providerId: uncounted.id,
        current: { count: 6, fetchedAt: START },
        history: [
          { date: '2026-11-21', count: 5 },
          { date: '2026-11-22', count: 6 },
        ],
      });
      assert.deepEqual(
        (await followers(app, user, counted.id)).current,
        { count: 100, fetchedAt: '2026-11-22T01:00:00.000Z' },
        'the account counted today was not asked again',
      );
      assert.ok((await followersJob(ctx, counted.id))!.run_at.getTime() >= Date.parse('2026-11-23T00:00:00.000Z'), 'counted today: tomorrow');
      assert.equal(await followersJob(ctx, expired.id), undefined, 'an EXPIRED account gets no job');
    });
  },
  {
    config: (c) => ({ ...c, threads: { ...c.threads, apiUrl: fake.url, appId: APP_ID }, http: { ...c.http, publicUrl: 'http://127.0.0.1:3999' } }),
    threadsAppSecret: APP_SECRET,
    clock,
  },
);
