/**
 * Writing once for several accounts in a real browser (Chromium via playwright-core) against a
 * real `skein serve` on the embedded database, at 1280 and at 375 px. Before the server starts,
 * the CLI makes the owner, an API key, a Bluesky account and a Threads account (read from the
 * strict fake Graph API); once it runs, a Mastodon account is connected with a token on the strict
 * fake Mastodon server, whose own limit is 200 characters (so the editor must use the server's
 * limits, not Mastodon's default 500).
 *
 * Three accounts are chosen and one long post written: each account's counter shows, the post is
 * split for Bluesky (300) and for the Mastodon server (200) but not for Threads (500 bytes); a
 * split part is edited; the previews show each chain, the link, the content warning behind a
 * reveal and the image's alt badge. A part emptied by hand gets the server's fault beside it and
 * nothing is created; then Schedule creates three threads in one import, with the shared tag, seen
 * in the calendar and through the API with the right posts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  addThreadsWithCli,
  collectPageErrors,
  DESKTOP,
  keyedApi,
  PHONE,
  type SeededWebServer,
  setPasswordAndSignIn,
  shoot,
  skipReason,
  startSeededWebServer,
} from '../helpers/browser.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { pngBytes } from '../helpers/media-files.js';

const PASSWORD = 'a long several-accounts password';
const EMAIL = 'several@localhost';
const MASTODON_LIMIT = 200;

const skip = skipReason('editor several accounts');
let harness: SeededWebServer | null = null;
let mastodon: FakeMastodonApi | null = null;
let base = '';
let key = '';
const ids = { bluesky: '', threads: '', mastodon: '' };

before(async () => {
  if (skip) return;
  mastodon = await FakeMastodonApi.start({ maxCharacters: MASTODON_LIMIT });
  harness = await startSeededWebServer(
    'editor-several',
    EMAIL,
    async (cli, env) => {
      ids.bluesky = cli<{ id: string }>(
        'provider',
        'add',
        '--email',
        EMAIL,
        '--kind',
        'BLUESKY',
        '--provider-user-id',
        'did:plc:editorseveral',
        '--username',
        'several.test',
        '--access-token',
        'unused',
      ).id;
      ids.threads = await addThreadsWithCli(env, EMAIL, 'several_threads');
    },
    // The fake Mastodon server listens on 127.0.0.1: the address policy lets Skein call it only with this.
    { env: { SKEIN_ALLOW_PRIVATE_MEDIA: '1' } },
  );
  ({ base, key } = harness);
  const connected = await api('/api/v1/providers/mastodon', {
    method: 'POST',
    body: { instance: mastodon.url, accessToken: mastodon.createAccount('writer').accessToken },
  });
  ids.mastodon = connected.id;
  assert.equal(connected.limits.textPerPost, MASTODON_LIMIT);
});

after(async () => {
  await harness?.close();
  await mastodon?.close();
});

const api = (path: string, init: { method?: string; body?: unknown } = {}): Promise<any> => keyedApi(base, () => key)(path, init);

/** About 420 characters in sentences, with a link and a mention: too long for Bluesky and for the 200-character server. */
function longText(width: string): string {
  return [
    `Writing once for three networks (${width}).`,
    'Each network counts text its own way, so the same words can fit on one and not on another.',
    'Threads counts bytes, Bluesky counts graphemes, and a Mastodon server sets its own limit.',
    'Read more at https://example.com/writing-once and tell @alice.example what you think.',
    'The split keeps whole sentences where it can, and whole words where it must.',
  ].join(' ');
}

const chain = (page: Page, providerId: string) => page.locator(`[data-chain="${providerId}"]`);
const parts = async (page: Page, providerId: string) =>
  chain(page, providerId)
    .locator('textarea')
    .evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value));

async function walk(page: Page, width: string, day: string): Promise<void> {
  const hour = width === 'desktop' ? '09' : '15';
  const text = longText(width);
  await page.goto(`${base}/threads/new`);
  await page.getByRole('heading', { name: 'New thread' }).waitFor();
  await page.getByLabel('Account').locator(`option[value="${ids.mastodon}"]`).waitFor({ state: 'attached' });
  await page.getByLabel('Write once, post to several networks').check();
  for (const name of ['Threads · @several_threads', 'Bluesky · @several.test', 'Mastodon · @writer@']) {
    await page.getByRole('group', { name: 'Accounts' }).getByLabel(name).check();
  }
  await page.getByLabel('Post 1 text', { exact: true }).fill(text);
  await page.getByLabel('Post 1 content warning').fill('A long read');
  await page.locator('.post-editor input[type="file"]').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: await pngBytes(64, 48) });
  await page.getByRole('progressbar', { name: 'Uploading chart.png' }).waitFor({ state: 'detached' });
  await page.getByLabel('Image 1 alt text').fill('A chart of three limits');

  // Each account's counter, with the server's own limit for Mastodon.
  const counter = (id: string) => page.locator(`[data-counter-account="${id}"]`).textContent();
  assert.match((await counter(ids.threads)) ?? '', /Threads @several_threads: \d+ \/ 500 bytes$/);
  assert.match((await counter(ids.bluesky)) ?? '', /\/ 300 characters — split into 2 posts/);
  assert.match((await counter(ids.mastodon)) ?? '', new RegExp(`/ ${MASTODON_LIMIT - 'A long read'.length} characters — split into \\d posts`));

  // Split where the network needs it, at sentence ends, nothing lost; not split for Threads.
  assert.deepEqual(await parts(page, ids.threads), [text]);
  const blue = await parts(page, ids.bluesky);
  const masto = await parts(page, ids.mastodon);
  assert.equal(blue.length, 2);
  assert.ok(masto.length >= 3, `${masto.length} Mastodon parts`);
  for (const split of [blue, masto]) {
    assert.equal(split.join(' '), text);
    for (const part of split) assert.match(part, /[.)]$/, `"${part}" ends at a sentence`);
  }
  assert.ok(
    masto.some((p) => p.includes('https://example.com/writing-once')),
    'the link is whole',
  );
  for (const part of masto) assert.ok([...part].length <= MASTODON_LIMIT, `${part.length} characters`);

  // The previews: each chain, the link as a link, Mastodon's warning and Threads' spoiler behind a reveal, the alt badge.
  const preview = (id: string) => page.locator(`[data-preview="${id}"]`);
  assert.equal(await preview(ids.bluesky).locator('.preview-post').count(), 2);
  assert.equal(await preview(ids.mastodon).locator('.preview-post').count(), masto.length);
  assert.equal(await preview(ids.bluesky).getByRole('link', { name: 'https://example.com/writing-once' }).count(), 1);
  assert.ok(await preview(ids.bluesky).getByText('@alice.example').first().isVisible());
  const warned = preview(ids.mastodon).locator('.preview-post').first();
  assert.equal(await warned.locator('.preview-text').isVisible(), false, 'hidden behind the warning');
  await warned.getByText('A long read · Show more').click();
  assert.equal(await warned.locator('.preview-text').isVisible(), true);
  await preview(ids.threads).getByText('Spoiler · Reveal').waitFor();
  assert.equal(await preview(ids.bluesky).locator('.alt-badge').first().textContent(), 'ALT');
  assert.equal(await preview(ids.bluesky).getByRole('img', { name: 'A chart of three limits' }).count(), 1);

  // The Bluesky split edited by hand: kept, and shown in its preview.
  const edited = `${blue[1]} (edited)`;
  await page.getByLabel('@several.test post 2', { exact: true }).fill(edited);
  await chain(page, ids.bluesky).getByRole('button', { name: 'Split again' }).waitFor();
  await preview(ids.bluesky).getByText('(edited)').waitFor();
  await shoot(page, `editor-several-${width}`);
  await page.setViewportSize(width === 'desktop' ? DESKTOP : PHONE);

  // A Mastodon part emptied: the server's fault beside that part, and nothing created.
  const before = (await api('/api/v1/posts/drafts')).count;
  await page.getByLabel(`@writer@${new URL(mastodon!.url).host} post 2`, { exact: true }).fill('  ');
  await page.getByLabel(`Publish at (UTC)`).fill(`${day}T${hour}:00`);
  await page.getByRole('button', { name: 'Schedule for 3 accounts' }).click();
  const fault = chain(page, ids.mastodon).locator('[data-field-error$=".posts.1"]');
  await fault.waitFor();
  assert.match((await fault.textContent()) ?? '', /must not be empty/);
  assert.equal(await page.locator('.several-form > .form-message').textContent(), '', 'the fault is beside its part');
  assert.equal((await api('/api/v1/posts/drafts')).count, before);
  const listed = await api(`/api/v1/posts?from=${day}T00:00:00&to=${day}T23:59:59`);
  assert.equal(listed.threads.filter((t: any) => t.scheduledAt?.startsWith(`${day}T${hour}`)).length, 0, 'nothing scheduled');

  // "Split again" for Mastodon, then Schedule: three threads in one request, seen in the calendar.
  await chain(page, ids.mastodon).getByRole('button', { name: 'Split again' }).click();
  assert.deepEqual(await parts(page, ids.mastodon), masto);
  await page.getByRole('button', { name: 'Schedule for 3 accounts' }).click();
  await page.waitForURL(new RegExp(`/calendar\\?date=${day}$`));
  const all = (await api(`/api/v1/posts?from=${day}T00:00:00&to=${day}T23:59:59&include=tags`)).threads.filter((t: any) =>
    t.scheduledAt?.startsWith(`${day}T${hour}`),
  );
  assert.equal(all.length, 3);
  const shared = all[0].tags.find((t: any) => t.name.startsWith('together-'));
  assert.ok(shared, 'the shared tag');
  for (const t of all) {
    assert.deepEqual(
      t.tags.map((tag: any) => tag.id),
      [shared.id],
    );
    await page.locator(`[data-thread="${t.threadId}"]:visible`).waitFor();
  }
  const thread = async (network: string) => (await api(`/api/v1/posts/${all.find((t: any) => t.provider === network).threadId}`)).thread;
  const onThreads = await thread('THREADS');
  assert.deepEqual(
    onThreads.posts.map((p: any) => [p.content, p.spoilerRanges]),
    [[text, [{ offset: 0, length: text.length }]]],
  );
  const onBluesky = await thread('BLUESKY');
  assert.deepEqual(
    onBluesky.posts.map((p: any) => p.content),
    [blue[0], edited],
  );
  assert.deepEqual(
    onBluesky.posts.map((p: any) => p.postMedia.map((m: any) => m.altText)),
    [['A chart of three limits'], []],
  );
  const onMastodon = await thread('MASTODON');
  assert.deepEqual(
    onMastodon.posts.map((p: any) => [p.content, p.contentWarning]),
    masto.map((m) => [m, 'A long read']),
  );
  assert.equal(onMastodon.posts[0].postMedia.length, 1);
  await shoot(page, `calendar-several-${width}`);
}

test('write once for several accounts: counters, the split per network, edited, previews, a fault beside its part, one save, the calendar', {
  skip,
  timeout: 600_000,
}, async () => {
  const page = await harness!.context.newPage();
  const pageErrors = collectPageErrors(page);
  await setPasswordAndSignIn(page, harness!, PASSWORD);
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
