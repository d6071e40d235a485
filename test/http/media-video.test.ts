import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb, type TestEnv } from '../helpers/context.js';
import { mp4Bytes, pngBytes } from '../helpers/media-files.js';
import { createProvider, createUser, rowCounts, type TestUser } from '../helpers/seeds.js';

interface Uploaded {
  id: string;
  url: string;
}

describeEachDb(
  'media: video rules per network at create and edit',
  (env) => {
    const upload = async (user: TestUser, bytes: Buffer, type: string): Promise<Uploaded> => {
      const res = await user.call(env().app, { method: 'POST', url: '/api/v1/media', headers: { 'content-type': type }, payload: bytes });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    /** A row's facts as if the file were that large: the limits are checked on the row, and a 1 GiB test file would only be slow. */
    const pretendBytes = (ctx: TestEnv['ctx'], id: string, bytes: number) => ctx.db.updateTable('media_files').set({ bytes }).where('id', '=', id).execute();
    const paths = (body: { errors?: Array<{ path: string }> }) => (body.errors ?? []).map((e) => e.path).sort();

    test('THREADS: images and videos mixed in a carousel, shown as IMAGE and VIDEO; a video over 5 minutes or 1 GiB is 400 at its url', async () => {
      const { app, ctx, clock } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account, 'THREADS');
      const image = await upload(user, await pngBytes(), 'image/png');
      const video = await upload(user, mp4Bytes({ durationMs: 4000 }), 'video/mp4');
      const long = await upload(user, mp4Bytes({ durationMs: 301_000 }), 'video/mp4');
      const heavy = await upload(user, mp4Bytes({ durationMs: 2000 }), 'video/mp4');
      await pretendBytes(ctx, heavy.id, 1024 ** 3 + 1);

      const before = await rowCounts(ctx);
      const refused = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          posts: [
            { text: 'a', media: [{ url: image.url }, { url: long.url }] },
            { text: 'b', media: [{ url: heavy.url }] },
          ],
        },
      });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(paths(refused.json()), ['posts.0.media.1.url', 'posts.1.media.0.url']);
      assert.match(
        refused.json().errors.find((e: { path: string }) => e.path === 'posts.0.media.1.url').message,
        /301\.0 s long; THREADS takes a video of at most 5 minutes/,
      );
      assert.deepEqual(await rowCounts(ctx), before);

      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: new Date(clock.now().getTime() + 60_000).toISOString(),
          posts: [{ text: 'mixed', media: [{ url: image.url }, { url: video.url, altText: 'a clip' }, { url: 'https://cdn.example/clip.mov' }] }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${created.json().threadId}` })).json();
      assert.deepEqual(
        thread.posts[0].postMedia.map((m: { type: string; altText: string | null }) => [m.type, m.altText]),
        [
          ['IMAGE', null],
          ['VIDEO', 'a clip'],
          ['VIDEO', null],
        ],
      );

      // Edit Single Post and Edit Entire Thread check the same rules, and change nothing when refused.
      const postId = thread.posts[0].id;
      const patched = await user.call(app, {
        method: 'PATCH',
        url: `/api/v1/posts/${thread.threadId}/posts/${postId}`,
        payload: { media: [{ url: long.url }] },
      });
      assert.equal(patched.statusCode, 400, patched.body);
      assert.deepEqual(paths(patched.json()), ['media.0.url']);
      const edited = await user.call(app, {
        method: 'PUT',
        url: `/api/v1/posts/${thread.threadId}/edit`,
        payload: {
          posts: [
            { id: postId, text: 'mixed', media: [{ url: video.url }] },
            { text: 'more', media: [{ url: heavy.url }] },
          ],
        },
      });
      assert.equal(edited.statusCode, 400, edited.body);
      assert.deepEqual(paths(edited.json()), ['posts.1.media.0.url']);
      const after = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${thread.threadId}` })).json().thread;
      assert.deepEqual(after, thread);
    });

    test('BLUESKY: one MP4 video alone in its post; with an image, over 3 minutes or 100 MB, or a MOV it is 400 at its field, a video by outside URL with an image too (the URL alone is taken, checked at publish); follow-ups and edits too', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account, 'BLUESKY');
      const image = await upload(user, await pngBytes(), 'image/png');
      const video = await upload(user, mp4Bytes({ durationMs: 180_000, width: 640, height: 360 }), 'video/mp4');
      const long = await upload(user, mp4Bytes({ durationMs: 181_000 }), 'video/mp4');
      const heavy = await upload(user, mp4Bytes({ durationMs: 2000 }), 'video/mp4');
      await pretendBytes(ctx, heavy.id, 100_000_001);
      const movBytes = mp4Bytes();
      movBytes.write('qt  ', 8, 'latin1'); // the ftyp brand of a QuickTime file
      const mov = await upload(user, movBytes, 'video/quicktime');

      const before = await rowCounts(ctx);
      const refused = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          posts: [
            { text: 'with an image', media: [{ url: video.url }, { url: image.url }] },
            { text: 'long', media: [{ url: long.url }] },
            { text: 'heavy', media: [{ url: heavy.url }] },
            { text: 'outside', media: [{ url: 'https://cdn.example/clip.mp4' }, { url: image.url }] },
            { text: 'QuickTime', media: [{ url: mov.url }] },
          ],
        },
      });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(paths(refused.json()), ['posts.0.media', 'posts.1.media.0.url', 'posts.2.media.0.url', 'posts.3.media', 'posts.4.media.0.url']);
      const message = (path: string) => refused.json().errors.find((e: { path: string }) => e.path === path).message;
      assert.match(message('posts.0.media'), /one video a post and then no image/);
      assert.match(message('posts.2.media.0.url'), /100000001 bytes; BLUESKY takes a video of at most 3 minutes and 100 MB/);
      assert.match(message('posts.3.media'), /one video a post and then no image/);
      assert.match(message('posts.4.media.0.url'), /video\/quicktime \(MOV\) video; BLUESKY takes MP4 only/);
      assert.deepEqual(await rowCounts(ctx), before);

      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, posts: [{ text: 'a video', media: [{ url: video.url, altText: 'three minutes' }] }, { text: 'then text' }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const outside = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, posts: [{ text: 'a video by URL', media: [{ url: 'https://cdn.example/clip.mp4' }] }] },
      });
      assert.equal(outside.statusCode, 201, outside.body);
      const outsideThread = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${outside.json().threadId}` })).json().thread;
      assert.equal(outsideThread.posts[0].postMedia[0].type, 'VIDEO');
      const { threadId } = created.json();
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json();
      assert.deepEqual(
        thread.posts[0].postMedia.map((m: { type: string }) => m.type),
        ['VIDEO'],
      );

      const patched = await user.call(app, {
        method: 'PATCH',
        url: `/api/v1/posts/${threadId}/posts/${thread.posts[1].id}`,
        payload: { media: [{ url: image.url }, { url: video.url }] },
      });
      assert.equal(patched.statusCode, 400, patched.body);
      assert.deepEqual(paths(patched.json()), ['media']);
      const edited = await user.call(app, {
        method: 'PUT',
        url: `/api/v1/posts/${threadId}/edit`,
        payload: { posts: [{ id: thread.posts[0].id, text: 'a video', media: [{ url: long.url }] }] },
      });
      assert.equal(edited.statusCode, 400, edited.body);
      assert.deepEqual(paths(edited.json()), ['posts.0.media.0.url']);
      const followUp = await user.call(app, {
        method: 'POST',
        url: `/api/v1/posts/${threadId}/follow-ups`,
        payload: { text: 'more', delayMinutes: 10, media: [{ url: heavy.url }] },
      });
      assert.equal(followUp.statusCode, 400, followUp.body);
      assert.deepEqual(paths(followUp.json()), ['media.0.url']);
      assert.deepEqual((await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread, thread);
    });
  },
  { config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
