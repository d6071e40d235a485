/** Counting text the way each network does (bluesky-api.md §12). */

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function graphemes(text: string): number {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

/** Whether a client's string holds U+0000, which PostgreSQL cannot store or compare: never look such an id up. */
export function holdsNul(value: string): boolean {
  return value.includes('\u0000');
}
