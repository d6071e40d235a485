/**
 * GET /api/v1/networks (decisions.md "Networks in one place"): each network's facts as the
 * registry (src/networks/) holds them, for any valid key; without one, 401.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NETWORK_KINDS } from '../../src/networks/index.js';
import { describeEachDb } from '../helpers/context.js';
import { createUser } from '../helpers/seeds.js';

const LIMIT_FIELDS = ['textPerPost', 'postsPerThread', 'mediaPerPost', 'imagesPerPost', 'videosPerPost', 'imageBytes', 'videoBytes', 'videoSeconds'];

describeEachDb('GET /api/v1/networks', (env) => {
  test('answers every network of the registry, with its limits, the options it takes and how it connects', async () => {
    const user = await createUser(env().ctx);
    const res = await user.call(env().app, { method: 'GET', url: '/api/v1/networks' });
    assert.equal(res.statusCode, 200, res.body);
    const { networks } = res.json() as { networks: { kind: string; limits: Record<string, unknown> }[] };
    assert.deepEqual(
      networks.map((n) => n.kind),
      NETWORK_KINDS,
    );
    for (const n of networks) assert.deepEqual(Object.keys(n.limits).sort(), [...LIMIT_FIELDS].sort(), n.kind);
    assert.deepEqual(res.json(), {
      networks: [
        {
          kind: 'THREADS',
          name: 'Threads',
          limits: {
            textPerPost: 500,
            postsPerThread: 25,
            mediaPerPost: 20,
            imagesPerPost: 20,
            videosPerPost: 20,
            imageBytes: 8 * 1024 * 1024,
            videoBytes: 1024 ** 3,
            videoSeconds: 300,
          },
          options: ['replyControl', 'quote', 'poll'],
          connect: ['oauth', 'token'],
        },
        {
          kind: 'BLUESKY',
          name: 'Bluesky',
          limits: {
            textPerPost: 300,
            postsPerThread: 25,
            mediaPerPost: 4,
            imagesPerPost: 4,
            videosPerPost: 1,
            imageBytes: 1_000_000,
            videoBytes: 100_000_000,
            videoSeconds: 180,
          },
          options: ['replyControl', 'quotesDisabled', 'quote', 'langs'],
          connect: ['appPassword'],
        },
        {
          kind: 'MASTODON',
          name: 'Mastodon',
          limits: {
            textPerPost: 500,
            postsPerThread: 25,
            mediaPerPost: 4,
            imagesPerPost: 4,
            videosPerPost: 1,
            imageBytes: 16 * 1024 * 1024,
            videoBytes: 99 * 1024 * 1024,
            videoSeconds: null,
          },
          options: ['langs', 'contentWarning'],
          connect: ['oauth', 'token'],
        },
        {
          kind: 'X',
          name: 'X',
          limits: {
            textPerPost: 280,
            postsPerThread: 25,
            mediaPerPost: 4,
            imagesPerPost: 4,
            videosPerPost: 1,
            imageBytes: 5_000_000,
            videoBytes: 512_000_000,
            videoSeconds: 140,
          },
          options: ['replyControl', 'quote', 'poll'],
          connect: ['oauth', 'token'],
        },
        {
          kind: 'LINKEDIN',
          name: 'LinkedIn',
          limits: {
            textPerPost: 3000,
            postsPerThread: 25,
            mediaPerPost: 20,
            imagesPerPost: 20,
            videosPerPost: 1,
            imageBytes: 8 * 1024 * 1024,
            videoBytes: 500_000_000,
            videoSeconds: 1800,
          },
          options: ['replyControl', 'poll'],
          connect: ['oauth', 'token'],
        },
      ],
    });
  });

  test('without a key, or with a wrong one, is 401', async () => {
    const anonymous = await env().app.inject({ method: 'GET', url: '/api/v1/networks' });
    assert.equal(anonymous.statusCode, 401, anonymous.body);
    const wrong = await env().app.inject({ method: 'GET', url: '/api/v1/networks', headers: { authorization: 'Bearer sk_not_a_key' } });
    assert.equal(wrong.statusCode, 401, wrong.body);
  });
});
