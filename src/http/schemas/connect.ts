import { Type } from '@sinclair/typebox';
import { OAUTH_KINDS } from '../../networks/index.js';
import { TeamQuery } from './threads.js';

/** `:network` of the sign-in routes: an OAuth network's lowercase kind. */
export const OAuthNetworkParams = Type.Object({
  network: Type.Union(
    OAUTH_KINDS.map((kind) => Type.Literal(kind.toLowerCase())),
    { description: 'A network whose accounts connect through its sign-in page (OAuth), lowercase' },
  ),
});

const ReturnTo = Type.Optional(
  Type.Literal('web', {
    description: "Opt-in: 'web' makes the callback redirect the browser (303) to the web app's /accounts page with the outcome, instead of answering JSON",
  }),
);

const Instance = Type.String({ description: 'The Mastodon server: mastodon.social or https://mastodon.social (any server)' });

export const StartQuery = Type.Object({
  ...TeamQuery.properties,
  returnTo: ReturnTo,
  instance: Type.Optional(
    Type.String({ description: 'The server, on a network of many servers (MASTODON: required there, as in its POST connect); ignored elsewhere' }),
  ),
});

export const MastodonStartBody = Type.Object({ instance: Instance, teamId: Type.Optional(Type.String()), returnTo: ReturnTo });
