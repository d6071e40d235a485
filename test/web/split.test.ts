/**
 * The "several accounts" split (web/src/split.ts) with the editor's own counter (text-rules.ts)
 * as `fits`, checked against the server's content rules (src/services/content-rules.ts): fast-check
 * texts of words, sentences, paragraphs, emoji (ZWJ families, flags, combining accents), links,
 * mentions and words longer than a whole post, on Threads (500 bytes), Bluesky (300 graphemes)
 * and Mastodon servers of 40 to 600 characters. No text is lost or reordered, every part is one
 * the server accepts (or a single link or mention that alone is too long), links and mentions are
 * never cut, and no cut falls inside a grapheme.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { NetworkLimits } from '../../src/db/schema/providers.js';
import { checkText } from '../../src/services/threads/content-rules.js';
import type { Network } from '../../web/src/api/providers.js';
import { splitText, UNCUTTABLE } from '../../web/src/split.js';
import { countText } from '../../web/src/text-rules.js';

const word = fc.stringMatching(/^[a-zA-Zàé]{1,12}$/);
const emoji = fc.constantFrom('👩‍👩‍👧‍👦', '🇵🇹', 'e\u0301', '🙂', '中文', '👍🏽');
const link = fc.stringMatching(/^[a-z0-9/]{0,80}$/).map((path) => `https://example.com/${path}`);
const mention = fc.constantFrom('@alice.bsky.social', '@bob@mastodon.social', '@carol', 'dave@example.org');
const longWord = fc.integer({ min: 200, max: 900 }).chain((n) => fc.constantFrom('a', 'é', '🙂', '👩‍👩‍👧').map((g) => g.repeat(n)));
const token = fc.oneof(
  { weight: 12, arbitrary: word },
  { weight: 2, arbitrary: emoji },
  { weight: 1, arbitrary: link },
  { weight: 1, arbitrary: mention },
  { weight: 2, arbitrary: fc.constantFrom('.', '!', '?', '…', '."') },
  { weight: 1, arbitrary: longWord },
);
const gap = fc.constantFrom(' ', ' ', ' ', '\n', '\n\n', '  ', '\t');
const text = fc
  .array(fc.tuple(token, gap), { minLength: 1, maxLength: 400 })
  .map((pairs) => pairs.map(([t, g]) => t + g).join(''))
  .map((t) => t.replace(/ ([.!?…])/g, '$1'));

const network = fc.oneof(
  fc.constant({ kind: 'THREADS' as Network, server: null }),
  fc.constant({ kind: 'BLUESKY' as Network, server: null }),
  fc.integer({ min: 40, max: 600 }).map((maxCharacters) => ({
    kind: 'MASTODON' as Network,
    server: { maxCharacters, charactersReservedPerUrl: 23, maxMediaAttachments: 4, imageSizeLimit: null, videoSizeLimit: null, descriptionLimit: null },
  })),
);

const serverAccepts = (kind: Network, part: string, server: NetworkLimits | null) => checkText({ kind, limits: server }, part, 'text').length === 0;

/** Each part's place in the text: the parts must be its own slices, in order, apart only by white space. */
function places(source: string, parts: string[]): { start: number; end: number }[] {
  if (parts.length === 1 && parts[0] === source) return [{ start: 0, end: source.length }];
  const found: { start: number; end: number }[] = [];
  let pos = 0;
  for (const part of parts) {
    assert.ok(part.length > 0, 'an empty part');
    const start = pos + (/^\s*/.exec(source.slice(pos))?.[0].length ?? 0);
    // A part may follow the previous one without a gap only where a long word was cut.
    assert.equal(source.slice(start, start + part.length), part, `part ${found.length} is not the text that follows`);
    found.push({ start, end: start + part.length });
    pos = start + part.length;
  }
  assert.match(source.slice(pos), /^\s*$/, 'text left over after the last part');
  return found;
}

function graphemeBoundaries(source: string): Set<number> {
  const ends = new Set([0]);
  for (const s of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(source)) ends.add(s.index + s.segment.length);
  return ends;
}

test('split: no text lost or reordered, every part within the limit, links and mentions whole, graphemes kept', () => {
  fc.assert(
    fc.property(text, network, (source, { kind, server }) => {
      const fits = (part: string) => !countText(kind, part, server).over;
      const parts = splitText(source, fits);
      const spans = places(source, parts);
      const boundaries = graphemeBoundaries(source);
      spans.forEach(({ start, end }, i) => {
        const part = parts[i]!;
        const alone = !/\s/.test(part) && UNCUTTABLE.test(part);
        assert.ok(serverAccepts(kind, part, server) || alone, `part ${i} of ${parts.length} is refused by the server: ${JSON.stringify(part.slice(0, 40))}…`);
        assert.ok(boundaries.has(start) && boundaries.has(end), `part ${i} cuts a grapheme`);
      });
      for (const m of source.matchAll(/\S+/g)) {
        if (!UNCUTTABLE.test(m[0])) continue;
        const inside = spans.some(({ start, end }) => start <= m.index && m.index + m[0].length <= end);
        assert.ok(inside, `${m[0]} is cut`);
      }
    }),
    { numRuns: 300 },
  );
});

test('split: a text that fits is one part, as typed', () => {
  const fits = (part: string) => !countText('BLUESKY', part).over;
  assert.deepEqual(splitText('  Hello there.\n', fits), ['  Hello there.\n']);
});

test('split: at the last sentence end that fits, else at a word end; a long word between graphemes', () => {
  const within = (n: number) => (part: string) => [...new Intl.Segmenter().segment(part)].length <= n;
  assert.deepEqual(splitText('One two three. Four five six seven.', within(20)), ['One two three.', 'Four five six seven.']);
  // The sentence end would keep less than half of what fits: a word end instead.
  assert.deepEqual(splitText('Hi. Aaa bbb ccc ddd eee fff', within(20)), ['Hi. Aaa bbb ccc ddd', 'eee fff']);
  // A paragraph break ends a sentence too.
  assert.deepEqual(splitText('First line\nSecond line here', within(20)), ['First line', 'Second line here']);
  assert.deepEqual(splitText('👩‍👩‍👧'.repeat(5), within(2)), ['👩‍👩‍👧👩‍👩‍👧', '👩‍👩‍👧👩‍👩‍👧', '👩‍👩‍👧']);
  // A link longer than a part stays whole, in a part of its own.
  const url = `https://example.com/${'x'.repeat(30)}`;
  assert.deepEqual(splitText(`See ${url} now`, within(20)), ['See', url, 'now']);
});
