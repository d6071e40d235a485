import { NETWORKS } from '../../src/networks/index.js';
import type { Network as NetworkDefinition, ServerTextLimits } from '../../src/networks/network.js';
import type { Network, Provider } from './api/providers.js';

/**
 * The editor's counter of a post's text: the network's own count (its entry in src/networks/,
 * which the server's content rules use too), with what the counter shows.
 * test/web/text-rules.test.ts compares both.
 */

export { graphemes, utf8Bytes } from '../../src/networks/text.js';

export interface TextCount {
  /** What the counter shows, e.g. "120 / 500 bytes". */
  label: string;
  over: boolean;
  empty: boolean;
}

/**
 * What an account's text is counted against on a network whose accounts have their own limits
 * (`accountLimits`: a Mastodon server's, an X Premium account's): its own `limits.textPerPost`, a
 * link counting as its `charactersReservedPerUrl` when it has one; null for the other networks
 * (their counts are the network's own).
 */
export function serverText(account: Pick<Provider, 'provider' | 'limits' | 'charactersReservedPerUrl'> | null | undefined): ServerTextLimits | null {
  if (!account || !NETWORKS[account.provider].accountLimits) return null;
  const perUrl = account.charactersReservedPerUrl;
  return { maxCharacters: account.limits.textPerPost, ...(perUrl === null ? {} : { charactersReservedPerUrl: perUrl }) };
}

/**
 * What a thread's later posts are on a network: replies in a chain, or comments on the first
 * (LinkedIn, whose entry holds them to `laterPosts`' own limits).
 */
export function laterPostsAre(network: Network): 'reply' | 'comment' {
  const entry: NetworkDefinition = NETWORKS[network];
  return entry.laterPosts ? 'comment' : 'reply';
}

/** The options of a network, from its entry in src/networks/. */
export function networkOptions(network: Network) {
  return NETWORKS[network].options;
}

/**
 * The counter of one post's text on one network: the first measure over its limit, else its last
 * (Bluesky: characters). `position` is the post's place in its thread, 0 the first (LinkedIn's
 * later posts are comments, with their own limit).
 */
export function countText(network: Network, text: string, server: ServerTextLimits | null = null, position = 0): TextCount {
  const measures = NETWORKS[network].countText(text, { server, position });
  const shown = measures.find((m) => m.count > m.max) ?? measures.at(-1)!;
  return { label: `${shown.count} / ${shown.max} ${shown.unit}`, over: shown.count > shown.max, empty: text.trim() === '' };
}
