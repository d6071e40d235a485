/**
 * An OAuth connect finishes only in the browser that started it (decisions.md "Security rules"),
 * in Chromium against a real `skein serve` (test/helpers/browser.ts), with the strict fake Graph
 * API as Threads and the fake Mastodon server. The owner starts a connect from the accounts page,
 * but the authorize URL is opened in a second browser (another profile: what an attacker does by
 * sending the link to someone who trusts the app): the network approves there and sends that
 * browser to Skein's callback, which connects nothing and says to start again from Skein. The
 * owner's own browser then goes through the same round trip and is connected. A connect started
 * with an API key ends on the confirmation page, where the signed-in owner confirms it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext, Route } from 'playwright-core';
import {
  collectPageErrors,
  firstApiKey,
  keyedApi,
  launchBrowser,
  shoot,
  signInFirstTime,
  skipReason,
  startWebHarness,
  type WebHarness,
} from '../helpers/browser.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';

const APP_ID = '6161616161';
const APP_SECRET = 'other-browser-app-secret';
const skip = skipReason('connects bound to their browser');
let graph: FakeGraphApi | null = null;
let mastodon: FakeMastodonApi | null = null;
let h: WebHarness | null = null;
let otherDir = '';
let other: BrowserContext | null = null;

before(async () => {
  if (skip) return;
  graph = await FakeGraphApi.start({ appId: APP_ID, appSecret: APP_SECRET });
  mastodon = await FakeMastodonApi.start({ maxCharacters: 500 });
  const graphUrl = graph.url;
  h = await startWebHarness((base) => ({
    THREADS_API_URL: graphUrl,
    THREADS_APP_ID: APP_ID,
    THREADS_APP_SECRET: APP_SECRET,
    PUBLIC_URL: base,
    SKEIN_ALLOW_PRIVATE_MEDIA: '1',
    SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000',
  }));
  otherDir = mkdtempSync(join(tmpdir(), 'skein-web-other-'));
  other = await launchBrowser(otherDir);
});

after(async () => {
  await other?.close();
  if (otherDir) rmSync(otherDir, { recursive: true, force: true });
  await h?.close();
  await graph?.close();
  await mastodon?.close();
});

/** "Meta" in a browser: approves as `username` and redirects to Skein's callback, as Meta does. */
async function metaApproves(context: BrowserContext, username: () => string): Promise<void> {
  await context.route('https://threads.net/oauth/authorize**', async (route: Route) => {
    const url = new URL(route.request().url());
    const redirectUri = url.searchParams.get('redirect_uri')!;
    const { code } = graph!.authorize({ username: username(), redirectUri });
    const back = new URL(redirectUri);
    back.search = new URLSearchParams({ code: `${code}#_`, state: url.searchParams.get('state')! }).toString();
    await route.fulfill({ status: 302, headers: { location: back.toString() } });
  });
}

/** The owner's browser does not go to the network: the authorize URL it was sent to is kept, for the other browser. */
async function holdAuthorizeUrl(context: BrowserContext, pattern: string): Promise<() => string | null> {
  let held: string | null = null;
  const handler = async (route: Route) => {
    held = route.request().url();
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>held</title><p>held by the test</p>' });
  };
  await context.route(pattern, handler);
  return () => {
    const url = held;
    held = null;
    return url;
  };
}

test('a connect finishes only in the browser that started it: another browser connects nothing; an API-key start is confirmed by the signed-in owner', {
  skip,
  timeout: 300_000,
}, async () => {
  const harness = h!;
  const second = other!;
  const api = keyedApi(harness.base, () => firstApiKey(harness));
  const page = await harness.context.newPage();
  const pageErrors = collectPageErrors(page);
  await signInFirstTime(harness, page, 'a long other-browser password');

  // Threads: the owner clicks Connect Threads; the URL is opened in the other browser instead.
  const heldThreads = await holdAuthorizeUrl(harness.context, 'https://threads.net/oauth/authorize**');
  await page.goto(`${harness.base}/accounts`);
  await page.getByRole('button', { name: 'Connect Threads' }).click();
  await page.waitForURL((url) => url.hostname === 'threads.net');
  const threadsUrl = heldThreads();
  assert.ok(threadsUrl, 'the owner was sent to Meta');
  await metaApproves(second, () => 'victim_threads');
  const victim = await second.newPage();
  await victim.goto(threadsUrl);
  await victim.getByRole('heading', { name: 'Nothing was connected' }).waitFor();
  assert.equal(new URL(victim.url()).pathname, '/api/v1/providers/threads/callback');
  assert.match((await victim.locator('main').textContent()) ?? '', /Start again from Skein/);
  await shoot(victim, 'connect-other-browser-refused');
  assert.equal((await api('/api/v1/providers')).count, 0, 'nothing connected');

  // Mastodon the same way (force_login asked for).
  const heldMastodon = await holdAuthorizeUrl(harness.context, `${mastodon!.url}/oauth/authorize**`);
  await page.goto(`${harness.base}/accounts`);
  await page.getByLabel('Mastodon server').fill(mastodon!.url);
  await page.getByRole('button', { name: 'Connect Mastodon', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/oauth/authorize');
  const mastodonUrl = heldMastodon();
  assert.ok(mastodonUrl);
  assert.equal(new URL(mastodonUrl).searchParams.get('force_login'), 'true');
  mastodon!.signIn('victim_mastodon');
  await victim.goto(mastodonUrl);
  await victim.getByRole('heading', { name: 'Nothing was connected' }).waitFor();
  assert.equal(new URL(victim.url()).pathname, '/api/v1/providers/mastodon/callback');
  assert.equal((await api('/api/v1/providers')).count, 0, 'nothing connected');

  // The owner's own browser, the whole round trip: connected, as before.
  await harness.context.unrouteAll();
  let ownerApproves = 'owner_threads';
  await metaApproves(harness.context, () => ownerApproves);
  await page.goto(`${harness.base}/accounts`);
  await page.getByRole('button', { name: 'Connect Threads' }).click();
  await page.getByRole('status').filter({ hasText: 'Threads account @owner_threads connected.' }).waitFor();

  // Started with the API key (a script): the browser Meta sends back is asked to confirm, signed in.
  await second.unrouteAll();
  await metaApproves(second, () => 'scripted_victim');
  const { authorizeUrl } = await api('/api/v1/providers/threads/connect');
  const stranger = await second.newPage();
  await stranger.goto(authorizeUrl);
  await stranger.waitForURL((url) => url.pathname === '/sign-in', { timeout: 60_000 });
  assert.match(new URL(stranger.url()).searchParams.get('next') ?? '', /^\/connect\/confirm\?/, 'the other browser is not signed in: nothing to confirm there');
  ownerApproves = 'scripted_owner';
  const started = await api('/api/v1/providers/threads/connect');
  await page.goto(started.authorizeUrl);
  await page.getByRole('heading', { name: 'Connect the Threads account?' }).waitFor();
  await shoot(page, 'connect-confirm');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Threads account @scripted_owner connected.' }).waitFor();
  const names = (await api('/api/v1/providers')).providers.map((p: { username: string }) => p.username).sort();
  assert.deepEqual(names, ['owner_threads', 'scripted_owner']);
  assert.deepEqual(pageErrors, []);
});
