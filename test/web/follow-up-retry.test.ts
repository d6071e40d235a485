/**
 * A failed follow-up reply, retried from the web app (test/helpers/browser.ts: Chromium against a
 * real `skein serve`, its publisher running; Threads is the strict fake Graph API).
 *
 * A follow-up is due at least 5 minutes after its thread, so this server runs on a PostgreSQL
 * database of the test's own, where the test moves the follow-up's due time to now instead of
 * waiting. Meta refuses the reply's container: the home page shows FOLLOW_UP_FAILED with Meta's
 * error and Retry, which publishes it once. It fails once more, and the thread page's follow-up
 * list retries it too.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DbHandle } from '../../src/db/database.js';
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
import { openTestDb, postgresSkipReason } from '../helpers/db.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';

const skip = skipReason('follow-up retry') || postgresSkipReason() || false;
let fake: FakeGraphApi | null = null;
let db: (DbHandle & { url?: string }) | null = null;
let h: WebHarness | null = null;

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({ processingMs: { TEXT: 0, IMAGE: 0, CAROUSEL: 0, VIDEO: 0 } });
  db = await openTestDb('postgres');
  h = await startWebHarness({ DATABASE_URL: db.url!, THREADS_API_URL: fake.url, SKEIN_RATE_LIMIT_PER_ACCOUNT: '1000' });
});

after(async () => {
  await h?.close();
  await db?.close();
  await fake?.close();
});

test('a failed follow-up: shown on the home page with Retry, published once; retried from the thread page too; 375 px', {
  skip,
  timeout: 600_000,
}, async () => {
  const harness = h!;
  const graph = fake!;
  const key = firstApiKey(harness);
  const api = keyedApi(harness.base, () => key);
  const page = await harness.context.newPage();
  const pageErrors = collectPageErrors(page);
  await signInFirstTime(harness, page, 'a long follow-up password');

  const user = graph.createAccount('follow_up_retry');
  const provider = await api('/api/v1/providers/threads', { method: 'POST', body: { accessToken: user.accessToken } });
  const { threadId } = await api('/api/v1/posts', {
    method: 'POST',
    body: { providerId: provider.id, scheduleAt: new Date().toISOString(), posts: [{ text: 'The thread' }] },
  });
  await waitFor('the thread to be published', async () => (await api(`/api/v1/posts/${threadId}`)).thread.status === 'PUBLISHED');
  const addFollowUp = (text: string) => api(`/api/v1/posts/${threadId}/follow-ups`, { method: 'POST', body: { text, delayMinutes: 5 } });
  const statusOf = async (id: string) => (await api(`/api/v1/posts/${threadId}/follow-ups`)).followUps.find((f: { id: string }) => f.id === id);
  /** Meta refuses the next container; the follow-up is made due now and fails. */
  const failIt = async (id: string) => {
    graph.failNextContainer('UNSUPPORTED_CONTENT');
    await db!.db.updateTable('follow_ups').set({ due_at: new Date(), run_at: new Date() }).where('id', '=', id).execute();
    return waitFor('the follow-up to fail', async () => {
      const f = await statusOf(id);
      return f.status === 'FAILED' && f;
    });
  };
  const published = (text: string) => graph.published.filter((p) => p.text === text).length;

  const first = await addFollowUp('One more thing');
  const failed = await failIt(first.id);
  assert.match(failed.error.message, /UNSUPPORTED_CONTENT/);
  await page.goto(`${harness.base}/`);
  const item = page.locator(`section.attention li[data-kind="FOLLOW_UP_FAILED"][data-thread-id="${threadId}"]`);
  await item.waitFor();
  const text = (await item.textContent()) ?? '';
  assert.ok(text.includes(`${failed.error.message} (${failed.error.code})`), text);
  await shoot(page, 'home-follow-up-failed');
  await item.getByRole('button', { name: 'Retry' }).click();
  await page.locator('section.attention').getByRole('status').filter({ hasText: 'Retried “The thread”' }).waitFor();
  await item.waitFor({ state: 'detached' });
  await waitFor('the retried follow-up to be published', async () => (await statusOf(first.id)).status === 'PUBLISHED');
  assert.equal(published('One more thing'), 1, 'published once');

  // A second one fails; the thread page's follow-up list retries it, at phone width.
  const second = await addFollowUp('A second note');
  await failIt(second.id);
  await page.setViewportSize(PHONE);
  await page.goto(`${harness.base}/threads/${threadId}`);
  const retry = page.getByRole('button', { name: 'Retry follow-up A second note' });
  await retry.waitFor();
  assert.equal(await page.getByRole('button', { name: 'Retry follow-up One more thing' }).count(), 0, 'only a FAILED one has Retry');
  await shoot(page, 'thread-follow-up-failed');
  await retry.click();
  await waitFor('the second follow-up to be published', async () => (await statusOf(second.id)).status === 'PUBLISHED');
  await retry.waitFor({ state: 'detached' });
  assert.equal(published('A second note'), 1);
  assert.deepEqual(pageErrors, []);
});
