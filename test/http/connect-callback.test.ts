/**
 * The OAuth callback is honoured only in the browser that started the connect (decisions.md
 * "Security rules"): the start by a signed-in browser sets a connect cookie whose HMAC is kept
 * with the state; a callback without it, or with another, connects nothing; a state of another
 * network is refused; a connect started with an API key ends on a confirmation by the
 * signed-in user of its account, in the browser the network sent back. Threads is the strict
 * fake Graph API, Mastodon the fake server, both over HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { AppContext } from '../../src/context.js';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDb } from '../helpers/context.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { createUser } from '../helpers/seeds.js';
import { InjectBrowser } from '../helpers/web-browser.js';

const APP_ID = '5151515151';
const APP_SECRET = 'callback-test-app-secret';
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let graph: FakeGraphApi;
let mastodon: FakeMastodonApi;

before(async () => {
  graph = await FakeGraphApi.start({ clock, appId: APP_ID, appSecret: APP_SECRET });
  mastodon = await FakeMastodonApi.start({ maxCharacters: 500 });
});
after(async () => {
  await graph.close();
  await mastodon.close();
});

/** The providers of these users (the database is shared by the file's tests). */
async function providerCount(ctx: AppContext, ...users: Array<{ account: { id: string } }>): Promise<number> {
  const row = await ctx.db
    .selectFrom('providers')
    .where(
      'account_id',
      'in',
      users.map((u) => u.account.id),
    )
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Meta's part for an authorize URL: the user approves as `username`; the path of the redirect back to Skein. */
function approveAtMeta(authorizeUrl: string, username: string): string {
  const url = new URL(authorizeUrl);
  const redirectUri = url.searchParams.get('redirect_uri')!;
  const { code } = graph.authorize({ username, redirectUri });
  return `${new URL(redirectUri).pathname}?${new URLSearchParams({ code, state: url.searchParams.get('state')! })}`;
}

/** The Mastodon server's part: the path of its redirect back to Skein. */
async function approveAtMastodon(authorizeUrl: string, username: string): Promise<string> {
  mastodon.signIn(username);
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  assert.equal(res.status, 302, await res.text());
  const back = new URL(res.headers.get('location')!);
  return back.pathname + back.search;
}

function assertRefused(res: LightMyRequestResponse, what: string): void {
  assert.equal(res.statusCode, 403, `${what}: ${res.body}`);
  assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(res.json().code, 'CONNECT_REFUSED', what);
  assert.match(res.json().detail, /not started in this browser/);
}

describeEachDb(
  'OAuth callback bound to the starting browser',
  (env) => {
    test('a web-app start: the callback without its connect cookie, or with another, connects nothing; the state is used up; with it, connected', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const browser = await InjectBrowser.signedIn(ctx, user.account);
      const start = async () => {
        const res = await browser.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect?returnTo=web' });
        assert.equal(res.statusCode, 200, res.body);
        assert.match(String(res.headers['set-cookie']), /^skein_connect=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=900$/);
        return res.json().authorizeUrl as string;
      };

      // Another person's browser (no cookie): the attack of issue 37.
      const stolen = approveAtMeta(await start(), 'victim');
      assertRefused(await app.inject({ method: 'GET', url: stolen }), 'no cookie');
      const page = await app.inject({ method: 'GET', url: stolen, headers: { accept: 'text/html,application/xhtml+xml' } });
      assert.equal(page.statusCode, 400, 'the state was used up by the refused callback');
      // A person's browser is shown a page that says to start again from Skein.
      const forPerson = await app.inject({ method: 'GET', url: approveAtMeta(await start(), 'victim'), headers: { accept: 'text/html,*/*;q=0.8' } });
      assert.equal(forPerson.statusCode, 403);
      assert.match(forPerson.headers['content-type'] as string, /^text\/html/);
      assert.match(forPerson.body, /Nothing was connected/);
      assert.match(forPerson.body, /Start again from Skein/);

      // A browser with a connect cookie of its own (it started another connect): still not this one.
      const otherUser = await createUser(ctx);
      const other = await InjectBrowser.signedIn(ctx, otherUser.account);
      await other.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect' });
      assert.ok(other.cookies.get('skein_connect'));
      assertRefused(await other.call(app, { method: 'GET', url: approveAtMeta(await start(), 'victim') }), 'wrong cookie');
      const forged = await app.inject({ method: 'GET', url: approveAtMeta(await start(), 'victim'), headers: { cookie: 'skein_connect=not-a-token' } });
      assertRefused(forged, 'malformed cookie');
      assert.equal(await providerCount(ctx, user, otherUser), 0, 'nothing connected');

      // The browser that started it: connected, as before.
      const done = await browser.call(app, { method: 'GET', url: approveAtMeta(await start(), 'owner') });
      assert.equal(done.statusCode, 303, done.body);
      assert.equal(done.headers.location, '/accounts?threads=connected&username=owner');
      // Expired in the browser that started it: the accounts page says so, as before.
      const stale = await start();
      clock.advance(15 * 60_000 + 1);
      const expired = await browser.call(app, { method: 'GET', url: approveAtMeta(stale, 'late') });
      assert.equal(expired.statusCode, 303, expired.body);
      const page303 = new URL(expired.headers.location as string, 'http://skein.invalid');
      assert.deepEqual([page303.pathname, page303.searchParams.get('threads'), page303.searchParams.get('code')], ['/accounts', 'error', 'VALIDATION_FAILED']);
      // Two connects started in the same browser (two tabs) both finish: the cookie is kept.
      const first = await start();
      const second = await start();
      assert.equal((await browser.call(app, { method: 'GET', url: approveAtMeta(second, 'tab_two') })).statusCode, 303);
      assert.equal((await browser.call(app, { method: 'GET', url: approveAtMeta(first, 'tab_one') })).statusCode, 303);
      const names = (await browser.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers.map((p: { username: string }) => p.username);
      assert.deepEqual(names.sort(), ['owner', 'tab_one', 'tab_two']);
    });

    test("Mastodon: force_login; a callback in another browser connects nothing; a Threads state on Mastodon's callback is refused", async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const browser = await InjectBrowser.signedIn(ctx, user.account);
      const startMastodon = async () => {
        const res = await browser.call(app, { method: 'POST', url: '/api/v1/providers/mastodon/connect', payload: { instance: mastodon.url } });
        assert.equal(res.statusCode, 200, res.body);
        const url = new URL(res.json().authorizeUrl);
        assert.equal(url.searchParams.get('force_login'), 'true');
        return url.toString();
      };
      assertRefused(await app.inject({ method: 'GET', url: await approveAtMastodon(await startMastodon(), 'victim') }), 'no cookie');
      assert.equal(await providerCount(ctx, user), 0);

      // A Threads state brought to the Mastodon callback (and the other way round): refused, in the right browser too.
      const threadsStart = await browser.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect' });
      const threadsState = new URL(threadsStart.json().authorizeUrl).searchParams.get('state')!;
      const crossed = await browser.call(app, { method: 'GET', url: `/api/v1/providers/mastodon/callback?code=whatever&state=${threadsState}` });
      assert.equal(crossed.statusCode, 400, crossed.body);
      assert.deepEqual(crossed.json().errors, [{ path: 'state', message: 'belongs to a Threads connection, not Mastodon; start the connection again' }]);
      const mastodonState = new URL(await startMastodon()).searchParams.get('state')!;
      const crossedBack = await browser.call(app, { method: 'GET', url: `/api/v1/providers/threads/callback?code=whatever&state=${mastodonState}` });
      assert.equal(crossedBack.statusCode, 400, crossedBack.body);
      assert.equal(crossedBack.json().errors[0].path, 'state');
      assert.equal(await providerCount(ctx, user), 0);

      // The starting browser: connected (JSON without returnTo).
      const done = await browser.call(app, { method: 'GET', url: await approveAtMastodon(await startMastodon(), 'owner') });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(done.json().username, `owner@${mastodon.domain}`);
    });

    test('an API-key start: the callback connects nothing and sends the browser to be confirmed; only the signed-in user of that account, in that browser, confirms', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const stranger = await createUser(ctx);
      const keyStart = async () => {
        const res = await user.call(app, { method: 'GET', url: '/api/v1/providers/threads/connect' });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['set-cookie'], undefined, 'no browser to bind');
        return res.json().authorizeUrl as string;
      };
      const callback = async (browser: InjectBrowser, username: string) => {
        const res = await browser.call(app, { method: 'GET', url: approveAtMeta(await keyStart(), username) });
        assert.equal(res.statusCode, 303, res.body);
        const to = new URL(res.headers.location as string, 'http://skein.invalid');
        assert.equal(to.pathname, '/connect/confirm');
        assert.equal(to.searchParams.get('network'), 'threads');
        assert.ok(browser.cookies.get('skein_connect'), 'the callback binds this browser');
        return to.searchParams.get('state')!;
      };
      const confirm = (browser: InjectBrowser, state: string) =>
        browser.call(app, { method: 'POST', url: '/api/v1/providers/connect/confirm', payload: { state } });

      // The victim's browser, signed in to Skein as someone else: nothing connected at the callback, nor by confirming.
      const victim = await InjectBrowser.signedIn(ctx, stranger.account);
      const victimState = await callback(victim, 'victim');
      assert.equal(await providerCount(ctx, user, stranger), 0, 'the callback alone connects nothing');
      const notYours = await confirm(victim, victimState);
      assert.equal(notYours.statusCode, 403, notYours.body);
      assert.equal(notYours.json().code, 'CONNECT_REFUSED');
      assert.match(notYours.json().detail, /another Skein account/);
      // The attacker, who started it, knows the state but not that browser's cookie.
      const attacker = await InjectBrowser.signedIn(ctx, user.account);
      const elsewhere = new InjectBrowser();
      const stateElsewhere = await callback(elsewhere, 'victim');
      assertRefused(await confirm(attacker, stateElsewhere), 'confirmed in another browser');
      assert.equal((await confirm(attacker, victimState)).statusCode, 400, 'a refused confirmation uses the state up');
      // An API key cannot confirm.
      const keyState = await callback(new InjectBrowser(), 'victim');
      const byKey = await user.call(app, { method: 'POST', url: '/api/v1/providers/connect/confirm', payload: { state: keyState } });
      assert.equal(byKey.statusCode, 403, byKey.body);
      assert.equal(byKey.json().code, 'CONNECT_REFUSED');
      assert.equal(await providerCount(ctx, user, stranger), 0, 'nothing connected');

      // Its own user, signed in, in the browser Meta sent back: connected.
      const own = await InjectBrowser.signedIn(ctx, user.account);
      const ownState = await callback(own, 'scripted');
      const ok = await confirm(own, ownState);
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().username, 'scripted');
      assert.equal((await confirm(own, ownState)).statusCode, 400, 'once');
      // Ten minutes after the callback, the confirmation is too late.
      const lateState = await callback(own, 'late');
      clock.advance(10 * 60_000 + 1);
      assert.equal((await confirm(own, lateState)).statusCode, 400);
      assert.equal(await providerCount(ctx, user), 1);

      // A refusal at Meta needs no confirmation: its problem, as before.
      const denied = new URL(await keyStart()).searchParams.get('state')!;
      const refused = await app.inject({ method: 'GET', url: `/api/v1/providers/threads/callback?error=access_denied&state=${denied}` });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().errors[0].path, 'error');
    });
  },
  {
    config: (c) => ({
      ...c,
      media: { allowPrivate: true },
      threads: { ...c.threads, apiUrl: graph.url, appId: APP_ID },
      http: { ...c.http, publicUrl: 'http://127.0.0.1:3999' },
    }),
    threadsAppSecret: APP_SECRET,
    clock,
  },
);
