import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { BlueskyPlatform } from '../../../src/networks/bluesky/platform.js';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { describeEachDb, type TestEnv } from '../../helpers/context.js';
import { type LocalNetwork, startPds } from '../../helpers/fakes/bluesky-pds.js';
import { mp4Bytes, pngBytes } from '../../helpers/media-files.js';
import { type MediaServer, startMediaServer } from '../../helpers/media-server.js';
import { createUser, type TestUser } from '../../helpers/seeds.js';

let pds: LocalNetwork<TestNetworkNoAppView>;
let cdn: MediaServer;
const clip = mp4Bytes({ width: 480, height: 270, durationMs: 2500 });
const quickTime = Buffer.from(clip);
quickTime.write('qt  ', 8, 'latin1'); // the ftyp brand of a QuickTime file

before(async () => {
  pds = await startPds();
  cdn = await startMediaServer({
    '/clip.mp4': { type: 'video/mp4', body: clip },
    '/long.mp4': { type: 'video/mp4', body: mp4Bytes({ durationMs: 181_000 }) },
    '/movie.mp4': { type: 'application/octet-stream', body: quickTime },
  });
});
after(async () => {
  await cdn?.close();
  await pds?.close();
});

/** A user with a connected account on the local PDS: its handle, DID, agent and provider id. */
async function connectedUser(env: () => TestEnv, prefix: string) {
  const { app, ctx } = env();
  const user = await createUser(ctx);
  const bsky = await pds.createAccount(`${prefix}${Math.floor(Math.random() * 1e6)}`);
  const connected = await user.call(app, {
    method: 'POST',
    url: '/api/v1/providers/bluesky',
    payload: { identifier: bsky.handle, appPassword: bsky.appPassword, service: pds.url },
  });
  assert.equal(connected.statusCode, 201, connected.body);
  return { user, bsky, providerId: connected.json().id as string };
}

async function postNow(env: () => TestEnv, user: TestUser, providerId: string, posts: unknown[]) {
  const created = await user.call(env().app, {
    method: 'POST',
    url: '/api/v1/posts',
    payload: { providerId, scheduleAt: env().ctx.clock.now().toISOString(), posts },
  });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().threadId as string;
}

describeEachDb(
  'Bluesky end to end: uploads (images, a video) are published from the media storage; a video by outside URL is downloaded',
  (env) => {
    test('the upload is read from the storage (nothing listens at PUBLIC_URL here), embedded with its aspect ratio; in use it cannot be deleted; another workspace cannot use it', async () => {
      const { app, ctx, clock } = env();
      const user = await createUser(ctx);
      const stranger = await createUser(ctx);
      const bsky = await pds.createAccount(`skeinup${Math.floor(Math.random() * 1e6)}`);
      const connected = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: bsky.handle, appPassword: bsky.appPassword, service: pds.url },
      });
      assert.equal(connected.statusCode, 201, connected.body);
      const provider = connected.json();

      const png = await pngBytes(60, 30);
      const uploaded = await user.call(app, { method: 'POST', url: '/api/v1/media', headers: { 'content-type': 'image/png' }, payload: png });
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      const media = uploaded.json();

      // Another workspace's upload URL in a post: 400 at that field.
      const strangerUpload = (
        await stranger.call(app, { method: 'POST', url: '/api/v1/media', headers: { 'content-type': 'image/png' }, payload: png })
      ).json();
      const refused = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, posts: [{ text: 'a' }, { text: 'b', media: [{ url: media.url }, { url: strangerUpload.url }] }] },
      });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(
        refused.json().errors.map((e: { path: string }) => e.path),
        ['posts.1.media.1.url'],
      );
      const unknown = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, posts: [{ text: 'a', media: [{ url: `${ctx.config.http.publicUrl}/media/AAAAAAAAAAAAAAAAAAAAAA.png` }] }] },
      });
      assert.equal(unknown.statusCode, 400, unknown.body);
      assert.equal(unknown.json().errors[0].path, 'posts.0.media.0.url');

      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: new Date(clock.now().getTime() + 30_000).toISOString(),
          posts: [{ text: 'An uploaded picture', media: [{ url: media.url, altText: 'blue' }] }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId = created.json().threadId;

      const inUse = await user.call(app, { method: 'DELETE', url: `/api/v1/media/${media.id}` });
      assert.equal(inUse.statusCode, 409, inUse.body);
      assert.equal(inUse.json().code, 'MEDIA_IN_USE');

      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-uploads');
      await loop.runOnce();
      clock.advance(30_000);
      assert.equal(await loop.runOnce(), 1);
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json();
      assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));

      const records = await bsky.agent.com.atproto.repo.listRecords({ repo: bsky.did, collection: 'app.bsky.feed.post' });
      assert.equal(records.data.records.length, 1);
      const embed = (
        records.data.records[0]!.value as { embed: { images: Array<{ alt: string; aspectRatio: unknown; image: { size: number; mimeType: string } }> } }
      ).embed;
      assert.equal(embed.images[0]!.alt, 'blue');
      assert.deepEqual(embed.images[0]!.aspectRatio, { width: 60, height: 30 });
      assert.equal(embed.images[0]!.image.mimeType, 'image/png');
      // Fitted to Bluesky's limits like any image (re-encoded, so its size is its own).
      assert.ok(embed.images[0]!.image.size > 0 && embed.images[0]!.image.size <= 1_000_000);

      // Published: the upload may go now.
      const deleted = await user.call(app, { method: 'DELETE', url: `/api/v1/media/${media.id}` });
      assert.equal(deleted.statusCode, 200, deleted.body);
    });

    test('an uploaded MP4 goes to the PDS as a blob, embedded as app.bsky.embed.video with its alt text and aspect ratio', async () => {
      const { app, ctx, clock } = env();
      const user = await createUser(ctx);
      const bsky = await pds.createAccount(`skeinvid${Math.floor(Math.random() * 1e6)}`);
      const connected = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: bsky.handle, appPassword: bsky.appPassword, service: pds.url },
      });
      assert.equal(connected.statusCode, 201, connected.body);
      const mp4 = mp4Bytes({ width: 640, height: 360, durationMs: 2000 });
      const uploaded = await user.call(app, { method: 'POST', url: '/api/v1/media', headers: { 'content-type': 'video/mp4' }, payload: mp4 });
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: connected.json().id,
          scheduleAt: clock.now().toISOString(),
          posts: [{ text: 'A video', media: [{ url: uploaded.json().url, altText: 'a test clip' }] }, { text: 'and a reply' }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      await new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-video').runOnce();
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${created.json().threadId}` })).json();
      assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));
      assert.equal(thread.posts[0].postMedia[0].type, 'VIDEO');

      const records = await bsky.agent.com.atproto.repo.listRecords({ repo: bsky.did, collection: 'app.bsky.feed.post' });
      const first = records.data.records.find((r) => (r.value as { text: string }).text === 'A video')!;
      const embed = (first.value as { embed: { $type: string; alt: string; aspectRatio: unknown; video: { mimeType: string; size: number; ref: unknown } } })
        .embed;
      assert.equal(embed.$type, 'app.bsky.embed.video');
      assert.equal(embed.alt, 'a test clip');
      assert.deepEqual(embed.aspectRatio, { width: 640, height: 360 });
      assert.equal(embed.video.mimeType, 'video/mp4');
      assert.equal(embed.video.size, mp4.length);
      const cid = String((embed.video.ref as { toString(): string }).toString());
      const blob = await bsky.agent.com.atproto.sync.getBlob({ did: bsky.did, cid });
      assert.deepEqual(Buffer.from(blob.data), mp4, 'the blob is the uploaded file');
    });

    test('a video by outside URL is downloaded (streamed to a temporary file, scanned), uploaded as the blob, embedded with alt and aspectRatio', async () => {
      const { app, ctx } = env();
      const { user, bsky, providerId } = await connectedUser(env, 'skeinurl');
      const threadId = await postNow(env, user, providerId, [{ text: 'A video by URL', media: [{ url: `${cdn.base}/clip.mp4`, altText: 'from a CDN' }] }]);
      await new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-video-url').runOnce();
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json();
      assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));
      assert.equal(thread.posts[0].postMedia[0].type, 'VIDEO');

      const records = await bsky.agent.com.atproto.repo.listRecords({ repo: bsky.did, collection: 'app.bsky.feed.post' });
      assert.equal(records.data.records.length, 1);
      const embed = (
        records.data.records[0]!.value as {
          embed: { $type: string; alt: string; aspectRatio: unknown; video: { mimeType: string; size: number; ref: unknown } };
        }
      ).embed;
      assert.equal(embed.$type, 'app.bsky.embed.video');
      assert.equal(embed.alt, 'from a CDN');
      assert.deepEqual(embed.aspectRatio, { width: 480, height: 270 });
      assert.equal(embed.video.mimeType, 'video/mp4');
      assert.equal(embed.video.size, clip.length);
      const blob = await bsky.agent.com.atproto.sync.getBlob({ did: bsky.did, cid: String((embed.video.ref as { toString(): string }).toString()) });
      assert.deepEqual(Buffer.from(blob.data), clip, 'the blob is the downloaded file');
    });

    test('a video by URL over 3 minutes, a QuickTime file, a 404 and a redirect to a private address each fail the post before anything is written', async () => {
      const { app, ctx } = env();
      const { user, bsky, providerId } = await connectedUser(env, 'skeinbad');
      // Only the media server's own address is public here: 127.0.0.2 stands for a private one.
      const strict = new BlueskyPlatform({
        sessions: { load: async () => null, save: async () => {} },
        allowPrivateMedia: false,
        // The PDS on loopback is the operator's BLUESKY_SERVICE_URL (trusted by the address policy).
        defaultServiceUrl: pds.url,
        media: { allowAddress: (address) => address === '127.0.0.1' },
        clock: ctx.clock,
      });
      const port = new URL(cdn.base).port;
      const cases: Array<[string, RegExp]> = [
        [`${cdn.base}/long.mp4`, /181\.0 s long; Bluesky takes an MP4 of at most 3 minutes and 100 MB/],
        [`${cdn.base}/movie.mp4`, /video\/quicktime file; Bluesky takes an MP4/],
        [`${cdn.base}/missing.mp4`, /HTTP 404/],
        [`${cdn.base}/redirect?to=${encodeURIComponent(`http://127.0.0.2:${port}/clip.mp4`)}`, /127\.0\.0\.2 is a private or reserved address/],
      ];
      const threadIds: string[] = [];
      for (const [url] of cases) threadIds.push(await postNow(env, user, providerId, [{ text: `bad video ${threadIds.length}`, media: [{ url }] }]));
      const before = cdn.requests.length;
      await new PublisherLoop(ctx, { ...createPlatforms(ctx), BLUESKY: strict }, 'e2e-video-bad').runOnce();
      for (const [i, [, pattern]] of cases.entries()) {
        const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadIds[i]}` })).json();
        assert.equal(thread.status, 'FAILED', `case ${i}`);
        assert.equal(thread.posts[0].error.code, 'INVALID_MEDIA', `case ${i}`);
        assert.match(thread.posts[0].error.message, pattern, `case ${i}`);
      }
      // The redirect was answered by the media server; its target was never asked.
      assert.ok(cdn.requests.slice(before).some((path) => path.startsWith('/redirect')));
      assert.ok(!cdn.requests.slice(before).includes('/clip.mp4'));
      const records = await bsky.agent.com.atproto.repo.listRecords({ repo: bsky.did, collection: 'app.bsky.feed.post' });
      assert.equal(records.data.records.length, 0);
    });
  },
  // The local PDS is on a loopback address.
  { config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
