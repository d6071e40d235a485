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
import { sql } from 'kysely';
import { openPGlite } from '../../src/db/database.js';
import {
  apiRequests,
  collectPageErrors,
  firstApiKey,
  keyedApi,
  PHONE,
  type SeededWebServer,
  setPasswordAndSignIn,
  shoot,
  signInFirstTime,
  skipReason,
  startSeededWebServer,
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
let agency: SeededWebServer | null = null;

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
  await agency?.close();
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

/**
 * An agency's week (issue 43): four accounts, 1,200 threads published in the last 7 days (and
 * older ones with more views), failures in and before the week, 1,200 threads ahead: the window
 * the page once read (7 days back, 14 ahead) holds 2,400, more than a page of 1,000. Written to
 * the embedded database before the server starts (its publisher off: nothing is sent).
 */
test('home page of an agency: the counts, the top post and the next threads from a few bounded requests, whatever the threads and accounts', {
  skip,
  timeout: 600_000,
}, async (t) => {
  const email = 'agency-home@localhost';
  agency = await startSeededWebServer(
    'home-agency',
    email,
    async (_cli, env) => {
      const handle = await openPGlite(`${env.SKEIN_DATA_DIR}/pglite`);
      try {
        const db = handle.db;
        await sql`
          INSERT INTO providers (id, account_id, team_id, kind, provider_user_id, username, status)
          SELECT 'home-p' || g, a.id, NULL, 'THREADS', 'home-user-' || g, 'home_' || chr(97 + g), 'ACTIVE'
          FROM accounts AS a, generate_series(0, 3) AS g WHERE a.email = ${email}`.execute(db);
        // kind: P published this week, O published 8 to 9 days ago, F failed this week, E failed 9 days ago, R ahead.
        await sql`
          CREATE TEMPORARY TABLE seed AS
          SELECT kind || g AS id, kind, g, 'home-p' || (g % 4) AS provider,
                 CASE kind WHEN 'P' THEN now() - interval '6 days 20 hours' + g * interval '8 minutes'
                           WHEN 'O' THEN now() - interval '9 days' + g * interval '1 hour'
                           WHEN 'F' THEN now() - interval '6 days' + g * interval '12 hours'
                           WHEN 'E' THEN now() - interval '9 days' + g * interval '1 hour'
                           ELSE now() + interval '1 hour' + g * interval '15 minutes' + CASE WHEN g >= 5 THEN interval '30 minutes' ELSE interval '0' END END AS at
          FROM (VALUES ('P', 1200), ('O', 20), ('F', 7), ('E', 2), ('R', 1200)) AS k (kind, n), generate_series(0, n - 1) AS g`.execute(db);
        await sql`
          INSERT INTO threads (id, account_id, provider_id, status, scheduled_at, attempts, published_at, last_error, created_at, updated_at)
          SELECT s.id, a.id, s.provider, CASE WHEN s.kind IN ('P', 'O') THEN 'PUBLISHED' WHEN s.kind IN ('F', 'E') THEN 'FAILED' ELSE 'READY' END,
                 s.at, CASE WHEN s.kind = 'R' THEN 0 ELSE 1 END, CASE WHEN s.kind IN ('P', 'O') THEN s.at + interval '2 seconds' END,
                 CASE WHEN s.kind IN ('F', 'E') THEN 'NETWORK_REFUSED: seeded' END, s.at - interval '1 day', s.at
          FROM seed AS s, accounts AS a WHERE a.email = ${email}`.execute(db);
        await sql`
          INSERT INTO posts (id, thread_id, post_order, content, is_spoiler_media, status, network_post_id, permalink, published_at,
                             error_code, error_message, analytics, created_at, updated_at)
          SELECT s.id || '-post', s.id, 0,
                 CASE WHEN s.kind = 'P' AND s.g = 777 THEN 'The top post of the week'
                      WHEN s.kind = 'R' AND s.g < 5 THEN 'Next up ' || (s.g + 1)
                      WHEN s.kind = 'F' THEN 'Failed this week ' || (s.g + 1)
                      ELSE 'Seeded ' || s.kind || ' ' || s.g END,
                 false, CASE WHEN s.kind IN ('P', 'O') THEN 'PUBLISHED' WHEN s.kind IN ('F', 'E') THEN 'FAILED' ELSE 'READY' END,
                 CASE WHEN s.kind IN ('P', 'O') THEN 'net-' || s.id END,
                 CASE WHEN s.kind IN ('P', 'O') THEN 'https://www.threads.net/@home/post/' || s.id END,
                 CASE WHEN s.kind IN ('P', 'O') THEN s.at + interval '1 second' END,
                 CASE WHEN s.kind IN ('F', 'E') THEN 'NETWORK_REFUSED' END, CASE WHEN s.kind IN ('F', 'E') THEN 'Refused (seeded).' END,
                 CASE WHEN s.kind IN ('P', 'O') THEN jsonb_build_object(
                   'views', CASE WHEN s.kind = 'O' THEN 900000 WHEN s.g = 777 THEN 123456 ELSE s.g % 500 END,
                   'likes', CASE WHEN s.g = 777 AND s.kind = 'P' THEN 789 ELSE s.g % 50 END,
                   'replies', 1, 'reposts', 0, 'quotes', 0, 'shares', 0, 'fetchedAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
                 s.at - interval '1 day', s.at
          FROM seed AS s`.execute(db);
      } finally {
        await handle.close();
      }
    },
    { env: { SKEIN_PUBLISHER: '0' } },
  );
  const page = await agency.context.newPage();
  const pageErrors = collectPageErrors(page);
  await setPasswordAndSignIn(page, agency, 'an agency home-page password');

  // Counted from a blank page: the sign-in's own requests are not the home page's.
  await page.goto('about:blank');
  const requests = apiRequests(page);
  await page.goto(`${agency.base}/`);
  const week = page.locator('section.last-week');
  await week.locator('[data-count="published"]').filter({ hasText: '1200' }).waitFor();
  assert.equal(await week.locator('[data-count="failed"]').textContent(), '7');
  const top = week.locator('.top-post');
  await top.getByRole('link', { name: 'The top post of the week' }).waitFor();
  assert.match((await top.textContent()) ?? '', /@home_b on Threads: 123,456 views, 789 likes/);
  const next = page.locator('section.coming-next ol.next-threads li');
  await next.first().waitFor();
  assert.deepEqual(await next.locator('a').allTextContents(), ['Next up 1', 'Next up 2', 'Next up 3', 'Next up 4', 'Next up 5']);
  // The failures of the week and before it, each named by its thread's text (no thread read for it).
  const attention = page.locator('section.attention');
  await attention.locator('li.attention-item').nth(8).waitFor();
  assert.equal(await attention.locator('li.attention-item').count(), 9);
  assert.match((await attention.locator('li[data-kind="THREAD_FAILED"]').first().textContent()) ?? '', /“Failed this week 7”/);

  await waitFor('the page’s requests to be answered', async () => requests.pending() === 0);
  requests.stop();
  const calls = requests.sent.filter((r) => r.includes(' /api/v1/'));
  t.diagnostic(`${calls.length} API requests: ${calls.join(', ')}`);
  // A handful, whatever the threads and accounts: no page after page of List Posts, no analytics per account.
  assert.ok(calls.length <= 8, calls.join('\n'));
  assert.equal(calls.filter((r) => r === 'GET /api/v1/posts').length, 1, calls.join('\n'));
  assert.equal(calls.filter((r) => r === 'GET /api/v1/analytics').length, 0, calls.join('\n'));
  assert.equal(calls.filter((r) => r === 'GET /api/v1/analytics/summary').length, 1, calls.join('\n'));
  assert.equal(calls.filter((r) => r === 'GET /api/v1/attention').length, 1, calls.join('\n'));
  await shoot(page, 'home-agency');
  assert.deepEqual(pageErrors, []);
});
