/**
 * Splitting a post that is too long for a network into a reply chain (the editor's "several
 * accounts" mode; docs/decisions.md "Write once for several accounts"). Pure: what fits is the
 * caller's `fits`, which counts as the network does (text-rules.ts, compared with the server's
 * rules by test/web/text-rules.test.ts).
 *
 * A part ends at the last sentence end that fits, unless that keeps less than half of what the
 * last fitting word end keeps (then at that word end); only a single word longer than a whole part
 * is cut inside, between graphemes, and never one holding a link or a mention (`@`), which stays
 * whole even when it alone is too long. Parts are the text's own slices in order; only the
 * whitespace where a part ends is dropped, so no text is lost or moved.
 */

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const SPACE = /\s/;
/** A sentence ends at `.`, `!`, `?` or `…`, maybe followed by closing quotes or brackets. */
const SENTENCE_END = /[.!?…。！？]['"”’»)\]]*$/;
/** A word that must never be cut: a link, or anything with `@` (mentions, addresses). */
export const UNCUTTABLE = /:\/\/|@/;

/** `text` as the parts of a reply chain, each one `fits` unless it is one uncuttable word. */
export function splitText(text: string, fits: (part: string) => boolean): string[] {
  if (fits(text)) return [text];
  const parts: string[] = [];
  let pos = skipSpace(text, 0);
  while (pos < text.length) {
    const rest = text.slice(pos);
    const end = fits(rest.trimEnd()) ? rest.trimEnd().length : partEnd(rest, fits);
    parts.push(rest.slice(0, end));
    pos = skipSpace(text, pos + end);
  }
  return parts;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && SPACE.test(text[i]!)) i++;
  return i;
}

/** Where the first part of `rest` (which does not fit whole, and starts with a word) ends. */
function partEnd(rest: string, fits: (part: string) => boolean): number {
  const wordEnds: number[] = [];
  const sentenceEnds: number[] = [];
  for (let i = 1; i < rest.length; i++) {
    if (!SPACE.test(rest[i]!) || SPACE.test(rest[i - 1]!)) continue;
    wordEnds.push(i);
    if (SENTENCE_END.test(rest.slice(Math.max(0, i - 4), i)) || /^\s*\n/.test(rest.slice(i))) sentenceEnds.push(i);
  }
  const byWord = lastFitting(wordEnds, rest, fits);
  const bySentence = lastFitting(sentenceEnds, rest, fits);
  if (bySentence !== null && byWord !== null && bySentence * 2 >= byWord) return bySentence;
  if (byWord !== null) return byWord;
  return cutFirstWord(rest, wordEnds[0] ?? rest.length, fits);
}

/** The largest end in `ends` (ascending) whose prefix fits; prefixes grow with their end, so a binary search. */
function lastFitting(ends: number[], rest: string, fits: (part: string) => boolean): number | null {
  let lo = 0;
  let hi = ends.length - 1;
  let best: number | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (fits(rest.slice(0, ends[mid]))) {
      best = ends[mid]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** A first word too long for a part: cut between graphemes (at least one), unless it must stay whole. */
function cutFirstWord(rest: string, wordEnd: number, fits: (part: string) => boolean): number {
  const word = rest.slice(0, wordEnd);
  if (UNCUTTABLE.test(word)) return wordEnd;
  const ends = [...segmenter.segment(word)].map((s) => s.index + s.segment.length);
  return lastFitting(ends, rest, fits) ?? ends[0]!;
}
