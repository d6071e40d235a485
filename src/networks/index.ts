/**
 * The networks Skein publishes to, each defined once (decisions.md "Networks in one place"):
 * the server's content and media rules, `GET /api/v1/networks`, the web app's counters and
 * options and the tests all read this registry. Adding a network is a module beside these and
 * its entry here; test/networks/kinds.test.ts names every other place that lists the kinds.
 */
import { BLUESKY } from './bluesky/rules.js';
import { MASTODON } from './mastodon/rules.js';
import type { Network } from './network.js';
import { THREADS } from './threads/rules.js';

export const NETWORKS = { THREADS, BLUESKY, MASTODON } as const satisfies { [K in string]: Network<K> };

/** A network's kind: `THREADS`, `BLUESKY`, `MASTODON`. */
export type NetworkKind = keyof typeof NETWORKS;

/** Every kind, in the registry's order. */
export const NETWORK_KINDS = Object.keys(NETWORKS) as NetworkKind[];
