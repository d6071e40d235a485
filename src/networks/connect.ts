import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { NetworkLimits, OAuthStateRow, OAuthStatesTable, ProviderRow } from '../db/schema/index.js';
import { type FieldFault, UpstreamError, ValidationError } from '../errors/index.js';
import type { NetworkKind } from './index.js';
import { PublishError } from './platform.js';

/**
 * What each network's connect (networks/<kind>/connect.ts) implements: only the network's own
 * part, so it lives beside its client. The rest of a connect is the same on every network and is
 * services/providers/connect/ (the state and its browser binding, the workspace, saving the provider, the
 * first follower count); networks/connectors.ts lists the connectors by kind.
 */

/** The account a connect found: what its provider row keeps. */
export interface ConnectedAccount {
  providerUserId: string;
  username: string;
  accessToken: string;
  refreshToken?: string | null;
  tokenExpiresAt?: Date | null;
  /** The network's server of this account (a Mastodon server, a Bluesky PDS); null: the network's own. */
  serviceUrl?: string | null;
  /** Bluesky: the session of the connect's login. */
  session?: unknown;
  /** A server's own limits (Mastodon), read at connect. */
  networkLimits?: NetworkLimits | null;
}

/** A server setting the sign-in needs, with what to put there. */
export interface MissingSetting {
  setting: string;
  message: string;
}

/** What a start names beyond the workspace: the server, on a network of many servers (Mastodon). */
export interface StartInput {
  instance?: string;
}

/** What the callback needs back from the start, kept (encrypted where secret) with the state. */
type KeptState = Partial<Pick<OAuthStatesTable, 'instance' | 'code_verifier_enc'>>;

/** A connect through the network's sign-in page (OAuth code flow). */
export interface OAuthConnect {
  /** What the sign-in needs of this server's settings; empty `missing`: ready. `guideUrl`: how to set it up. */
  setup(ctx: AppContext): { missing: MissingSetting[]; guideUrl?: string };
  /** Whether the start names a server (`instance`): required, or not taken. */
  instance: 'required' | 'none';
  /** The content rules of the start's input, checked before anything else. */
  startFaults?(input: StartInput): FieldFault[];
  /** The sign-in page for `state`, and what to keep with the state for the callback. */
  authorize(ctx: AppContext, input: { state: string; redirectUri: string; start: StartInput }): Promise<{ authorizeUrl: string; keep?: KeptState }>;
  /**
   * The callback's code → the account it approved (the network's refusal: a fault at `code`).
   * A list when one sign-in gives several accounts (LinkedIn: the member, then each page it
   * administers): with more than one, the user picks the ones to add (services/providers/connect/picks.ts).
   */
  exchange(ctx: AppContext, input: { code: string; redirectUri: string; state: OAuthStateRow }): Promise<ConnectedAccount | ConnectedAccount[]>;
}

/**
 * `POST /api/v1/providers/<network>`: its words and its body, the network's own fields, each a
 * string (the route makes the schema, and adds the workspace's `teamId`; no schema library here,
 * so a CLI command that loads the connectors loads none). `sameAccountAgain`: the status of a reconnect.
 */
export interface CredentialsRoute {
  summary: string;
  description?: string;
  body: Record<string, { description: string; optional?: true }>;
  sameAccountAgain: 200 | 201;
}

/** A connect with a credential pasted in (a token, an app password): the account it belongs to, as the network says. */
export interface CredentialsConnect<Body> {
  route: CredentialsRoute;
  /** The content rules, over what is well-formed in `input` (it may have shape faults too). */
  faults(ctx: AppContext, input: unknown): FieldFault[] | Promise<FieldFault[]>;
  /** The account the credential belongs to; a reconnect of the same account keeps its provider. */
  verify(ctx: AppContext, input: Body): Promise<ConnectedAccount>;
}

/** A network's connect, each part as its connect methods (`Network.connect`) say. */
export interface NetworkConnect<Body = never> {
  oauth?: OAuthConnect;
  credentials?: CredentialsConnect<Body>;
  /** Disconnect: what the network is told (a token revoked); never keeps the account connected. */
  revoke?(ctx: AppContext, provider: ProviderRow): Promise<void>;
}

/** Where every network's sign-in sends the browser back: `GET /api/v1/providers/:network/callback`. */
export function connectRedirectUri(ctx: AppContext, kind: NetworkKind): string {
  return `${ctx.config.http.publicUrl}/api/v1/providers/${kind.toLowerCase()}/callback`;
}

/** A network call failed: the user's input when the network refused it, otherwise the network. */
export function networkFailure(err: unknown, field: string, what: string): Error {
  if (err instanceof PublishError && (err.kind === 'auth' || err.kind === 'permanent')) {
    return new ValidationError({ path: field, message: `${what} refused: ${err.message}` });
  }
  return new UpstreamError(`${what} could not be reached; try again.`, { cause: err });
}

/** A PKCE S256 pair: the verifier kept (encrypted) with the state, the challenge sent to the network. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
