import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  checkAutoRepostDelay,
  checkPost,
  checkQuotesDisabled,
  checkReplyControl,
  checkSpoilerRanges,
  checkText,
} from '../../../src/services/threads/content-rules.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

test('THREADS text: at most 500 UTF-8 bytes, whatever the characters', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 }), (text) => {
      const faults = checkText({ kind: 'THREADS', limits: null }, text, 'posts.0.text');
      const bytes = new TextEncoder().encode(text).length;
      const blank = text.trim() === '';
      assert.equal(faults.length > 0, blank || bytes > 500, `${bytes} bytes`);
      for (const f of faults) assert.equal(f.path, 'posts.0.text');
    }),
  );
});

test('BLUESKY text: at most 300 graphemes and 3000 bytes', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 400 }), (text) => {
      const graphemes = [...segmenter.segment(text)].length;
      const bytes = new TextEncoder().encode(text).length;
      const faults = checkText({ kind: 'BLUESKY', limits: null }, text, 't');
      assert.equal(faults.length > 0, text.trim() === '' || graphemes > 300 || bytes > 3000);
    }),
  );
  // A family emoji is one grapheme of 25 bytes: 120 of them are 120 graphemes but 3000 bytes.
  const family = '👨‍👩‍👧‍👦';
  assert.equal(checkText({ kind: 'BLUESKY', limits: null }, family.repeat(120), 't').length, 0);
  assert.equal(checkText({ kind: 'BLUESKY', limits: null }, family.repeat(121), 't').length, 1);
  assert.equal(checkText({ kind: 'BLUESKY', limits: null }, 'é'.repeat(300), 't').length, 0);
  assert.equal(checkText({ kind: 'THREADS', limits: null }, '’'.repeat(166), 't').length, 0); // 498 bytes
  assert.equal(checkText({ kind: 'THREADS', limits: null }, '’'.repeat(167), 't').length, 1); // 501 bytes
});

test('spoiler ranges: inside the text (UTF-16), non-overlapping, THREADS only', () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.array(fc.record({ offset: fc.integer({ min: -2, max: 70 }), length: fc.integer({ min: -1, max: 20 }) }), { maxLength: 10 }),
      (text, ranges) => {
        const faults = checkSpoilerRanges('THREADS', ranges, text, 's');
        const inside = ranges.every((r) => r.offset >= 0 && r.length >= 1 && r.offset + r.length <= text.length);
        const sorted = [...ranges].sort((a, b) => a.offset - b.offset);
        const disjoint = sorted.every((r, i) => i === 0 || r.offset >= sorted[i - 1]!.offset + sorted[i - 1]!.length);
        assert.equal(faults.length === 0, inside && disjoint, JSON.stringify({ text, ranges, faults }));
        assert.deepEqual(checkSpoilerRanges('BLUESKY', ranges, text, 's'), []);
      },
    ),
  );
});

test('auto-repost delay: exactly one whole number of hours 1..168 as a string', () => {
  assert.deepEqual(checkAutoRepostDelay(['6'], 'd'), { hours: 6, faults: [] });
  assert.equal(checkAutoRepostDelay(['168'], 'd').hours, 168);
  for (const bad of [[], ['1', '2'], ['0'], ['169'], ['1.5'], ['-1'], [' 6'], ['six']]) {
    assert.equal(checkAutoRepostDelay(bad, 'd').faults.length, 1, JSON.stringify(bad));
  }
});

test('posts: media limits per network and http(s) URLs', () => {
  const media = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://x.example/${i}.png` }));
  assert.deepEqual(checkPost({ kind: 'THREADS', limits: null }, { text: 'x', media: media(20) }, 'p'), []);
  assert.equal(checkPost({ kind: 'THREADS', limits: null }, { text: 'x', media: media(21) }, 'p')[0]!.path, 'p.media');
  assert.deepEqual(checkPost({ kind: 'BLUESKY', limits: null }, { text: 'x', media: media(4) }, 'p'), []);
  assert.equal(checkPost({ kind: 'BLUESKY', limits: null }, { text: 'x', media: media(5) }, 'p')[0]!.path, 'p.media');
  for (const url of ['javascript:alert(1)', 'ftp://x/a.png', '/relative.png', 'https://']) {
    assert.equal(checkPost({ kind: 'THREADS', limits: null }, { text: 'x', media: [{ url }] }, 'p')[0]!.path, 'p.media.0.url', url);
  }
});

test('X text: 280 by the weighted count (a link 23, an emoji 2), or the account’s own limit', () => {
  const x = { kind: 'X', limits: null } as const;
  assert.deepEqual(checkText(x, 'a'.repeat(280), 't'), []);
  assert.equal(checkText(x, 'a'.repeat(281), 't')[0]!.path, 't');
  assert.deepEqual(checkText(x, '😀'.repeat(140), 't'), []);
  assert.equal(checkText(x, '😀'.repeat(141), 't').length, 1);
  // A link counts 23 however long it is.
  assert.deepEqual(checkText(x, `${'a'.repeat(256)} https://example.com/${'p'.repeat(200)}`, 't'), []);
  const premium = { kind: 'X', limits: { maxCharacters: 25_000 } } as unknown as Parameters<typeof checkText>[0];
  assert.deepEqual(checkText(premium, 'a'.repeat(25_000), 't'), []);
  assert.equal(checkText(premium, 'a'.repeat(25_001), 't').length, 1);
});

test('X posts: up to 4 media, a poll without media, quotes of X posts only', () => {
  const x = { kind: 'X', limits: null } as const;
  const media = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://cdn.example/${i}.png` }));
  assert.deepEqual(checkPost(x, { text: 'x', media: media(4) }, 'p'), []);
  assert.equal(checkPost(x, { text: 'x', media: media(5) }, 'p')[0]!.path, 'p.media');
  const faults = checkPost(x, { text: 'x', media: media(1), poll: { options: ['a', 'b'] }, quote: 'https://bsky.app/profile/a/post/b' }, 'p');
  assert.deepEqual(faults.map((f) => f.path).sort(), ['p.poll', 'p.quote']);
  assert.deepEqual(checkPost(x, { text: 'x', quote: 'https://twitter.com/jack/status/20' }, 'p'), []);
  assert.deepEqual(
    checkReplyControl('X', 'followers', 'r').map((f) => f.path),
    ['r'],
  );
  assert.deepEqual(
    checkReplyControl('X', 'nobody', 'r').map((f) => f.path),
    ['r'],
  );
  assert.deepEqual(checkReplyControl('X', 'mentioned', 'r'), []);
  // Accepted and ignored on X.
  assert.deepEqual(checkQuotesDisabled('X', true, 'q'), []);
});

test('LINKEDIN: 3,000 for the post, 1,250 for a comment; its media, poll and options', () => {
  const li = { kind: 'LINKEDIN', limits: null } as const;
  assert.deepEqual(checkText(li, 'a'.repeat(3000), 't'), []);
  assert.equal(checkText(li, 'a'.repeat(3001), 't').length, 1);
  assert.deepEqual(checkText(li, 'a'.repeat(1250), 't', null, 1), []);
  assert.match(checkText(li, 'a'.repeat(1251), 't', null, 1)[0]!.message, /at most 1250 on a post after the first/);
  const media = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://cdn.example/${i}.png` }));
  assert.deepEqual(checkPost(li, { text: 'x', media: media(20) }, 'p'), []);
  assert.equal(checkPost(li, { text: 'x', media: media(21) }, 'p')[0]!.path, 'p.media');
  assert.deepEqual(checkPost(li, { text: 'x', media: media(1) }, 'p', 1), []);
  assert.equal(checkPost(li, { text: 'x', media: media(2) }, 'p', 1)[0]!.path, 'p.media');
  const poll = { options: ['a', 'b'] };
  assert.deepEqual(checkPost(li, { text: 'x', poll: { ...poll, question: 'Which?' } }, 'p'), []);
  assert.deepEqual(
    checkPost(li, { text: 'x', poll }, 'p').map((f) => f.path),
    ['p.poll.question'],
  );
  assert.deepEqual(
    checkPost(li, { text: 'x', poll: { ...poll, question: 'q'.repeat(141) } }, 'p').map((f) => f.path),
    ['p.poll.question'],
  );
  assert.deepEqual(
    checkPost(li, { text: 'x', poll: { ...poll, question: 'Which?' } }, 'p', 1).map((f) => f.path),
    ['p.poll'],
  );
  // Other networks ignore a question, and need none.
  assert.deepEqual(checkPost({ kind: 'THREADS', limits: null }, { text: 'x', poll: { ...poll, question: 'q'.repeat(500) } }, 'p'), []);
  assert.deepEqual(
    checkPost(li, { text: 'x', quote: 'https://www.linkedin.com/feed/update/urn:li:share:1' }, 'p').map((f) => f.path),
    ['p.quote'],
  );
  assert.deepEqual(
    checkQuotesDisabled('LINKEDIN', true, 'q').map((f) => f.path),
    ['q'],
  );
  assert.deepEqual(checkQuotesDisabled('LINKEDIN', false, 'q'), []);
  assert.deepEqual(checkReplyControl('LINKEDIN', 'nobody', 'r'), []);
  assert.deepEqual(
    checkReplyControl('LINKEDIN', 'following', 'r').map((f) => f.path),
    ['r'],
  );
});
