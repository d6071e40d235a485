import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { XRPCError } from '@atproto/api';
import { retryAfterMs, toPublishError } from '../../../src/networks/bluesky/errors.js';
import { buildFacets, type Facet } from '../../../src/networks/bluesky/facets.js';

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** The text a facet covers, cut by its UTF-8 byte offsets. */
function covered(text: string, facet: Facet): string {
  return utf8(text).subarray(facet.index.byteStart, facet.index.byteEnd).toString('utf8');
}

describe('buildFacets', () => {
  const dids: Record<string, string> = { 'bob.test': 'did:plc:bob' };
  const resolve = async (handle: string) => dids[handle] ?? null;

  test('links, tags and mentions get UTF-8 byte offsets, also after emoji', async () => {
    const text = '✨ hi @bob.test 👨‍❤️‍👨 read https://example.com/a?b=c #skein 🇯🇵 #日本';
    const facets = await buildFacets(text, resolve);
    assert.deepEqual(
      facets.map((f) => [covered(text, f), f.features[0]]),
      [
        ['@bob.test', { $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:bob' }],
        ['https://example.com/a?b=c', { $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/a?b=c' }],
        ['#skein', { $type: 'app.bsky.richtext.facet#tag', tag: 'skein' }],
        ['#日本', { $type: 'app.bsky.richtext.facet#tag', tag: '日本' }],
      ],
    );
    // ✨ is 3 bytes, so "@" starts at byte 3 + 1 + 2 + 1 = 7.
    assert.deepEqual(facets[0]!.index, { byteStart: 7, byteEnd: 16 });
  });

  test('the docs’ example offsets', async () => {
    const text = '✨ example mentioning @atproto.com to share the URL 👨‍❤️‍👨 https://en.wikipedia.org/wiki/CBOR.';
    const facets = await buildFacets(text, async () => 'did:plc:atproto');
    assert.deepEqual(
      facets.map((f) => [f.index.byteStart, f.index.byteEnd]),
      [
        [23, 35],
        [74, 108],
      ],
    );
  });

  test('drops mentions that do not resolve and keeps the rest', async () => {
    const text = '@ghost.test and @bob.test';
    const facets = await buildFacets(text, resolve);
    assert.equal(facets.length, 1);
    assert.equal(covered(text, facets[0]!), '@bob.test');
  });

  test('resolves each handle once', async () => {
    let calls = 0;
    await buildFacets('@bob.test @bob.test @bob.test', async (h) => {
      calls++;
      return dids[h] ?? null;
    });
    assert.equal(calls, 1);
  });

  test('plain text has no facets; resolver outages propagate', async () => {
    assert.deepEqual(await buildFacets('just words, no links', resolve), []);
    await assert.rejects(
      buildFacets('hi @bob.test', async () => Promise.reject(new XRPCError(502, 'UpstreamFailure'))),
      XRPCError,
    );
  });
});

describe('toPublishError', () => {
  const now = 1_800_000_000_000;

  test('429 is transient with the reset time, not outcome-unknown', () => {
    const err = toPublishError(new XRPCError(429, 'RateLimitExceeded', 'Rate Limit Exceeded', { 'ratelimit-reset': String(now / 1000 + 90) }), 'publish', now);
    assert.equal(err.kind, 'transient');
    assert.equal(err.code, 'RATE_LIMITED');
    assert.equal(err.options.retryAfterMs, 90_000);
    assert.equal(err.options.outcomeUnknown, false);
  });

  test('Retry-After wins; a small RateLimit-Reset is a delay', () => {
    assert.equal(retryAfterMs({ 'retry-after': '7', 'ratelimit-reset': String(now / 1000 + 90) }, now), 7000);
    assert.equal(retryAfterMs({ 'RateLimit-Reset': '30' }, now), 30_000);
    assert.equal(retryAfterMs({}, now), undefined);
  });

  test('5xx, network failures and unknown errors are transient with unknown outcome', () => {
    for (const cause of [new XRPCError(500, 'InternalServerError'), new XRPCError(503), new XRPCError(1, undefined, 'fetch failed'), new TypeError('boom')]) {
      const err = toPublishError(cause, 'publish', now);
      assert.equal(err.kind, 'transient');
      assert.equal(err.options.outcomeUnknown, true);
    }
  });

  test('token and account problems are auth errors', () => {
    for (const name of ['ExpiredToken', 'InvalidToken', 'AuthenticationRequired', 'AccountTakedown', 'AuthMissing']) {
      const status = name === 'ExpiredToken' || name === 'InvalidToken' ? 400 : 401;
      assert.equal(toPublishError(new XRPCError(status, name), 'publish', now).kind, 'auth', name);
    }
  });

  test('request and record validation errors are permanent', () => {
    const tooLong = toPublishError(
      new XRPCError(400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes'),
      'publish',
      now,
    );
    assert.equal(tooLong.kind, 'permanent');
    assert.equal(tooLong.code, 'REJECTED');
    assert.match(tooLong.message, /300 graphemes/);
    const blob = toPublishError(new XRPCError(400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: blob too big'), 'publish', now);
    assert.equal(blob.code, 'INVALID_MEDIA');
    assert.equal(toPublishError(new XRPCError(413, 'PayloadTooLarge'), 'publish', now).code, 'INVALID_MEDIA');
  });
});
