/**
 * Issue 41 from end to end, in real browsers against a real `skein serve` on the embedded
 * database with its publisher running, Threads being the strict local fake of the Graph API:
 *
 * - a writer writes a two-post thread in the editor and schedules it a minute or two ahead: it
 *   waits for approval;
 * - an editor approves it on the approvals page;
 * - a client with a review link, in a browser of their own at 375 px and signed in as nobody,
 *   rejects the writer's other thread (due a minute earlier) with a note and comments on it;
 * - the approved thread is published once, both posts, as a chain; the rejected one never is,
 *   though its time passed before the approved one's.
 *
 * Each person has a browser profile of their own. The threads are due in the next minutes, so
 * the test waits on real time for the publisher (the conditions, not a fixed time).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { BrowserContext } from 'playwright-core';
import {
  collectPageErrors,
  keyedApi,
  launchBrowser,
  PHONE,
  type SeededWebServer,
  setPasswordAndSignIn,
  shoot,
  skipReason,
  startSeededWebServer,
  waitFor,
} from '../helpers/browser.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';

const OWNER = 'owner@studio.test';
const EDITOR = 'editor@studio.test';
const WRITER = 'writer@studio.test';
const PASSWORD = 'a long end-to-end password';

const skip = skipReason('teams end to end');
let fake: FakeGraphApi | null = null;
let server: SeededWebServer | null = null;
const profiles: Array<{ dir: string; context: BrowserContext }> = [];

after(async () => {
  for (const { dir, context } of profiles) {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
  await server?.close();
  await fake?.close();
});

async function profile(): Promise<BrowserContext> {
  const dir = mkdtempSync(join(tmpdir(), 'skein-teams-e2e-'));
  const context = await launchBrowser(dir);
  profiles.push({ dir, context });
  return context;
}

/** `YYYY-MM-DDTHH:mm` in UTC (every account's zone here) of the minute `minutes` after the current one. */
function minuteAhead(minutes: number): string {
  const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 + minutes * 60_000);
  return at.toISOString().slice(0, 16);
}

test('a writer drafts, an editor approves, a client rejects another through a review link at 375 px and comments; the approved one is published once, the rejected never', {
  skip,
  timeout: 900_000,
}, async () => {
  fake = await FakeGraphApi.start({ processingMs: { TEXT: 0, IMAGE: 0, CAROUSEL: 0, VIDEO: 0 } });
  const account = fake.createAccount('studio');
  let teamId = '';
  const keys: Record<string, string> = {};
  const signIn: Record<string, string> = {};
  server = await startSeededWebServer(
    'teams-e2e',
    OWNER,
    (cli) => {
      teamId = cli<{ id: string }>('team', 'create', '--email', OWNER, '--name', 'Studio').id;
      for (const [email, role] of [
        [EDITOR, 'editor'],
        [WRITER, 'writer'],
      ] as const) {
        cli('user', 'create', '--email', email, '--timezone', 'UTC');
        cli('team', 'add-member', '--team', teamId, '--email', email, '--role', role);
        keys[email] = cli<{ key: string }>('key', 'create', '--email', email, '--name', 'test').key;
        signIn[email] = /#token=(\S+)$/.exec(cli<{ url: string }>('user', 'sign-in-link', '--email', email).url)![1]!;
      }
    },
    // Three browsers and the test's own reads share one address: the per-address limit is not what this is about.
    { env: { THREADS_API_URL: fake.url, SKEIN_RATE_LIMIT_PER_IP: '100000' } },
  );
  const { base } = server;
  keys[OWNER] = server.key;
  const api = (who: string) => keyedApi(base, () => keys[who]!);
  for (const email of [OWNER, EDITOR, WRITER]) await api(email)('/api/v1/account', { method: 'PATCH', body: { activeTeamId: teamId } });
  // The team's Threads account, connected with a token by its admin (the server reads the account from the fake).
  const providerId: string = (await api(OWNER)('/api/v1/providers/threads', { method: 'POST', body: { accessToken: account.accessToken, teamId } })).id;
  const thread = async (id: string) => (await api(OWNER)(`/api/v1/posts/${id}`)).thread;

  // The writer, in the editor: two posts, scheduled two minutes ahead. It waits for approval.
  const writer = await (await profile()).newPage();
  const writerErrors = collectPageErrors(writer);
  await setPasswordAndSignIn(writer, { base, signInToken: signIn[WRITER]! }, PASSWORD);
  await writer.goto(`${base}/threads/new`);
  await writer.getByLabel('Account').locator('option', { hasText: '@studio' }).waitFor({ state: 'attached' });
  await writer.getByLabel('Post 1 text', { exact: true }).fill('Our spring collection lands today');
  await writer.getByRole('button', { name: 'Add post' }).click();
  await writer.getByLabel('Post 2 text', { exact: true }).fill('Ten pieces, made to last: have a look');
  const approvedAt = minuteAhead(2);
  await writer.getByLabel('Publish at (UTC)').fill(approvedAt);
  await writer.getByRole('button', { name: 'Schedule', exact: true }).click();
  await writer.waitForURL(/\/threads\/(?!new$)[^/]+$/);
  await writer.locator('[data-approval="PENDING"]').filter({ hasText: 'Waiting for approval' }).waitFor();
  const approvedId = new URL(writer.url()).pathname.split('/').pop()!;
  assert.equal((await thread(approvedId)).approval.state, 'PENDING');
  // Its other thread, due a minute earlier, through the API.
  const { threadId: rejectedId } = await api(WRITER)('/api/v1/posts', {
    method: 'POST',
    body: { providerId, scheduleAt: `${minuteAhead(1)}:00`, posts: [{ text: 'Everything must go: 90% off, today only!!!' }] },
  });
  assert.equal((await thread(rejectedId)).approval.state, 'PENDING');

  // The editor approves the first on the approvals page.
  const editor = await (await profile()).newPage();
  const editorErrors = collectPageErrors(editor);
  await setPasswordAndSignIn(editor, { base, signInToken: signIn[EDITOR]! }, PASSWORD);
  await editor.goto(`${base}/approvals`);
  const card = editor.locator(`article[data-thread="${approvedId}"]`);
  await card.getByText('Our spring collection lands today').waitFor();
  await card.getByRole('button', { name: /^Approve/ }).click();
  await waitFor('the thread approved', async () => (await thread(approvedId)).approval.state === 'APPROVED');
  assert.equal((await thread(approvedId)).approval.by, EDITOR);

  // The owner (an admin) makes a review link; the client opens it on a phone, signed in as nobody.
  const link = await api(OWNER)('/api/v1/review-links', {
    method: 'POST',
    body: {
      teamId,
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 86_400_000).toISOString(),
      canApprove: true,
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    },
  });
  const client = await (await profile()).newPage();
  await client.setViewportSize(PHONE);
  const clientErrors = collectPageErrors(client);
  await client.goto(link.url);
  const other = client.locator(`[data-thread-id="${rejectedId}"]`);
  await other.getByText('Everything must go').waitFor();
  await client.getByLabel('Your name').fill('Robin Client');
  await client.keyboard.press('Enter');
  await client.getByText('Reviewing as').waitFor();
  const overflow = await client.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the review page scrolls sideways by ${overflow}px at 375 px`);
  await other.getByRole('button', { name: 'Reject…' }).click();
  await other.getByLabel('Why (shown with the rejection)').fill('Not our tone: no shouting, please');
  await other.getByRole('button', { name: 'Reject', exact: true }).click();
  await other.getByText('Rejected by Robin Client').waitFor();
  await other.getByRole('button', { name: 'Comment…' }).click();
  await other.getByLabel('Comment').fill('Could we say "new season" instead?');
  await other.getByRole('button', { name: 'Send comment' }).click();
  await other.getByText('Could we say "new season" instead?').waitFor();
  await shoot(client, 'teams-e2e-review-phone');
  const rejected = (await thread(rejectedId)).approval;
  assert.deepEqual([rejected.state, rejected.by, rejected.note], ['REJECTED', 'Robin Client', 'Not our tone: no shouting, please']);
  const comments = (await api(EDITOR)(`/api/v1/posts/${rejectedId}/comments`)).comments;
  assert.deepEqual(
    comments.map((c: { author: string; text: string }) => [c.author, c.text]),
    [['Robin Client', 'Could we say "new season" instead?']],
  );

  // The approved thread is published at its minute, once, as a chain; the rejected one's minute
  // came first, and it was never taken.
  await waitFor('the approved thread published', async () => (await thread(approvedId)).status === 'PUBLISHED', 400_000);
  const texts = fake.published.map((p) => p.text);
  assert.deepEqual(texts, ['Our spring collection lands today', 'Ten pieces, made to last: have a look'], 'each post once, in order');
  assert.equal(fake.published[1]!.replyToId, fake.published[0]!.id, 'the second post replies to the first');
  const still = await thread(rejectedId);
  assert.equal(still.status, 'READY');
  assert.equal(still.approval.state, 'REJECTED');
  assert.ok(Date.parse(still.scheduledAt) < Date.now(), 'its time has passed');
  assert.deepEqual([...writerErrors, ...editorErrors, ...clientErrors], []);
});
