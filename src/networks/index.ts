/**
 * The networks Skein publishes to, each defined once (decisions.md "Networks in one place"):
 * the server's content and media rules, `GET /api/v1/networks`, the web app's counters and
 * options and the tests all read this registry. Adding a network is a module beside these and
 * its entry here; test/networks/kinds.test.ts names every other place that lists the kinds.
 */
import { BLUESKY } from './bluesky/rules.js';
import { LINKEDIN } from './linkedin/rules.js';
import { MASTODON } from './mastodon/rules.js';
import type { ConnectMethod, Network } from './network.js';
import { THREADS } from './threads/rules.js';
import { X } from './x/rules.js';

export const NETWORKS = { THREADS, BLUESKY, MASTODON, X, LINKEDIN } as const satisfies { [K in string]: Network<K> };

/** A network's kind: `THREADS`, `BLUESKY`, `MASTODON`, `X`, `LINKEDIN`. */
export type NetworkKind = keyof typeof NETWORKS;

/** Every kind, in the registry's order. */
export const NETWORK_KINDS = Object.keys(NETWORKS) as NetworkKind[];

type ConnectMethods<K extends NetworkKind> = (typeof NETWORKS)[K]['connect'][number];

/** A kind whose accounts connect through the network's sign-in page (OAuth). */
export type OAuthKind = { [K in NetworkKind]: 'oauth' extends ConnectMethods<K> ? K : never }[NetworkKind];
/** A kind whose accounts connect with a credential pasted in (a token, an app password). */
export type CredentialsKind = { [K in NetworkKind]: Exclude<ConnectMethods<K>, 'oauth'> extends never ? never : K }[NetworkKind];

const connectsWith = (kind: NetworkKind, method: ConnectMethod) => (NETWORKS[kind].connect as readonly ConnectMethod[]).includes(method);

/** The OAuth kinds, in the registry's order: `GET /api/v1/providers/:network/connect` and its callback take their lowercase names. */
export const OAUTH_KINDS = NETWORK_KINDS.filter((kind) => connectsWith(kind, 'oauth')) as OAuthKind[];

/** The networks whose accounts are warned before a token that cannot be refreshed runs out (Network.expiryNotice). */
const EXPIRY_NOTICES: readonly { kind: NetworkKind; beforeMs: number }[] = NETWORK_KINDS.flatMap((kind) => {
  const notice = (NETWORKS[kind] as Network).expiryNotice;
  return notice ? [{ kind, beforeMs: notice.beforeMs }] : [];
});

/** For each network with an expiry notice, the time before which, at `now`, an expiring token is in its notice period. */
export function lapsingTokens(now: Date): { kind: NetworkKind; until: Date }[] {
  return EXPIRY_NOTICES.map(({ kind, beforeMs }) => ({ kind, until: new Date(now.getTime() + beforeMs) }));
}
