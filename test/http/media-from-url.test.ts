/** POST /api/v1/media/from-url and the MCP tool over it, on both databases, against a local media server. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { connectOverHttp, textOf } from '../helpers/mcp.js';
import { type MediaServer, startMediaServer } from '../helpers/media-server.js';
import { createUser, userWithProvider } from '../helpers/seeds.js';

let media: MediaServer;
before(async () => {
  media = await startMediaServer();
});
after(async () => {
  await media.close();
});

describeEachDb(
  'Upload from a URL',
  (env) => {
    test('the file at the URL becomes an upload, checked as one: its kind from the bytes', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const res = await user.call(app, { method: 'POST', url: '/api/v1/media/from-url', payload: { url: `${media.base}/photo.png` } });
      assert.equal(res.statusCode, 201, res.body);
      const upload = res.json();
      assert.equal(upload.mimeType, 'image/png');
      assert.equal(upload.width, 8);
      const listed = await user.call(app, { method: 'GET', url: '/api/v1/media' });
      assert.deepEqual(
        listed.json().media.map((m: { id: string }) => m.id),
        [upload.id],
      );
    });

    test('a URL that answers no file, no media, or cannot be fetched: 400 at url, nothing stored', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      for (const [url, status] of [
        [`${media.base}/missing.png`, 400],
        [`${media.base}/page.html`, 415],
        ['ftp://example.com/a.png', 400],
      ] as const) {
        const res = await user.call(app, { method: 'POST', url: '/api/v1/media/from-url', payload: { url } });
        assert.equal(res.statusCode, status, `${url}: ${res.body}`);
        if (status === 400) assert.equal(res.json().errors[0].path, 'url', res.body);
      }
      assert.equal((await user.call(app, { method: 'GET', url: '/api/v1/media' })).json().count, 0);
    });

    test('upload_media_from_url, then create_thread with its url', async () => {
      const f = await userWithProvider(env);
      const client = await connectOverHttp(f.app, f.user.key);
      const uploaded = await client.callTool({ name: 'upload_media_from_url', arguments: { url: `${media.base}/photo.jpg` } });
      assert.equal(uploaded.isError, undefined, textOf(uploaded));
      const { url } = JSON.parse(textOf(uploaded));
      const created = await client.callTool({
        name: 'create_thread',
        arguments: { providerId: f.providerId, posts: [{ text: 'with a photo', media: [{ url, altText: 'a photo' }] }] },
      });
      assert.equal(created.isError, undefined, textOf(created));
      const thread = (await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${JSON.parse(textOf(created)).threadId}` })).json().thread;
      assert.equal(thread.posts[0].postMedia[0].url, url);
    });
  },
  // The media server listens on loopback.
  { config: (config) => ({ ...config, media: { allowPrivate: true } }) },
);

describeEachDb('Upload from a URL, private addresses refused', (env) => {
  test('a loopback URL is refused at url (SKEIN_ALLOW_PRIVATE_MEDIA unset)', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const asked = media.requests.length;
    const res = await user.call(app, { method: 'POST', url: '/api/v1/media/from-url', payload: { url: `${media.base}/photo.png` } });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().errors[0].path, 'url');
    assert.equal(media.requests.length, asked, 'no request reached the address');
  });
});
