import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { NETWORKS } from '../../src/networks/index.js';
import { xSetup } from '../../src/networks/x/connect.js';
import { describeEachDb, type TestEnv } from '../helpers/context.js';
import { FakeXApi } from '../helpers/fakes/x-api.js';
import { createUser, type TestUser } from '../helpers/seeds.js';
import { callbackAndConfirm, InjectBrowser } from '../helpers/web-browser.js';

const PUBLIC_URL = 'http://127.0.0.1:3999';
const CALLBACK = `${PUBLIC_URL}/api/v1/providers/x/callback`;
const HOUR = 3_600_000;
// One clock for Skein and for "X", so token lifetimes agree.
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let fake: FakeXApi;

before(async () => {
  // A public client (Native App): no secret, as this server has no X_CLIENT_SECRET in tests.
  fake = await FakeXApi.start({ clock, clientSecret: null, redirectUris: [CALLBACK] });
});
after(() => fake.close());

const unique = (name: string) => `${name}${Math.floor(Math.random() * 1e6)}`;

/** The browser's part: open authorizeUrl on X (the signed-in account approves at once); the path of its redirect to Skein. */
async function approve(authorizeUrl: string): Promise<string> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  assert.equal(res.status, 302, await res.text());
  const back = new URL(res.headers.get('location')!);
  assert.equal(back.origin + back.pathname, CALLBACK);
  return back.pathname + back.search;
}

async function startConnect(env: TestEnv, user: TestUser, username: string) {
  fake.signIn(username);
  const started = await user.call(env.app, { method: 'GET', url: '/api/v1/providers/x/connect' });
  assert.equal(started.statusCode, 200, started.body);
  const url = new URL(started.json().authorizeUrl);
  assert.equal(url.origin + url.pathname, fake.authorizeUrl);
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(url.searchParams.get('scope'), 'tweet.read tweet.write users.read media.write offline.access');
  assert.equal(url.searchParams.get('redirect_uri'), CALLBACK);
  return url.toString();
}

const providerRow = (env: TestEnv, id: string) => env.ctx.db.selectFrom('providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function xProviders(env: TestEnv, user: TestUser): Promise<number> {
  const rows = await env.ctx.db.selectFrom('providers').select('id').where('kind', '=', 'X').where('account_id', '=', user.account.id).execute();
  return rows.length;
}

describeEachDb(
  'Connect X (OAuth 2.0 with PKCE against the fake X API, a token for scripts, disconnect revokes)',
  (env) => {
    test('OAuth: the account, its rotating pair kept encrypted with its expiry, a Premium account its own limits; the same account again is a reconnect', async () => {
      const user = await createUser(env().ctx);
      const setup = await user.call(env().app, { method: 'GET', url: '/api/v1/providers/x/setup' });
      assert.deepEqual(setup.json(), { oauthReady: true, missing: [], redirectUri: CALLBACK, guideUrl: `${PUBLIC_URL}/guide/connect-x` });
      const name = unique('premium');
      fake.createAccount(name, { subscription: 'Premium' });
      const callback = await callbackAndConfirm(env().app, env().ctx, user.account, await approve(await startConnect(env(), user, name)));
      assert.equal(callback.statusCode, 200, callback.body);
      const provider = callback.json();
      assert.equal(provider.provider, 'X');
      assert.equal(provider.username, name);
      assert.deepEqual(provider.limits, { ...NETWORKS.X.limits, textPerPost: 25_000 });
      const row = await providerRow(env(), provider.id);
      const access = env().ctx.secrets.decrypt(row.access_token_enc!);
      assert.ok(!row.access_token_enc!.includes(access), 'the token is kept encrypted');
      assert.ok(row.refresh_token_enc, 'offline.access: a refresh token is kept');
      assert.equal(row.token_expires_at!.getTime(), clock.now().getTime() + 2 * HOUR);
      assert.equal(row.network_limits?.maxCharacters, 25_000);

      const again = await callbackAndConfirm(env().app, env().ctx, user.account, await approve(await startConnect(env(), user, name)));
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().id, provider.id, 'a reconnect keeps the provider');
      assert.notEqual(env().ctx.secrets.decrypt((await providerRow(env(), provider.id)).access_token_enc!), access, 'with the new token');
    });

    test('the connect is bound to the browser that started it; a state is single-use; returnTo web redirects to the accounts page', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const name = unique('bound');
      fake.signIn(name);
      const browser = await InjectBrowser.signedIn(ctx, user.account);
      const start = async () => {
        const started = await browser.call(app, { method: 'GET', url: '/api/v1/providers/x/connect?returnTo=web' });
        assert.equal(started.statusCode, 200, started.body);
        return approve(started.json().authorizeUrl);
      };
      const stranger = await InjectBrowser.signedIn(ctx, user.account);
      const elsewhere = await stranger.call(app, { method: 'GET', url: await start() });
      assert.notEqual(elsewhere.headers.location, `/accounts?x=connected&username=${name}`, 'another browser cannot finish it');
      assert.equal(await xProviders(env(), user), 0, 'nothing connected from another browser');
      const back = await start();
      const first = await browser.call(app, { method: 'GET', url: back });
      assert.equal(first.statusCode, 303, first.body);
      assert.equal(first.headers.location, `/accounts?x=connected&username=${name}`);
      const replay = await browser.call(app, { method: 'GET', url: back });
      assert.equal(replay.statusCode, 400);
      assert.equal(replay.json().errors[0].path, 'state');
    });

    test('the token path: 201 with the account X names, the same account again 200; a refresh token is rotated at once', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const name = unique('script');
      const minted = fake.createAccount(name);
      const path = '/api/v1/providers/x';
      const created = await user.call(app, { method: 'POST', url: path, payload: { accessToken: ` ${minted.accessToken} ` } });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().providerUserId, minted.userId);
      assert.equal(created.json().username, name);
      assert.deepEqual(created.json().limits, NETWORKS.X.limits);
      const kept = await providerRow(env(), created.json().id);
      assert.equal(ctx.secrets.decrypt(kept.access_token_enc!), minted.accessToken);
      assert.equal(kept.refresh_token_enc, null);

      const again = await user.call(app, { method: 'POST', url: path, payload: { accessToken: minted.accessToken, refreshToken: minted.refreshToken } });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().id, created.json().id);
      const row = await providerRow(env(), created.json().id);
      assert.equal(fake.isTokenDead(minted.refreshToken!), true, 'the refresh token given was used');
      const refresh = ctx.secrets.decrypt(row.refresh_token_enc!);
      assert.notEqual(refresh, minted.refreshToken);
      assert.equal(fake.isTokenDead(refresh), false);
      assert.equal(row.token_expires_at!.getTime(), clock.now().getTime() + 2 * HOUR);
    });

    test("the token path: X's refusal is a 400 at the field it refused; empty fields are 400s, all at once", async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const path = '/api/v1/providers/x';
      const bad = await user.call(app, { method: 'POST', url: path, payload: { accessToken: 'not-a-token' } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().errors[0].path, 'accessToken');
      assert.match(bad.json().errors[0].message, /^X refused: /);
      const minted = fake.createAccount(unique('dead'));
      const deadRefresh = await user.call(app, { method: 'POST', url: path, payload: { accessToken: minted.accessToken, refreshToken: 'dead' } });
      assert.equal(deadRefresh.statusCode, 400, deadRefresh.body);
      assert.equal(deadRefresh.json().errors[0].path, 'refreshToken');
      const empty = await user.call(app, { method: 'POST', url: path, payload: { accessToken: ' ', refreshToken: '' } });
      assert.equal(empty.statusCode, 400, empty.body);
      assert.deepEqual(
        empty
          .json()
          .errors.map((e: { path: string }) => e.path)
          .sort(),
        ['accessToken', 'refreshToken'],
      );
      assert.equal(await xProviders(env(), user), 0, 'nothing is written');
    });

    test('disconnect revokes the pair at X', async () => {
      const user = await createUser(env().ctx);
      const name = unique('leaver');
      const provider = (await callbackAndConfirm(env().app, env().ctx, user.account, await approve(await startConnect(env(), user, name)))).json();
      const row = await providerRow(env(), provider.id);
      const access = env().ctx.secrets.decrypt(row.access_token_enc!);
      const refresh = env().ctx.secrets.decrypt(row.refresh_token_enc!);
      const res = await user.call(env().app, { method: 'DELETE', url: `/api/v1/providers/${provider.id}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'REVOKED');
      assert.equal(fake.isTokenDead(access), true);
      assert.equal(fake.isTokenDead(refresh), true);
    });
  },
  {
    clock,
    config: (c) => ({ ...c, http: { ...c.http, publicUrl: PUBLIC_URL }, x: { apiUrl: fake.url, clientId: fake.clientId } }),
  },
);

describeEachDb('Connect X without X_CLIENT_ID', (env) => {
  test('409 NETWORK_NOT_CONFIGURED naming X_CLIENT_ID; the token path still answers', async () => {
    const { ctx, app } = env();
    const user = await createUser(ctx);
    const res = await user.call(app, { method: 'GET', url: '/api/v1/providers/x/connect' });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().code, 'NETWORK_NOT_CONFIGURED');
    assert.match(res.json().detail, /X_CLIENT_ID/);
    assert.doesNotMatch(res.json().detail, /PUBLIC_URL/, 'PUBLIC_URL is needed only when X would refuse it');
    const setup = await user.call(app, { method: 'GET', url: '/api/v1/providers/x/setup' });
    assert.equal(setup.statusCode, 200, setup.body);
    assert.equal(setup.json().oauthReady, false);
    assert.deepEqual(
      setup.json().missing.map((m: { setting: string }) => m.setting),
      ['X_CLIENT_ID'],
    );
    assert.match(setup.json().redirectUri, /\/api\/v1\/providers\/x\/callback$/);
  });

  test("X's docs rule out a localhost callback (http://127.0.0.1 instead): PUBLIC_URL is named then", async () => {
    const { ctx } = env();
    const local = {
      ...ctx,
      config: { ...ctx.config, http: { ...ctx.config.http, publicUrl: 'http://localhost:3000' }, x: { ...ctx.config.x, clientId: 'id' } },
    };
    assert.deepEqual(
      xSetup(local).missing.map((m) => m.setting),
      ['PUBLIC_URL'],
    );
  });
});
