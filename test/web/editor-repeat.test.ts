/**
 * The editor's "Repeat" control and the calendar's mark in a real browser (Chromium via
 * playwright-core) against a real `skein serve` on the embedded database, at 1280 and at 375 px.
 * Before the server starts (PGlite is held by one process), the CLI makes the account, an API key
 * and a Bluesky account (as given: nothing is published; the threads are scheduled days ahead).
 *
 * A draft cannot repeat (the control says why); a thread scheduled to repeat every week until a
 * date has that rule through the API; reopened, the control holds it; the calendar marks it
 * ("Repeats every week"); a count of 1 gets the server's fault beside the field and changes
 * nothing; "Stop repeating" leaves `repeat` null and the thread in its series ("Occurrence 1").
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  collectPageErrors,
  DESKTOP,
  fieldError,
  keyedApi,
  PHONE,
  type SeededWebServer,
  setPasswordAndSignIn,
  shoot,
  skipReason,
  startSeededWebServer,
} from '../helpers/browser.js';

const PASSWORD = 'a long repeating password';
const EMAIL = 'repeat@localhost';

const skip = skipReason('editor repeat');
let harness: SeededWebServer | null = null;
let base = '';
let key = '';
let blueskyId = '';

before(async () => {
  if (skip) return;
  harness = await startSeededWebServer('editor-repeat', EMAIL, (cli) => {
    blueskyId = cli<{ id: string }>(
      'provider',
      'add',
      '--email',
      EMAIL,
      '--kind',
      'BLUESKY',
      '--provider-user-id',
      'did:plc:editorrepeat',
      '--username',
      'repeat.test',
      '--access-token',
      'unused',
    ).id;
  });
  ({ base, key } = harness);
});

after(async () => {
  await harness?.close();
});

const api = (path: string, init: { method?: string; body?: unknown } = {}): Promise<any> => keyedApi(base, () => key)(path, init);

const dayAfter = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function walk(page: Page, width: string, day: string): Promise<void> {
  const until = dayAfter(day, 21);
  const hour = width === 'desktop' ? '09' : '13';
  await page.goto(`${base}/threads/new`);
  await page.getByRole('heading', { name: 'New thread' }).waitFor();
  await page.getByLabel('Account').locator(`option[value="${blueskyId}"]`).waitFor({ state: 'attached' });
  await page.getByLabel('Account').selectOption(blueskyId);
  await page.getByLabel('Post 1 text', { exact: true }).fill(`Weekly tip (${width})`);

  // Without a time it would be a draft, which does not repeat: disabled, with the reason.
  const repeatBox = page.getByLabel('Repeat this thread', { exact: true });
  assert.equal(await repeatBox.isDisabled(), true);
  const reasonId = (await repeatBox.getAttribute('aria-describedby'))!;
  assert.match((await page.locator(`[id="${reasonId}"]`).textContent()) ?? '', /A draft does not repeat/);

  await page.getByLabel('Publish at (UTC)').fill(`${day}T${hour}:00`);
  assert.equal(await repeatBox.isDisabled(), false);
  await repeatBox.check();
  await page.getByLabel('Repeat every', { exact: true }).fill('1');
  await page.getByLabel('Repeat unit', { exact: true }).selectOption('week');
  await page.getByLabel('Ends', { exact: true }).selectOption('until');
  await page.getByLabel('Last date', { exact: true }).fill(until);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.waitForURL(/\/threads\/(?!new$)[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.slice('/threads/'.length));

  let { thread } = await api(`/api/v1/posts/${id}`);
  assert.equal(thread.status, 'READY');
  assert.equal(thread.scheduledAt, `${day}T${hour}:00:00.000Z`);
  assert.deepEqual(thread.repeat, { every: 1, unit: 'week', until, count: null });
  assert.deepEqual(thread.series, { id, occurrence: 1 });

  // Reopened: the control holds the rule, and says which occurrence this is.
  await page.reload();
  await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
  assert.equal(await repeatBox.isChecked(), true);
  assert.equal(await page.getByLabel('Repeat every', { exact: true }).inputValue(), '1');
  assert.equal(await page.getByLabel('Repeat unit', { exact: true }).inputValue(), 'week');
  assert.equal(await page.getByLabel('Ends', { exact: true }).inputValue(), 'until');
  assert.equal(await page.getByLabel('Last date', { exact: true }).inputValue(), until);
  await page.getByText('Occurrence 1 of the series').waitFor();

  // A count of 1: the server's fault beside the field, nothing changed.
  await page.getByLabel('Ends', { exact: true }).selectOption('count');
  await page.getByLabel('Times in all', { exact: true }).fill('1');
  await page.getByRole('button', { name: 'Save changes' }).click();
  assert.match(await fieldError(page, 'repeat.count'), /from 2 to 100/);
  assert.equal(await page.locator('.editor-page > form > .form-message').textContent(), '', 'the fault is beside its field');
  assert.deepEqual((await api(`/api/v1/posts/${id}`)).thread.repeat, { every: 1, unit: 'week', until, count: null });
  await shoot(page, `editor-repeat-fault-${width}`);
  await page.setViewportSize(width === 'desktop' ? DESKTOP : PHONE);

  // The calendar marks the repeating thread, and not one that does not repeat.
  const once = await api('/api/v1/posts', {
    method: 'POST',
    body: { providerId: blueskyId, scheduleAt: `${day}T${width === 'desktop' ? '10' : '14'}:00:00`, posts: [{ text: `Just once (${width})` }] },
  });
  await page.goto(`${base}/calendar?date=${day}`);
  const chip = page.locator(`[data-thread="${id}"]:visible`);
  await chip.getByRole('img', { name: 'Repeats every week' }).waitFor();
  const single = page.locator(`[data-thread="${once.threadId}"]:visible`);
  await single.waitFor();
  assert.equal(await single.getByRole('img').count(), 0, 'a thread that does not repeat has no mark');
  await shoot(page, `calendar-repeat-${width}`);
  await page.setViewportSize(width === 'desktop' ? DESKTOP : PHONE);

  // Stop repeating: repeat null through the API, the thread still in its series and scheduled.
  await page.goto(`${base}/threads/${id}`);
  await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
  await page.getByRole('button', { name: 'Stop repeating' }).click();
  await page.getByRole('status').filter({ hasText: 'the series ends with this one' }).waitFor();
  thread = (await api(`/api/v1/posts/${id}`)).thread;
  assert.equal(thread.repeat, null);
  assert.deepEqual(thread.series, { id, occurrence: 1 });
  assert.equal(thread.scheduledAt, `${day}T${hour}:00:00.000Z`);
  assert.equal(await repeatBox.isChecked(), false);
  assert.equal(await page.getByRole('button', { name: 'Stop repeating' }).count(), 0);
  await page.goto(`${base}/calendar?date=${day}`);
  await chip.waitFor();
  assert.equal(await chip.getByRole('img').count(), 0, 'a stopped series is no longer marked');
}

test('editor repeat: set, reopened, fault beside the field, calendar mark, stop repeating', { skip, timeout: 600_000 }, async () => {
  const page = await harness!.context.newPage();
  const pageErrors = collectPageErrors(page);
  await setPasswordAndSignIn(page, harness!, PASSWORD);
  // A day ten days ahead, in the account's zone (UTC).
  const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);

  for (const [width, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await walk(page, width, day);
  }
  assert.deepEqual(pageErrors, []);
});
