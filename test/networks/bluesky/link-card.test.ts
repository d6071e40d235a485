import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { AppBskyFeedPost } from '@atproto/api';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import sharp from 'sharp';
import { BlueskyPlatform } from '../../../src/networks/bluesky/platform.js';
import type { PostToPublish } from '../../../src/networks/platform.js';
import { emptyProgress, MemorySessions, newPost, platformAccount, progressLog } from '../../helpers/bluesky.js';
import { type LocalAccount, type LocalNetwork, startPds } from '../../helpers/fakes/bluesky-pds.js';
import { pngImage } from '../../helpers/images.js';
import { phonePhoto } from '../../helpers/photos.js';

/**
 * Link cards on the real local PDS: a Bluesky post without media whose text has a link gets an
 * app.bsky.embed.external card built from the page (Open Graph, else <title> and description),
 * its og:image re-encoded under 1,000,000 bytes as the thumb; an unreadable page gives a post
 * without a card, never a failed post.
 */

let pds: LocalNetwork<TestNetworkNoAppView>;
let alice: LocalAccount;
let server: http.Server;
let base: string;
const requested: string[] = [];

const ARTICLE = (origin: string) => `<!doctype html>
<html><head>
  <meta charset="utf-8">
  <title>The plain title</title>
  <meta name="description" content="The plain description">
  <meta property="og:title" content="Kites &amp; the wind">
  <meta property="og:description" content="How a red kite stays up, in   three  pictures.">
  <meta property="og:image" content="/images/kite.jpg">
  <meta property="og:url" content="${origin}/article">
</head><body><h1>Kites</h1><meta property="og:title" content="not this one"></body></html>`;

before(async () => {
  pds = await startPds();
  alice = await pds.createAccount('alice');
  // A 4000×3000 photo of about 3 MB: the thumb must be re-encoded to fit.
  const kite = await phonePhoto({ width: 4000, height: 3000 });
  const plainPage = '<html><head><TITLE>Only a title</TITLE><meta NAME="Description" content="and a description"></head><body>x</body></html>';
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    if (path === '/article') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE(base));
    if (path === '/images/kite.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(kite);
    if (path === '/plain') return void res.writeHead(200, { 'content-type': 'text/html' }).end(plainPage);
    if (path === '/no-image-file') {
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<head><meta property="og:title" content="Gone image"><meta property="og:image" content="/images/missing.png"></head>');
    }
    if (path === '/json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"no"}');
    if (path === '/stall') return; // never answers
    if (path === '/empty') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>nothing to say</body></html>');
    if (path === '/small.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(pngImage(6, 4));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await pds?.close();
});

function platform(options: { allowPrivate?: boolean; timeoutMs?: number } = {}) {
  const skipped: string[] = [];
  const bluesky = new BlueskyPlatform({
    sessions: new MemorySessions(),
    allowPrivateMedia: options.allowPrivate ?? true,
    // The PDS on loopback is the operator's BLUESKY_SERVICE_URL (trusted by the address policy).
    defaultServiceUrl: pds.url,
    linkCards: { timeoutMs: options.timeoutMs ?? 2_000, onSkip: (_url, reason) => skipped.push(reason) },
  });
  return { bluesky, skipped };
}

async function publishAndRead(bluesky: BlueskyPlatform, post: PostToPublish): Promise<AppBskyFeedPost.Record> {
  const log = progressLog();
  const ref = await bluesky.publishPost({
    account: platformAccount(alice, pds.url),
    post,
    replyTo: null,
    progress: emptyProgress(),
    onProgress: log.onProgress,
    confirmLease: async () => {},
  });
  const [repo, collection, rkey] = ref.networkPostId.slice('at://'.length).split('/') as [string, string, string];
  return (await alice.agent.com.atproto.repo.getRecord({ repo, collection, rkey })).data.value as AppBskyFeedPost.Record;
}

type External = { $type: string; external: { uri: string; title: string; description: string; thumb?: { mimeType: string; size: number; ref: unknown } } };

describe('link cards', () => {
  test('Open Graph title, description and image make the card of the first link; the thumb fits in 1,000,000 bytes', async () => {
    const { bluesky } = platform();
    const value = await publishAndRead(bluesky, newPost(`Read ${base}/article and then ${base}/plain`));
    const embed = value.embed as unknown as External;
    assert.equal(embed.$type, 'app.bsky.embed.external');
    assert.equal(embed.external.uri, `${base}/article`);
    assert.equal(embed.external.title, 'Kites & the wind');
    assert.equal(embed.external.description, 'How a red kite stays up, in three pictures.');
    const thumb = embed.external.thumb!;
    assert.ok(thumb, 'a thumb');
    assert.equal(thumb.mimeType, 'image/jpeg');
    assert.ok(thumb.size <= 1_000_000, `${thumb.size} bytes`);
    const cid = String((thumb.ref as { $link?: string }).$link ?? thumb.ref);
    const blob = Buffer.from((await alice.agent.com.atproto.sync.getBlob({ did: alice.did, cid })).data);
    const meta = await sharp(blob).metadata();
    assert.ok(Math.max(meta.width!, meta.height!) <= 2000);
    assert.equal(meta.exif, undefined, 'no metadata left in the thumb');
  });

  test('without Open Graph: <title> and the description meta tag; no thumb', async () => {
    const { bluesky } = platform();
    const embed = (await publishAndRead(bluesky, newPost(`See ${base}/plain`))).embed as unknown as External;
    assert.deepEqual(embed.external, { uri: `${base}/plain`, title: 'Only a title', description: 'and a description' });
  });

  test('an og:image that cannot be fetched gives a card without a thumb', async () => {
    const { bluesky, skipped } = platform();
    const embed = (await publishAndRead(bluesky, newPost(`See ${base}/no-image-file`))).embed as unknown as External;
    assert.deepEqual(embed.external, { uri: `${base}/no-image-file`, title: 'Gone image', description: '' });
    assert.match(skipped.join('\n'), /no thumb/);
  });

  test('an unreadable page (404, not HTML, no answer in time, nothing to show, a refused address) gives a post without a card, published', async () => {
    for (const path of ['/missing', '/json', '/stall', '/empty', '/small.png']) {
      const { bluesky, skipped } = platform({ timeoutMs: 300 });
      const value = await publishAndRead(bluesky, newPost(`Broken link ${base}${path}`));
      assert.equal(value.embed, undefined, path);
      assert.equal(value.text, `Broken link ${base}${path}`);
      assert.equal(skipped.length, 1, path);
    }
    const { bluesky, skipped } = platform({ allowPrivate: false });
    const before = requested.length;
    const value = await publishAndRead(bluesky, newPost(`Private ${base}/article`));
    assert.equal(value.embed, undefined);
    assert.equal(requested.length, before, 'the private page was never requested');
    assert.match(skipped[0]!, /private or reserved/);
  });

  test('linkPreview: false gives no card, and the page is not requested', async () => {
    const { bluesky } = platform();
    const before = requested.length;
    const value = await publishAndRead(bluesky, { ...newPost(`No card for ${base}/article`), linkPreview: false });
    assert.equal(value.embed, undefined);
    assert.equal(requested.length, before);
  });

  test('a post with images gets its images, not a card', async () => {
    const { bluesky } = platform();
    const before = requested.length;
    const value = await publishAndRead(bluesky, newPost(`Pictures and ${base}/article`, [{ url: `${base}/small.png`, altText: null }]));
    assert.equal((value.embed as { $type: string }).$type, 'app.bsky.embed.images');
    assert.deepEqual(requested.slice(before), ['/small.png']);
  });
});
