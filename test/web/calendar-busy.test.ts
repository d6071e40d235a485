/**
 * The calendar of a busy workspace (issue 43): a month holding more threads than one page of List
 * Posts (1,000) is drawn from the days' counts (Threads per day) in a handful of requests, however
 * many threads; a day opens its own view, which lists the day's threads 200 at a time, by hour,
 * with "Show more". A week that fits one page still shows its threads as before.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  addThreadsWithCli,
  collectPageErrors,
  keyedApi,
  type SeededWebServer,
  setPasswordAndSignIn,
  shoot,
  skipReason,
  startSeededWebServer,
} from '../helpers/browser.js';

const skip = skipReason('busy calendar');
const EMAIL = 'busy@localhost';
let open: SeededWebServer | null = null;

after(async () => {
  await open?.close();
});

const pad = (n: number) => String(n).padStart(2, '0');

test('a month of 1,250 threads: the days drawn from their counts in a bounded number of requests; a day lists its threads a page at a time', {
  skip,
  timeout: 600_000,
}, async () => {
  // The month after this one (UTC, the account's zone): every thread in it is in the future.
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const month = `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}`;
  const busyDay = `${month}-03`;
  let providerId = '';
  const server = await startSeededWebServer('calendar-busy', EMAIL, async (_cli, env) => {
    providerId = await addThreadsWithCli(env, EMAIL, 'busy_agency');
  });
  open = server;
  const api = keyedApi(server.base, () => server.key);
  // 450 threads on the 3rd (three pages of the day view; ten tagged "launch"), 800 over the 10th
  // to the 17th; a thousand a request, as an agency's import would.
  const rows = [
    ...Array.from({ length: 450 }, (_, i) => ({ at: `${busyDay}T${pad(8 + Math.floor(i / 60))}:${pad(i % 60)}:00`, text: `Busy ${i}` })),
    ...Array.from({ length: 800 }, (_, i) => ({ at: `${month}-${pad(10 + (i % 8))}T${pad(9 + (i % 10))}:${pad(i % 60)}:00`, text: `Later ${i}` })),
  ].map((r, i) => ({ providerId, scheduleAt: r.at, posts: [{ text: r.text }], ...(i < 450 && i % 45 === 0 ? { tags: ['launch'] } : {}) }));
  for (let i = 0; i < rows.length; i += 1000) await api('/api/v1/posts/import', { method: 'POST', body: rows.slice(i, i + 1000) });

  const page = await server.context.newPage();
  const pageErrors = collectPageErrors(page);
  await setPasswordAndSignIn(page, server, 'a busy calendar');
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v1/')) requests.push(`${request.method()} ${url.pathname}`);
  });

  // The month: each day its counts, no thread drawn.
  requests.length = 0;
  await page.goto(`${server.base}/calendar?view=month&date=${month}-15`);
  const busyLink = page.locator(`a[data-day-summary="${busyDay}"]`);
  await busyLink.waitFor();
  assert.match((await busyLink.textContent()) ?? '', /450 threads/);
  assert.match((await page.locator(`a[data-day-summary="${month}-10"]`).textContent()) ?? '', /100 threads/);
  assert.match((await page.locator(`a[data-day-summary="${month}-04"]`).textContent()) ?? '', /no threads/);
  assert.equal(await page.locator('.thread-chip').count(), 0);
  await page.getByText('open a day to list its threads').waitFor();
  await page.waitForLoadState('networkidle');
  // A handful of requests, independent of the number of threads: the page's own (session,
  // teams, accounts, tags, notifications…) and the month's (its counts, the free slots, the
  // drafts); List Posts not once.
  const monthRequests = [...requests];
  assert.equal(monthRequests.filter((r) => r === 'GET /api/v1/posts/days').length, 1, monthRequests.join('\n'));
  assert.equal(monthRequests.filter((r) => r === 'GET /api/v1/posts').length, 0, monthRequests.join('\n'));
  assert.equal(monthRequests.filter((r) => r === 'GET /api/v1/time-slots/free').length, 1, monthRequests.join('\n'));
  console.log(`# busy month: ${monthRequests.length} API requests (${monthRequests.join(', ')})`);
  assert.ok(monthRequests.length <= 12, `the month made ${monthRequests.length} requests:\n${monthRequests.join('\n')}`);
  await shoot(page, 'calendar-busy-month');

  // The busy day: its own address, its threads 200 at a time, by hour; Show more reads the next page.
  requests.length = 0;
  await busyLink.click();
  await page.waitForURL((url) => url.searchParams.get('view') === 'day' && url.searchParams.get('date') === busyDay);
  const chips = page.locator('.day-view .thread-chip');
  const status = page.locator('.day-more [role="status"]');
  await status.filter({ hasText: '200 of 450 threads shown' }).waitFor();
  assert.equal(await chips.count(), 200);
  // By hour: 08:00 holds the first 60, each under its heading.
  assert.equal(
    await page
      .locator('.day-hour')
      .filter({ has: page.getByRole('heading', { name: '08:00' }) })
      .locator('.thread-chip')
      .count(),
    60,
  );
  await page.getByRole('button', { name: 'Show more' }).click();
  await status.filter({ hasText: '400 of 450 threads shown' }).waitFor();
  await page.getByRole('button', { name: 'Show more' }).click();
  await status.filter({ hasText: '450 of 450 threads shown' }).waitFor();
  assert.equal(await chips.count(), 450);
  assert.equal(await page.getByRole('button', { name: 'Show more' }).count(), 0);
  assert.match((await chips.last().textContent()) ?? '', /15:29.*Busy 449/);
  assert.equal(requests.filter((r) => r === 'GET /api/v1/posts').length, 3, requests.join('\n'));
  await shoot(page, 'calendar-busy-day');

  // A tag: the day lists that tag's threads (List Posts filters them), the month that tag's counts.
  await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'launch' });
  await status.filter({ hasText: '10 of 10 threads shown' }).waitFor();
  assert.equal(await chips.count(), 10);
  await page.getByRole('button', { name: 'Month', exact: true }).click();
  await busyLink.filter({ hasText: '10 threads' }).waitFor();
  assert.match((await page.locator(`a[data-day-summary="${month}-10"]`).textContent()) ?? '', /no threads/);
  await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'All tags' });
  await busyLink.filter({ hasText: '450 threads' }).click();

  // A reload keeps the day; the next day is one step on; the Month button goes back to the month.
  await page.reload();
  await status.filter({ hasText: '200 of 450 threads shown' }).waitFor();
  await page.getByRole('button', { name: 'Next day' }).click();
  await page.waitForURL((url) => url.searchParams.get('date') === `${month}-04`);
  await page.locator('.day-view').getByText('Nothing scheduled.').waitFor();
  await page.getByRole('button', { name: 'Month', exact: true }).click();
  await busyLink.waitFor();

  // A week that fits one page (the 3rd's week holds its 450 alone) shows its threads, as before.
  await page.goto(`${server.base}/calendar?date=${busyDay}`);
  await page.locator(`table.week td[data-date="${busyDay}"][data-hour="8"] .thread-chip`).first().waitFor();

  assert.deepEqual(pageErrors, []);
  await server.close();
  open = null;
});
