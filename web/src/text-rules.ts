import type { Network } from './api/providers.js';

/**
 * The networks' text limits, counted as the server counts them (src/lib/text.ts and
 * src/services/content-rules.ts, which use Node's Buffer and so cannot be bundled): Threads 500
 * UTF-8 bytes; Bluesky 300 graphemes and 3,000 bytes. test/web/text-rules.test.ts compares both.
 */

const TEXT_LIMITS: Record<Exclude<Network, 'MASTODON'>, { bytes: number; graphemes: number | null }> = {
  THREADS: { bytes: 500, graphemes: null },
  BLUESKY: { bytes: 3000, graphemes: 300 },
};

/** A Mastodon server's own limit (read from it at connect); a link counts as `charactersReservedPerUrl`. */
interface ServerTextLimit {
  maxCharacters: number;
  charactersReservedPerUrl: number;
}

const MASTODON_DEFAULT: ServerTextLimit = { maxCharacters: 500, charactersReservedPerUrl: 23 };
const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/gi;
const MENTION_DOMAIN = /(@[a-z0-9_]+)@[a-z0-9.-]+\.[a-z]{2,}/gi;

const encoder = new TextEncoder();
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

export function graphemes(text: string): number {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

export interface TextCount {
  /** What the counter shows, e.g. "120 / 500 bytes". */
  label: string;
  over: boolean;
  empty: boolean;
}

/** The counter of one post's text on one network: the measure that is closest to its limit. */
export function countText(network: Network, text: string, server: ServerTextLimit | null = null): TextCount {
  if (network === 'MASTODON') return countMastodon(text, server ?? MASTODON_DEFAULT);
  const limits = TEXT_LIMITS[network];
  const bytes = utf8Bytes(text);
  const empty = text.trim() === '';
  if (limits.graphemes === null) return { label: `${bytes} / ${limits.bytes} bytes`, over: bytes > limits.bytes, empty };
  const chars = graphemes(text);
  const overBytes = bytes > limits.bytes;
  const label = overBytes ? `${bytes} / ${limits.bytes} bytes` : `${chars} / ${limits.graphemes} characters`;
  return { label, over: overBytes || chars > limits.graphemes, empty };
}

/** As the server counts (src/services/content-rules.ts): graphemes, a link as the server's reserved length, `@user@domain` as `@user`. */
function countMastodon(text: string, limit: ServerTextLimit): TextCount {
  const chars = graphemes(text.replace(URL_IN_TEXT, 'x'.repeat(limit.charactersReservedPerUrl)).replace(MENTION_DOMAIN, '$1'));
  return { label: `${chars} / ${limit.maxCharacters} characters`, over: chars > limit.maxCharacters, empty: text.trim() === '' };
}
