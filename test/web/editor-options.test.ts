/**
 * The editor's network options in a real browser (Chromium via playwright-core) against a real
 * `skein serve` on the embedded database, at 1280 and at 375 px. Before the server starts (PGlite
 * is held by one process), the CLI makes the account, an API key, a Bluesky account (as given:
 * nothing is published) and a Threads account (read from the fake Graph API).
 *
 * Bluesky: who can reply, quotes disabled, a quote and languages per post, saved in one request
 * and read back through the API, then shown again on a reload; the server's faults beside the
 * quote and languages fields. Threads: who can reply, a poll builder (added, an option added),
 * a quote; "Add a poll" disabled with its reason on a post with media; a poll with media saved
 * gets the server's fault beside the poll; scheduled, the calendar marks the thread's limited
 * replies. A content warning set through the API on a Bluesky post is shown as kept but not
 * published, survives a save, and is cleared. LinkedIn: the poll has a question field (its
 * registry entry's `pollQuestion`), required, and only the first post offers a poll.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  addThreadsWithCli,
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

const PASSWORD = 'a long options password';
const EMAIL = 'options@localhost';
const BLUESKY_QUOTE = 'at://did:plc:quoted/app.bsky.feed.post/3kquotedpost1';

const skip = skipReason('editor options');
let harness: SeededWebServer | null = null;
let base = '';
let key = '';
let blueskyId = '';
let threadsId = '';
let mastodonId = '';
let linkedinId = '';

before(async () => {
  if (skip) return;
  harness = await startSeededWebServer('editor-options', EMAIL, async (cli, env) => {
    blueskyId = cli<{ id: string }>(
      'provider',
      'add',
      '--email',
      EMAIL,
      '--kind',
      'BLUESKY',
      '--provider-user-id',
      'did:plc:editoroptions',
      '--username',
      'options.test',
      '--access-token',
      'unused',
    ).id;
    threadsId = await addThreadsWithCli(env, EMAIL, 'options_threads');
    mastodonId = cli<{ id: string }>(
      'provider',
      'add',
      '--email',
      EMAIL,
      '--kind',
      'MASTODON',
      '--provider-user-id',
      '109999',
      '--username',
      'options@mastodon.example',
      '--service',
      'https://mastodon.example',
      '--access-token',
      'unused',
    ).id;
    linkedinId = cli<{ id: string }>(
      'provider',
      'add',
      '--email',
      EMAIL,
      '--kind',
      'LINKEDIN',
      '--provider-user-id',
      'urn:li:organization:2414183',
      '--username',
      'Options Corp',
      '--access-token',
      'unused',
    ).id;
  });
  ({ base, key } = harness);
});

after(async () => {
  await harness?.close();
});

/** The width a walk runs at: shoot() takes both and ends at the desktop's, so the walk's is set again. */
let size = DESKTOP;
async function screenshots(page: Page, name: string): Promise<void> {
  await shoot(page, name);
  await page.setViewportSize(size);
}

const api = (path: string, init: { method?: string; body?: unknown } = {}): Promise<any> => keyedApi(base, () => key)(path, init);

/** The thread's id once a save of a new thread has moved the page to it. */
async function savedThreadId(page: Page): Promise<string> {
  await page.waitForURL(/\/threads\/(?!new$)[^/]+$/);
  return decodeURIComponent(new URL(page.url()).pathname.slice('/threads/'.length));
}

async function newThread(page: Page, providerId: string, text: string): Promise<void> {
  await page.goto(`${base}/threads/new`);
  await page.getByRole('heading', { name: 'New thread' }).waitFor();
  await page.getByLabel('Account').locator(`option[value="${providerId}"]`).waitFor({ state: 'attached' });
  await page.getByLabel('Account').selectOption(providerId);
  await page.getByLabel('Post 1 text', { exact: true }).fill(text);
}

/** Saves the edit and waits for the page to say so. */
async function saveChanges(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
}

async function bluesky(page: Page, width: string): Promise<void> {
  await newThread(page, blueskyId, `Quoting a good post (${width})`);
  // Bluesky has no polls, and no content warnings: neither is offered.
  assert.equal(await page.getByRole('button', { name: 'Add a poll to post 1' }).count(), 0);
  assert.equal(await page.getByLabel('Post 1 content warning').count(), 0);
  await page.getByLabel('Who can reply').selectOption('followers');
  await page.getByLabel('Disable quotes').check();
  await page.getByText('Quote and languages of post 1').click();
  await page.getByLabel('Post 1 quotes', { exact: true }).fill(BLUESKY_QUOTE);
  await page.getByLabel('Post 1 languages', { exact: true }).fill('en, pt-BR');
  await page.getByRole('button', { name: 'Add post' }).click();
  await page.getByLabel('Post 2 text', { exact: true }).fill('And a second post in German.');
  await page.getByText('Quote and languages of post 2').click();
  await page.getByLabel('Post 2 languages', { exact: true }).fill('de');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  const id = await savedThreadId(page);

  const { thread } = await api(`/api/v1/posts/${id}`);
  assert.equal(thread.replyControl, 'followers');
  assert.equal(thread.quotesDisabled, true);
  assert.deepEqual(
    thread.posts.map((p: any) => ({ quote: p.quote, langs: p.langs, poll: p.poll, contentWarning: p.contentWarning })),
    [
      { quote: BLUESKY_QUOTE, langs: ['en', 'pt-BR'], poll: null, contentWarning: null },
      { quote: null, langs: ['de'], poll: null, contentWarning: null },
    ],
  );

  // Loading the thread fills the fields (a post's options open when it has any).
  await page.reload();
  await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
  assert.equal(await page.getByLabel('Who can reply').inputValue(), 'followers');
  assert.equal(await page.getByLabel('Disable quotes').isChecked(), true);
  assert.equal(await page.getByLabel('Post 1 quotes', { exact: true }).inputValue(), BLUESKY_QUOTE);
  assert.equal(await page.getByLabel('Post 1 languages', { exact: true }).inputValue(), 'en, pt-BR');
  assert.equal(await page.getByLabel('Post 2 languages', { exact: true }).inputValue(), 'de');
  await screenshots(page, 'editor-options-bluesky');

  // The server's faults beside the fields they name; nothing changed.
  await page.getByLabel('Post 1 quotes', { exact: true }).fill('https://example.com/not-a-post');
  await page.getByLabel('Post 1 languages', { exact: true }).fill('en, de, fr, it');
  await page.getByLabel('Post 2 languages', { exact: true }).fill('de, not_a_tag');
  await page.getByRole('button', { name: 'Save changes' }).click();
  assert.match(await fieldError(page, 'posts.0.quote'), /bsky\.app/);
  assert.match(await fieldError(page, 'posts.0.langs'), /at most 3/);
  assert.match(await fieldError(page, 'posts.1.langs'), /language tag/);
  assert.equal(await page.locator('.editor-page > form > .form-message').textContent(), '', 'every fault is beside its field');
  assert.deepEqual((await api(`/api/v1/posts/${id}`)).thread.posts[0].langs, ['en', 'pt-BR']);

  // Fixed and saved: replies open to everyone again, quotes allowed, the quote removed.
  await page.getByLabel('Post 1 quotes', { exact: true }).fill('');
  await page.getByLabel('Post 1 languages', { exact: true }).fill('fr');
  await page.getByLabel('Post 2 languages', { exact: true }).fill('');
  await page.getByLabel('Who can reply').selectOption('everyone');
  await page.getByLabel('Disable quotes').uncheck();
  await saveChanges(page);
  const edited = (await api(`/api/v1/posts/${id}`)).thread;
  assert.equal(edited.replyControl, 'everyone');
  assert.equal(edited.quotesDisabled, false);
  assert.deepEqual(
    edited.posts.map((p: any) => [p.quote, p.langs]),
    [
      [null, ['fr']],
      [null, []],
    ],
  );
}

async function contentWarning(page: Page, width: string): Promise<void> {
  // Set through the API on a Bluesky post: accepted and ignored there.
  const { threadId } = await api('/api/v1/posts', {
    method: 'POST',
    body: { providerId: blueskyId, posts: [{ text: `A warned post (${width})`, contentWarning: 'spoilers for the finale' }] },
  });
  await page.goto(`${base}/threads/${threadId}`);
  await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
  const warning = page.getByLabel('Post 1 content warning', { exact: true });
  assert.equal(await warning.inputValue(), 'spoilers for the finale');
  await page.getByText('Bluesky shows no content warnings: kept with the post, but not published.').waitFor();

  // Another change saved: the warning is kept, not lost.
  await page.getByLabel('Who can reply').selectOption('mentioned');
  await saveChanges(page);
  let thread = (await api(`/api/v1/posts/${threadId}`)).thread;
  assert.equal(thread.replyControl, 'mentioned');
  assert.equal(thread.posts[0].contentWarning, 'spoilers for the finale');

  // Cleared: the field stays while it is empty, and the post has none once saved.
  await warning.fill('');
  assert.equal(await warning.count(), 1);
  await saveChanges(page);
  thread = (await api(`/api/v1/posts/${threadId}`)).thread;
  assert.equal(thread.posts[0].contentWarning, null);
  await page.reload();
  await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
  assert.equal(await page.getByLabel('Post 1 content warning').count(), 0);
}

async function threads(page: Page, width: string, day: string): Promise<void> {
  await newThread(page, threadsId, `Which one do you prefer? (${width})`);
  // Threads has no quote switch and takes no languages: neither is offered.
  assert.equal(await page.getByLabel('Disable quotes').count(), 0);
  await page.getByLabel('Who can reply').selectOption('nobody');
  await page.getByText('Quote and poll of post 1').click();
  assert.equal(await page.getByLabel('Post 1 languages').count(), 0);
  await page.getByLabel('Post 1 quotes', { exact: true }).fill('17890000000000001');
  await page.getByRole('button', { name: 'Add a poll to post 1' }).click();
  const poll = page.getByRole('group', { name: 'Poll of post 1' });
  await poll.getByLabel('Option 1', { exact: true }).fill('Tea');
  await poll.getByLabel('Option 2', { exact: true }).fill('Coffee');
  await poll.getByRole('button', { name: 'Add an option' }).click();
  await poll.getByLabel('Option 3', { exact: true }).fill('Neither');

  // A post with media cannot get a poll, and says why.
  await page.getByRole('button', { name: 'Add post' }).click();
  await page.getByLabel('Post 2 text', { exact: true }).fill('A photo post.');
  const second = page.locator('li.post-editor[data-post="1"]');
  await second.getByRole('button', { name: 'Add by URL' }).click();
  await page.getByLabel('Image 1 URL').fill('http://127.0.0.1:9/photo.png');
  await page.getByText('Quote and poll of post 2').click();
  const addPoll = page.getByRole('button', { name: 'Add a poll to post 2' });
  assert.equal(await addPoll.isDisabled(), true);
  const reasonId = await addPoll.getAttribute('aria-describedby');
  assert.equal(await page.locator(`[id="${reasonId}"]`).textContent(), 'A poll goes only on a post without images or videos.');
  await page.getByRole('button', { name: 'Remove post 2' }).click();
  await screenshots(page, 'editor-options-threads');

  await page.getByRole('button', { name: 'Save as draft' }).click();
  const id = await savedThreadId(page);
  let { thread } = await api(`/api/v1/posts/${id}`);
  assert.equal(thread.replyControl, 'nobody');
  assert.deepEqual(thread.posts[0].poll, { options: ['Tea', 'Coffee', 'Neither'] });
  assert.equal(thread.posts[0].quote, '17890000000000001');

  // Loaded again: the poll builder holds the options.
  await page.reload();
  await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
  assert.equal(await page.getByLabel('Who can reply').inputValue(), 'nobody');
  assert.equal(await poll.getByLabel('Option 3', { exact: true }).inputValue(), 'Neither');

  // A poll with media: the reason before saving, and the server's fault beside the poll after.
  await page.locator('li.post-editor[data-post="0"]').getByRole('button', { name: 'Add by URL' }).click();
  await page.getByLabel('Image 1 URL').fill('http://127.0.0.1:9/photo.png');
  await poll.getByText('A poll goes only on a post without images or videos.').waitFor();
  await page.getByRole('button', { name: 'Save changes' }).click();
  assert.match(await fieldError(page, 'posts.0.poll'), /without media/);
  thread = (await api(`/api/v1/posts/${id}`)).thread;
  assert.deepEqual(thread.posts[0].postMedia, [], 'nothing saved');

  // Without the media, scheduled: the calendar marks its limited replies.
  await page.getByRole('button', { name: 'Remove image 1 of post 1' }).click();
  await page.getByLabel('Publish at (UTC)').fill(`${day}T${width === 'desktop' ? '10' : '14'}:00`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Scheduled.' }).waitFor();
  thread = (await api(`/api/v1/posts/${id}`)).thread;
  assert.equal(thread.status, 'READY');
  assert.deepEqual(thread.posts[0].poll, { options: ['Tea', 'Coffee', 'Neither'] });

  const open = await api('/api/v1/posts', {
    method: 'POST',
    body: { providerId: threadsId, scheduleAt: `${day}T${width === 'desktop' ? '11' : '15'}:00:00`, posts: [{ text: `Open to all (${width})` }] },
  });
  await page.goto(`${base}/calendar?date=${day}`);
  const limited = page.locator(`[data-thread="${id}"]:visible`);
  await limited.getByRole('img', { name: 'Replies limited to nobody' }).waitFor();
  const everyone = page.locator(`[data-thread="${open.threadId}"]:visible`);
  await everyone.waitFor();
  assert.equal(await everyone.getByRole('img').count(), 0, 'a thread open to everyone has no mark');
  await screenshots(page, 'calendar-reply-limit');
}

/**
 * Mastodon publishes a content warning (spoiler_text) and a language, and has no quotes: the
 * editor offers exactly those, says what each does there, and the saved thread has them.
 */
async function mastodon(page: Page, width: string): Promise<void> {
  await newThread(page, mastodonId, `A toot behind a warning (${width})`);
  // Mastodon takes no reply limit: "everyone" is the one choice, and the hint says why.
  assert.deepEqual(
    await page
      .getByLabel('Who can reply')
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
    ['everyone'],
  );
  await page.getByText('Mastodon does not let a post limit its replies.').waitFor();
  assert.equal(await page.getByLabel('Disable quotes').count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Add a poll to post 1' }).count(), 0);
  await page.getByText('Languages and content warning of post 1').click();
  assert.equal(await page.getByLabel('Post 1 quotes', { exact: true }).count(), 0, 'no quote offered: Mastodon has none');
  const warning = page.locator('.field').filter({ has: page.getByLabel('Post 1 content warning', { exact: true }) });
  assert.match((await warning.textContent()) ?? '', /Shown in place of the post until the reader opens it/);
  assert.doesNotMatch((await warning.textContent()) ?? '', /not published/);
  const langs = page.locator('.field').filter({ has: page.getByLabel('Post 1 languages', { exact: true }) });
  assert.match((await langs.textContent()) ?? '', /Mastodon publishes the first/);
  await page.getByLabel('Post 1 content warning', { exact: true }).fill('Finale spoilers');
  await page.getByLabel('Post 1 languages', { exact: true }).fill('de');
  await screenshots(page, 'editor-options-mastodon');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  const id = await savedThreadId(page);
  const { thread } = await api(`/api/v1/posts/${id}`);
  assert.deepEqual(
    thread.posts.map((p: any) => ({ quote: p.quote, langs: p.langs, contentWarning: p.contentWarning })),
    [{ quote: null, langs: ['de'], contentWarning: 'Finale spoilers' }],
  );
}

/** LinkedIn's poll: a question, required (the registry's `pollQuestion`), on the first post only (`firstPostOnly`). */
async function linkedin(page: Page, width: string): Promise<void> {
  await newThread(page, linkedinId, `Which day works for the launch? (${width})`);
  await page.getByRole('button', { name: 'Add post' }).click();
  await page.getByLabel('Post 2 text', { exact: true }).fill('Details in this comment.');
  await page.locator('summary', { hasText: 'Poll of post 1' }).click();
  assert.equal(await page.getByRole('button', { name: 'Add a poll to post 2' }).count(), 0, 'a comment takes no poll');
  await page.getByRole('button', { name: 'Add a poll to post 1' }).click();
  const poll = page.getByRole('group', { name: 'Poll of post 1' });
  const question = poll.getByLabel('Question of the poll of post 1', { exact: true });
  await question.waitFor();
  await poll.getByLabel('Option 1', { exact: true }).fill('Tuesday');
  await poll.getByLabel('Option 2', { exact: true }).fill('Thursday');

  // Without its question: the server's fault beside the field; nothing saved.
  await page.getByRole('button', { name: 'Save as draft' }).click();
  assert.match(await fieldError(page, 'posts.0.poll.question'), /required on LINKEDIN/);
  assert.equal(new URL(page.url()).pathname, '/threads/new');

  await question.fill('Which day suits you best?');
  await poll.getByText('25 / 140').waitFor();
  await page.getByRole('button', { name: 'Save as draft' }).click();
  const id = await savedThreadId(page);
  const { thread } = await api(`/api/v1/posts/${id}`);
  assert.deepEqual(thread.posts[0].poll, { options: ['Tuesday', 'Thursday'], question: 'Which day suits you best?' });
  assert.equal(thread.posts[1].poll, null);

  await page.reload();
  await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
  assert.equal(await question.inputValue(), 'Which day suits you best?');
}

test('editor network options: who can reply, quotes, polls, quotes of posts, languages, content warnings; calendar marks', {
  skip,
  timeout: 600_000,
}, async () => {
  const page = await harness!.context.newPage();
  const pageErrors = collectPageErrors(page);
  await setPasswordAndSignIn(page, harness!, PASSWORD);
  // A day ten days ahead, in the account's zone (UTC).
  const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);

  for (const [width, walkSize] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    size = walkSize;
    await page.setViewportSize(size);
    await bluesky(page, width);
    await contentWarning(page, width);
    await threads(page, width, day);
    await mastodon(page, width);
    await linkedin(page, width);
  }
  assert.deepEqual(pageErrors, []);
});
