/**
 * Lists of 8 KB and more go gzip-compressed to clients that accept gzip (docs/decisions.md,
 * "Compressed lists"), compressed once while the answer is kept; Get Thread (whose strong ETag
 * names one representation) and small lists go as they are.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip, COMPRESS_FROM_BYTES } from '../../src/http/kept-json.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';

test('Accept-Encoding: gzip is accepted when named or covered by * with a weight above zero', () => {
  const cases: Array<[string | undefined, boolean]> = [
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.5', true],
    ['deflate, br', false],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['*', true],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
    ['identity', false],
  ];
  for (const [header, accepted] of cases) assert.equal(acceptsGzip(header), accepted, String(header));
});

describeEachDb('compressed lists', (env) => {
  test('a large List Posts and List Drafts answer is gzip to a client that accepts it, the same JSON; Get Thread and small lists never', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const text = 'A post long enough that forty threads of three make a list past the threshold. '.repeat(3);
    let threadId = '';
    for (let i = 0; i < 40; i++) {
      const scheduleAt = `2031-03-0${1 + (i % 5)}T${String(8 + (i % 10)).padStart(2, '0')}:${String(i).padStart(2, '0')}:00`;
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt, posts: [{ text: `${i} ${text}` }, { text }, { text }] },
      });
      assert.equal(res.statusCode, 201, res.body);
      threadId = res.json().threadId;
      const draft = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, posts: [{ text: `${i} ${text}` }, { text }] },
      });
      assert.equal(draft.statusCode, 201, draft.body);
    }
    const gzip = { 'accept-encoding': 'gzip, deflate, br' };
    for (const url of [
      '/api/v1/posts?from=2031-03-01T00:00:00&to=2031-03-06T00:00:00',
      '/api/v1/posts?from=2031-03-01T00:00:00&to=2031-03-06T00:00:00&limit=30',
      '/api/v1/posts/drafts',
    ]) {
      const plain = await user.call(app, { method: 'GET', url });
      assert.equal(plain.statusCode, 200, plain.body);
      assert.ok(plain.rawPayload.length >= COMPRESS_FROM_BYTES, `${url}: ${plain.rawPayload.length} bytes, past the threshold`);
      assert.equal(plain.headers['content-encoding'], undefined, url);
      assert.equal(plain.headers.vary, 'accept-encoding', url);
      // Twice: the second is the kept compressed body.
      for (let round = 0; round < 2; round++) {
        const packed = await user.call(app, { method: 'GET', url, headers: gzip });
        assert.equal(packed.statusCode, 200, url);
        assert.equal(packed.headers['content-encoding'], 'gzip', url);
        assert.equal(packed.headers.vary, 'accept-encoding', url);
        assert.equal(Number(packed.headers['content-length']), packed.rawPayload.length, url);
        assert.ok(packed.rawPayload.length < plain.rawPayload.length / 4, `${url}: ${packed.rawPayload.length} of ${plain.rawPayload.length} bytes`);
        assert.deepEqual(gunzipSync(packed.rawPayload), plain.rawPayload, url);
      }
      const refused = await user.call(app, { method: 'GET', url, headers: { 'accept-encoding': 'gzip;q=0, *' } });
      assert.equal(refused.headers['content-encoding'], undefined, url);
      assert.deepEqual(refused.rawPayload, plain.rawPayload, url);
    }

    const thread = await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}`, headers: gzip });
    assert.equal(thread.statusCode, 200, thread.body);
    assert.equal(thread.headers['content-encoding'], undefined);
    assert.match(String(thread.headers.etag), /^"\d+"$/);
    const small = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2031-03-01T08:00:00&to=2031-03-01T08:59:59', headers: gzip });
    assert.equal(small.statusCode, 200, small.body);
    assert.ok(small.rawPayload.length < COMPRESS_FROM_BYTES);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(small.headers.vary, undefined);
  });

  test('over real HTTP a client that accepts gzip (fetch) reads the same threads from the compressed answer', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const text = 'Real HTTP, compressed on the way and read back whole by the client. '.repeat(4);
    for (let i = 0; i < 30; i++) {
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: `2032-07-01T10:${String(i).padStart(2, '0')}:00`,
          posts: [{ text: `${i} ${text}` }, { text }, { text }],
        },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    const url = '/api/v1/posts?from=2032-07-01T00:00:00&to=2032-07-01T23:59:59';
    const plain = await user.call(app, { method: 'GET', url });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const res = await fetch(`${address}${url}`, { headers: { authorization: `Bearer ${user.key}`, 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.ok(Number(res.headers.get('content-length')) < plain.rawPayload.length / 4);
    const body = (await res.json()) as { threads: unknown[]; count: number };
    assert.equal(body.count, 30);
    assert.deepEqual(body, plain.json());
  });
});
