/**
 * Teams in a real browser (issue 41; Chromium against a real `skein serve` on the embedded
 * database). Before the server starts, the CLI makes a team: its owner, an editor, a writer, an
 * account that is not in it yet, an API key and a sign-in link for each, and a Bluesky account of
 * the team (as given: nothing is published, every thread is days ahead). Each person has their
 * own browser profile.
 *
 * - The approvals page: the writer's three threads wait; the editor sees them as Bluesky will show
 *   them, the count in the navigation; one changed by the writer after the page was read is
 *   refused (412) with a clear message and the list read again; then by keyboard alone (j, a, r,
 *   typing the note, Enter) one is approved and another rejected with a note. The writer sees the
 *   note there, and no buttons, and a thread past its time marked as waiting; in the editor the
 *   rejected thread says it was rejected, by whom, and why.
 * - The editor: an approved thread says so; the writer's save of it says it asks again, and it waits.
 * - Comments in the editor: the counter, a mention offered from the members, the comment listed.
 * - Settings → Team members: the owner adds a member with a role, changes it, removes them; the
 *   writer sees the members and no control.
 * - The calendar marks the pending thread and the rejected one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import {
  collectPageErrors,
  keyedApi,
  launchBrowser,
  type SeededWebServer,
  setPasswordAndSignIn,
  shoot,
  skipReason,
  startSeededWebServer,
  waitFor,
} from '../helpers/browser.js';

const OWNER = 'owner@agency.test';
const EDITOR = 'editor@agency.test';
const WRITER = 'writer@agency.test';
const NEWCOMER = 'newcomer@agency.test';
const PASSWORD = 'a long approvals password';

const skip = skipReason('approvals and comments');
let server: SeededWebServer | null = null;
let teamId = '';
let blueskyId = '';
const keys: Record<string, string> = {};
const signInTokens: Record<string, string> = {};
const profiles: Array<{ dir: string; context: BrowserContext }> = [];
const pages: Record<string, Page> = {};

const api = (who: string) => keyedApi(server!.base, () => keys[who]!);
/** A day ten days ahead (UTC, every account's zone here; docs/testing.md "Time"): nothing scheduled then falls due during the test. */
const DAY = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);

before(async () => {
  if (skip) return;
  server = await startSeededWebServer('approvals', OWNER, (cli) => {
    teamId = cli<{ id: string }>('team', 'create', '--email', OWNER, '--name', 'Agency').id;
    for (const [email, role] of [
      [EDITOR, 'editor'],
      [WRITER, 'writer'],
    ] as const) {
      cli('user', 'create', '--email', email, '--timezone', 'UTC');
      cli('team', 'add-member', '--team', teamId, '--email', email, '--role', role);
      keys[email] = cli<{ key: string }>('key', 'create', '--email', email, '--name', 'test').key;
      signInTokens[email] = /#token=(\S+)$/.exec(cli<{ url: string }>('user', 'sign-in-link', '--email', email).url)![1]!;
    }
    cli('user', 'create', '--email', NEWCOMER, '--timezone', 'UTC');
    blueskyId = cli<{ id: string }>(
      'provider',
      'add',
      '--email',
      OWNER,
      '--team',
      teamId,
      '--kind',
      'BLUESKY',
      '--provider-user-id',
      'did:plc:agency',
      '--username',
      'agency.test',
      '--access-token',
      'unused',
    ).id;
  });
  keys[OWNER] = server.key;
  signInTokens[OWNER] = server.signInToken;
  // Everyone works in the team's workspace.
  for (const email of [OWNER, EDITOR, WRITER]) await api(email)('/api/v1/account', { method: 'PATCH', body: { activeTeamId: teamId } });
  pages[OWNER] = await server.context.newPage();
  for (const email of [EDITOR, WRITER]) {
    const dir = mkdtempSync(join(tmpdir(), 'skein-approvals-'));
    const context = await launchBrowser(dir);
    profiles.push({ dir, context });
    pages[email] = await context.newPage();
  }
  for (const email of [OWNER, EDITOR, WRITER]) await setPasswordAndSignIn(pages[email]!, { base: server.base, signInToken: signInTokens[email]! }, PASSWORD);
});

after(async () => {
  for (const { dir, context } of profiles) {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
  await server?.close();
});

/** A thread the writer schedules through the API: it waits for approval. */
async function writersThread(text: string, time: string): Promise<string> {
  const { threadId } = await api(WRITER)('/api/v1/posts', {
    method: 'POST',
    body: { providerId: blueskyId, scheduleAt: `${DAY}T${time}:00`, posts: [{ text }] },
  });
  assert.equal((await api(WRITER)(`/api/v1/posts/${threadId}`)).thread.approval.state, 'PENDING');
  return threadId;
}

const approvalOf = async (threadId: string) => (await api(OWNER)(`/api/v1/posts/${threadId}`)).thread.approval;
const focusedThread = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.thread ?? null);

let approvedId = '';
let rejectedId = '';

test('approvals page: a stale decision refused and the list read again; by keyboard, one approved and one rejected with a note; the writer sees the note', {
  skip,
  timeout: 600_000,
}, async () => {
  const changedId = await writersThread('Changed after the editor looked', '09:00');
  approvedId = await writersThread('Launch day: doors open at ten', '10:00');
  rejectedId = await writersThread('We are the BEST agency EVER!!!', '11:00');
  const page = pages[EDITOR]!;
  const errors = collectPageErrors(page);

  await page.goto(`${server!.base}/approvals`);
  await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Approvals/ });
  await waitFor('the pending count in the navigation', async () => ((await nav.textContent()) ?? '').includes('3'));
  const cards = page.locator('article.waiting');
  await waitFor('three waiting threads', async () => (await cards.count()) === 3);
  // As Bluesky will show it, on the team's account, at its time in the account's zone.
  const first = page.locator(`article[data-thread="${changedId}"]`);
  await first.locator(`[data-preview="${blueskyId}"]`).getByText('Changed after the editor looked').waitFor();
  assert.match((await first.textContent()) ?? '', /Bluesky · @agency\.test/);
  assert.match((await first.locator('.waiting-when').textContent()) ?? '', /\(UTC\)/);
  await page.getByText('Keyboard shortcuts').waitFor();
  await shoot(page, 'approvals-editor');

  // The writer changes a thread after the page read it: the approval based on the old one is refused.
  const { thread: read } = await api(WRITER)(`/api/v1/posts/${changedId}`);
  await api(WRITER)(`/api/v1/posts/${changedId}/edit`, {
    method: 'PUT',
    body: { posts: [{ id: read.posts[0].id, text: 'Changed after the editor looked, and changed again' }] },
  });
  await first.getByRole('button', { name: /^Approve/ }).click();
  await page.getByRole('alert').filter({ hasText: 'changed since this page read it' }).waitFor();
  await first.getByText('and changed again').waitFor();
  assert.equal((await approvalOf(changedId)).state, 'PENDING', 'nothing was decided');
  await first.getByRole('button', { name: /^Approve/ }).click();
  await page.getByRole('status').filter({ hasText: 'Approved' }).waitFor();
  await waitFor('the approved thread to leave the list', async () => (await cards.count()) === 2);
  assert.equal((await approvalOf(changedId)).state, 'APPROVED');
  await waitFor('the count to follow', async () => ((await nav.textContent()) ?? '').includes('2'));

  // By keyboard alone: j goes to the first thread, a approves it; the focus moves to the next.
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('j');
  await waitFor('the first thread in focus', async () => (await focusedThread(page)) === approvedId);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.equal(outline, 'solid', 'the thread in focus is plainly marked');
  await page.keyboard.press('j');
  await waitFor('j to the next thread', async () => (await focusedThread(page)) === rejectedId);
  await page.keyboard.press('k');
  await waitFor('k back to the first', async () => (await focusedThread(page)) === approvedId);
  // Tab goes through the thread's link and its actions, in order; a shortcut still works from there.
  const tabbed: string[] = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    tabbed.push(
      await page.evaluate(() => {
        const el = document.activeElement as (HTMLElement & { labels?: NodeListOf<HTMLLabelElement> }) | null;
        return el?.getAttribute('aria-label') ?? el?.labels?.[0]?.textContent ?? el?.textContent?.trim() ?? '';
      }),
    );
  }
  assert.deepEqual(tabbed, [
    'Bluesky · @agency.test',
    'Approve the thread on Bluesky · @agency.test',
    'Note for the writer (optional)',
    'Reject the thread on Bluesky · @agency.test',
  ]);
  await page.keyboard.press('a');
  await waitFor('the first to be approved', async () => (await approvalOf(approvedId)).state === 'APPROVED');
  const approved = await approvalOf(approvedId);
  assert.equal(approved.by, EDITOR);
  await waitFor('the next thread in focus', async () => (await focusedThread(page)) === rejectedId);
  // r: the note field takes the focus; Enter rejects with what was typed.
  await page.keyboard.press('r');
  await waitFor('the note field in focus', async () => page.evaluate(() => document.activeElement?.id.startsWith('reject-note-') ?? false));
  await page.keyboard.type('Too loud for the client: tone it down');
  await page.keyboard.press('Enter');
  await waitFor('the second to be rejected', async () => (await approvalOf(rejectedId)).state === 'REJECTED');
  assert.deepEqual({ ...(await approvalOf(rejectedId)), at: null }, { state: 'REJECTED', by: EDITOR, at: null, note: 'Too loud for the client: tone it down' });
  await page.getByText('Nothing waits for approval.').waitFor();
  // Every action is reachable by Tab too: the buttons are buttons (checked above by role).
  assert.deepEqual(errors, []);

  // The writer: the rejected thread with its note, and no buttons; one scheduled half a minute ago
  // (the API's grace) is past its time and waits, marked so.
  const late = await api(WRITER)('/api/v1/posts', {
    method: 'POST',
    body: { providerId: blueskyId, scheduleAt: `${new Date(Date.now() - 30_000).toISOString().slice(0, 19)}Z`, posts: [{ text: 'Late, and waiting' }] },
  });
  const writer = pages[WRITER]!;
  await writer.goto(`${server!.base}/approvals`);
  await writer.locator(`article[data-thread="${late.threadId}"] .late`).filter({ hasText: 'past its time, publishes when approved' }).waitFor();
  assert.equal((await approvalOf(late.threadId)).state, 'PENDING');
  const mine = writer.locator(`article[data-thread="${rejectedId}"]`);
  await mine.getByText('Too loud for the client: tone it down').waitFor();
  assert.match((await mine.textContent()) ?? '', new RegExp(`Rejected by ${EDITOR.replace('.', '\\.')}`));
  assert.equal(await writer.getByRole('button', { name: /^(Approve|Reject)/ }).count(), 0, 'a writer decides nothing');
  await shoot(writer, 'approvals-writer');
  // In the editor, the same: rejected, by whom and why.
  await writer.goto(`${server!.base}/threads/${rejectedId}`);
  const status = writer.locator('[data-approval="REJECTED"]');
  await status.waitFor();
  assert.match((await status.textContent()) ?? '', /Rejected by editor@agency\.test.*Too loud for the client/s);

  // The editor's home page: the late thread needs attention, and leads to the approvals page.
  await page.goto(`${server!.base}/`);
  const item = page.locator('li', { hasText: 'A thread is past its time and waits for approval' });
  await item.getByRole('link', { name: 'Go to approvals' }).click();
  await page.waitForURL(/\/approvals$/);
  await page
    .locator(`article[data-thread="${late.threadId}"]`)
    .getByRole('button', { name: /^Approve/ })
    .waitFor();
});

test('editor: an approved thread says so; the writer is told a save asks again, and after saving it waits', { skip, timeout: 300_000 }, async () => {
  assert.ok(approvedId, 'the approvals test ran first');
  const writer = pages[WRITER]!;
  await writer.goto(`${server!.base}/threads/${approvedId}`);
  const status = writer.locator('[data-approval="APPROVED"]');
  await status.waitFor();
  assert.match((await status.textContent()) ?? '', /Approved by editor@agency\.test/);
  assert.match((await writer.locator('[data-approval-hint]').textContent()) ?? '', /asks an editor to approve it again/);
  await writer.getByLabel('Post 1 text', { exact: true }).fill('Launch day: doors open at half past ten');
  await writer.getByRole('button', { name: 'Save changes' }).click();
  await writer.getByRole('status').filter({ hasText: 'waits for an editor’s approval' }).waitFor();
  await writer.locator('[data-approval="PENDING"]').waitFor();
  assert.equal((await approvalOf(approvedId)).state, 'PENDING');
});

test('comments in the editor: counted live, a member offered for @, the comment listed', { skip, timeout: 300_000 }, async () => {
  assert.ok(approvedId, 'the approvals test ran first');
  const page = pages[EDITOR]!;
  await page.goto(`${server!.base}/threads/${approvedId}`);
  await page.getByRole('heading', { name: 'Comments' }).waitFor();
  await page.getByText('No comments yet.').waitFor();
  const box = page.getByLabel('Comment', { exact: true });
  await box.fill('x'.repeat(5001));
  assert.match((await page.locator('[data-comment-counter]').textContent()) ?? '', /5,001 \/ 5,000 — too long/);
  assert.equal(await page.getByRole('button', { name: 'Add comment' }).isDisabled(), true);

  await box.fill('');
  await box.pressSequentially('Half past ten is right. @wri');
  await page.getByRole('button', { name: `Mention ${WRITER}` }).click();
  assert.equal(await box.inputValue(), `Half past ten is right. @${WRITER} `);
  await box.press('End');
  await box.pressSequentially('thanks!');
  await page.getByLabel('On', { exact: true }).selectOption({ label: 'Post 1' });
  await page.getByRole('button', { name: 'Add comment' }).click();
  const listed = page.locator('.comment-list li');
  await listed.first().waitFor();
  assert.match(
    (await listed.first().textContent()) ?? '',
    new RegExp(`${EDITOR.replace('.', '\\.')}.*on post 1.*Half past ten is right\\. @writer@agency\\.test thanks!`, 's'),
  );
  const { comments } = await api(WRITER)(`/api/v1/posts/${approvedId}/comments`);
  const { thread } = await api(WRITER)(`/api/v1/posts/${approvedId}`);
  assert.deepEqual(
    comments.map((c: { author: string; text: string; postId: string | null }) => [c.author, c.text, c.postId]),
    [[EDITOR, `Half past ten is right. @${WRITER} thanks!`, thread.posts[0].id]],
  );
  await shoot(page, 'editor-comments');
});

test('team members in settings: the owner adds, changes and removes a member; a writer sees no control', { skip, timeout: 300_000 }, async () => {
  const page = pages[OWNER]!;
  await page.goto(`${server!.base}/settings`);
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Team members' }) });
  await section.getByLabel(`Role of ${EDITOR}`).waitFor();
  await section.getByLabel('Email of the account to add').fill(NEWCOMER);
  await section.getByLabel('Role', { exact: true }).selectOption('writer');
  await section.getByRole('button', { name: 'Add member' }).click();
  const role = section.getByLabel(`Role of ${NEWCOMER}`);
  await role.waitFor();
  assert.equal(await role.inputValue(), 'writer');
  const member = async () =>
    ((await api(OWNER)(`/api/v1/teams/${teamId}/members`)).members as Array<{ email: string; role: string }>).find((m) => m.email === NEWCOMER);
  assert.equal((await member())?.role, 'writer');

  await role.selectOption('viewer');
  await waitFor('the role change to be saved', async () => (await member())?.role === 'viewer');
  await section.getByRole('button', { name: `Remove ${NEWCOMER}` }).click();
  await waitFor('the member to leave the list', async () => (await section.getByLabel(`Role of ${NEWCOMER}`).count()) === 0);
  assert.equal(await member(), undefined);

  const writer = pages[WRITER]!;
  await writer.goto(`${server!.base}/settings`);
  const seen = writer.locator('section', { has: writer.getByRole('heading', { name: 'Team members' }) });
  await seen.getByText('Your role in this team: writer').waitFor();
  for (const email of [OWNER, EDITOR, WRITER]) assert.equal(await seen.getByLabel(`Role of ${email}`).isDisabled(), true, `${email}'s role is read-only`);
  assert.equal(await seen.getByRole('button').count(), 0, 'no Remove, no Add member');
  assert.equal(await seen.getByLabel('Email of the account to add').count(), 0);
});

test('the calendar marks the pending thread and the rejected one', { skip, timeout: 300_000 }, async () => {
  assert.ok(rejectedId && approvedId, 'the approvals tests ran first');
  const page = pages[OWNER]!;
  await page.goto(`${server!.base}/calendar?date=${DAY}`);
  const pending = page.locator(`[data-thread="${approvedId}"]:visible`);
  const rejected = page.locator(`[data-thread="${rejectedId}"]:visible`);
  await pending.locator('.approval-badge').filter({ hasText: 'awaiting approval' }).waitFor();
  await rejected.locator('.approval-badge').filter({ hasText: 'rejected' }).waitFor();
  assert.match((await pending.getAttribute('class')) ?? '', /approval-pending/);
  assert.match((await rejected.getAttribute('class')) ?? '', /approval-rejected/);
  await shoot(page, 'calendar-approvals');
});
