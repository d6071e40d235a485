/**
 * The editor's images and videos in a real browser (Chromium via playwright-core) against a real
 * `skein serve` on the embedded database, at 1280 and at 375 px. The server keeps its default
 * PUBLIC_URL (`http://127.0.0.1:<port>`, loopback) and checks Threads reachability (no
 * SKEIN_ALLOW_PRIVATE_MEDIA): uploads work for a Bluesky account, and are said unreachable for a
 * Threads one. Before the server starts (PGlite is held by one process), the CLI makes the
 * account, an API key, a Bluesky account (as given: nothing is published), a Threads account
 * (read from the fake Graph API) and a one-time sign-in link.
 *
 * On a Bluesky thread: a PNG chosen (its progress bar while the upload is held, then its
 * thumbnail), alt text, a second one, a reorder by button, one dropped on the post and one pasted
 * into its text, the dropped one removed, a reorder by drag and drop (there and back), a text file named .png (the API's 415 message on that item);
 * saved in one request, and read back through the API (urls and alt texts in order). On a
 * Threads thread: a video's first-frame thumbnail, the reachability notice on uploads and on a
 * private URL before any save, and the server's 400 on each item after one.
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
import { mp4Bytes, pngBytes } from '../helpers/media-files.js';

const PASSWORD = 'a long media password';
const EMAIL = 'media@localhost';

const skip = skipReason('editor media');
let harness: SeededWebServer | null = null;
let base = '';
let key = '';
let blueskyId = '';
let threadsId = '';
let signInToken = '';

before(async () => {
  if (skip) return;
  harness = await startSeededWebServer('editor-media', EMAIL, async (cli, env) => {
    blueskyId = cli<{ id: string }>(
      'provider',
      'add',
      '--email',
      EMAIL,
      '--kind',
      'BLUESKY',
      '--provider-user-id',
      'did:plc:editormedia',
      '--username',
      'media.test',
      '--access-token',
      'unused',
    ).id;
    threadsId = await addThreadsWithCli(env, EMAIL, 'media_threads');
  });
  ({ base, key, signInToken } = harness);
});

after(async () => {
  await harness?.close();
});

const api = (path: string, init: { method?: string; body?: unknown } = {}): Promise<any> => keyedApi(base, () => key)(path, init);

interface FileSpec {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Through the file chooser the "Add image or video" button opens, as a person picks a file. */
async function choose(page: Page, file: FileSpec): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Add image or video' }).first().click()]);
  await chooser.setFiles(file);
}

/** A File in the page, made of `file`'s bytes, inside a DataTransfer (what a drop or a paste carries). */
const inPage = (file: FileSpec) => ({ name: file.name, type: file.mimeType, b64: file.buffer.toString('base64') });

/** The item's thumbnail once its image has loaded (decoded with a size: the served bytes are an image). */
async function thumbnail(page: Page, item: string): Promise<string> {
  const img = page.getByRole('listitem', { name: item }).getByRole('img', { name: `${item.split(' of ')[0]} preview` });
  await img.waitFor();
  await page.waitForFunction((el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0, await img.elementHandle());
  return (await img.getAttribute('src'))!;
}

async function walk(page: Page, width: 'desktop' | 'phone') {
  const size = width === 'desktop' ? DESKTOP : PHONE;
  await page.setViewportSize(size);

  // Every upload the page sends waits here while `hold` is set: the test sees the progress bar
  // of an upload still under way, then lets it go on.
  let hold: { until: Promise<void>; release: () => void } | null = null;
  const holdUploads = () => {
    let release = () => {};
    const until = new Promise<void>((resolve) => {
      release = resolve;
    });
    hold = { until, release };
  };
  await page.route(
    (url) => url.pathname === '/api/v1/media',
    async (route) => {
      if (route.request().method() === 'POST' && hold) await hold.until;
      await route.continue();
    },
  );
  const changes: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith('/api/') && r.method() !== 'GET') changes.push(`${r.method()} ${pathname}`);
  });

  await page.goto(`${base}/threads/new`);
  await page.getByRole('heading', { name: 'New thread' }).waitFor();
  await page.getByLabel('Account').locator(`option[value="${blueskyId}"]`).waitFor({ state: 'attached' });
  await page.getByLabel('Account').selectOption(blueskyId);
  await page.getByLabel('Post 1 text', { exact: true }).fill(`Photos from the walk (${width})`);

  const first = { name: 'first.png', mimeType: 'image/png', buffer: await pngBytes(64, 48) };
  const second = { name: 'second.png', mimeType: 'image/png', buffer: await pngBytes(80, 60) };
  const dropped = { name: 'dropped.png', mimeType: 'image/png', buffer: await pngBytes(72, 54) };
  const pasted = { name: 'image.png', mimeType: 'image/png', buffer: await pngBytes(96, 72) };

  // Chosen: its progress bar while the upload is held, then its thumbnail.
  holdUploads();
  await choose(page, first);
  await page.getByRole('progressbar', { name: 'Uploading first.png' }).waitFor();
  assert.equal(await page.getByRole('img', { name: 'Image 1 preview' }).count(), 0, 'no thumbnail before the upload is stored');
  const held = hold as { release: () => void } | null;
  hold = null;
  held?.release();
  await page.getByRole('progressbar', { name: 'Uploading first.png' }).waitFor({ state: 'detached' });
  const firstUrl = await thumbnail(page, 'Image 1 of post 1');
  await page.getByLabel('Image 1 alt text').fill('The first photo');

  await choose(page, second);
  const secondUrl = await thumbnail(page, 'Image 2 of post 1');
  await page.getByLabel('Image 2 alt text').fill('The second photo');

  // Reordered: the second moves up, its alt text with it.
  await page.getByRole('button', { name: 'Move image 2 of post 1 up' }).click();
  assert.equal(await thumbnail(page, 'Image 1 of post 1'), secondUrl);
  assert.equal(await page.getByLabel('Image 1 alt text').inputValue(), 'The second photo');
  assert.equal(await page.getByLabel('Image 2 alt text').inputValue(), 'The first photo');

  // Dropped on the post.
  const post = page.locator('li.post-editor[data-post="0"]');
  const transfer = await page.evaluateHandle(({ name, type, b64 }) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type }));
    return data;
  }, inPage(dropped));
  await post.dispatchEvent('dragover', { dataTransfer: transfer });
  await post.dispatchEvent('drop', { dataTransfer: transfer });
  const droppedUrl = await thumbnail(page, 'Image 3 of post 1');

  // Pasted into the text: the image is added, the text stays as typed.
  await page.getByLabel('Post 1 text', { exact: true }).evaluate((el, { name, type, b64 }) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type }));
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, inPage(pasted));
  const pastedUrl = await thumbnail(page, 'Image 4 of post 1');
  assert.equal(await page.getByLabel('Post 1 text', { exact: true }).inputValue(), `Photos from the walk (${width})`);
  await page.getByLabel('Image 4 alt text').fill('The pasted one');

  // The dropped one removed.
  await page.getByRole('button', { name: 'Remove image 3 of post 1' }).click();
  assert.equal(await thumbnail(page, 'Image 3 of post 1'), pastedUrl);
  assert.equal(await page.getByRole('img', { name: /^Image \d preview$/ }).count(), 3);
  assert.notEqual(droppedUrl, pastedUrl);

  // Reordered by drag and drop, by the handle (a real drag in Chromium): the third onto the
  // first's place, then back; each item's alt text goes with it.
  const alts = async () => Promise.all([1, 2, 3].map((n) => page.getByLabel(`Image ${n} alt text`).inputValue()));
  const item = (n: number) => page.getByRole('listitem', { name: `Image ${n} of post 1` });
  await page.locator('[data-media-handle="2"]').dragTo(item(1));
  assert.deepEqual(await alts(), ['The pasted one', 'The second photo', 'The first photo']);
  assert.equal(await thumbnail(page, 'Image 1 of post 1'), pastedUrl);
  assert.equal(await page.locator('.media-item.drop-target, .media-item.dragged').count(), 0, 'no drag marks left after the drop');
  await page.locator('[data-media-handle="0"]').dragTo(item(3));
  assert.deepEqual(await alts(), ['The second photo', 'The first photo', 'The pasted one']);
  assert.equal(await thumbnail(page, 'Image 3 of post 1'), pastedUrl);

  // Text named .png: the API's 415 message is shown on that item.
  const notImage = { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are notes, not pixels\n') };
  const refused = await fetch(`${base}/api/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' },
    body: notImage.buffer,
  });
  assert.equal(refused.status, 415);
  const { detail } = (await refused.json()) as { detail: string };
  await choose(page, notImage);
  const failure = page.locator('[data-media-error="3"]');
  await failure.waitFor();
  assert.equal(await failure.textContent(), detail);
  assert.equal(await page.getByRole('listitem', { name: 'Image 4 of post 1' }).getByText('notes.png').count(), 1);

  await shoot(page, `editor-media-${width}`);
  await page.setViewportSize(size);

  // Saved in one request: the uploads' urls in order, the failed file left out.
  changes.length = 0;
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await page.waitForURL(/\/threads\/(?!new$)[^/]+$/);
  await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
  assert.deepEqual(changes, ['POST /api/v1/posts']);
  const threadId = new URL(page.url()).pathname.split('/').pop()!;
  const { thread } = await api(`/api/v1/posts/${threadId}`);
  assert.deepEqual(
    thread.posts[0].postMedia.map((m: { url: string; altText: string | null }) => [m.url, m.altText]),
    [
      [secondUrl, 'The second photo'],
      [firstUrl, 'The first photo'],
      [pastedUrl, 'The pasted one'],
    ],
  );
  const widths = await Promise.all(
    [secondUrl, firstUrl, pastedUrl].map(async (url) => (await api(`/api/v1/media/${/\/media\/([^.]+)\./.exec(url)![1]}`)).width),
  );
  assert.deepEqual(widths, [80, 64, 96], 'each url is the upload of the file at its place');
  // The saved thread shows its uploads as thumbnails again.
  assert.equal(await thumbnail(page, 'Image 3 of post 1'), pastedUrl);
  await page.unroute((url) => url.pathname === '/api/v1/media');
}

async function threadsReach(page: Page, width: 'desktop' | 'phone') {
  await page.setViewportSize(width === 'desktop' ? DESKTOP : PHONE);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/posts') sent.push(r.url());
  });
  await page.goto(`${base}/threads/new`);
  await page.getByLabel('Account').locator(`option[value="${threadsId}"]`).waitFor({ state: 'attached' });
  await page.getByLabel('Account').selectOption(threadsId);
  await page.getByLabel('Post 1 text', { exact: true }).fill(`For Threads (${width})`);
  await choose(page, { name: 'threads.png', mimeType: 'image/png', buffer: await pngBytes(64, 64) });
  await thumbnail(page, 'Image 1 of post 1');
  // Before any save: what is wrong and what to set.
  const notice = page.locator('[data-media-reach="0"]');
  await notice.waitFor();
  const said = (await notice.textContent()) ?? '';
  assert.match(said, /Threads fetches media itself/);
  assert.match(said, /loopback/);
  assert.match(said, /set PUBLIC_URL to a public address/);
  assert.match(said, /S3/);
  // A video: its first frame as the thumbnail, read from the upload with only its metadata asked for.
  await choose(page, { name: 'clip.mp4', mimeType: 'video/mp4', buffer: mp4Bytes() });
  const video = page.getByRole('listitem', { name: 'Video 2 of post 1' }).locator('video');
  await video.waitFor();
  const [newest] = (await api('/api/v1/media')).media;
  assert.equal(newest.type, 'VIDEO');
  assert.equal(await video.getAttribute('src'), `${newest.url}#t=0.1`);
  assert.equal(await video.getAttribute('preload'), 'metadata');
  await page.locator('[data-media-reach="1"]').waitFor();
  // A URL typed for media elsewhere, on a private address.
  await page.getByRole('button', { name: 'Add by URL' }).click();
  await page.getByLabel('Image 3 URL').fill('http://192.168.1.20/cat.jpg');
  assert.match((await page.locator('[data-media-reach="2"]').textContent()) ?? '', /private.*Use a URL on a public host/);
  await page.getByLabel('Image 3 URL').fill('https://cdn.example.com/cat.jpg');
  await page.locator('[data-media-reach="2"]').waitFor({ state: 'detached' });
  assert.deepEqual(sent, [], 'the notices come before any save');
  await shoot(page, `editor-media-threads-${width}`);
  await page.setViewportSize(width === 'desktop' ? DESKTOP : PHONE);
  // Out again: the server would look its name up, which a test does not do.
  await page.getByRole('button', { name: 'Remove image 3 of post 1' }).click();

  // The server says the same at save, and its message is shown on the item.
  await page.getByRole('button', { name: 'Save as draft' }).click();
  assert.match(await fieldError(page, 'posts.0.media.0.url'), /Threads fetches media itself and cannot fetch this URL/);
  assert.match(await fieldError(page, 'posts.0.media.1.url'), /Threads fetches media itself and cannot fetch this URL/);
  assert.equal(await notice.count(), 0, 'the server’s message replaces the editor’s');
  assert.equal(sent.length, 1);
}

test('editor media: choose, progress, thumbnails, alt text, reorder (buttons, drag and drop), drop, paste, remove, 415, save; Threads reachability', {
  skip,
  timeout: 600_000,
}, async () => {
  const page = await harness!.context.newPage();
  const pageErrors = collectPageErrors(page);
  await setPasswordAndSignIn(page, { base, signInToken }, PASSWORD);

  for (const width of ['desktop', 'phone'] as const) {
    await walk(page, width);
    await threadsReach(page, width);
  }
  assert.deepEqual(pageErrors, []);
});
