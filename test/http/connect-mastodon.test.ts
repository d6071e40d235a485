import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { NETWORKS } from '../../src/networks/index.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { describeEachDb, type TestEnv } from '../helpers/context.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { createProvider, createUser, type TestUser } from '../helpers/seeds.js';
import { callbackAndConfirm, InjectBrowser } from '../helpers/web-browser.js';

// Two independent servers with their own limits, and one that is not Mastodon at all.
let big: FakeMastodonApi;
let small: FakeMastodonApi;
let notMastodon: http.Server;
let notMastodonUrl: string;

before(async () => {
  big = await FakeMastodonApi.start({ maxCharacters: 1000 });
  small = await FakeMastodonApi.start({ maxCharacters: 500 });
  notMastodon = http.createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => notMastodon.listen(0, '127.0.0.1', resolve));
  notMastodonUrl = `http://127.0.0.1:${(notMastodon.address() as AddressInfo).port}`;
});
after(async () => {
  await big.close();
  await small.close();
  notMastodon.closeAllConnections();
  await new Promise<void>((resolve) => notMastodon.close(() => resolve()));
});

/** The browser's part: open authorizeUrl on the server (the user approves at once); the path of its redirect to Skein. */
async function approve(authorizeUrl: string): Promise<string> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  assert.equal(res.status, 302, await res.text());
  const back = new URL(res.headers.get('location')!);
  assert.equal(back.pathname, '/api/v1/providers/mastodon/callback');
  return back.pathname + back.search;
}

async function connectOAuth(env: TestEnv, user: TestUser, fake: FakeMastodonApi, username: string, extra: object = {}) {
  fake.signIn(username);
  const started = await user.call(env.app, { method: 'POST', url: '/api/v1/providers/mastodon/connect', payload: { instance: fake.url, ...extra } });
  assert.equal(started.statusCode, 200, started.body);
  const url = new URL(started.json().authorizeUrl);
  assert.equal(url.origin, fake.url);
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.ok(url.searchParams.get('state'));
  assert.equal(url.searchParams.get('force_login'), 'true', "the server's sign-in form even for a browser signed in there");
  // Started with an API key: confirmed by the user, signed in to Skein, in the browser the server sent back.
  return callbackAndConfirm(env.app, env.ctx, user.account, await approve(url.toString()));
}

describeEachDb(
  'Connect Mastodon (any server; OAuth with PKCE, a token for scripts, disconnect revokes)',
  (env) => {
    test('OAuth: the app is registered once per server, the token is kept encrypted, the limits are the server own', async () => {
      const { ctx } = env();
      const user = await createUser(ctx);
      const appsBefore = big.apps.length;
      const callback = await connectOAuth(env(), user, big, 'alice');
      assert.equal(callback.statusCode, 200, callback.body);
      const provider = callback.json();
      assert.equal(provider.provider, 'MASTODON');
      assert.equal(provider.username, `alice@${big.domain}`);
      assert.equal(big.apps.length, appsBefore + 1);
      const again = await connectOAuth(env(), user, big, 'alice');
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().id, provider.id, 'a reconnect keeps the provider');
      assert.equal(big.apps.length, appsBefore + 1, 'the app is registered once per server');
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      assert.equal(row.service_url, big.url);
      assert.ok(row.access_token_enc && !row.access_token_enc.includes(ctx.secrets.decrypt(row.access_token_enc)));
      assert.equal(row.network_limits?.maxCharacters, 1000);
      const app = await ctx.db.selectFrom('mastodon_apps').selectAll().where('instance', '=', big.url).executeTakeFirstOrThrow();
      assert.notEqual(app.client_secret_enc, big.apps.at(-1)!.clientSecret, 'the secret is kept encrypted');
      assert.equal(ctx.secrets.decrypt(app.client_secret_enc), big.apps.at(-1)!.clientSecret);

      // The other server: its own limits, at create in the one 400.
      const other = (await connectOAuth(env(), user, small, 'bob')).json();
      const tooLong = 'x'.repeat(700);
      const onSmall = await user.call(env().app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: other.id, posts: [{ text: tooLong }] } });
      assert.equal(onSmall.statusCode, 400, onSmall.body);
      assert.deepEqual(
        onSmall.json().errors.map((e: { path: string }) => e.path),
        ['posts.0.text'],
      );
      const onBig = await user.call(env().app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: tooLong }] } });
      assert.equal(onBig.statusCode, 201, onBig.body);
    });

    test('a state is single-use; returnTo web redirects to the accounts page', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      big.signIn('carol');
      const browser = await InjectBrowser.signedIn(ctx, user.account);
      const started = await browser.call(app, { method: 'POST', url: '/api/v1/providers/mastodon/connect', payload: { instance: big.url, returnTo: 'web' } });
      const back = await approve(started.json().authorizeUrl);
      const first = await browser.call(app, { method: 'GET', url: back });
      assert.equal(first.statusCode, 303, first.body);
      assert.equal(first.headers.location, `/accounts?mastodon=connected&username=${encodeURIComponent(`carol@${big.domain}`)}`);
      const replay = await browser.call(app, { method: 'GET', url: back });
      assert.equal(replay.statusCode, 400);
      assert.equal(replay.json().errors[0].path, 'state');
    });

    test('the token path: 201, the same account again 200; a bad token, a bad address and a server that is not Mastodon are 400s', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const { accessToken, accountId } = small.createAccount('dave');
      const path = '/api/v1/providers/mastodon';
      const created = await user.call(app, { method: 'POST', url: path, payload: { instance: small.url, accessToken } });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().providerUserId, accountId);
      assert.equal(created.json().username, `dave@${small.domain}`);
      const again = await user.call(app, { method: 'POST', url: path, payload: { instance: `${small.url}/`, accessToken } });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().id, created.json().id);
      const bad = await user.call(app, { method: 'POST', url: path, payload: { instance: small.url, accessToken: 'nope' } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().errors[0].path, 'accessToken');
      const malformed = await user.call(app, { method: 'POST', url: path, payload: { instance: 'https://mastodon.social/@someone', accessToken: ' ' } });
      assert.equal(malformed.statusCode, 400);
      assert.deepEqual(
        malformed
          .json()
          .errors.map((e: { path: string }) => e.path)
          .sort(),
        ['accessToken', 'instance'],
      );
      for (const url of ['/api/v1/providers/mastodon', '/api/v1/providers/mastodon/connect']) {
        const stranger = await user.call(app, { method: 'POST', url, payload: { instance: notMastodonUrl, accessToken } });
        assert.equal(stranger.statusCode, 400, stranger.body);
        assert.equal(stranger.json().errors[0].path, 'instance');
      }
    });

    test("the provider list carries each Mastodon account's own server limits (the network's for the other networks)", async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      await createProvider(ctx, user.account, 'THREADS');
      const onBig = (await connectOAuth(env(), user, big, 'frank')).json();
      const { accessToken } = small.createAccount('gina');
      const onSmall = await user.call(app, { method: 'POST', url: '/api/v1/providers/mastodon', payload: { instance: small.url, accessToken } });
      assert.equal(onSmall.statusCode, 201, onSmall.body);
      assert.deepEqual(onSmall.json().limits, NETWORKS.MASTODON.limits);
      assert.equal(onSmall.json().charactersReservedPerUrl, 23);
      const list = await user.call(app, { method: 'GET', url: '/api/v1/providers' });
      assert.equal(list.statusCode, 200, list.body);
      const limits = Object.fromEntries(
        list.json().providers.map((p: { provider: string; username: string; limits: unknown }) => [`${p.provider} ${p.username}`, p.limits]),
      );
      assert.deepEqual(limits[`MASTODON ${onBig.username}`], { ...NETWORKS.MASTODON.limits, textPerPost: 1000 });
      assert.deepEqual(limits[`MASTODON gina@${small.domain}`], NETWORKS.MASTODON.limits);
      const threads = list.json().providers.find((p: { provider: string }) => p.provider === 'THREADS');
      assert.deepEqual(threads.limits, NETWORKS.THREADS.limits);
      assert.equal(threads.charactersReservedPerUrl, null);
    });

    test('the same account id on two servers is two accounts (a Mastodon id is its server own)', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const workspace = personalWorkspace(user.account.id);
      const limits = {
        maxCharacters: 500,
        maxMediaAttachments: 4,
        charactersReservedPerUrl: 23,
        imageSizeLimit: null,
        videoSizeLimit: null,
        descriptionLimit: null,
      };
      const on = (serviceUrl: string, username: string) =>
        addProvider(ctx, user.account.id, workspace, { kind: 'MASTODON', providerUserId: '7', username, accessToken: 't', serviceUrl, networkLimits: limits });
      const first = await on('https://one.example', 'ann@one.example');
      const second = await on('https://two.example', 'ann@two.example');
      assert.notEqual(second.id, first.id);
      const again = await on('https://one.example', 'ann@one.example');
      assert.equal(again.id, first.id, 'the same server again is a reconnect');
      const list = (await user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
      assert.deepEqual(list.map((p: { username: string }) => p.username).sort(), ['ann@one.example', 'ann@two.example']);
    });

    test('disconnect revokes the token at the server', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const provider = (await connectOAuth(env(), user, big, 'erin')).json();
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      const token = ctx.secrets.decrypt(row.access_token_enc!);
      assert.equal(big.isRevoked(token), false);
      const res = await user.call(app, { method: 'DELETE', url: `/api/v1/providers/${provider.id}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'REVOKED');
      assert.equal(big.isRevoked(token), true);
    });
  },
  { config: (c) => ({ ...c, media: { allowPrivate: true }, http: { ...c.http, publicUrl: 'http://127.0.0.1:3999' } }) },
);

describeEachDb('Connect Mastodon: a server on a private or loopback address is refused without SKEIN_ALLOW_PRIVATE_MEDIA', (env) => {
  test('400 at instance, and nothing is registered there', async () => {
    const { ctx, app } = env();
    const user = await createUser(ctx);
    const before = small.requests.length;
    const res = await user.call(app, { method: 'POST', url: '/api/v1/providers/mastodon/connect', payload: { instance: small.url } });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().errors[0].path, 'instance');
    assert.equal(small.requests.length, before);
  });
});
