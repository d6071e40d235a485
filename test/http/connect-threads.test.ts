import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { refreshExpiringTokens } from '../../src/publisher/token-refresh.js';
import { describeEachDb } from '../helpers/context.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { createTeamWith, createUser, rowCounts } from '../helpers/seeds.js';

const APP_ID = '1234567890';
const APP_SECRET = 'app-secret-for-tests';
const DAY = 86_400_000;
// One clock for Skein and for "Meta", so token lifetimes agree.
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let fake: FakeGraphApi;

before(async () => {
  fake = await FakeGraphApi.start({ clock, appId: APP_ID, appSecret: APP_SECRET });
});
after(() => fake.close());

const unique = (name: string) => `${name}${Math.floor(Math.random() * 1e9)}`;

describeEachDb(
  'connecting Threads with an access token, the app configured (fake Graph API over HTTP)',
  (env) => {
    test('a short-lived token is exchanged for a 60-day one; the account comes from Meta; the same account again is a reconnect (200, same provider)', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const short = fake.createShortLivedToken({ username: unique('tok') });
      const res = await user.call(app, { method: 'POST', url: '/api/v1/providers/threads', payload: { accessToken: short.accessToken } });
      assert.equal(res.statusCode, 201, res.body);
      const provider = res.json();
      assert.equal(provider.provider, 'THREADS');
      assert.equal(provider.providerUserId, short.userId);
      assert.equal(provider.status, 'ACTIVE');
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      const stored = ctx.secrets.decrypt(row.access_token_enc!);
      assert.notEqual(stored, short.accessToken, 'the short-lived token was exchanged');
      assert.match(stored, /^THL/, 'a long-lived token is kept');
      assert.equal(row.token_expires_at!.getTime(), clock.now().getTime() + 60 * DAY);

      const again = fake.createShortLivedToken({ userId: short.userId });
      const reconnect = await user.call(app, { method: 'POST', url: '/api/v1/providers/threads', payload: { accessToken: again.accessToken } });
      assert.equal(reconnect.statusCode, 200, reconnect.body);
      assert.equal(reconnect.json().id, provider.id);
      const after = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      assert.notEqual(ctx.secrets.decrypt(after.access_token_enc!), stored, 'the new token replaced the old one');
    });

    test('a long-lived token is kept as given, and renewed once Meta allows it (a day later), which tells its real expiry', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const long = fake.createAccount(unique('long'));
      const res = await user.call(app, { method: 'POST', url: '/api/v1/providers/threads', payload: { accessToken: ` ${long.accessToken} ` } });
      assert.equal(res.statusCode, 201, res.body);
      const id = res.json().id as string;
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(ctx.secrets.decrypt(row.access_token_enc!), long.accessToken);
      assert.equal(row.token_expires_at!.getTime(), clock.now().getTime() + 8 * DAY, 'refreshed a day from now (7-day window + 1 day)');

      clock.advance(DAY + 60_000);
      await refreshExpiringTokens(ctx);
      const renewed = await ctx.db.selectFrom('providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.notEqual(ctx.secrets.decrypt(renewed.access_token_enc!), long.accessToken);
      assert.equal(renewed.token_expires_at!.getTime(), clock.now().getTime() + 60 * DAY);
      assert.equal(renewed.status, 'ACTIVE');
    });

    test("a token Meta refuses is a 400 at accessToken with Meta's reason, and nothing is stored", async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const revoked = fake.createAccount(unique('rev'));
      fake.revokeToken(revoked.accessToken);
      const before = await rowCounts(ctx);
      for (const accessToken of ['THLnot-a-token', revoked.accessToken]) {
        const res = await user.call(app, { method: 'POST', url: '/api/v1/providers/threads', payload: { accessToken } });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
        const [fault, ...more] = res.json().errors;
        assert.equal(more.length, 0);
        assert.equal(fault.path, 'accessToken');
        assert.match(fault.message, /^Threads refused: .+/);
      }
      assert.deepEqual(await rowCounts(ctx), before);
    });

    test('bad input names its field and changes nothing; a team the caller is not in is 404', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const stranger = await createUser(ctx);
      const team = await createTeamWith(ctx, stranger.account);
      const token = fake.createAccount(unique('bad')).accessToken;
      const before = await rowCounts(ctx);
      const cases: Array<[unknown, number, string | null]> = [
        [{}, 400, 'accessToken'],
        [{ accessToken: '   ' }, 400, 'accessToken'],
        [{ accessToken: 42 }, 400, 'accessToken'],
        [{ accessToken: token, teamId: team.id }, 404, null],
      ];
      for (const [payload, status, path] of cases) {
        const res = await user.call(app, { method: 'POST', url: '/api/v1/providers/threads', payload: payload as object });
        assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`);
        if (path)
          assert.deepEqual(
            res.json().errors.map((e: { path: string }) => e.path),
            [path],
          );
      }
      assert.deepEqual(await rowCounts(ctx), before);
      const anonymous = await app.inject({ method: 'POST', url: '/api/v1/providers/threads', payload: { accessToken: token } });
      assert.equal(anonymous.statusCode, 401);
    });

    test('the setup check: OAuth ready with the app set; on Meta’s own API an http PUBLIC_URL is named as missing', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const ready = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/setup' });
      assert.equal(ready.statusCode, 200, ready.body);
      assert.deepEqual(ready.json(), {
        oauthReady: true,
        missing: [],
        redirectUri: 'http://127.0.0.1:3999/api/v1/providers/threads/callback',
        exchangesTokens: true,
        guideUrl: 'http://127.0.0.1:3999/guide/connect-threads',
      });
      const saved = ctx.config.threads.apiUrl;
      ctx.config.threads.apiUrl = 'https://graph.threads.net';
      try {
        const setup = (await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/setup' })).json();
        assert.equal(setup.oauthReady, false);
        assert.deepEqual(
          setup.missing.map((m: { setting: string }) => m.setting),
          ['PUBLIC_URL'],
        );
        const connect = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect' });
        assert.equal(connect.statusCode, 409);
        assert.equal(connect.json().code, 'NETWORK_NOT_CONFIGURED');
        assert.match(connect.json().detail, /PUBLIC_URL \(an https address/);
        assert.match(connect.json().detail, /http:\/\/127\.0\.0\.1:3999\/guide\/connect-threads/);
      } finally {
        ctx.config.threads.apiUrl = saved;
      }
    });
  },
  {
    config: (c) => ({ ...c, threads: { ...c.threads, apiUrl: fake.url, appId: APP_ID }, http: { ...c.http, publicUrl: 'http://127.0.0.1:3999' } }),
    threadsAppSecret: APP_SECRET,
    clock,
  },
);

describeEachDb(
  'connecting Threads with no Meta app configured',
  (env) => {
    test('the setup check names THREADS_APP_ID and THREADS_APP_SECRET before any click, and Connect Threads answers the same in its 409', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const setup = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/setup' });
      assert.equal(setup.statusCode, 200, setup.body);
      assert.equal(setup.json().oauthReady, false);
      assert.equal(setup.json().exchangesTokens, false);
      assert.deepEqual(
        setup.json().missing.map((m: { setting: string }) => m.setting),
        ['THREADS_APP_ID', 'THREADS_APP_SECRET'],
      );
      const connect = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect' });
      assert.equal(connect.statusCode, 409, connect.body);
      const { detail, code } = connect.json();
      assert.equal(code, 'NETWORK_NOT_CONFIGURED');
      assert.match(detail, /THREADS_APP_ID/);
      assert.match(detail, /THREADS_APP_SECRET/);
      assert.match(detail, /POST \/api\/v1\/providers\/threads/);
      assert.match(detail, /\/guide\/connect-threads/);
      // Meta's callback cannot exchange a code without the app either: the same answer, nothing taken.
      const callback = await app.inject({ method: 'GET', url: '/api/v1/providers/threads/callback?code=c&state=s' });
      assert.equal(callback.statusCode, 409, callback.body);
      assert.equal(callback.json().code, 'NETWORK_NOT_CONFIGURED');
    });

    test('the token path still works: without the app secret the token is kept as given', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const long = fake.createAccount(unique('nosecret'));
      const res = await user.call(app, { method: 'POST', url: '/api/v1/providers/threads', payload: { accessToken: long.accessToken } });
      assert.equal(res.statusCode, 201, res.body);
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', res.json().id).executeTakeFirstOrThrow();
      assert.equal(ctx.secrets.decrypt(row.access_token_enc!), long.accessToken);
      assert.equal(res.json().username.startsWith('nosecret'), true);
    });
  },
  { config: (c) => ({ ...c, threads: { ...c.threads, apiUrl: fake.url, appId: null } }), clock },
);
