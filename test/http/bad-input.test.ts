import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser, rowCounts } from '../helpers/seeds.js';

interface Case {
  name: string;
  status: number;
  code: string;
  path?: string;
  method?: 'POST' | 'PUT' | 'PATCH';
  url?: string;
  /** Object → JSON; string → sent raw. */
  body?: unknown;
  contentType?: string;
}

describeEachDb('malformed input is refused and writes nothing', (env) => {
  test('table of bad bodies per endpoint', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account, 'THREADS');
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const created = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: threads.id, posts: [{ text: 'base' }] } });
    const threadId = created.json().threadId;
    const postId = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts[0].id;
    const post = (p: object, provider = threads.id) => ({ providerId: provider, posts: [{ text: 'ok', ...p }] });

    const cases: Case[] = [
      { name: 'text is a number', body: { providerId: threads.id, posts: [{ text: 42 }] }, status: 400, code: 'VALIDATION_FAILED', path: 'posts.0.text' },
      { name: 'isSpoilerMedia is a string', body: post({ isSpoilerMedia: 'true' }), status: 400, code: 'VALIDATION_FAILED', path: 'posts.0.isSpoilerMedia' },
      { name: 'posts missing', body: { providerId: threads.id }, status: 400, code: 'VALIDATION_FAILED', path: 'posts' },
      { name: 'posts empty', body: { providerId: threads.id, posts: [] }, status: 400, code: 'VALIDATION_FAILED', path: 'posts' },
      {
        name: '26 posts',
        body: { providerId: threads.id, posts: Array.from({ length: 26 }, () => ({ text: 'x' })) },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts',
      },
      { name: 'providerId missing', body: { posts: [{ text: 'x' }] }, status: 400, code: 'VALIDATION_FAILED', path: 'providerId' },
      { name: 'unknown provider', body: post({}, 'nope'), status: 404, code: 'NOT_FOUND' },
      { name: 'empty text', body: post({ text: '   ' }), status: 400, code: 'VALIDATION_FAILED', path: 'posts.0.text' },
      { name: 'Threads text over 500 bytes', body: post({ text: '’'.repeat(167) }), status: 400, code: 'VALIDATION_FAILED', path: 'posts.0.text' },
      {
        name: 'Bluesky text over 300 graphemes',
        body: post({ text: 'a'.repeat(301) }, bluesky.id),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.text',
      },
      {
        name: 'Bluesky 5 images',
        body: post({ media: Array.from({ length: 5 }, (_, i) => ({ url: `https://x.example/${i}.png` })) }, bluesky.id),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.media',
      },
      {
        name: 'Threads 21 images',
        body: post({ media: Array.from({ length: 21 }, (_, i) => ({ url: `https://x.example/${i}.png` })) }),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.media',
      },
      { name: 'ftp media url', body: post({ media: [{ url: 'ftp://x.example/a.png' }] }), status: 400, code: 'VALIDATION_FAILED', path: 'posts.0.media.0.url' },
      { name: 'media without url', body: post({ media: [{ altText: 'x' }] }), status: 400, code: 'VALIDATION_FAILED', path: 'posts.0.media.0.url' },
      {
        name: '11 spoiler ranges',
        body: post({ text: 'x'.repeat(50), spoilerRanges: Array.from({ length: 11 }, (_, i) => ({ offset: i * 2, length: 1 })) }),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.spoilerRanges',
      },
      {
        name: 'spoiler outside text',
        body: post({ text: 'short', spoilerRanges: [{ offset: 3, length: 5 }] }),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.spoilerRanges.0',
      },
      {
        name: 'overlapping spoilers',
        body: post({
          text: 'hello world',
          spoilerRanges: [
            { offset: 0, length: 5 },
            { offset: 4, length: 2 },
          ],
        }),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.spoilerRanges.1',
      },
      {
        name: 'spoiler length 0',
        body: post({ spoilerRanges: [{ offset: 0, length: 0 }] }),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.spoilerRanges.0.length',
      },
      {
        name: 'spoiler offset fraction',
        body: post({ spoilerRanges: [{ offset: 0.5, length: 1 }] }),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.spoilerRanges.0.offset',
      },
      {
        name: 'Bluesky spoiler offset negative',
        body: post({ spoilerRanges: [{ offset: -5, length: 1 }] }, bluesky.id),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.spoilerRanges.0.offset',
      },
      {
        name: 'Bluesky spoiler length 0',
        body: post({ spoilerRanges: [{ offset: 0, length: 0 }] }, bluesky.id),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.spoilerRanges.0.length',
      },
      {
        name: 'Bluesky spoiler offset past 2^31',
        body: post({ spoilerRanges: [{ offset: 3_000_000_000, length: 1 }] }, bluesky.id),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.spoilerRanges.0.offset',
      },
      {
        name: 'Bluesky 11 spoiler ranges',
        body: post({ spoilerRanges: Array.from({ length: 11 }, (_, i) => ({ offset: i, length: 1 })) }, bluesky.id),
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.spoilerRanges',
      },
      { name: 'NUL in text', body: post({ text: 'nul \u0000 here' }), status: 400, code: 'VALIDATION_FAILED', path: 'posts.0.text' },
      { name: 'NUL in a key', body: { ...post({}), 'odd\u0000key': 1 }, status: 400, code: 'VALIDATION_FAILED', path: 'odd\u0000key' },
      {
        name: 'edit post: NUL in content',
        method: 'PATCH',
        url: `/api/v1/posts/${threadId}/posts/${postId}`,
        body: { content: 'a\u0000b' },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'content',
      },
      {
        name: 'edit post: Bluesky-style bad spoiler',
        method: 'PATCH',
        url: `/api/v1/posts/${threadId}/posts/${postId}`,
        body: { spoilerRanges: [{ offset: -1, length: 1 }] },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'spoilerRanges.0.offset',
      },
      {
        name: 'tags: NUL in a name',
        method: 'PUT',
        url: `/api/v1/posts/${threadId}/tags`,
        body: { tagNames: ['a\u0000b'] },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'tagNames.0',
      },
      {
        name: 'two repost delays',
        body: { ...post({}), autoRepost: { enabled: true, delays: ['1', '2'] } },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'autoRepost.delays',
      },
      {
        name: 'repost delay 169',
        body: { ...post({}), autoRepost: { enabled: true, delays: ['169'] } },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'autoRepost.delays.0',
      },
      {
        name: 'repost delay number',
        body: { ...post({}), autoRepost: { enabled: true, delays: [6] } },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'autoRepost.delays.0',
      },
      { name: 'Threads topic with a dot', body: post({ topic: 'a.b' }), status: 400, code: 'VALIDATION_FAILED', path: 'posts.0.topic' },
      { name: 'scheduleAt garbage', body: { ...post({}), scheduleAt: 'tomorrow' }, status: 400, code: 'VALIDATION_FAILED', path: 'scheduleAt' },
      { name: 'scheduleAt Feb 30', body: { ...post({}), scheduleAt: '2027-02-30T10:00:00' }, status: 400, code: 'VALIDATION_FAILED', path: 'scheduleAt' },
      { name: 'scheduleAt in the past', body: { ...post({}), scheduleAt: '2026-01-01T00:00:00Z' }, status: 400, code: 'SCHEDULE_IN_PAST', path: 'scheduleAt' },
      { name: 'not JSON', body: '{"providerId": ', status: 400, code: 'VALIDATION_FAILED' },
      { name: 'JSON array body', body: '[1,2]', status: 400, code: 'VALIDATION_FAILED' },
      { name: 'text/plain body', body: 'hello', contentType: 'text/plain', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      { name: 'over 1 MiB', body: { providerId: threads.id, posts: [{ text: 'x'.repeat(1024 * 1024) }] }, status: 413, code: 'PAYLOAD_TOO_LARGE' },
      { name: 'unknown team', body: { ...post({}), teamId: 'nope' }, status: 404, code: 'NOT_FOUND' },
      {
        name: 'edit post: content null',
        method: 'PATCH',
        url: `/api/v1/posts/${threadId}/posts/${postId}`,
        body: { content: null },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'content',
      },
      {
        name: 'edit post: media not array',
        method: 'PATCH',
        url: `/api/v1/posts/${threadId}/posts/${postId}`,
        body: { media: 'x' },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'media',
      },
      {
        name: 'edit thread: text missing',
        method: 'PUT',
        url: `/api/v1/posts/${threadId}/edit`,
        body: { posts: [{ topic: 'x' }] },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'posts.0.text',
      },
      {
        name: 'reschedule: number',
        method: 'PUT',
        url: `/api/v1/posts/${threadId}/reschedule`,
        body: { scheduleAt: 1700000000 },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'scheduleAt',
      },
      {
        name: 'tags: not array',
        method: 'PUT',
        url: `/api/v1/posts/${threadId}/tags`,
        body: { tagNames: 'a' },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'tagNames',
      },
      {
        name: 'auto-plug: minLikes string',
        method: 'PUT',
        url: '/api/v1/auto-plug',
        body: { enabled: true, text: 'x', minLikes: '5' },
        status: 400,
        code: 'VALIDATION_FAILED',
        path: 'minLikes',
      },
      { name: 'keys: name missing', method: 'POST', url: '/api/v1/keys', body: {}, status: 400, code: 'VALIDATION_FAILED', path: 'name' },
    ];

    const before = await rowCounts(ctx);
    for (const c of cases) {
      const raw = typeof c.body === 'string';
      const res = await user.call(app, {
        method: c.method ?? 'POST',
        url: c.url ?? '/api/v1/posts',
        headers: { 'content-type': c.contentType ?? 'application/json' },
        payload: raw ? (c.body as string) : JSON.stringify(c.body),
      });
      assert.equal(res.statusCode, c.status, `${c.name}: ${res.body.slice(0, 300)}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/, c.name);
      const problem = res.json();
      assert.equal(problem.code, c.code, c.name);
      assert.equal(problem.status, c.status, c.name);
      assert.equal(typeof problem.title, 'string');
      assert.equal(typeof problem.detail, 'string');
      assert.equal(problem.type, `/guide/errors#${c.code.toLowerCase().replaceAll('_', '-')}`, c.name);
      if (c.path !== undefined) {
        assert.ok(
          problem.errors?.some((e: { path: string }) => e.path === c.path),
          `${c.name}: expected a fault at ${c.path}, got ${JSON.stringify(problem.errors)}`,
        );
      }
    }
    assert.deepEqual(await rowCounts(ctx), before);
  });

  test('NUL in a path or query parameter: 400 naming it, not a database error', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const before = await rowCounts(ctx);
    const cases: Array<[string, string, string]> = [
      ['GET', '/api/v1/posts/%00', 'threadId'],
      ['GET', '/api/v1/posts/abc%00def/tags', 'threadId'],
      ['PUT', '/api/v1/posts/abc%00/reschedule', 'threadId'],
      ['GET', '/api/v1/posts?from=2026-01-01T00:00:00&to=2026-02-01T00:00:00&providerId=%00', 'providerId'],
      ['GET', '/api/v1/tags?teamId=a%00', 'teamId'],
    ];
    for (const [method, url, path] of cases) {
      const res = await user.call(app, { method: method as 'GET', url, ...(method === 'PUT' ? { payload: { scheduleAt: '2030-01-01T00:00:00Z' } } : {}) });
      assert.equal(res.statusCode, 400, `${method} ${url}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        [path],
        url,
      );
    }
    assert.deepEqual(await rowCounts(ctx), before);
  });

  test('unknown fields are ignored; Bluesky spoiler fields are accepted and ignored', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const res = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: bluesky.id, extra: true, posts: [{ text: 'hi', whatever: 1, spoilerRanges: [{ offset: 50, length: 3 }], isSpoilerMedia: true }] },
    });
    assert.equal(res.statusCode, 201, res.body);
  });

  test('unknown routes and methods answer problem+json 404; no stack traces', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const res = await user.call(app, { method: 'GET', url: '/api/v1/nothing-here' });
    assert.equal(res.statusCode, 404);
    assert.match(String(res.headers['content-type']), /problem\+json/);
    assert.equal(res.json().code, 'NOT_FOUND');
    assert.doesNotMatch(res.body, /at .*\.ts:\d+/);
  });
});
