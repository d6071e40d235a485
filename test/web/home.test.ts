/**
 * The home page in a real browser (test/helpers/browser.ts: Chromium against a real `skein serve`
 * on the embedded database, its publisher running), Threads being the strict fake Graph API
 * (test/helpers/fakes/threads-graph-api.ts) and media a local server (test/helpers/media-server.ts).
 *
 * A new owner sees the empty state (connect an account; nothing needs them). Then a thread fails at
 * the fake (a container Meta cannot process), another because Threads cannot fetch its image
 * (MEDIA_UNREACHABLE), and an account's token is revoked at Meta, so its due thread fails and the
 * account turns EXPIRED, with a second thread due on it within hours: the home page shows each
 * with the network's error, Retry (pressed with the keyboard: the result is announced, the item
 * leaves the list and the thread is published) and Reconnect (Meta's sign-in; back home, the
 * account's items are gone). Screenshots at 1280×800 and 375×812, no sideways scrolling.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  collectPageErrors,
  firstApiKey,
  keyedApi,
  PHONE,
  shoot,
  signInFirstTime,
  skipReason,
  startWebHarness,
  type WebHarness,
  waitFor,
} from '../helpers/browser.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { type MediaServer, startMediaServer } from '../helpers/media-server.js';

const APP_ID = '5252525252';
const APP_SECRET = 'home-test-app-secret';
const skip = skipReason('home page');
let fake: FakeGraphApi | null = null;
let media: MediaServer | null = null;
let h: WebHarness | null = null;

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({ appId: APP_ID, appSecret: APP_SECRET, processingMs: { TEXT: 0, IMAGE: 0, CAROUSEL: 0, VIDEO: 0 } });
  media = await startMediaServer();
  const graph = fake.url;
  h = await startWebHarness((base) => ({
    THREADS_API_URL: graph,
    THREADS_APP_ID: APP_ID,
    THREADS_APP_SECRET: APP_SECRET,
    PUBLIC_URL: base,
    // The media server listens on 127.0.0.1.
    SKEIN_ALLOW_PRIVATE_MEDIA: '1',
    SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000',
  }));
});

after(async () => {
  await h?.close();
  await media?.close();
  await fake?.close();
});

test('home page: empty state; failed threads with the network error and a working Retry; an expired account with Reconnect; 375 px', {
  skip,
  timeout: 600_000,
}, async () => {
  const harness = h!;
  const graph = fake!;
  const key = firstApiKey(harness);
  const api = keyedApi(harness.base, () => key);
  const page = await harness.context.newPage();
  const pageErrors = collectPageErrors(page);

  await signInFirstTime(harness, page, 'a long home-page password');

  // Empty: what to do first.
  await page.goto(`${harness.base}/`);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Get started', level: 2 }).waitFor();
  await page.getByRole('link', { name: 'Connect a Threads or Bluesky account' }).waitFor();
  const attention = page.locator('section.attention');
  await attention.getByText('Nothing needs you').waitFor();
  await page.locator('section.coming-next').getByText('Nothing is scheduled').waitFor();
  await page.locator('section.last-week').getByText('Nothing was published in the last 7 days.').waitFor();
  await shoot(page, 'home-empty');

  // Two Threads accounts, connected with tokens.
  const mainUser = graph.createAccount('home_main');
  const spareUser = graph.createAccount('home_spare');
  const main = await api('/api/v1/providers/threads', { method: 'POST', body: { accessToken: mainUser.accessToken } });
  const spare = await api('/api/v1/providers/threads', { method: 'POST', body: { accessToken: spareUser.accessToken } });
  const thread = async (providerId: string, text: string, extra: object = {}, at = new Date()) =>
    (await api('/api/v1/posts', { method: 'POST', body: { providerId, scheduleAt: at.toISOString(), posts: [{ text, ...extra }] } })).threadId as string;
  const statusOf = async (threadId: string) => (await api(`/api/v1/posts/${threadId}`)).thread;

  // A container Meta cannot process: the thread fails at the fake.
  graph.failNextContainer('UNSUPPORTED_CONTENT');
  const failing = await thread(main.id, 'A thread Meta refuses first');
  await waitFor('the thread to fail', async () => (await statusOf(failing)).status === 'FAILED');
  const failed = (await statusOf(failing)).posts[0].error;
  assert.equal(failed.code, 'THREADS_MEDIA_FAILED');
  // An image Threads cannot fetch.
  const unreachable = await thread(main.id, 'A picture that is gone', { media: [{ url: `${media!.base}/missing.jpg`, altText: 'gone' }] });
  await waitFor('the media thread to fail', async () => (await statusOf(unreachable)).status === 'FAILED');
  // The spare account's token is revoked at Meta: its due thread fails and the account is EXPIRED.
  graph.revokeToken(spareUser.accessToken);
  const refused = await thread(spare.id, 'A thread on an account Meta no longer accepts');
  await waitFor(
    'the account to expire',
    async () => (await api('/api/v1/providers')).providers.find((p: { id: string }) => p.id === spare.id).status === 'EXPIRED',
  );
  await waitFor('its thread to fail', async () => (await statusOf(refused)).status === 'FAILED');
  const dueSoon = await thread(spare.id, 'Due in two hours on the expired account', {}, new Date(Date.now() + 2 * 3_600_000));
  const listed = (await api('/api/v1/attention')).items.map((i: { kind: string; threadId?: string }) => `${i.kind} ${i.threadId ?? ''}`);
  assert.deepEqual(
    new Set(listed),
    new Set([
      `THREAD_FAILED ${failing}`,
      `THREAD_FAILED ${unreachable}`,
      `THREAD_FAILED ${refused}`,
      'PROVIDER_EXPIRED ',
      `PROVIDER_NOT_ACTIVE_FOR_DUE ${dueSoon}`,
    ]),
  );

  await page.goto(`${harness.base}/`);
  const item = (kind: string, id: string) => attention.locator(`li[data-kind="${kind}"][data-thread-id="${id}"]`);
  const failingItem = item('THREAD_FAILED', failing);
  await failingItem.waitFor();
  assert.equal(await page.getByRole('heading', { name: 'Get started' }).count(), 0);
  const failingText = (await failingItem.textContent()) ?? '';
  assert.ok(failingText.includes('A thread Meta refuses first'), failingText);
  assert.ok(failingText.includes(`${failed.message} (THREADS_MEDIA_FAILED)`), failingText);
  assert.match(failingText, /UNSUPPORTED_CONTENT/);
  const unreachableText = (await item('THREAD_FAILED', unreachable).textContent()) ?? '';
  assert.match(unreachableText, /MEDIA_UNREACHABLE/);
  assert.ok(unreachableText.includes(`${media!.base}/missing.jpg`), unreachableText);
  const expiredItem = attention.locator(`li[data-kind="PROVIDER_EXPIRED"][data-provider-id="${spare.id}"]`);
  assert.match((await expiredItem.textContent()) ?? '', /@home_spare on Threads/);
  const reconnect = expiredItem.getByRole('button', { name: 'Reconnect' });
  await reconnect.waitFor();
  const dueItem = item('PROVIDER_NOT_ACTIVE_FOR_DUE', dueSoon);
  assert.match((await dueItem.textContent()) ?? '', /Due in two hours on the expired account/);
  await dueItem.getByRole('button', { name: 'Reconnect' }).waitFor();
  // Newest first: the thread due in two hours, then the account and the failures, latest first.
  const order = await attention.locator('li.attention-item').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')));
  assert.equal(order[0], 'PROVIDER_NOT_ACTIVE_FOR_DUE');
  assert.equal(order.length, 5);
  // What comes next: the thread due in two hours.
  await page.locator('section.coming-next').getByRole('link', { name: 'Due in two hours on the expired account' }).waitFor();
  await page.locator('section.last-week [data-count="failed"]').filter({ hasText: '3' }).waitFor();
  await shoot(page, 'home-attention');

  // Retry from the keyboard: announced, the item leaves the list, the thread is published.
  const retry = failingItem.getByRole('button', { name: 'Retry' });
  await retry.focus();
  await page.keyboard.press('Enter');
  await attention.getByRole('status').filter({ hasText: 'Retried “A thread Meta refuses first”: it is scheduled to publish now.' }).waitFor();
  await failingItem.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'home-attention', 'the focus goes to the list heading');
  await waitFor('the retried thread to be published', async () => (await statusOf(failing)).status === 'PUBLISHED');
  assert.ok(await item('THREAD_FAILED', unreachable).isVisible(), 'the other failure stays');

  // Reconnect: Meta's sign-in for the same Threads user, back to the accounts page; the account's items leave.
  await harness.context.route('https://threads.net/oauth/authorize**', async (route) => {
    const url = new URL(route.request().url());
    const redirectUri = url.searchParams.get('redirect_uri')!;
    const { code } = graph.authorize({ userId: spareUser.userId, redirectUri });
    const back = new URL(redirectUri);
    back.search = new URLSearchParams({ code: `${code}#_`, state: url.searchParams.get('state')! }).toString();
    await route.fulfill({ status: 302, headers: { location: back.toString() } });
  });
  await reconnect.click();
  await page.waitForURL((url) => url.pathname === '/accounts' && url.search === '');
  await page.getByRole('status').filter({ hasText: 'Threads account @home_spare connected.' }).waitFor();
  await page.getByRole('link', { name: 'Home' }).click();
  await item('THREAD_FAILED', unreachable).waitFor();
  assert.equal(await expiredItem.count(), 0);
  assert.equal(await dueItem.count(), 0);
  assert.deepEqual(
    await attention.locator('li.attention-item').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-thread-id'))),
    [refused, unreachable].sort((a, b) => (a < b ? 1 : -1)),
    'the two failed threads, newest first',
  );

  // 375 px: nothing scrolls sideways; the Retry buttons are on screen.
  await page.setViewportSize(PHONE);
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(widths.page <= widths.client, `the home page is ${widths.page}px wide at 375 px`);
  assert.ok(await item('THREAD_FAILED', refused).getByRole('button', { name: 'Retry' }).isVisible());
  await shoot(page, 'home-after-retry');

  assert.deepEqual(pageErrors, []);
});
