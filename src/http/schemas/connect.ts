import { type TObject, Type } from '@sinclair/typebox';
import { type CredentialsKind, OAUTH_KINDS } from '../../networks/index.js';
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

/** A credentials connect's route: its body and words; `sameAccountAgain`: the status of a reconnect. */
interface CredentialsRoute {
  summary: string;
  description?: string;
  body: TObject;
  sameAccountAgain: 200 | 201;
}

/**
 * `POST /api/v1/providers/<network>` of each network connected with a credential pasted in (a
 * token, an app password): one route each, from this table (http/routes/providers.ts). A
 * network's entry is its body; the rest is its connector (networks/<kind>/connect.ts).
 */
export const CREDENTIALS_ROUTES = {
  THREADS: {
    summary: 'Connect a Threads account with an access token (no redirect: for a server Meta cannot reach)',
    description:
      'The account is the one the token belongs to (read from Meta). A short-lived token is exchanged for a 60-day one when THREADS_APP_SECRET is set; a long-lived one is kept. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.',
    body: Type.Object({
      accessToken: Type.String({ description: "A Threads user access token, e.g. from the User Token Generator of your Meta app's Threads use case" }),
      teamId: Type.Optional(Type.String()),
    }),
    sameAccountAgain: 200,
  },
  BLUESKY: {
    summary: 'Connect a Bluesky account with an app password (one login; the session is kept)',
    body: Type.Object({
      identifier: Type.String({ description: 'Handle, email or DID' }),
      appPassword: Type.String({ description: 'An app password (Settings → App passwords), not the account password' }),
      service: Type.Optional(Type.String({ description: 'PDS or entryway URL; default BLUESKY_SERVICE_URL' })),
      teamId: Type.Optional(Type.String()),
    }),
    sameAccountAgain: 201,
  },
  MASTODON: {
    summary: 'Connect a Mastodon account with an access token made on its server (for scripts)',
    description:
      'The account is the one the token belongs to (verify_credentials). The same account again in the same workspace is a reconnect: the same provider, the new token, 200.',
    body: Type.Object({
      instance: Instance,
      accessToken: Type.String({ description: 'A token with the scopes read write:statuses write:media (Preferences → Development → New application)' }),
      teamId: Type.Optional(Type.String()),
    }),
    sameAccountAgain: 200,
  },
  LINKEDIN: {
    summary: 'Connect a LinkedIn member, or a page it administers, with an access token',
    description:
      "The member is the one the token belongs to (LinkedIn's userinfo); with `organization`, the page instead, which the token must administer (LinkedIn's organizationAcls, ADMINISTRATOR). The token is kept with a 60-day expiry, the longest a LinkedIn token lives. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.",
    body: Type.Object({
      accessToken: Type.String({
        description:
          'A LinkedIn member access token with w_member_social (and w_organization_social r_organization_social for a page), e.g. from the OAuth token generator of your LinkedIn app',
      }),
      organization: Type.Optional(Type.String({ description: 'A page the token administers: urn:li:organization:12345 or 12345; absent: the member' })),
      teamId: Type.Optional(Type.String()),
    }),
    sameAccountAgain: 200,
  },
  X: {
    summary: 'Connect an X account with a user access token (for scripts; no sign-in page)',
    description:
      "The account is the one the token belongs to (X's users/me). With a refresh token (made by this server's X app, X_CLIENT_ID), Skein refreshes at once and keeps the new pair: the refresh token given dies. Without one, the access token lasts about 2 hours and the account then needs a reconnect. X's refusal is a 400 at the field X refused. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.",
    body: Type.Object({
      accessToken: Type.String({ description: 'An OAuth 2.0 user access token with the scopes tweet.read tweet.write users.read media.write offline.access' }),
      refreshToken: Type.Optional(Type.String({ description: "Its refresh token (scope offline.access), from this server's X app" })),
      teamId: Type.Optional(Type.String()),
    }),
    sameAccountAgain: 200,
  },
} satisfies Record<CredentialsKind, CredentialsRoute>;
