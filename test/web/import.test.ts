/**
 * The import page in a real browser (test/helpers/browser.ts: Chromium against a real `skein
 * serve` on the embedded database; the Threads account connected with a token of the strict fake
 * Graph API). A CSV with faults is dropped on the page: the dry run's faults show beside their
 * rows and nothing can be imported; a corrected file chosen with the file picker previews its
 * threads, Import creates them in one request, and the calendar opens on the first imported day.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { collectPageErrors, firstApiKey, keyedApi, shoot, signInFirstTime, skipReason, startWebHarness, type WebHarness } from '../helpers/browser.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';

const skip = skipReason('import page');
let fake: FakeGraphApi | null = null;
let h: WebHarness | null = null;

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({});
  const graph = fake.url;
  h = await startWebHarness((base) => ({ THREADS_API_URL: graph, PUBLIC_URL: base, SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000' }));
});

after(async () => {
  await h?.close();
  await fake?.close();
});

/** The date `days` from today in UTC (the owner's zone), as YYYY-MM-DD. */
function dateIn(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

test('import page: a dropped CSV shows each row’s faults; a corrected one is imported and the calendar opens on its first day', {
  skip,
  timeout: 600_000,
}, async () => {
  const harness = h!;
  const key = firstApiKey(harness);
  const api = keyedApi(harness.base, () => key);
  const page = await harness.context.newPage();
  const pageErrors = collectPageErrors(page);
  await signInFirstTime(harness, page, 'import-page-password-1');
  const provider = await api('/api/v1/providers/threads', { method: 'POST', body: { accessToken: fake!.createAccount('importer').accessToken } });
  const p: string = provider.id;

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
  await page.waitForURL(/\/import$/);
  await page.getByRole('heading', { name: 'Import' }).waitFor();

  const first = dateIn(9);
  const second = dateIn(16);
  const header = 'thread,providerId,scheduleAt,text,tags';
  const faulty = [header, `a,${p},${first}T09:00:00,Launch day,launch`, `a,,,"   ",`, `b,${p},2020-01-01T09:00:00,Too late,`].join('\r\n');
  // Dropped on the page, as a file from the desktop would be.
  const drop = await page.evaluateHandle((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'month.csv', { type: 'text/csv' }));
    return data;
  }, faulty);
  await page.locator('.import-page .drop').dispatchEvent('drop', { dataTransfer: drop });
  await page.getByRole('status').filter({ hasText: 'faults to fix' }).waitFor();
  const rowFaults = async (row: number) => (await page.locator(`tr[data-row="${row}"] .faults`).textContent()) ?? '';
  assert.equal(await page.locator('tr[data-row="0"] .faults').count(), 0);
  assert.match(await rowFaults(1), /text/);
  assert.match(await rowFaults(2), /scheduleAt.*in the past/);
  assert.ok(await page.getByRole('button', { name: 'Import' }).isDisabled());
  await shoot(page, 'import-faults');

  const fixed = [header, `a,${p},${first}T09:00:00,Launch day,launch`, 'a,,,And a reply,', `b,${p},${second}T10:30:00,A week later,`, `c,${p},,A draft,`].join(
    '\n',
  );
  await page.locator('.import-page input[type="file"]').setInputFiles({ name: 'month.csv', mimeType: 'text/csv', buffer: Buffer.from(fixed) });
  await page.getByRole('status').filter({ hasText: '3 threads, ready to import' }).waitFor();
  assert.match((await page.locator('tr[data-row="2"]').textContent()) ?? '', /Scheduled/);
  assert.match((await page.locator('tr[data-row="3"]').textContent()) ?? '', /Draft/);
  // The dry run created nothing.
  assert.equal((await api('/api/v1/posts/drafts')).count, 0);
  await page.getByRole('button', { name: 'Import 3 threads' }).click();

  await page.waitForURL(new RegExp(`/calendar\\?date=${first}$`));
  // The week's table at this width (its narrow-screen agenda, first in the page, is hidden).
  await page.getByText('Launch day').filter({ visible: true }).first().waitFor();
  const listed = await api(`/api/v1/posts?from=${first}T00:00:00&to=${second}T23:59:59`);
  assert.deepEqual(listed.threads.map((t: { posts: Array<{ content: string }> }) => t.posts.map((post) => post.content)).sort(), [
    ['A week later'],
    ['Launch day', 'And a reply'],
  ]);
  assert.equal((await api('/api/v1/posts/drafts')).count, 1);
  assert.deepEqual(pageErrors, []);
});
