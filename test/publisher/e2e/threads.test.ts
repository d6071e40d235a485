import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../src/context.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { createPlatforms, createThreadsClient } from '../../../src/networks/clients.js';
import { ThreadsClient } from '../../../src/networks/threads/client.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { refreshExpiringTokens } from '../../../src/publisher/token-refresh.js';
import { describeEachDb } from '../../helpers/context.js';
import { FakeGraphApi } from '../../helpers/fakes/threads-graph-api.js';
import { createUser, type TestUser } from '../../helpers/seeds.js';
import { callbackAndConfirm, InjectBrowser } from '../../helpers/web-browser.js';

const APP_ID = '1234567890';
const APP_SECRET = 'app-secret-for-tests';
// One clock for Skein and for "Meta", so token lifetimes agree.
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let fake: FakeGraphApi;

before(async () => {
  fake = await FakeGraphApi.start({ clock, appId: APP_ID, appSecret: APP_SECRET, processingMs: { TEXT: 0, IMAGE: 0, CAROUSEL: 0, VIDEO: 0 } });
});
after(() => fake.close());

/** The OAuth connect flow as a user goes through it: authorize URL, consent at "Meta", callback. */
async function connectThroughOAuth(app: FastifyInstance, ctx: AppContext, user: TestUser, username: string): Promise<{ id: string }> {
  const start = (await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect' })).json();
  const url = new URL(start.authorizeUrl);
  const { code } = fake.authorize({ username, redirectUri: url.searchParams.get('redirect_uri')! });
  return (await callbackAndConfirm(app, ctx, user.account, `/api/v1/providers/threads/callback?code=${code}&state=${url.searchParams.get('state')}`)).json();
}

describeEachDb(
  'Threads end to end: OAuth connect, publish, refresh (fake Graph API over HTTP)',
  (env) => {
    test('connect through OAuth, then a scheduled 3-post thread is published in order exactly once', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const start = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect' });
      assert.equal(start.statusCode, 200, start.body);
      const authorizeUrl = new URL(start.json().authorizeUrl);
      const state = authorizeUrl.searchParams.get('state')!;
      const redirectUri = authorizeUrl.searchParams.get('redirect_uri')!;
      assert.equal(authorizeUrl.searchParams.get('client_id'), APP_ID);
      assert.match(authorizeUrl.searchParams.get('scope')!, /threads_content_publish/);
      const { code, userId } = fake.authorize({ username: 'skein_e2e', redirectUri });

      // Started with an API key: the user confirms it in the web app, in the browser Meta sent back.
      const callback = await callbackAndConfirm(
        app,
        ctx,
        user.account,
        `/api/v1/providers/threads/callback?code=${encodeURIComponent(`${code}#_`)}&state=${state}`,
      );
      assert.equal(callback.statusCode, 200, callback.body);
      const provider = callback.json();
      assert.equal(provider.provider, 'THREADS');
      assert.equal(provider.providerUserId, userId, 'the id comes from /me as a string, not the numeric user_id');
      assert.equal(provider.status, 'ACTIVE');
      const replay = await app.inject({ method: 'GET', url: `/api/v1/providers/threads/callback?code=${code}&state=${state}` });
      assert.equal(replay.statusCode, 400, 'a state is single-use');

      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: new Date(clock.now().getTime() + 60_000).toISOString(),
          posts: [{ text: 'first 🙂 spoiler', topic: 'Skein', spoilerRanges: [{ offset: 9, length: 7 }] }, { text: 'second' }, { text: 'third' }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e');
      // Only the follower count of the account just connected is due (decisions.md), not the thread yet.
      assert.equal(await loop.runOnce(), 1);
      clock.advance(60_000);
      assert.equal(await loop.runOnce(), 1);
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${created.json().threadId}` })).json();
      assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));
      const mine = fake.published.filter((p) => p.ownerId === userId);
      assert.deepEqual(
        mine.map((p) => p.text),
        ['first 🙂 spoiler', 'second', 'third'],
      );
      assert.equal(mine[0]!.replyToId, null);
      assert.equal(mine[1]!.replyToId, mine[0]!.id);
      assert.equal(mine[2]!.replyToId, mine[1]!.id);
      assert.equal(mine[0]!.topicTag, 'Skein');
      assert.deepEqual(
        mine[0]!.spoilers.map((s) => [s.offset, s.length]),
        [[9, 7]],
      );
      thread.posts.forEach((post: { permaLink: string; publishedAt: string }) => {
        assert.match(post.permaLink, /^https:\/\/www\.threads\.net\/@skein_e2e\/post\//);
        assert.equal(post.publishedAt, clock.now().toISOString());
      });
      assert.equal(await loop.runOnce(), 0);
      assert.equal(fake.published.filter((p) => p.ownerId === userId).length, 3);
    });

    test('network options: reply_control on every post, a quoted Skein post as its media id, a poll as poll_attachment', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await connectThroughOAuth(app, ctx, user, 'optioner');
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e');
      const publishNow = async (payload: object) => {
        const created = await user.call(app, {
          method: 'POST',
          url: '/api/v1/posts',
          payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), ...payload },
        });
        assert.equal(created.statusCode, 201, created.body);
        await loop.runOnce();
        const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${created.json().threadId}` })).json();
        assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));
        return thread;
      };
      const quoted = (await publishNow({ posts: [{ text: 'to be quoted' }] })).posts[0];
      const quotedMedia = fake.published.find((p) => p.text === 'to be quoted')!;
      assert.equal(quotedMedia.replyControl, 'everyone');

      await publishNow({
        replyControl: 'nobody',
        posts: [
          { text: 'which one?', poll: { options: ['this', 'that', 'neither'] } },
          { text: 'quoting by Skein id', quote: quoted.id },
          { text: 'quoting by media id', quote: quotedMedia.id },
        ],
      });
      const [vote, bySkeinId, byMediaId] = ['which one?', 'quoting by Skein id', 'quoting by media id'].map(
        (text) => fake.published.find((p) => p.text === text)!,
      );
      assert.deepEqual(
        [vote, bySkeinId, byMediaId].map((p) => p!.replyControl),
        ['parent_post_author_only', 'parent_post_author_only', 'parent_post_author_only'],
      );
      assert.deepEqual(vote!.poll, ['this', 'that', 'neither']);
      assert.equal(vote!.quotePostId, null);
      assert.equal(bySkeinId!.quotePostId, quotedMedia.id);
      assert.equal(byMediaId!.quotePostId, quotedMedia.id);
    });

    test('a quoted Skein post deleted before publishing fails the post with QUOTE_NOT_FOUND, and nothing is sent', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await connectThroughOAuth(app, ctx, user, 'quoter');
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e');
      const first = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: [{ text: 'soon gone' }] },
      });
      await loop.runOnce();
      const quotedThread = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${first.json().threadId}` })).json().thread;
      assert.equal(quotedThread.status, 'PUBLISHED');
      const second = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: new Date(clock.now().getTime() + 60_000).toISOString(),
          posts: [{ text: 'quoting the gone', quote: quotedThread.posts[0].id }],
        },
      });
      assert.equal(second.statusCode, 201, second.body);
      await ctx.db.deleteFrom('threads').where('id', '=', quotedThread.threadId).execute();
      clock.advance(60_000);
      await loop.runOnce();
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${second.json().threadId}` })).json();
      assert.equal(thread.status, 'FAILED');
      assert.equal(thread.posts[0].error.code, 'QUOTE_NOT_FOUND');
      assert.equal(fake.published.filter((p) => p.text === 'quoting the gone').length, 0);
    });

    test('tokens are refreshed before expiry; a refused refresh expires the provider and publishing fails clearly', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await connectThroughOAuth(app, ctx, user, 'refresher');
      const client = createThreadsClient(ctx);
      const before = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      assert.equal(await refreshExpiringTokens(ctx, { threads: client }), 0, 'a fresh 60-day token is not refreshed');
      clock.advance(55 * 86_400_000); // 5 days before expiry
      assert.ok((await refreshExpiringTokens(ctx, { threads: client })) >= 1);
      const afterRefresh = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      assert.notEqual(afterRefresh.access_token_enc, before.access_token_enc);
      assert.ok(afterRefresh.token_expires_at! > before.token_expires_at!);

      fake.revokeToken(ctx.secrets.decrypt(afterRefresh.access_token_enc!));
      clock.advance(56 * 86_400_000);
      await refreshExpiringTokens(ctx, { threads: client });
      const providers = (await user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
      assert.equal(providers.find((p: { id: string }) => p.id === provider.id).status, 'EXPIRED');

      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: [{ text: 'will fail' }] },
      });
      await new PublisherLoop(ctx, createPlatforms(ctx), 'e2e').runOnce();
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${created.json().threadId}` })).json();
      assert.equal(thread.status, 'FAILED');
      assert.equal(thread.posts[0].error.code, 'PROVIDER_EXPIRED');
      assert.match(thread.posts[0].error.message, /reconnect/);
    });

    test('a disconnect while a token refresh is in flight stays a disconnect: the new token is not written back', async (t) => {
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await connectThroughOAuth(app, ctx, user, 'racer');
      clock.advance(55 * 86_400_000);
      const token = ctx.secrets.decrypt(
        (await ctx.db.selectFrom('providers').select('access_token_enc').where('id', '=', provider.id).executeTakeFirstOrThrow()).access_token_enc!,
      );
      let disconnected = 0;
      // The user disconnects while Meta is answering this provider's refresh.
      const racing: typeof fetch = async (input, init) => {
        const call = new URL(String(input));
        if (call.pathname.endsWith('/refresh_access_token') && call.searchParams.get('access_token') === token && disconnected++ === 0) {
          assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/providers/${provider.id}` })).statusCode, 200);
        }
        return fetch(input, init);
      };
      const client = new ThreadsClient({
        apiUrl: ctx.config.threads.apiUrl,
        appId: ctx.config.threads.appId,
        appSecret: ctx.threadsAppSecret,
        now: () => ctx.clock.now().getTime(),
        fetch: racing,
      });
      await refreshExpiringTokens(ctx, { threads: client }); // other tests' providers may be refreshed too
      assert.equal(disconnected, 1, 'the refresh was in flight');
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      assert.deepEqual([row.status, row.access_token_enc], ['REVOKED', null]);
    });

    test('disconnect forgets the credentials; the provider shows REVOKED', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const other = await createUser(ctx);
      const { userId, accessToken } = fake.createAccount(`disc${Math.floor(Math.random() * 1e6)}`);
      const provider = await (await import('../../../src/services/providers/providers.js')).addProvider(
        ctx,
        user.account.id,
        { teamId: null, ownerAccountId: user.account.id, scope: `personal:${user.account.id}` },
        { kind: 'THREADS', providerUserId: userId, username: 'd', accessToken },
      );
      assert.equal((await other.call(app, { method: 'DELETE', url: `/api/v1/providers/${provider.id}` })).statusCode, 404);
      const res = await user.call(app, { method: 'DELETE', url: `/api/v1/providers/${provider.id}` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().status, 'REVOKED');
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      assert.equal(row.access_token_enc, null);
    });

    test('a connect the web app started (returnTo=web) ends with a 303 to /accounts; without returnTo it answers JSON', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      // The web app's browser: the start sets its connect cookie, which the callback needs.
      const browser = await InjectBrowser.signedIn(ctx, user.account);
      const start = async (query: string) => {
        const res = await browser.call(app, { method: 'GET', url: `/api/v1/providers/threads/connect${query}` });
        assert.equal(res.statusCode, 200, res.body);
        const url = new URL(res.json().authorizeUrl);
        return { state: url.searchParams.get('state')!, redirectUri: url.searchParams.get('redirect_uri')! };
      };
      const accounts = (location: string) => {
        const url = new URL(location, 'http://skein.invalid');
        assert.equal(url.pathname, '/accounts');
        return Object.fromEntries(url.searchParams);
      };

      const web = await start('?returnTo=web');
      const { code } = fake.authorize({ username: 'web_user', redirectUri: web.redirectUri });
      const done = await browser.call(app, { method: 'GET', url: `/api/v1/providers/threads/callback?code=${code}&state=${web.state}` });
      assert.equal(done.statusCode, 303, done.body);
      assert.deepEqual(accounts(done.headers.location as string), { threads: 'connected', username: 'web_user' });
      const listed = (await user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
      assert.deepEqual(
        listed.map((p: { username: string; status: string }) => [p.username, p.status]),
        [['web_user', 'ACTIVE']],
      );

      // Refused at Meta: back to the page with Meta's reason.
      const denied = await start('?returnTo=web');
      const refused = await browser.call(app, {
        method: 'GET',
        url: `/api/v1/providers/threads/callback?error=access_denied&error_description=${encodeURIComponent('Permissions error')}&state=${denied.state}`,
      });
      assert.equal(refused.statusCode, 303);
      assert.deepEqual(accounts(refused.headers.location as string), { threads: 'error', code: 'VALIDATION_FAILED', message: 'Permissions error' });
      // A code Meta never issued: the exchange is refused, and the browser hears it on the page.
      const badCode = await start('?returnTo=web');
      const failed = await browser.call(app, { method: 'GET', url: `/api/v1/providers/threads/callback?code=AQnot-a-code&state=${badCode.state}` });
      assert.equal(failed.statusCode, 303);
      const failure = accounts(failed.headers.location as string);
      assert.equal(failure.threads, 'error');
      assert.match(failure.message!, /^Threads refused/);
      // The state of a web connect is single-use too; once used it says nothing about where the
      // browser came from, so the answer is the JSON problem.
      const replay = await browser.call(app, { method: 'GET', url: `/api/v1/providers/threads/callback?code=${code}&state=${web.state}` });
      assert.equal(replay.statusCode, 400);
      assert.equal(replay.json().errors[0].path, 'state');

      // Without returnTo: the JSON answers.
      const api = await start('');
      const apiCode = fake.authorize({ username: 'api_user', redirectUri: api.redirectUri }).code;
      const json = await browser.call(app, { method: 'GET', url: `/api/v1/providers/threads/callback?code=${apiCode}&state=${api.state}` });
      assert.equal(json.statusCode, 200, json.body);
      assert.equal(json.json().username, 'api_user');
      const apiDenied = await start('');
      const apiRefused = await browser.call(app, { method: 'GET', url: `/api/v1/providers/threads/callback?error=access_denied&state=${apiDenied.state}` });
      assert.equal(apiRefused.statusCode, 400);
      assert.match(apiRefused.headers['content-type'] as string, /^application\/problem\+json/);
      assert.equal(apiRefused.json().errors[0].path, 'error');

      // returnTo takes one value.
      const bad = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect?returnTo=https://evil.example' });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(
        bad.json().errors.map((e: { path: string }) => e.path),
        ['returnTo'],
      );
      // Both are in the OpenAPI document.
      const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      const returnTo = doc.paths['/api/v1/providers/{network}/connect'].get.parameters.find((p: { name: string }) => p.name === 'returnTo');
      assert.deepEqual(returnTo.schema.enum ?? [returnTo.schema.const], ['web']);
      assert.ok(doc.paths['/api/v1/providers/{network}/callback'].get.responses['303'], 'the redirect is documented');
    });

    test('connect needs the app configured, and a valid state', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const bad = await app.inject({ method: 'GET', url: '/api/v1/providers/threads/callback?code=x&state=unknown' });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].path, 'state');
      const savedId = ctx.config.threads.appId;
      ctx.config.threads.appId = null;
      const off = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect' });
      ctx.config.threads.appId = savedId;
      assert.equal(off.statusCode, 409);
      assert.equal(off.json().code, 'NETWORK_NOT_CONFIGURED');
      assert.match(off.json().detail, /THREADS_APP_ID/);
    });
  },
  {
    config: (c) => ({ ...c, threads: { ...c.threads, apiUrl: fake.url, appId: APP_ID }, http: { ...c.http, publicUrl: 'http://127.0.0.1:3999' } }),
    threadsAppSecret: APP_SECRET,
    clock,
  },
);
