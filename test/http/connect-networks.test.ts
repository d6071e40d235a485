/**
 * Every OAuth network connects the same way (decisions.md "Networks in one place"): one
 * `GET /api/v1/providers/:network/connect` and one callback for all of them, dispatched by kind;
 * a `:network` that does not connect through a sign-in page is 404; a network this server lacks
 * the settings of is 409 NETWORK_NOT_CONFIGURED (Threads' own answers: connect-threads.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OAUTH_KINDS } from '../../src/networks/index.js';
import { describeEachDb } from '../helpers/context.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { createUser, rowCounts } from '../helpers/seeds.js';
import { InjectBrowser } from '../helpers/web-browser.js';

let mastodon: FakeMastodonApi;

before(async () => {
  mastodon = await FakeMastodonApi.start({ maxCharacters: 500 });
});
after(() => mastodon.close());

describeEachDb(
  'the sign-in routes of every OAuth network',
  (env) => {
    test('a :network that is no network, not lowercase, or one without a sign-in (Bluesky) is 404 on the start and the callback, and nothing is written', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const before = await rowCounts(ctx);
      for (const network of ['bluesky', 'nope', 'THREADS', 'connect']) {
        const start = await user.call(app, { method: 'GET', url: `/api/v1/providers/${network}/connect` });
        assert.equal(start.statusCode, 404, `${network}: ${start.body}`);
        assert.equal(start.json().code, 'NOT_FOUND');
        const callback = await app.inject({ method: 'GET', url: `/api/v1/providers/${network}/callback?code=c&state=s` });
        assert.equal(callback.statusCode, 404, `${network}: ${callback.body}`);
        assert.equal(callback.json().code, 'NOT_FOUND');
      }
      assert.deepEqual(await rowCounts(ctx), before);
    });

    test('a network this server lacks the settings of (Threads without THREADS_APP_ID) is 409 NETWORK_NOT_CONFIGURED, naming them', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const res = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect?returnTo=web' });
      assert.equal(res.statusCode, 409, res.body);
      assert.equal(res.json().code, 'NETWORK_NOT_CONFIGURED');
      assert.match(res.json().detail, /THREADS_APP_ID/);
      assert.match(res.json().type, /#network-not-configured$/);
    });

    test('Mastodon through the generic start: the server named in the query (required), then its callback as after the POST start', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const missing = await user.call(app, { method: 'GET', url: '/api/v1/providers/mastodon/connect' });
      assert.equal(missing.statusCode, 400, missing.body);
      assert.deepEqual(missing.json().errors, [{ path: 'instance', message: 'is required' }]);
      const notAServer = await user.call(app, { method: 'GET', url: '/api/v1/providers/mastodon/connect?instance=https%3A%2F%2Fmastodon.social%2F%40someone' });
      assert.equal(notAServer.statusCode, 400, notAServer.body);
      assert.equal(notAServer.json().errors[0].path, 'instance');
      // Every fault in one answer: the query's shape and the server together.
      const both = await user.call(app, { method: 'GET', url: '/api/v1/providers/mastodon/connect?returnTo=elsewhere' });
      assert.equal(both.statusCode, 400, both.body);
      assert.deepEqual(
        both
          .json()
          .errors.map((e: { path: string }) => e.path)
          .sort(),
        ['instance', 'returnTo'],
      );

      const browser = await InjectBrowser.signedIn(ctx, user.account);
      const started = await browser.call(app, { method: 'GET', url: `/api/v1/providers/mastodon/connect?${new URLSearchParams({ instance: mastodon.url })}` });
      assert.equal(started.statusCode, 200, started.body);
      const authorizeUrl = new URL(started.json().authorizeUrl);
      assert.equal(authorizeUrl.origin, mastodon.url);
      assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
      mastodon.signIn('olga');
      const approved = await fetch(authorizeUrl, { redirect: 'manual' });
      assert.equal(approved.status, 302, await approved.text());
      const back = new URL(approved.headers.get('location')!);
      assert.equal(back.pathname, '/api/v1/providers/mastodon/callback');
      const done = await browser.call(app, { method: 'GET', url: back.pathname + back.search });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(done.json().provider, 'MASTODON');
      assert.equal(done.json().username, `olga@${mastodon.domain}`);
    });

    test("the OpenAPI document: :network of the start and the callback is an enum of the OAuth networks' lowercase kinds", async () => {
      const doc = (await env().app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      const oauth = OAUTH_KINDS.map((kind) => kind.toLowerCase()).sort();
      assert.ok(oauth.includes('threads') && oauth.includes('mastodon'));
      for (const path of ['/api/v1/providers/{network}/connect', '/api/v1/providers/{network}/callback']) {
        const param = doc.paths[path].get.parameters.find((p: { in: string; name: string }) => p.in === 'path' && p.name === 'network');
        const values = param.schema.enum ?? param.schema.anyOf.map((s: { const?: string; enum?: string[] }) => s.const ?? s.enum?.[0]);
        assert.deepEqual([...values].sort(), oauth, path);
      }
    });
  },
  {
    config: (c) => ({ ...c, media: { allowPrivate: true }, threads: { ...c.threads, appId: null }, http: { ...c.http, publicUrl: 'http://127.0.0.1:3999' } }),
  },
);
