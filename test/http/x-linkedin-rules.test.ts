import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context.js';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { describeEachDb } from '../helpers/context.js';
import { gifBytes, mp4Bytes, noisyPngBytes, pngBytes } from '../helpers/media-files.js';
import { createProvider, createUser, rowCounts, type TestUser } from '../helpers/seeds.js';

const AT = '2026-12-01T00:00:00Z';

async function provider(ctx: AppContext, user: TestUser, kind: 'X' | 'LINKEDIN') {
  return addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
    kind,
    providerUserId: `${kind.toLowerCase()}-${randomBytes(4).toString('hex')}`,
    username: `user_${randomBytes(3).toString('hex')}`,
    accessToken: `token-${randomBytes(8).toString('hex')}`,
  });
}

async function upload(app: FastifyInstance, user: TestUser, bytes: Buffer, type: string): Promise<string> {
  const res = await user.call(app, { method: 'POST', url: '/api/v1/media', headers: { 'content-type': type }, payload: bytes });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().url;
}

function faults(body: { errors: Array<{ path: string; message: string }> }): Record<string, string[]> {
  const byPath: Record<string, string[]> = {};
  for (const e of body.errors) byPath[e.path] = [...(byPath[e.path] ?? []), e.message];
  return byPath;
}

describeEachDb('X and LinkedIn content rules at create', (env) => {
  test('X: every fault in one answer at its field, nothing written', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const x = await provider(ctx, user, 'X');
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const quoted = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: bluesky.id, scheduleAt: AT, posts: [{ text: 'q' }] } });
    const quotedId = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${quoted.json().threadId}` })).json().thread.posts[0].id;
    const image = await upload(app, user, await pngBytes(), 'image/png');
    const gif = await upload(app, user, await gifBytes(), 'image/gif');
    const video = await upload(app, user, mp4Bytes({ durationMs: 4000 }), 'video/mp4');
    const before = await rowCounts(ctx);
    const res = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: {
        providerId: x.id,
        scheduleAt: AT,
        replyControl: 'followers',
        posts: [
          { text: '😀'.repeat(141) },
          { text: 'five', media: [1, 2, 3, 4, 5].map((n) => ({ url: `https://cdn.example/${n}.png` })) },
          { text: 'mixed', media: [{ url: image }, { url: video }] },
          { text: 'gif', media: [{ url: gif }, { url: image }] },
          { text: 'poll', media: [{ url: image }], poll: { options: ['a', 'b'] } },
          { text: 'quote', quote: 'https://bsky.app/profile/a/post/b' },
          { text: 'quote', quote: quotedId },
        ],
      },
    });
    assert.equal(res.statusCode, 400, res.body);
    const found = faults(res.json());
    assert.deepEqual(Object.keys(found).sort(), [
      'posts.0.text',
      'posts.1.media',
      'posts.2.media',
      'posts.3.media',
      'posts.4.poll',
      'posts.5.quote',
      'posts.6.quote',
      'replyControl',
    ]);
    assert.match(found['posts.0.text']![0]!, /weighted count/);
    assert.match(found['posts.2.media']![0]!, /a video among them/);
    assert.match(found['posts.3.media']![0]!, /a GIF among them/);
    assert.match(found['posts.6.quote']![0]!, /post on BLUESKY/);
    assert.deepEqual(await rowCounts(ctx), before);
    const nobody = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: x.id, replyControl: 'nobody', posts: [{ text: 'a' }] },
    });
    assert.deepEqual(Object.keys(faults(nobody.json())), ['replyControl']);
    // What X takes: 4 images, a GIF alone, a quote of an X post, quotesDisabled ignored.
    const fine = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: {
        providerId: x.id,
        quotesDisabled: true,
        posts: [
          { text: 'a'.repeat(280), media: [1, 2, 3, 4].map((n) => ({ url: `https://cdn.example/${n}.png` })) },
          { text: 'gif', media: [{ url: gif }] },
          { text: 'q', quote: 'https://x.com/XDevelopers/status/1445880548472328192' },
        ],
      },
    });
    assert.equal(fine.statusCode, 201, fine.body);
  });

  test('X: an image over 5 MB is refused at create, at its field; one under it is taken, and the big one on a network that scales images', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const x = await provider(ctx, user, 'X');
    // 1,500 × 1,200 pixels of noise: about 5.4 MB, under the upload's own 8 MiB.
    const big = await upload(app, user, await noisyPngBytes(1500, 1200), 'image/png');
    const small = await upload(app, user, await noisyPngBytes(1000, 1000), 'image/png');
    const before = await rowCounts(ctx);
    const res = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: x.id, scheduleAt: AT, posts: [{ text: 'big', media: [{ url: small }, { url: big }] }] },
    });
    assert.equal(res.statusCode, 400, res.body);
    const found = faults(res.json());
    assert.deepEqual(Object.keys(found), ['posts.0.media.1.url']);
    assert.match(found['posts.0.media.1.url']![0]!, /is an image of \d+ bytes; X takes images of at most 5000000 bytes/);
    assert.deepEqual(await rowCounts(ctx), before);
    const fine = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: x.id, scheduleAt: AT, posts: [{ text: 'small', media: [{ url: small }] }] },
    });
    assert.equal(fine.statusCode, 201, fine.body);
    // The same image for a network that scales images to fit at publish: taken.
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const scaled = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: bluesky.id, scheduleAt: AT, posts: [{ text: 'big', media: [{ url: big }] }] },
    });
    assert.equal(scaled.statusCode, 201, scaled.body);
  });

  test('LinkedIn: the post and its comments, poll question, options', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const li = await provider(ctx, user, 'LINKEDIN');
    const image = await upload(app, user, await pngBytes(), 'image/png');
    const video = await upload(app, user, mp4Bytes({ durationMs: 4000 }), 'video/mp4');
    const before = await rowCounts(ctx);
    const res = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: {
        providerId: li.id,
        scheduleAt: AT,
        replyControl: 'following',
        quotesDisabled: true,
        posts: [
          { text: 'a'.repeat(3001), media: [{ url: image }, { url: video }] },
          { text: 'b'.repeat(1251), media: [{ url: image }, { url: image }] },
          { text: 'c', media: [{ url: video }] },
          { text: 'd', poll: { options: ['a', 'b'], question: 'Which?' } },
          { text: 'e', quote: 'https://www.linkedin.com/feed/update/urn:li:share:1' },
        ],
      },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(Object.keys(faults(res.json())).sort(), [
      'posts.0.media',
      'posts.0.text',
      'posts.1.media',
      'posts.1.text',
      'posts.2.media',
      'posts.3.poll',
      'posts.4.quote',
      'quotesDisabled',
      'replyControl',
    ]);
    assert.deepEqual(await rowCounts(ctx), before);
    const noQuestion = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: li.id, posts: [{ text: 'p', poll: { options: ['a', 'b'] } }] },
    });
    assert.deepEqual(Object.keys(faults(noQuestion.json())), ['posts.0.poll.question']);
    const fine = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: {
        providerId: li.id,
        replyControl: 'nobody',
        posts: [
          { text: 'a'.repeat(3000), poll: { options: ['a', 'b'], question: 'Which?' } },
          { text: 'b'.repeat(1250), media: [{ url: image }] },
        ],
      },
    });
    assert.equal(fine.statusCode, 201, fine.body);
    const thread = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${fine.json().threadId}` })).json().thread;
    assert.equal(thread.posts[0].poll.question, 'Which?');
  });
});
