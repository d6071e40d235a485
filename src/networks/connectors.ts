import { blueskyConnect } from './bluesky/connect.js';
import type { CredentialsConnect, NetworkConnect, OAuthConnect } from './connect.js';
import type { CredentialsKind, NetworkKind, OAuthKind } from './index.js';
import { linkedinConnect } from './linkedin/connect.js';
import { mastodonConnect } from './mastodon/connect.js';
import { threadsConnect } from './threads/connect.js';
import { xConnect } from './x/connect.js';

/**
 * Each network's connect (its networks/<kind>/connect.ts), by kind: the generic connect routes
 * and services/providers/connect/ dispatch through it. A kind missing here, or a connect method of its
 * facts (`connect` in its rules.ts) without its part, does not compile.
 */

/** The parts a kind's connect methods need: `oauth` for 'oauth', `credentials` for 'token' or 'appPassword'. */
type ConnectorOf<K extends NetworkKind> = NetworkConnect<never> &
  (K extends OAuthKind ? { oauth: OAuthConnect } : unknown) &
  (K extends CredentialsKind ? { credentials: CredentialsConnect<never> } : unknown);

export const CONNECTORS = {
  THREADS: threadsConnect,
  BLUESKY: blueskyConnect,
  MASTODON: mastodonConnect,
  X: xConnect,
  LINKEDIN: linkedinConnect,
} satisfies { [K in NetworkKind]: ConnectorOf<K> };
