/**
 * The thread states and the calendar's filters in a real browser (test/helpers/browser.ts: Chromium
 * against a real `skein serve` on the embedded database, its publisher running). Threads is the
 * strict local fake of the Graph API (test/helpers/fakes/threads-graph-api.ts) the
 * publisher tests use, set with THREADS_API_URL; the browser's visit to Meta's authorize page is
 * answered by the test as Meta would (the fake issues the code, the page is redirected back).
 *
 * It connects two Threads accounts through the OAuth round trip from the accounts page (and sees
 * a refusal at Meta shown there), lets a thread fail at the fake (a container Meta cannot
 * process), sees the error and retries it in the editor until it is published, sees the
 * published thread read-only with its permalinks and the analytics fetched from the fake, and
 * filters the calendar by tag and by account; at 375 px the week is a list of days that fits the
 * screen. Screenshots at 1280×800 and 375×812.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  apiRequests,
  collectPageErrors,
  DESKTOP,
  firstApiKey,
  keyedApi,
  layoutShift,
  PHONE,
  shoot,
  signInFirstTime,
  skipReason,
  startWebHarness,
  type WebHarness,
  waitFor,
} from '../helpers/browser.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';

const APP_ID = '4242424242';
const APP_SECRET = 'browser-test-app-secret';
const skip = skipReason('thread states');
let fake: FakeGraphApi | null = null;
let h: WebHarness | null = null;

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({ appId: APP_ID, appSecret: APP_SECRET, processingMs: { TEXT: 0, IMAGE: 0, CAROUSEL: 0, VIDEO: 0 } });
  const graph = fake.url;
  h = await startWebHarness((base) => ({
    THREADS_API_URL: graph,
    THREADS_APP_ID: APP_ID,
    THREADS_APP_SECRET: APP_SECRET,
    PUBLIC_URL: base,
    // The browser and the test's own checks share the owner's requests; 60 a minute is not what this is about.
    SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000',
  }));
});

after(async () => {
  await h?.close();
  await fake?.close();
});

/** The date `days` from today in `zone`, as YYYY-MM-DD. */
function dateIn(zone: string, days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

test('thread states: Threads OAuth from the browser, a FAILED thread retried, a published one read-only with analytics; calendar filters', {
  skip,
  timeout: 600_000,
}, async () => {
  const harness = h!;
  const graph = fake!;
  const key = firstApiKey(harness);
  const api = keyedApi(harness.base, () => key);
  const page = await harness.context.newPage();
  const pageErrors = collectPageErrors(page);

  // "Meta": the authorize page approves as the next user in line (or refuses), then sends the
  // browser to Skein's redirect_uri with the code and the state, as Meta does.
  const meta: Array<{ username: string } | { refuse: string }> = [];
  const seenAtMeta: URL[] = [];
  await harness.context.route('https://threads.net/oauth/authorize**', async (route) => {
    const url = new URL(route.request().url());
    seenAtMeta.push(url);
    const redirectUri = url.searchParams.get('redirect_uri')!;
    const state = url.searchParams.get('state')!;
    const next = meta.shift();
    assert.ok(next, 'a visit to Meta the test expects');
    const back = new URL(redirectUri);
    if ('refuse' in next) {
      back.search = new URLSearchParams({ error: 'access_denied', error_reason: 'user_denied', error_description: next.refuse, state }).toString();
    } else {
      const { code } = graph.authorize({ username: next.username, redirectUri });
      back.search = new URLSearchParams({ code: `${code}#_`, state }).toString();
    }
    await route.fulfill({ status: 302, headers: { location: back.toString() } });
  });

  await signInFirstTime(harness, page, 'a long thread-states password');
  const { timezone } = await api('/api/v1/account');

  // Connect Threads from the accounts page: out to "Meta" and back to /accounts with the outcome.
  const connect = async (next: { username: string } | { refuse: string }) => {
    meta.push(next);
    await page.goto(`${harness.base}/accounts`);
    await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Connect Threads' }).click();
    await page.waitForURL((url) => url.pathname === '/accounts' && url.search === '');
  };
  await connect({ username: 'states_main' });
  await page.getByRole('status').filter({ hasText: 'Threads account @states_main connected.' }).waitFor();
  assert.equal(seenAtMeta[0]!.searchParams.get('client_id'), APP_ID);
  assert.equal(seenAtMeta[0]!.searchParams.get('redirect_uri'), `${harness.base}/api/v1/providers/threads/callback`);
  await page.locator('section.provider').filter({ hasText: '@states_main' }).locator('[data-status="ACTIVE"]').waitFor();
  await shoot(page, 'accounts-threads-connected');
  await connect({ refuse: 'The user denied your request.' });
  const refusal = page.getByRole('alert').filter({ hasText: 'Threads was not connected' });
  await refusal.waitFor();
  assert.match((await refusal.textContent()) ?? '', /^Threads was not connected: The user denied your request\. Try Connect Threads again\.$/);
  await shoot(page, 'accounts-threads-refused');
  await connect({ username: 'states_second' });
  await page.getByRole('status').filter({ hasText: 'Threads account @states_second connected.' }).waitFor();
  const providers: Array<{ id: string; username: string; providerUserId: string }> = (await api('/api/v1/providers')).providers;
  const main = providers.find((p) => p.username === 'states_main')!;
  const second = providers.find((p) => p.username === 'states_second')!;
  assert.ok(main && second, JSON.stringify(providers));

  // One change on the time-slot grid is one request (the grid takes the slot from the answer,
  // and does not read the list again); the next free times are read once after it.
  const card = page.locator('section.provider').filter({ hasText: '@states_main' });
  // Every API request of the page from here on, and whether it was answered: the checks below
  // wait for the requests they mean, not for a time in which a machine is expected to send them.
  const calls = apiRequests(page);
  /** Until the page has sent `what` (since `from` in the list) and has no request unanswered. */
  const answered = (what: string, from = 0) =>
    waitFor(`${what} to be sent and answered`, async () => calls.sent.slice(from).includes(what) && calls.pending() === 0);
  await card.getByLabel('Time', { exact: true }).fill('09:00');
  await card.getByRole('button', { name: 'Add time' }).click();
  await card.getByRole('button', { name: `Remove Monday 09:00 ${timezone}` }).waitFor();
  // The form's change, like the grid's, reads the next free times again a moment later (a timer in
  // the page): until that read is answered, a grid change below would count it as its own.
  await answered('GET /api/v1/time-slots/next', calls.sent.lastIndexOf('POST /api/v1/time-slots'));
  await card
    .getByRole('list', { name: /Next free times/ })
    .locator('li')
    .first()
    .waitFor();
  const gridChange = async (click: string, then: string, expected: string) => {
    const from = calls.sent.length;
    await card.getByRole('button', { name: click }).click();
    await card.getByRole('button', { name: then }).waitFor();
    await answered('GET /api/v1/time-slots/next', from);
    // Nothing else follows: a request the answers would set off (a re-read of the list, a second
    // read of the next times) is sent at once or after the page's own 800 ms timer; this second
    // is a window to see one, never a condition a correct page must meet in time.
    await page.waitForTimeout(1000);
    assert.deepEqual(calls.sent.slice(from), [expected, 'GET /api/v1/time-slots/next'], `${click}: ${calls.sent.slice(from).join(', ')}`);
  };
  await gridChange(`Add Wednesday 09:00 ${timezone}`, `Remove Wednesday 09:00 ${timezone}`, 'POST /api/v1/time-slots');
  const slots: Array<{ id: string; dayOfWeek: number; time: string }> = (await api(`/api/v1/time-slots?providerId=${main.id}`)).timeSlots;
  assert.deepEqual(
    slots.map((t) => `${t.dayOfWeek} ${t.time}`),
    ['1 09:00', '3 09:00'],
  );
  await gridChange(`Remove Monday 09:00 ${timezone}`, `Add Monday 09:00 ${timezone}`, `DELETE /api/v1/time-slots/${slots[0]!.id}`);
  assert.deepEqual(
    (await api(`/api/v1/time-slots?providerId=${main.id}`)).timeSlots.map((t: { id: string }) => t.id),
    [slots[1]!.id],
  );

  // A thread whose first container Meta cannot process: the publisher marks it FAILED.
  graph.failNextContainer('UNSUPPORTED_CONTENT');
  const failing = await api('/api/v1/posts', {
    method: 'POST',
    body: { providerId: main.id, scheduleAt: new Date().toISOString(), posts: [{ text: 'A thread that fails first' }, { text: 'and its second post' }] },
  });
  await waitFor('the thread to fail', async () => (await api(`/api/v1/posts/${failing.threadId}`)).thread.status === 'FAILED');
  const failed = (await api(`/api/v1/posts/${failing.threadId}`)).thread;
  assert.equal(failed.posts[0].error.code, 'THREADS_MEDIA_FAILED');

  await page.goto(`${harness.base}/threads/${failing.threadId}`);
  const alert = page.getByRole('alert').filter({ hasText: 'Publishing failed' });
  await alert.waitFor();
  const alertText = (await alert.textContent()) ?? '';
  assert.ok(alertText.includes(`${failed.posts[0].error.message} (THREADS_MEDIA_FAILED)`), alertText);
  assert.match((await alert.textContent()) ?? '', /UNSUPPORTED_CONTENT/);
  // Read-only: the posts are shown, not in text fields.
  assert.equal(await page.getByLabel('Post 1 text', { exact: true }).count(), 0);
  await page.getByText('A thread that fails first').waitFor();
  await shoot(page, 'thread-failed');

  // Retry: publishing resumes, and the page follows it to PUBLISHED without a reload.
  await page.getByRole('button', { name: 'Retry' }).click();
  await page.locator('strong.status-published').waitFor();
  await page.getByRole('alert').filter({ hasText: 'Publishing failed' }).waitFor({ state: 'detached' });
  const published = (await api(`/api/v1/posts/${failing.threadId}`)).thread;
  assert.equal(published.status, 'PUBLISHED');
  const links = page.getByRole('link', { name: 'View on the network' });
  assert.equal(await links.count(), 2);
  assert.deepEqual(
    await links.evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
    published.posts.map((p: { permaLink: string }) => p.permaLink),
  );
  for (const p of published.posts) assert.match(p.permaLink, /^https:\/\/www\.threads\.net\/@states_main\/post\//);
  assert.equal(await page.getByRole('button', { name: 'Retry' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Schedule' }).count(), 0, 'a published thread is not editable');

  // Analytics: the fake's counts, fetched with the page's refresh button.
  const mediaIds = graph.published.filter((m) => m.ownerId === main.providerUserId).map((m) => m.id);
  assert.equal(mediaIds.length, 2);
  graph.setInsights(mediaIds[0]!, { views: 4321, likes: 87, replies: 6, reposts: 5, quotes: 4, shares: 3 });
  graph.setInsights(mediaIds[1]!, { views: 250, likes: 9 });
  await page.getByRole('button', { name: 'Refresh analytics' }).click();
  await page.getByRole('status').filter({ hasText: 'Analytics refreshed.' }).waitFor();
  const metrics = async (post: number) =>
    Object.fromEntries(
      await page
        .locator('li.post-readonly')
        .nth(post)
        .locator('dl.metrics > div')
        .evaluateAll((divs) => divs.map((d) => [d.querySelector('dt')?.textContent, d.querySelector('dd')?.textContent])),
    );
  assert.deepEqual(await metrics(0), { views: '4321', likes: '87', replies: '6', reposts: '5', quotes: '4', shares: '3' });
  assert.equal((await metrics(1)).views, '250');
  await shoot(page, 'thread-published');

  // The calendar's filters: three threads on one day, two accounts, two tags.
  const day = dateIn(timezone, 3);
  const schedule = async (providerId: string, time: string, text: string, tagNames: string[]) => {
    const { threadId } = await api('/api/v1/posts', { method: 'POST', body: { providerId, scheduleAt: `${day}T${time}:00`, posts: [{ text }] } });
    if (tagNames.length) await api(`/api/v1/posts/${threadId}/tags`, { method: 'PUT', body: { tagNames } });
    return threadId as string;
  };
  const launch = await schedule(main.id, '09:00', 'Launch day thread', ['launch']);
  const news = await schedule(second.id, '11:00', 'News from the second account', ['news']);
  const plain = await schedule(main.id, '13:00', 'An untagged thought', []);
  await page.goto(`${harness.base}/calendar?date=${day}`);
  const visible = async () => {
    const ids = await page.locator(`[data-date="${day}"] [data-thread]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-thread')));
    return [launch, news, plain].filter((id) => ids.includes(id));
  };
  await waitFor('all three threads', async () => (await visible()).length === 3);
  const settle = (want: string[]) => waitFor(`the calendar to show ${want.join(', ')}`, async () => JSON.stringify(await visible()) === JSON.stringify(want));
  await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'launch' });
  await settle([launch]);
  await shoot(page, 'calendar-filter-tag');
  await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'news' });
  await settle([news]);
  await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'All tags' });
  await settle([launch, news, plain]);
  await page.getByLabel('Account', { exact: true }).selectOption({ label: '@states_second (Threads)' });
  await settle([news]);
  await page.getByLabel('Account', { exact: true }).selectOption({ label: '@states_main (Threads)' });
  await settle([launch, plain]);
  // Both at once: the main account's threads tagged "news": none.
  await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'news' });
  await settle([]);
  await shoot(page, 'calendar-filter-account');

  // At 375 px the week is a list of days: no sideways scrolling, in the page or in the box,
  // the same threads in time order, and nothing moves while it loads.
  await page.setViewportSize(PHONE);
  await page.goto(`${harness.base}/calendar?date=${day}`);
  const agendaDay = page.locator(`[data-agenda-date="${day}"]`);
  await agendaDay.locator(`[data-thread="${plain}"]`).waitFor();
  assert.deepEqual(await agendaDay.locator('[data-thread]').evaluateAll((els) => els.map((e) => e.getAttribute('data-thread'))), [launch, news, plain]);
  assert.equal(await page.locator('table.week').isVisible(), false, 'the hour grid is not shown at 375 px');
  assert.ok(await agendaDay.locator(`[data-thread="${launch}"]`).isVisible());
  assert.match((await agendaDay.locator(`[data-thread="${launch}"]`).textContent()) ?? '', /09:00\s+Launch day thread/);
  const widths = await page.evaluate(() => {
    const box = document.querySelector('.calendar-scroll')!;
    return { page: document.documentElement.scrollWidth, boxScroll: box.scrollWidth, boxClient: box.clientWidth };
  });
  assert.ok(widths.page <= 375, `the page is ${widths.page}px wide at 375 px`);
  assert.ok(widths.boxScroll <= widths.boxClient, `the calendar box overflows sideways: ${JSON.stringify(widths)}`);
  const shift = await layoutShift(page);
  console.log(`# web: cumulative layout shift loading /calendar at 375 px: ${shift.toFixed(4)}`);
  assert.ok(shift < 0.1, `layout shift ${shift} at 375 px`);
  // The month fits at 375 px too: seven columns, each thread shown by its time.
  await page.getByRole('button', { name: 'Month' }).click();
  const monthChip = page.locator(`table.month td[data-date="${day}"] [data-thread="${launch}"]`);
  await monthChip.waitFor();
  const monthWidths = await page.evaluate(() => {
    const box = document.querySelector('.calendar-scroll')!;
    return { page: document.documentElement.scrollWidth, boxScroll: box.scrollWidth, boxClient: box.clientWidth };
  });
  assert.ok(monthWidths.page <= 375 && monthWidths.boxScroll <= monthWidths.boxClient, `the month overflows: ${JSON.stringify(monthWidths)}`);
  assert.match((await monthChip.textContent()) ?? '', /09:00\s+Launch day thread/, 'the text is still there for screen readers');
  await shoot(page, 'calendar-month-narrow');
  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: 'Week' }).click();
  // The agenda links open the thread, as the grid's chips do.
  await agendaDay.locator(`[data-thread="${news}"]`).click();
  await page.waitForURL(new RegExp(`/threads/${news}$`));
  await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
  await page.setViewportSize(DESKTOP);

  assert.deepEqual(pageErrors, []);
});
