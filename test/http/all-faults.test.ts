import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser, rowCounts } from '../helpers/seeds.js';

interface Case {
  name: string;
  method: 'POST' | 'PUT' | 'PATCH';
  url: string;
  body: unknown;
  /** Every fault the answer must name, no more, no fewer. */
  paths: string[];
  code?: string;
}

/*
 * Every fault of a request in one answer (decisions.md: "the JSON path of each fault"): the shape
 * faults (the schema) and the content rules (over the well-formed parts of the body) are
 * reported together, on every endpoint with a body.
 */
describeEachDb('every fault of a request in one 400', (env) => {
  test('table of bodies with several faults, per endpoint', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account, 'THREADS');
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const created = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: threads.id, posts: [{ text: 'base' }] } });
    assert.equal(created.statusCode, 201, created.body);
    const threadId = created.json().threadId;
    const postId = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts[0].id;
    const posts = '/api/v1/posts';

    const cases: Case[] = [
      // Create Post
      {
        name: 'create: a missing text and empty repost delays, both named in one answer',
        method: 'POST',
        url: posts,
        body: { providerId: threads.id, posts: [{ topic: 'x' }], autoRepost: { enabled: true, delays: [] } },
        paths: ['posts.0.text', 'autoRepost.delays'],
      },
      {
        name: 'create: a fault in every element of posts, shape and content mixed',
        method: 'POST',
        url: posts,
        body: {
          providerId: threads.id,
          posts: [{ text: 5 }, { text: '  ' }, { text: 'ok', topic: 'a.b' }, { text: 'ok', media: [{ url: 'ftp://x.example/a.png' }, { altText: 'x' }] }],
        },
        paths: ['posts.0.text', 'posts.1.text', 'posts.2.topic', 'posts.3.media.0.url', 'posts.3.media.1.url'],
      },
      {
        name: 'create: a shape fault and an unreadable scheduleAt',
        method: 'POST',
        url: posts,
        body: { providerId: threads.id, posts: [{ text: 'ok', isSpoilerMedia: 'yes' }], scheduleAt: 'tomorrow' },
        paths: ['posts.0.isSpoilerMedia', 'scheduleAt'],
      },
      {
        name: 'create: well-formed, content fault and a past scheduleAt together',
        method: 'POST',
        url: posts,
        body: { providerId: threads.id, posts: [{ text: ' ' }], scheduleAt: '2026-01-01T00:00:00Z' },
        paths: ['posts.0.text', 'scheduleAt'],
      },
      {
        name: 'create: no provider known (teamId malformed): the rules of every network still run',
        method: 'POST',
        url: posts,
        body: { providerId: 'nope', teamId: 5, posts: [{ text: '' }, { text: 'ok', media: [{ url: 'not a url' }] }] },
        paths: ['teamId', 'posts.0.text', 'posts.1.media.0.url'],
      },
      {
        name: 'create: Bluesky limits with a shape fault',
        method: 'POST',
        url: posts,
        body: { providerId: bluesky.id, posts: [{ text: 'a'.repeat(301) }, { text: 7 }] },
        paths: ['posts.0.text', 'posts.1.text'],
      },
      {
        name: 'create: 26 posts, one of them empty',
        method: 'POST',
        url: posts,
        body: { providerId: threads.id, posts: Array.from({ length: 26 }, (_, i) => ({ text: i === 3 ? '' : 'x' })) },
        paths: ['posts', 'posts.3.text'],
      },
      {
        name: 'create: NUL, content and shape faults',
        method: 'POST',
        url: posts,
        body: { providerId: threads.id, posts: [{ text: 'a\u0000b' }, { text: '' }, {}] },
        paths: ['posts.0.text', 'posts.1.text', 'posts.2.text'],
      },
      {
        name: 'create: a malformed spoiler range and one outside the text',
        method: 'POST',
        url: posts,
        body: {
          providerId: threads.id,
          posts: [
            {
              text: 'hello',
              spoilerRanges: [
                { offset: '0', length: 1 },
                { offset: 3, length: 5 },
              ],
            },
          ],
        },
        paths: ['posts.0.spoilerRanges.0.offset', 'posts.0.spoilerRanges.1'],
      },
      // Edit Single Post
      {
        name: 'edit post: content, shape and media faults',
        method: 'PATCH',
        url: `${posts}/${threadId}/posts/${postId}`,
        body: { content: '   ', topic: 5, media: [{ url: 'javascript:alert(1)' }] },
        paths: ['content', 'topic', 'media.0.url'],
      },
      {
        name: 'edit post: a spoiler outside the stored text and a shape fault',
        method: 'PATCH',
        url: `${posts}/${threadId}/posts/${postId}`,
        body: { spoilerRanges: [{ offset: 100, length: 1 }], isSpoilerMedia: 'no' },
        paths: ['spoilerRanges.0', 'isSpoilerMedia'],
      },
      // Edit Entire Thread
      {
        name: 'edit thread: every post checked',
        method: 'PUT',
        url: `${posts}/${threadId}/edit`,
        body: { posts: [{ topic: 'x' }, { id: 'not-a-post', text: 'ok' }, { text: '  ' }, { text: 'ok', topic: 3 }] },
        paths: ['posts.0.text', 'posts.1.id', 'posts.2.text', 'posts.3.topic'],
      },
      // Reschedule and Retry (one field each)
      { name: 'reschedule: a number', method: 'PUT', url: `${posts}/${threadId}/reschedule`, body: { scheduleAt: 5 }, paths: ['scheduleAt'] },
      { name: 'reschedule: missing', method: 'PUT', url: `${posts}/${threadId}/reschedule`, body: {}, paths: ['scheduleAt'] },
      { name: 'retry: a boolean', method: 'POST', url: `${posts}/${threadId}/retry`, body: { scheduleAt: false }, paths: ['scheduleAt'] },
      // Tags
      {
        name: 'tags: a number, an empty name and a long one',
        method: 'PUT',
        url: `${posts}/${threadId}/tags`,
        body: { tagNames: [5, '  ', 'ok', 'x'.repeat(51)] },
        paths: ['tagNames.0', 'tagNames.1', 'tagNames.3'],
      },
      // Account
      {
        name: 'account: an unknown zone and a malformed team',
        method: 'PATCH',
        url: '/api/v1/account',
        body: { timezone: 'Mars/Base', activeTeamId: 5 },
        paths: ['timezone', 'activeTeamId'],
      },
      // Auto-plug
      {
        name: 'auto-plug: shape, text and minLikes faults',
        method: 'PUT',
        url: '/api/v1/auto-plug',
        body: { enabled: 'yes', text: 'x'.repeat(600), minLikes: 0 },
        paths: ['enabled', 'text', 'minLikes'],
      },
      // Connect Bluesky
      {
        name: 'providers/bluesky: shape, empty password and a bad service',
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        body: { identifier: 5, appPassword: '  ', service: 'ftp://pds.example' },
        paths: ['identifier', 'appPassword', 'service'],
      },
      // Keys (one field)
      { name: 'keys: a number', method: 'POST', url: '/api/v1/keys', body: { name: 5 }, paths: ['name'] },
      { name: 'keys: missing', method: 'POST', url: '/api/v1/keys', body: {}, paths: ['name'] },
    ];

    const before = await rowCounts(ctx);
    for (const c of cases) {
      const res = await user.call(app, { method: c.method, url: c.url, payload: c.body as object });
      assert.equal(res.statusCode, 400, `${c.name}: ${res.body.slice(0, 500)}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/, c.name);
      const problem = res.json();
      assert.equal(problem.code, c.code ?? 'VALIDATION_FAILED', c.name);
      assert.equal(problem.status, 400, c.name);
      for (const e of problem.errors) assert.ok(typeof e.message === 'string' && e.message.length > 0, `${c.name}: ${JSON.stringify(e)}`);
      const found = [...new Set(problem.errors.map((e: { path: string }) => e.path))].sort();
      assert.deepEqual(found, [...c.paths].sort(), `${c.name}: ${JSON.stringify(problem.errors)}`);
    }
    assert.deepEqual(await rowCounts(ctx), before);
  });

  test('12 faults: errors lists all 12, the one-line detail the first ten', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account, 'THREADS');
    const res = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: threads.id, posts: Array.from({ length: 12 }, (_, i) => (i % 2 ? { text: ' ' } : { text: 1 })) },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
      Array.from({ length: 12 }, (_, i) => `posts.${i}.text`).sort(),
    );
    const detail: string = res.json().detail;
    assert.match(detail, /; and 2 more$/);
    assert.equal(detail.split('; ').length, 11, detail);
  });

  test('a value that fits no branch of a union is one fault, not one per branch', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account, 'THREADS');
    const res = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: threads.id, posts: [{ text: 'a', topic: 5 }] } });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json().errors, [{ path: 'posts.0.topic', message: 'must be string or null' }]);
  });
});
