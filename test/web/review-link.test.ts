/**
 * A review link's page in a real browser at 375 px (test/helpers/browser.ts: Chromium against a
 * real `skein serve`). A team's writer has two threads waiting for approval; an admin makes a
 * link in Settings → Review links and copies it. Signed in as nobody, the client opens it: no
 * sideways scrolling, every button at least 44 px tall; gives a name once, rejects one thread with a note, comments, approves the other; the
 * team's API shows each decision and the comment under that name. Then the page's headers keep
 * the token (no-store, no-referrer), and an unknown or revoked link shows only that it is not valid.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { keyedApi, PHONE, type SeededWebServer, setPasswordAndSignIn, shoot, skipReason, startSeededWebServer } from '../helpers/browser.js';

const skip = skipReason('review link page');
let server: SeededWebServer | null = null;

after(async () => {
  await server?.close();
});

test('review link at 375 px: a named client rejects one thread with a note, comments and approves another; an invalid link shows nothing', {
  skip,
}, async () => {
  let teamId = '';
  let writerKey = '';
  let providerId = '';
  server = await startSeededWebServer('review', 'owner@example.test', (cli) => {
    teamId = cli<{ id: string }>('team', 'create', '--email', 'owner@example.test', '--name', 'Acme Agency').id;
    cli('user', 'create', '--email', 'writer@example.test', '--timezone', 'UTC');
    cli('team', 'add-member', '--team', teamId, '--email', 'writer@example.test', '--role', 'writer');
    writerKey = cli<{ key: string }>('key', 'create', '--email', 'writer@example.test', '--name', 'test').key;
    providerId = cli<{ id: string }>(
      'provider',
      'add',
      '--email',
      'owner@example.test',
      '--kind',
      'BLUESKY',
      '--access-token',
      'app-password-never-used',
      '--provider-user-id',
      'did:plc:acmeagency',
      '--username',
      'acme.bsky.social',
      '--team',
      teamId,
    ).id;
  });
  const { base } = server;
  const owner = keyedApi(base, () => server!.key);
  const writer = keyedApi(base, () => writerKey);
  const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
  const thread = async (text: string, hours: number) =>
    (
      await writer('/api/v1/posts', {
        method: 'POST',
        body: { providerId, teamId, scheduleAt: inHours(hours), posts: [{ text }, { text: 'And there is more.' }] },
      })
    ).threadId as string;
  const first = await thread('Launch day is coming: a first look at https://acme.example/launch', 24);
  const second = await thread('Behind the scenes with the #acme team', 48);
  // The admin (the owner here) makes the link in Settings → Review links and copies its address.
  await owner('/api/v1/account', { method: 'PATCH', body: { activeTeamId: teamId } });
  const admin = await server.context.newPage();
  await setPasswordAndSignIn(admin, server, 'correct horse battery staple');
  await admin.goto(`${base}/settings`);
  const section = admin.getByRole('region', { name: 'Review links' });
  await section.getByText('No review links yet.').waitFor();
  await section.getByRole('button', { name: 'Create review link' }).click();
  const url = await admin.getByLabel('Review link', { exact: true }).inputValue();
  assert.match(url, new RegExp(`^${base}/review/[A-Za-z0-9_-]{43}$`));
  const [listed] = (await owner(`/api/v1/review-links?teamId=${teamId}`)).reviewLinks;
  assert.equal(listed.canApprove, true);
  await section.locator(`[data-review-link="${listed.id}"]`).waitFor();
  const link = { url, id: listed.id as string };
  await admin.close();
  // The client is signed in as nobody.
  await server.context.clearCookies();

  const page = await server.context.newPage();
  await page.setViewportSize(PHONE);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const opened = await page.goto(link.url);
  assert.equal(opened?.headers()['cache-control'], 'no-store');
  assert.equal(opened?.headers()['referrer-policy'], 'no-referrer');
  await page.getByRole('heading', { name: 'Review for Acme Agency' }).waitFor();
  const firstCard = page.locator(`[data-thread-id="${first}"]`);
  const secondCard = page.locator(`[data-thread-id="${second}"]`);
  await firstCard.getByText('Launch day is coming').waitFor();
  assert.equal(await firstCard.locator('.preview-post').count(), 2, 'both posts, as the network shows them');
  assert.equal(await firstCard.getByText('Waiting for approval').count(), 1);

  // The name, once (kept in this browser), with the keyboard.
  await page.getByLabel('Your name').fill('Dana Client');
  await page.keyboard.press('Enter');
  await page.getByText('Reviewing as').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('skein.reviewerName')), 'Dana Client');
  await shoot(page, 'review-link');
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the review page scrolls sideways by ${overflow}px at 375 px`);
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('main button, main input, main textarea')]
      .map((el) => ({ text: (el.textContent || el.getAttribute('aria-label') || el.tagName).trim(), height: el.getBoundingClientRect().height }))
      .filter((b) => b.height > 0 && b.height < 44),
  );
  assert.deepEqual(small, [], 'every control at least 44 px tall');

  await firstCard.getByRole('button', { name: 'Reject…' }).click();
  await firstCard.getByLabel('Why (shown with the rejection)').fill('Not before the press release');
  await firstCard.getByRole('button', { name: 'Reject', exact: true }).click();
  await firstCard.getByText('Rejected by Dana Client: “Not before the press release”').waitFor();
  await firstCard.getByRole('button', { name: 'Comment…' }).click();
  await firstCard.getByLabel('Comment').fill('Could the link go in the second post?');
  await firstCard.getByRole('button', { name: 'Send comment' }).click();
  await firstCard.getByText('Could the link go in the second post?').waitFor();
  await secondCard.getByRole('button', { name: 'Approve' }).click();
  await secondCard.getByText('Approved by Dana Client').waitFor();
  assert.equal(await firstCard.getByRole('button', { name: 'Approve' }).count(), 0, 'a decided thread offers no approval');

  // The team sees the same, under the reviewer's name.
  const rejected = (await owner(`/api/v1/posts/${first}`)).thread.approval;
  assert.deepEqual([rejected.state, rejected.by, rejected.note], ['REJECTED', 'Dana Client', 'Not before the press release']);
  assert.equal((await owner(`/api/v1/posts/${second}`)).thread.approval.by, 'Dana Client');
  const comments = (await owner(`/api/v1/posts/${first}/comments`)).comments;
  assert.deepEqual(
    comments.map((c: { author: string; text: string }) => [c.author, c.text]),
    [['Dana Client', 'Could the link go in the second post?']],
  );

  // A reload keeps the name and shows what was done.
  await page.reload();
  await firstCard.getByText('Could the link go in the second post?').waitFor();
  await page.getByText('Reviewing as').waitFor();

  // An unknown link, then the revoked one: only "not valid", nothing of the team.
  for (const url of [`${base}/review/${'A'.repeat(43)}`, link.url]) {
    if (url === link.url) await owner(`/api/v1/review-links/${link.id}`, { method: 'DELETE' });
    await page.goto(url);
    await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    const text = (await page.locator('body').textContent()) ?? '';
    assert.ok(!/Acme|Launch|Dana/.test(text), `nothing shown: ${text}`);
  }
  assert.deepEqual(errors, []);
});
