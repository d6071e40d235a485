import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import twitterText from 'twitter-text';
import { X, X_STATUS_URL } from '../../../src/networks/x/rules.js';

/** The measure without its wording (`how`, tested once below). */
const count = (text: string, options?: Parameters<typeof X.countText>[1]) => {
  const { how: _how, ...measure } = X.countText(text, options)[0]!;
  return measure;
};

test('a fault says how X counts (its weighted count)', () => {
  assert.match(X.countText('x')[0]!.how ?? '', /weighted/);
});

// Pieces whose weight X states (../shared/reference/x-api.md §9), separated by a space (1) so a
// URL never runs into what follows it.
const WEIGHED: ReadonlyArray<readonly [string, number]> = [
  ['a', 1],
  ['é', 1],
  ['e\u0301', 1],
  ['’', 1],
  ['—', 1],
  ['Ж', 1],
  ['…', 2],
  ['日', 2],
  ['한', 2],
  ['あ', 2],
  ['👍', 2],
  ['👍🏽', 2],
  ['🇯🇵', 2],
  ['❤️', 2],
  ['👨‍👩‍👧‍👦', 2],
  ['https://example.com/very/long/path?x=1', 23],
  ['example.com', 23],
  ['https://t.co/AbCdEfGhIj', 23],
];

test("X's weighted count: each piece weighs what X says, a URL 23 whatever its length", () => {
  const pieces = fc.array(fc.constantFrom(...WEIGHED), { minLength: 1, maxLength: 120 });
  fc.assert(
    fc.property(pieces, (chosen) => {
      const text = chosen.map(([piece]) => piece).join(' ');
      const expected = chosen.reduce((sum, [, weight]) => sum + weight, 0) + chosen.length - 1;
      assert.equal(count(text).count, expected, text);
    }),
    { numRuns: 300 },
  );
});

test("the count is twitter-text's on any text (URLs, CJK, emoji, lone surrogates); with upTo it stops at max + 1", () => {
  const piece = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 10 }),
    fc.constantFrom(' https://x.com/a/status/1 ', 'example.org', '日本語', '👩‍👩‍👧', '\ud83d', '@someone', '#tag', '$CASH'),
  );
  const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(text, fc.integer({ min: 1, max: 400 }), (t, max) => {
      const weighted = t === '' ? 0 : twitterText.parseTweet(t).weightedLength;
      assert.deepEqual(count(t), { unit: 'characters', count: weighted, max: 280 });
      assert.deepEqual(count(t, { upTo: true, server: { maxCharacters: max, charactersReservedPerUrl: 23 } }), {
        unit: 'characters',
        count: Math.min(weighted, max + 1),
        max,
      });
    }),
    { numRuns: 300 },
  );
});

test('the limits at the edge: 280 passes and 281 does not; a Premium account holds to its own 25,000', () => {
  const url = 'https://example.com/a/very/long/path';
  assert.equal(count(`${'x'.repeat(256)} ${url}`).count, 280);
  assert.equal(count(`${'x'.repeat(257)} ${url}`).count, 281);
  assert.equal(count('Thread 1/3 — see https://example.com/a/very/long/path?utm=x').count, 40);
  assert.equal(count('').count, 0);
  const premium = { server: { maxCharacters: 25_000, charactersReservedPerUrl: 23 } };
  assert.deepEqual(count('日'.repeat(12_500), premium), { unit: 'characters', count: 25_000, max: 25_000 });
  assert.equal(count('日'.repeat(20_000), { ...premium, upTo: true }).count, 25_001);
});

test("X's facts: limits, options and the quote references it takes", () => {
  assert.equal(X.kind, 'X');
  assert.deepEqual(X.limits, {
    textPerPost: 280,
    postsPerThread: 25,
    mediaPerPost: 4,
    imagesPerPost: 4,
    videosPerPost: 1,
    imageBytes: 5_000_000,
    videoBytes: 512_000_000,
    videoSeconds: 140,
  });
  assert.deepEqual(X.options.replyControls, ['everyone', 'following', 'mentioned']);
  assert.equal(X.options.polls, true);
  assert.deepEqual([X.options.quotesDisabled, X.options.langs, X.options.contentWarning], [false, 0, false]);
  assert.deepEqual(X.connect, ['oauth', 'token']);
  const id = (url: string) => X_STATUS_URL.exec(url)?.[1] ?? null;
  assert.equal(id('https://x.com/XDevelopers/status/1445880548472328192'), '1445880548472328192');
  assert.equal(id('https://twitter.com/jack/status/20?s=20'), '20');
  assert.equal(id('https://mobile.twitter.com/i/web/status/123'), '123');
  assert.equal(id('https://x.com/jack'), null);
  assert.equal(id('https://bsky.app/profile/a/post/3k'), null);
  assert.equal(id('http://x.com/jack/status/1'), null, 'https only');
  assert.ok(X.options.quote.references.some((r) => r.test(X.options.quote.example)));
});
