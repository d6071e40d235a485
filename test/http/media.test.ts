import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import sharp from 'sharp';
import { describeEachDb, type TestEnv } from '../helpers/context.js';
import { hugePngHeader, jpegBytes, mp4Bytes, pngBytes } from '../helpers/media-files.js';
import { createProvider, createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';
import { until } from '../helpers/wait.js';

/** A multipart/form-data body with one file part (what `curl -F file=@name` sends). */
export function multipartBody(bytes: Buffer, options: { field?: string; filename?: string; type?: string } = {}) {
  const boundary = '----skein-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'photo.jpg'}"\r\nContent-Type: ${options.type ?? 'image/jpeg'}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function storedFiles(env: TestEnv): Promise<string[]> {
  const dir = env.ctx.config.mediaStorage.dir;
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

async function mediaRows(env: TestEnv): Promise<number> {
  const row = await env.ctx.db
    .selectFrom('media_files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDb('media: uploads and serving', (env) => {
  const upload = (user: TestUser, payload: Buffer, contentType: string, query = '') =>
    user.call(env().app, { method: 'POST', url: `/api/v1/media${query}`, headers: { 'content-type': contentType }, payload });

  test('a PNG uploaded as the raw body: 201 with its facts; served at its url with type, length, ETag, immutable caching, nosniff', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const png = await pngBytes(64, 48);
    const res = await upload(user, png, 'image/png');
    assert.equal(res.statusCode, 201, res.body);
    const media = res.json();
    assert.deepEqual(Object.keys(media).sort(), ['bytes', 'createdAt', 'durationMs', 'height', 'id', 'mimeType', 'type', 'url', 'width']);
    assert.match(media.id, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(media.url, `${ctx.config.http.publicUrl}/media/${media.id}.png`);
    assert.deepEqual(
      { type: media.type, mimeType: media.mimeType, bytes: media.bytes, width: media.width, height: media.height, durationMs: media.durationMs },
      { type: 'IMAGE', mimeType: 'image/png', bytes: png.length, width: 64, height: 48, durationMs: null },
    );
    assert.equal(media.createdAt, '2026-11-22T12:00:00.000Z');

    const served = await app.inject({ method: 'GET', url: `/media/${media.id}.png` });
    assert.equal(served.statusCode, 200);
    assert.deepEqual(served.rawPayload, png);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.equal(served.headers['content-length'], String(png.length));
    assert.equal(served.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(served.headers['x-content-type-options'], 'nosniff');
    // An upload opened directly runs no script on this origin, whatever its bytes.
    assert.equal(served.headers['content-security-policy'], 'sandbox');
    assert.equal((await app.inject({ method: 'GET', url: '/media/AAAAAAAAAAAAAAAAAAAAAA.png' })).headers['content-security-policy'], 'sandbox');
    const etag = String(served.headers.etag);
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const again = await app.inject({ method: 'GET', url: `/media/${media.id}.png`, headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.rawPayload.length, 0);

    const ranged = await app.inject({ method: 'GET', url: `/media/${media.id}.png`, headers: { range: 'bytes=0-7' } });
    assert.equal(ranged.statusCode, 206);
    assert.equal(ranged.headers['content-security-policy'], 'sandbox');
    assert.equal(ranged.headers['content-range'], `bytes 0-7/${png.length}`);
    assert.deepEqual(ranged.rawPayload, png.subarray(0, 8));
    const tail = await app.inject({ method: 'GET', url: `/media/${media.id}.png`, headers: { range: 'bytes=-10' } });
    assert.equal(tail.statusCode, 206);
    assert.deepEqual(tail.rawPayload, png.subarray(png.length - 10));
    const outside = await app.inject({ method: 'GET', url: `/media/${media.id}.png`, headers: { range: `bytes=${png.length}-` } });
    assert.equal(outside.statusCode, 416);
    assert.equal(outside.json().code, 'RANGE_NOT_SATISFIABLE');
    assert.equal(outside.headers['content-range'], `bytes */${png.length}`);

    for (const url of [`/media/${media.id}.jpg`, `/media/${media.id}`, '/media/AAAAAAAAAAAAAAAAAAAAAA.png', '/media/..%2Fsecret.png']) {
      const missing = await app.inject({ method: 'GET', url });
      assert.equal(missing.statusCode, 404, url);
      assert.match(String(missing.headers['content-type']), /^application\/problem\+json/);
    }
  });

  test('list (newest first), get, delete; another workspace sees 404; a team upload belongs to the team', async () => {
    const { app, ctx, clock } = env();
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const first = (await upload(user, await pngBytes(10, 10), 'image/png')).json();
    clock.advance(1000);
    const second = (await upload(user, await jpegBytes(20, 10), 'application/octet-stream')).json();
    assert.equal(second.mimeType, 'image/jpeg');
    assert.ok(second.url.endsWith('.jpg'));
    const listed = (await user.call(app, { method: 'GET', url: '/api/v1/media' })).json();
    assert.equal(listed.count, 2);
    assert.deepEqual(
      listed.media.map((m: { id: string }) => m.id),
      [second.id, first.id],
    );
    assert.deepEqual((await user.call(app, { method: 'GET', url: `/api/v1/media/${first.id}` })).json(), first);

    assert.equal((await other.call(app, { method: 'GET', url: `/api/v1/media/${first.id}` })).statusCode, 404);
    assert.equal((await other.call(app, { method: 'DELETE', url: `/api/v1/media/${first.id}` })).statusCode, 404);
    assert.equal((await other.call(app, { method: 'GET', url: '/api/v1/media' })).json().count, 0);

    const team = await createTeamWith(ctx, user.account, [other.account]);
    const teamUpload = await upload(user, await pngBytes(5, 5), 'image/png', `?teamId=${team.id}`);
    assert.equal(teamUpload.statusCode, 201, teamUpload.body);
    assert.equal((await other.call(app, { method: 'GET', url: `/api/v1/media/${teamUpload.json().id}` })).statusCode, 200);
    assert.equal((await other.call(app, { method: 'GET', url: `/api/v1/media?teamId=${team.id}` })).json().count, 1);

    const deleted = await user.call(app, { method: 'DELETE', url: `/api/v1/media/${first.id}` });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.json(), { deleted: true, id: first.id });
    assert.equal((await app.inject({ method: 'GET', url: new URL(first.url).pathname })).statusCode, 404);
    assert.equal((await user.call(app, { method: 'GET', url: `/api/v1/media/${first.id}` })).statusCode, 404);
    assert.ok(!(await storedFiles(env())).includes(`${first.id}.png`));
  });

  test('multipart/form-data with a part named file; a JPEG with EXIF is stored without it, its orientation applied', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const jpeg = await jpegBytes(60, 40, { orientation: 6, exif: true });
    assert.ok((await sharp(jpeg).metadata()).exif);
    const body = multipartBody(jpeg);
    const res = await user.call(app, { method: 'POST', url: '/api/v1/media', ...body });
    assert.equal(res.statusCode, 201, res.body);
    const media = res.json();
    assert.deepEqual([media.mimeType, media.width, media.height], ['image/jpeg', 40, 60]);
    const served = (await app.inject({ method: 'GET', url: new URL(media.url).pathname })).rawPayload;
    const meta = await sharp(served).metadata();
    assert.equal(meta.exif, undefined);
    assert.equal(meta.orientation, undefined);
    assert.deepEqual([meta.width, meta.height], [40, 60]);
    assert.equal(media.bytes, served.length);

    const wrongField = await user.call(app, { method: 'POST', url: '/api/v1/media', ...multipartBody(jpeg, { field: 'photo' }) });
    assert.equal(wrongField.statusCode, 400, wrongField.body);
    assert.equal(wrongField.json().errors[0].path, 'photo');
  });

  test('an MP4 video: VIDEO with its duration and size, served with Range', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const mp4 = mp4Bytes({ width: 320, height: 240, durationMs: 3000 });
    const res = await upload(user, mp4, 'video/mp4');
    assert.equal(res.statusCode, 201, res.body);
    const media = res.json();
    assert.deepEqual(
      { type: media.type, mimeType: media.mimeType, bytes: media.bytes, width: media.width, height: media.height, durationMs: media.durationMs },
      { type: 'VIDEO', mimeType: 'video/mp4', bytes: mp4.length, width: 320, height: 240, durationMs: 3000 },
    );
    assert.ok(media.url.endsWith('.mp4'));
    const ranged = await app.inject({ method: 'GET', url: new URL(media.url).pathname, headers: { range: 'bytes=100-199' } });
    assert.equal(ranged.statusCode, 206);
    assert.deepEqual(ranged.rawPayload, mp4.subarray(100, 200));
  });

  test('bad input is a clear problem, and nothing is stored: wrong bytes for the name or type, truncated, 100,000² pixels, SVG, over 8 MiB, empty, cut-off video', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const rowsBefore = await mediaRows(env());
    const filesBefore = await storedFiles(env());
    const png = await pngBytes(64, 64);
    const jpeg = await jpegBytes(64, 64);
    const mp4 = mp4Bytes();
    const bigImage = Buffer.concat([jpeg, Buffer.alloc(8 * 1024 * 1024)]);
    const cases: Array<{ name: string; send: () => Promise<{ statusCode: number; json(): { code: string; detail: string } }>; status: number; code: string }> =
      [
        {
          name: 'text named photo.jpg',
          send: () => user.call(app, { method: 'POST', url: '/api/v1/media', ...multipartBody(Buffer.from('just some text, not a photo')) }),
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        },
        {
          name: 'HTML declared image/png',
          send: () => upload(user, Buffer.from('<!doctype html><html><body>hi</body></html>'), 'image/png'),
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        },
        {
          name: 'a truncated PNG',
          send: () => upload(user, png.subarray(0, Math.floor(png.length * 0.6)), 'image/png'),
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        },
        {
          name: 'a truncated JPEG',
          send: () => upload(user, jpeg.subarray(0, Math.floor(jpeg.length * 0.6)), 'image/jpeg'),
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        },
        {
          name: 'a PNG declaring 100,000 × 100,000',
          send: async () => upload(user, await hugePngHeader(100_000), 'image/png'),
          status: 413,
          code: 'PAYLOAD_TOO_LARGE',
        },
        {
          name: 'an SVG with a script',
          send: () => upload(user, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>'), 'image/svg+xml'),
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        },
        { name: 'an image over 8 MiB', send: () => upload(user, bigImage, 'image/jpeg'), status: 413, code: 'PAYLOAD_TOO_LARGE' },
        { name: 'an empty body', send: () => upload(user, Buffer.alloc(0), 'image/png'), status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
        {
          name: 'a video cut off mid-file',
          send: () => upload(user, mp4.subarray(0, mp4.length - 500), 'video/mp4'),
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        },
        {
          name: 'a JSON body',
          send: () => upload(user, Buffer.from('{"url":"https://x.example/a.png"}'), 'application/json'),
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        },
      ];
    for (const c of cases) {
      const res = await c.send();
      assert.equal(res.statusCode, c.status, `${c.name}: ${JSON.stringify(res.json())}`);
      assert.equal(res.json().code, c.code, c.name);
      assert.ok(res.json().detail.length > 20, c.name);
    }
    assert.equal(await mediaRows(env()), rowsBefore);
    // Seen once in a full run (PostgreSQL half): a temporary upload file still in the folder at
    // this point. A refused upload's file must go; wait for that rather than for a moment, so a
    // file that never goes still fails the test.
    const expected = JSON.stringify(filesBefore);
    await until('the refused uploads to leave nothing in the media folder', async () => JSON.stringify(await storedFiles(env())) === expected, {
      timeoutMs: 10_000,
    }).catch(async (err) => {
      assert.deepEqual(await storedFiles(env()), filesBefore, String(err));
    });
  });

  test("another workspace's upload is a fault beside shape faults too: create, edit post, edit thread, follow-up", async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const stranger = await createUser(ctx);
    const provider = await createProvider(ctx, user.account, 'BLUESKY');
    const foreign = (await upload(stranger, await pngBytes(8, 8), 'image/png')).json().url as string;
    const created = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, scheduleAt: '2030-01-01T10:00:00Z', posts: [{ text: 'one' }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const threadId = created.json().threadId as string;
    const postId = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts[0].id as string;
    // Each request also has a shape fault (a number where a string goes), so its content rules run
    // on the faults-only path: the foreign upload must be named there as well.
    const cases = [
      {
        method: 'POST' as const,
        url: '/api/v1/posts',
        payload: { providerId: provider.id, posts: [{ text: 'x', topic: 1, media: [{ url: foreign }] }] },
        path: 'posts.0.media.0.url',
      },
      { method: 'PATCH' as const, url: `/api/v1/posts/${threadId}/posts/${postId}`, payload: { content: 1, media: [{ url: foreign }] }, path: 'media.0.url' },
      {
        method: 'PUT' as const,
        url: `/api/v1/posts/${threadId}/edit`,
        payload: { posts: [{ text: 'x', topic: 1, media: [{ url: foreign }] }] },
        path: 'posts.0.media.0.url',
      },
      {
        method: 'POST' as const,
        url: `/api/v1/posts/${threadId}/follow-ups`,
        payload: { text: 1, delayMinutes: 5, media: [{ url: foreign }] },
        path: 'media.0.url',
      },
    ];
    for (const c of cases) {
      const res = await user.call(app, { method: c.method, url: c.url, payload: c.payload });
      assert.equal(res.statusCode, 400, `${c.method} ${c.url}: ${res.body}`);
      const paths = res.json().errors.map((e: { path: string }) => e.path);
      assert.ok(paths.includes(c.path), `${c.method} ${c.url}: ${JSON.stringify(paths)}`);
      assert.ok(paths.length >= 2, `${c.method} ${c.url}: the shape fault too, ${JSON.stringify(paths)}`);
    }
  });

  test('uploads need a key; serving needs none', async () => {
    const { app } = env();
    const res = await app.inject({ method: 'POST', url: '/api/v1/media', headers: { 'content-type': 'image/png' }, payload: await pngBytes() });
    assert.equal(res.statusCode, 401);
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/media' })).statusCode, 401);
  });

  test('the OpenAPI document lists the media operations and their statuses', async () => {
    const doc = (await env().app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    assert.ok(['201', '413', '415'].every((s) => s in doc.paths['/api/v1/media'].post.responses));
    assert.ok('409' in doc.paths['/api/v1/media/{id}'].delete.responses);
    assert.ok(['200', '206', '304', '404', '416'].every((s) => s in doc.paths['/media/{name}'].get.responses));
  });
});
