/**
 * The calendar and the thread editor in a real browser (Chromium via playwright-core) against a
 * real `skein serve` on the embedded database, as test/web/web-app.test.ts runs it. Before the
 * server starts (PGlite is held by one process), the CLI makes the account (time zone
 * Asia/Kolkata, the browser runs in America/Los_Angeles: times must follow the account, not the
 * browser), an API key, a Threads provider and a one-time sign-in link.
 *
 * It writes a 3-post thread with a spoiler range and alt text and schedules it (one request), edits
 * it (one request, with the ETag it read), saves over a change made elsewhere (412: the conflict
 * is shown, the text kept, a reload offered), finds it in the week on the right day and hour,
 * drags it to another day and hour (the API shows the new `scheduledAt`), queues a thread onto a
 * time slot (one request), and shows an over-long post's error at that post. Screenshots (desktop
 * and phone) go to test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  addThreadsWithCli,
  fieldError,
  keyedApi,
  layoutShift,
  type SeededWebServer,
  setPasswordAndSignIn,
  shoot,
  skipReason,
  startSeededWebServer,
  waitFor,
} from '../helpers/browser.js';
import { testClock } from '../helpers/test-days.js';

const PASSWORD = 'a long calendar password';
const EMAIL = 'planner@localhost';
const ZONE = 'Asia/Kolkata'; // UTC+05:30 all year

const skip = skipReason('calendar and editor');
// On a month's last day, whatever day the suite runs: the thread two days ahead is in next month.
const clock = testClock('month-end', { zone: ZONE });
let harness: SeededWebServer | null = null;
let base = '';
let key = '';
let providerId = '';
let signInToken = '';

before(async () => {
  if (skip) return;
  harness = await startSeededWebServer(
    'calendar',
    EMAIL,
    async (_cli, env) => {
      providerId = await addThreadsWithCli(env, EMAIL, 'skein_test');
    },
    {
      timezone: ZONE,
      // The editor's image URL (example.com) need not resolve here: nothing is ever published.
      env: { SKEIN_ALLOW_PRIVATE_MEDIA: '1' },
      browserTimezone: 'America/Los_Angeles',
      clock,
    },
  );
  ({ base, key, signInToken } = harness);
});

after(async () => {
  await harness?.close();
});

function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  return keyedApi(base, () => key)(path, init);
}

/** The date `days` from the test clock's today in the account's zone, as YYYY-MM-DD. */
function dateIn(_zone: string, days: number): string {
  return clock.dateIn(days);
}

/** A Kolkata wall time as the UTC instant the API answers (UTC+05:30, no DST). */
function kolkataToUtc(date: string, time: string): string {
  return new Date(new Date(`${date}T${time}:00Z`).getTime() - 330 * 60_000).toISOString();
}

test('calendar and editor: write, schedule, find, drag, queue, field errors', { skip, timeout: 600_000 }, async () => {
  const page = await harness!.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(String(err)));

  // Every change the page sends to the API (method, path, If-Match): a save must be one request.
  const changes: Array<{ call: string; ifMatch: string | undefined; body: any }> = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith('/api/') && r.method() !== 'GET') {
      changes.push({ call: `${r.method()} ${pathname}`, ifMatch: r.headers()['if-match'], body: r.postData() ? JSON.parse(r.postData()!) : null });
    }
  });
  const savedWith = async (click: () => Promise<void>, done: () => Promise<unknown>) => {
    changes.length = 0;
    await click();
    await done();
    await page.waitForTimeout(300);
    return [...changes];
  };

  // Sign in through the one-time link (the password is set there).
  await setPasswordAndSignIn(page, { base, signInToken }, PASSWORD);

  // A 3-post thread: a spoiler marked by selecting text, an image with alt text, a tag.
  await page.goto(`${base}/threads/new`);
  await page.getByRole('heading', { name: 'New thread' }).waitFor();
  await page.getByLabel('Account').locator('option', { hasText: '@skein_test' }).waitFor({ state: 'attached' });
  await page.getByLabel('Post 1 text', { exact: true }).fill('The ending: Rosebud was the sled.');
  await page.getByLabel('Post 1 text', { exact: true }).evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(12, 32));
  await page.getByRole('button', { name: 'Mark selection as spoiler' }).click();
  await page.getByRole('list', { name: 'Spoilers of post 1' }).getByText('Rosebud was the sled').waitFor();
  assert.match((await page.locator('[data-counter="0"]').textContent()) ?? '', /^33 \/ 500 bytes/);
  await page.getByRole('button', { name: 'Add by URL' }).click();
  await page.getByLabel('Image 1 URL').fill('https://example.com/sled.jpg');
  await page.getByLabel('Image 1 alt text').fill('A wooden sled in the snow');
  await page.getByRole('button', { name: 'Add post' }).click();
  await page.getByLabel('Post 2 text', { exact: true }).fill('Second post');
  await page.getByRole('button', { name: 'Add post' }).click();
  await page.getByLabel('Post 3 text', { exact: true }).fill('Third post');
  // Reordering: move the third post up and back down.
  await page.getByRole('button', { name: 'Move post 3 up' }).click();
  assert.equal(await page.getByLabel('Post 2 text', { exact: true }).inputValue(), 'Third post');
  await page.getByRole('button', { name: 'Move post 2 down' }).click();
  assert.equal(await page.getByLabel('Post 3 text', { exact: true }).inputValue(), 'Third post');
  await page.getByLabel('Tags', { exact: true }).fill('films');
  await page.getByRole('button', { name: 'Add tag' }).click();
  const day = dateIn(ZONE, 2);
  await page.getByLabel(`Publish at (${ZONE})`).fill(`${day}T10:30`);
  await shoot(page, 'editor-new');
  const created = await savedWith(
    () => page.getByRole('button', { name: 'Schedule', exact: true }).click(),
    async () => {
      await page.waitForURL(/\/threads\/(?!new$)[^/]+$/);
      await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
    },
  );
  assert.deepEqual(
    created.map((c) => c.call),
    ['POST /api/v1/posts'],
    'the thread, its tags and its time are saved in one request',
  );
  const threadId = new URL(page.url()).pathname.split('/').pop()!;

  const { thread } = await api(`/api/v1/posts/${threadId}`);
  assert.equal(thread.scheduledAt, kolkataToUtc(day, '10:30'));
  assert.deepEqual(
    thread.posts.map((p: { content: string }) => p.content),
    ['The ending: Rosebud was the sled.', 'Second post', 'Third post'],
  );
  assert.deepEqual(thread.posts[0].spoilerRanges, [{ offset: 12, length: 20 }]);
  assert.equal(thread.posts[0].postMedia[0].altText, 'A wooden sled in the snow');
  assert.deepEqual(
    (await api(`/api/v1/posts/${threadId}/tags`)).tags.map((t: { name: string }) => t.name),
    ['films'],
  );

  // An edit of the text, the tags and the time is one request, sent with the ETag the page read.
  const etagOf = async () => (await fetch(`${base}/api/v1/posts/${threadId}`, { headers: { authorization: `Bearer ${key}` } })).headers.get('etag');
  const readEtag = await etagOf();
  await page.getByLabel('Post 2 text', { exact: true }).fill('Second post, edited');
  await page.getByLabel(`Publish at (${ZONE})`).fill(`${day}T10:40`);
  const edited = await savedWith(
    () => page.getByRole('button', { name: 'Reschedule', exact: true }).click(),
    () => page.getByRole('status').filter({ hasText: 'Scheduled.' }).waitFor(),
  );
  assert.deepEqual(
    edited.map((c) => c.call),
    [`PUT /api/v1/posts/${threadId}/edit`],
  );
  assert.equal(edited[0]!.ifMatch, readEtag);
  assert.deepEqual(edited[0]!.body.tags, ['films']);
  assert.equal(edited[0]!.body.scheduleAt, `${day}T10:40:00`);
  const afterEdit = (await api(`/api/v1/posts/${threadId}`)).thread;
  assert.equal(afterEdit.posts[1].content, 'Second post, edited');
  assert.equal(afterEdit.scheduledAt, kolkataToUtc(day, '10:40'));

  // Changed behind the editor's back (another tab, a script): saving is refused, the conflict is
  // said, what was typed stays in the form, and nothing of it was written.
  await api(`/api/v1/posts/${threadId}/posts/${afterEdit.posts[2].id}`, { method: 'PATCH', body: { content: 'Third post, from a script' } });
  await page.getByLabel('Post 1 text', { exact: true }).fill('The ending: Rosebud was the sled. Typed here.');
  const refused = await savedWith(
    () => page.getByRole('button', { name: 'Save changes' }).click(),
    () => page.getByRole('alert').filter({ hasText: 'changed elsewhere since you opened it' }).waitFor(),
  );
  assert.deepEqual(
    refused.map((c) => c.call),
    [`PUT /api/v1/posts/${threadId}/edit`],
  );
  assert.equal(await page.getByLabel('Post 1 text', { exact: true }).inputValue(), 'The ending: Rosebud was the sled. Typed here.');
  assert.equal(await page.getByLabel('Post 3 text', { exact: true }).inputValue(), 'Third post');
  const untouched = (await api(`/api/v1/posts/${threadId}`)).thread;
  assert.equal(untouched.posts[0].content, 'The ending: Rosebud was the sled.');
  assert.equal(untouched.posts[2].content, 'Third post, from a script');
  await shoot(page, 'editor-conflict');
  // Reload: the form shows the thread as it is now, and a save goes through again.
  await page.getByRole('button', { name: 'Reload the thread' }).click();
  await page.getByRole('status').filter({ hasText: 'Reloaded' }).waitFor();
  assert.equal(await page.getByRole('alert').filter({ hasText: 'changed elsewhere' }).count(), 0);
  assert.equal(await page.getByLabel('Post 3 text', { exact: true }).inputValue(), 'Third post, from a script');
  assert.equal(await page.getByLabel('Post 1 text', { exact: true }).inputValue(), 'The ending: Rosebud was the sled.');
  const currentEtag = await etagOf();
  const again = await savedWith(
    () => page.getByRole('button', { name: 'Save changes' }).click(),
    () => page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor(),
  );
  assert.deepEqual(
    again.map((c) => [c.call, c.ifMatch]),
    [[`PUT /api/v1/posts/${threadId}/edit`, currentEtag]],
  );
  // A follow-up reply: added, listed, deleted.
  await page.getByLabel('Follow-up text').fill('Thanks for reading');
  await page.getByLabel('Minutes after the last post').fill('30');
  await page.getByRole('button', { name: 'Add follow-up' }).click();
  await page.getByRole('button', { name: 'Delete follow-up Thanks for reading' }).waitFor();
  assert.equal((await api(`/api/v1/posts/${threadId}/follow-ups`)).count, 1);
  await shoot(page, 'editor-scheduled');
  await page.getByRole('button', { name: 'Delete follow-up Thanks for reading' }).click();
  await page.getByText('None yet.').waitFor();
  assert.equal((await api(`/api/v1/posts/${threadId}/follow-ups`)).count, 0);

  // The calendar shows it on that day at 10:00 in Kolkata (the browser is in Los Angeles).
  await page.goto(`${base}/calendar?date=${day}`);
  const chip = page.locator(`td[data-date="${day}"][data-hour="10"] [data-thread="${threadId}"]`);
  await chip.waitFor();
  assert.match((await chip.textContent()) ?? '', /10:40/);
  // Coloured by its tag ("films" is #4F46E5 in the server's palette).
  await waitFor('the tag colour', async () => (await chip.evaluate((el) => getComputedStyle(el).borderLeftColor)) === 'rgb(79, 70, 229)');
  // No layout shift while the week and its threads load.
  await page.reload();
  await chip.waitFor();
  const shift = await layoutShift(page);
  console.log(`# web: cumulative layout shift loading /calendar: ${shift.toFixed(4)}`);
  assert.ok(shift < 0.1, `layout shift ${shift}`);
  await shoot(page, 'calendar-week');

  // Dragged to another day of that week (the next, or the one before when it is a Sunday) at
  // 14:00: rescheduled to 14:40 there (the minutes stay).
  const isSunday = new Date(`${day}T00:00:00Z`).getUTCDay() === 0;
  const other = dateIn(ZONE, isSunday ? 1 : 3);
  await page.locator(`td[data-date="${other}"][data-hour="14"]`).waitFor();
  // The drag events themselves, with one DataTransfer: Playwright's mouse drag (dragTo) starts no
  // HTML5 drag in this headless Chromium.
  const target = page.locator(`td[data-date="${other}"][data-hour="14"]`);
  const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
  await chip.dispatchEvent('dragstart', { dataTransfer });
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
  await page.locator(`td[data-date="${other}"][data-hour="14"] [data-thread="${threadId}"]`).waitFor();
  assert.equal((await api(`/api/v1/posts/${threadId}`)).thread.scheduledAt, kolkataToUtc(other, '14:40'));
  await page.getByRole('status').filter({ hasText: 'Moved to' }).waitFor();

  // The queue: a time slot made through the API; the editor's "Add to queue" takes its first instant.
  await api('/api/v1/time-slots', { method: 'POST', body: { providerId, dayOfWeek: 3, time: '09:15' } });
  const [firstFree] = (await api(`/api/v1/time-slots/next?providerId=${providerId}&count=1`)).slots;
  await page.goto(`${base}/threads/new`);
  await page.getByLabel('Account').locator('option', { hasText: '@skein_test' }).waitFor({ state: 'attached' });
  await page.getByLabel('Post 1 text', { exact: true }).fill('Queued thought');
  const queuedSave = await savedWith(
    () => page.getByRole('button', { name: 'Add to queue' }).click(),
    () => page.waitForURL(/\/threads\/(?!new$)[^/]+$/),
  );
  assert.deepEqual(
    queuedSave.map((c) => c.call),
    ['POST /api/v1/posts'],
  );
  const queuedId = new URL(page.url()).pathname.split('/').pop()!;
  assert.equal((await api(`/api/v1/posts/${queuedId}`)).thread.scheduledAt, firstFree);

  // A free slot in the calendar opens the editor at that time.
  const [freeAfter] = (await api(`/api/v1/time-slots/next?providerId=${providerId}&count=1`)).slots;
  const freeDay = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(freeAfter));
  await page.goto(`${base}/calendar?date=${freeDay}`);
  await page.locator(`td[data-date="${freeDay}"][data-hour="9"] .free-slot`).first().click();
  await page.getByRole('heading', { name: 'New thread' }).waitFor();
  assert.equal(await page.getByLabel(`Publish at (${ZONE})`).inputValue(), `${freeDay}T09:15`);

  // A draft appears in the calendar's drafts list.
  await page.getByLabel('Post 1 text', { exact: true }).fill('Just an idea');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await page.waitForURL(/\/threads\/(?!new$)[^/]+$/);
  await page.goto(`${base}/calendar?view=month&date=${day}`);
  await page.getByRole('region', { name: 'Drafts' }).getByText('Just an idea').waitFor();
  await page.locator(`[data-thread="${threadId}"]`).first().waitFor();
  await shoot(page, 'calendar-month');

  // An over-long second post: the live counter says so, and the API's error sits at that post.
  await page.goto(`${base}/threads/new`);
  await page.getByLabel('Account').locator('option', { hasText: '@skein_test' }).waitFor({ state: 'attached' });
  await page.getByLabel('Post 1 text', { exact: true }).fill('Fine');
  await page.getByRole('button', { name: 'Add post' }).click();
  await page.getByLabel('Post 2 text', { exact: true }).fill('é'.repeat(251));
  assert.match((await page.locator('[data-counter="1"]').textContent()) ?? '', /502 \/ 500 bytes — too long/);
  await page.getByRole('button', { name: 'Save as draft' }).click();
  assert.match(await fieldError(page, 'posts.1.text'), /502 UTF-8 bytes/);
  assert.equal(await page.getByLabel('Post 2 text', { exact: true }).getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator('.editor .form-message').isHidden(), true, 'a fault shown at its field is not repeated above the buttons');
  await shoot(page, 'editor-error');

  assert.deepEqual(pageErrors, []);
});
