/**
 * Refresh now (POST /api/v1/posts/:threadId/analytics/refresh) against the fake Graph API over
 * HTTP: threads are published to it by the real loop and their insights set there.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context.js';
import { ManualClock } from '../../src/lib/clock.js';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { createPlatforms } from '../../src/networks/clients.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { describeEachDb } from '../helpers/context.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { createUser, type TestUser } from '../helpers/seeds.js';

const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let fake: FakeGraphApi;
let seq = 0;

before(async () => {
  fake = await FakeGraphApi.start({ clock });
});
after(() => fake.close());

interface Published {
  user: TestUser;
  providerId: string;
  threadId: string;
  accessToken: string;
  /** Meta's media ids of the thread's posts, in order. */
  mediaIds: string[];
}

/** A user with a Threads account on the fake and a thread of `texts` the loop published there. */
async function publishedThread(app: FastifyInstance, ctx: AppContext, texts = ['one', 'two']): Promise<Published> {
  const user = await createUser(ctx);
  const { userId, accessToken } = fake.createAccount(`refresh${++seq}`);
  const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
    kind: 'THREADS',
    providerUserId: userId,
    username: `refresh${seq}`,
    accessToken,
  });
  const created = await user.call(app, {
    method: 'POST',
    url: '/api/v1/posts',
    payload: { providerId: provider.id, scheduleAt: new Date(clock.now().getTime() + 30_000).toISOString(), posts: texts.map((text) => ({ text })) },
  });
  assert.equal(created.statusCode, 201, created.body);
  clock.advance(60_000);
  await new PublisherLoop(ctx, createPlatforms(ctx), 'w1').runOnce();
  const mediaIds = fake.published.filter((p) => p.ownerId === userId).map((p) => p.id);
  assert.equal(mediaIds.length, texts.length);
  return { user, providerId: provider.id, threadId: created.json().threadId, accessToken, mediaIds };
}

function refresh(app: FastifyInstance, user: TestUser, threadId: string, payload: unknown = {}) {
  return user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/analytics/refresh`, payload: payload as object });
}

async function getThread(app: FastifyInstance, user: TestUser, threadId: string) {
  return (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread;
}

const analyticsJob = (ctx: AppContext, threadId: string) =>
  ctx.db.selectFrom('jobs').selectAll().where('thread_id', '=', threadId).where('kind', '=', 'ANALYTICS').executeTakeFirstOrThrow();

describeEachDb(
  'refresh now',
  (env) => {
    test("fetches every published post's analytics at once and answers Get Thread's view with them; the periodic refresh is left as it was", async () => {
      const { app, ctx } = env();
      const t = await publishedThread(app, ctx);
      fake.setInsights(t.mediaIds[0]!, { views: 120, likes: 9, replies: 3, reposts: 2, quotes: 1, shares: 4 });
      fake.setInsights(t.mediaIds[1]!, { views: 30, likes: 1 });
      const job = await analyticsJob(ctx, t.threadId);
      const calls = fake.callsTo('insights').length;

      const res = await refresh(app, t.user, t.threadId);
      assert.equal(res.statusCode, 200, res.body);
      const { thread } = res.json();
      const fetchedAt = clock.now().toISOString();
      assert.deepEqual(thread.posts[0].analytics, { views: 120, likes: 9, replies: 3, reposts: 2, quotes: 1, shares: 4, fetchedAt });
      assert.deepEqual(thread.posts[1].analytics, { views: 30, likes: 1, replies: 0, reposts: 0, quotes: 0, shares: 0, fetchedAt });
      assert.deepEqual(thread, await getThread(app, t.user, t.threadId), "Get Thread's answer");
      assert.equal(fake.callsTo('insights').length - calls, 2, 'one call per post');
      const after = await analyticsJob(ctx, t.threadId);
      assert.deepEqual([after.status, after.run_at, after.attempts], [job.status, job.run_at, job.attempts]);

      const noBody = await t.user.call(app, { method: 'POST', url: `/api/v1/posts/${t.threadId}/analytics/refresh` });
      assert.equal(noBody.statusCode, 200, noBody.body);
    });

    test('a network failure keeps the stored analytics and answers 502 UPSTREAM_FAILED', async () => {
      const { app, ctx } = env();
      const t = await publishedThread(app, ctx);
      fake.setInsights(t.mediaIds[0]!, { likes: 5 });
      assert.equal((await refresh(app, t.user, t.threadId)).statusCode, 200);
      const stored = await getThread(app, t.user, t.threadId);

      fake.setInsights(t.mediaIds[0]!, { likes: 6 });
      fake.failNext('insights', { kind: 'http500' });
      clock.advance(60_000);
      const res = await refresh(app, t.user, t.threadId);
      assert.equal(res.statusCode, 502, res.body);
      assert.equal(res.json().code, 'UPSTREAM_FAILED');
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.deepEqual(await getThread(app, t.user, t.threadId), stored);
      const providers = (await t.user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
      assert.equal(providers[0].status, 'ACTIVE', 'a network failure is not a refused token');
    });

    test('a post deleted on the network is skipped, the others refresh; every post refused is a 502', async () => {
      const { app, ctx } = env();
      const t = await publishedThread(app, ctx);
      fake.setInsights(t.mediaIds[1]!, { likes: 8 });
      const deleted = await fetch(`${fake.url}/v1.0/${t.mediaIds[0]}?access_token=${t.accessToken}`, { method: 'DELETE' });
      assert.equal(deleted.status, 200);
      const res = await refresh(app, t.user, t.threadId);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.json().thread.posts.map((p: { analytics: { likes: number } | null }) => p.analytics?.likes ?? null),
        [null, 8],
      );
      await fetch(`${fake.url}/v1.0/${t.mediaIds[1]}?access_token=${t.accessToken}`, { method: 'DELETE' });
      const none = await refresh(app, t.user, t.threadId);
      assert.equal(none.statusCode, 502, none.body);
      assert.equal(none.json().code, 'UPSTREAM_FAILED');
    });

    test('a refused token turns the provider EXPIRED and answers 502; then the account must be reconnected (409)', async () => {
      const { app, ctx } = env();
      const t = await publishedThread(app, ctx);
      fake.revokeToken(t.accessToken);
      const res = await refresh(app, t.user, t.threadId);
      assert.equal(res.statusCode, 502, res.body);
      assert.equal(res.json().code, 'UPSTREAM_FAILED');
      const providers = (await t.user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
      assert.equal(providers.find((p: { id: string }) => p.id === t.providerId).status, 'EXPIRED');
      const again = await refresh(app, t.user, t.threadId);
      assert.equal(again.statusCode, 409, again.body);
      assert.equal(again.json().code, 'CONFLICT');
      assert.match(again.json().detail, /reconnect/);
    });

    test('409 NOT_PUBLISHED when no post of the thread is published; 404 for a thread the caller cannot see', async () => {
      const { app, ctx } = env();
      const t = await publishedThread(app, ctx);
      const scheduled = await t.user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: t.providerId, scheduleAt: new Date(clock.now().getTime() + 3_600_000).toISOString(), posts: [{ text: 'later' }] },
      });
      const draft = await t.user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: t.providerId, posts: [{ text: 'draft' }] } });
      for (const created of [scheduled, draft]) {
        assert.equal(created.statusCode, 201, created.body);
        const res = await refresh(app, t.user, created.json().threadId);
        assert.equal(res.statusCode, 409, res.body);
        assert.equal(res.json().code, 'NOT_PUBLISHED');
      }
      const stranger = await createUser(ctx);
      const calls = fake.callsTo('insights').length;
      for (const id of [t.threadId, 'no-such-thread']) {
        const res = await refresh(app, stranger, id);
        assert.equal(res.statusCode, 404, res.body);
        assert.equal(res.json().code, 'NOT_FOUND');
      }
      assert.equal(fake.callsTo('insights').length, calls, 'nothing was asked of the network');
    });
  },
  { config: (c) => ({ ...c, threads: { ...c.threads, apiUrl: fake.url } }), clock },
);
