import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { graphemesUpTo } from '../../src/networks/text.js';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const exactGraphemes = (text: string) => [...segmenter.segment(text)].length;

// Pieces that make long clusters or context-dependent boundaries: combining marks, ZWJ emoji
// sequences, regional-indicator flags (paired from the start of a run), CR LF, Hangul jamo.
const piece = fc.constantFrom(
  'x',
  ' ',
  'e\u0301',
  '\u0301',
  '👩\u200d👩\u200d👧',
  '\u200d',
  '🇫🇷',
  '🇫',
  '\r\n',
  '\r',
  '\n',
  'ᄀ',
  'ᅡ',
  'ᆨ',
  '👍🏽',
  '\ud83d',
  'é',
);
const text = fc.array(piece, { maxLength: 2500 }).map((parts) => parts.join(''));

test('graphemesUpTo is the grapheme count, capped at max + 1', () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 0, max: 400 }), (t, max) => {
      assert.equal(graphemesUpTo(t, max), Math.min(exactGraphemes(t), max + 1));
    }),
    { numRuns: 300 },
  );
});

test('graphemesUpTo at the limit: 300 graphemes pass, 301 do not, whatever their length', () => {
  const cluster = `e${'\u0301'.repeat(40)}`;
  assert.equal(graphemesUpTo(cluster.repeat(300), 300), 300);
  assert.equal(graphemesUpTo(cluster.repeat(301), 300), 301);
  assert.equal(graphemesUpTo('🇫🇷'.repeat(300), 300), 300);
  assert.equal(graphemesUpTo(`${'🇫🇷'.repeat(300)}🇫`, 300), 301);
});
