import type { AppContext } from '../../context.js';
import type { ProviderRow } from '../../db/schema/index.js';
import type { FieldFault } from '../../errors/index.js';
import { type ConnectedAccount, connectRedirectUri, type MissingSetting, type NetworkConnect, networkFailure, pkcePair } from '../connect.js';
import { X_SCOPES, type XClient, type XTokens } from './client.js';
import { xAccountLimits } from './platform.js';

/**
 * Connecting an X account (decisions.md "X"): X's sign-in with the user's own X app (OAuth 2.0
 * with PKCE S256, the verifier kept encrypted with the state), or, for scripts, a user token made
 * elsewhere. The account's own limits (Premium: 25,000 characters) are read at connect.
 */

/** X's own API: only there does its developer portal decide which callback URLs it takes. */
const X_API = 'https://api.x.com';

/** The step-by-step guide, served by the web app from docs/connect-x.md. */
const X_GUIDE_PATH = '/guide/connect-x';

type XSetting = 'X_CLIENT_ID' | 'PUBLIC_URL';

export interface XSetup {
  /** True when X's sign-in (OAuth) can be used as the server is configured. */
  oauthReady: boolean;
  /** What the sign-in still needs, each setting with what to put there. */
  missing: Array<MissingSetting & { setting: XSetting }>;
  /** The address to register as the X app's callback URI. */
  redirectUri: string;
  guideUrl: string;
}

/** What X's sign-in needs of this server's settings, read before anyone clicks. */
export function xSetup(ctx: AppContext): XSetup {
  const missing: XSetup['missing'] = [];
  if (!ctx.config.x.clientId) {
    missing.push({ setting: 'X_CLIENT_ID', message: "the OAuth 2.0 Client ID of your X app (developer portal → your app → 'Keys and tokens')" });
  }
  const { publicUrl } = ctx.config.http;
  // X's docs rule out `localhost` in a callback URL and ask for http://127.0.0.1 in local development (docs/connect-x.md).
  if (ctx.config.x.apiUrl === X_API && new URL(publicUrl).hostname === 'localhost') {
    missing.push({
      setting: 'PUBLIC_URL',
      message: `an address of this server X takes as a callback (now ${publicUrl}; X's docs rule out localhost: use http://127.0.0.1:<port> or an https address)`,
    });
  }
  return { oauthReady: missing.length === 0, missing, redirectUri: connectRedirectUri(ctx, 'X'), guideUrl: publicUrl + X_GUIDE_PATH };
}

async function client(ctx: AppContext): Promise<XClient> {
  return (await ctx.network()).x;
}

/** The account a live access token belongs to, with its own limits; X's refusal is a fault at `field`. */
async function accountOf(
  ctx: AppContext,
  tokens: Pick<XTokens, 'accessToken' | 'refreshToken'> & { expiresAt: Date | null },
  field: string,
): Promise<ConnectedAccount> {
  let me;
  try {
    me = await (await client(ctx)).me(tokens.accessToken);
  } catch (err) {
    throw networkFailure(err, field, 'X');
  }
  return {
    providerUserId: me.id,
    username: me.username,
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    tokenExpiresAt: tokens.expiresAt,
    networkLimits: xAccountLimits(me.subscriptionType),
  };
}

/** The content rules of Connect X with a token. */
function xTokenFaults(input: unknown): FieldFault[] {
  if (typeof input !== 'object' || input === null) return [];
  const { accessToken, refreshToken } = input as { accessToken?: unknown; refreshToken?: unknown };
  const faults: FieldFault[] = [];
  if (typeof accessToken === 'string' && !accessToken.trim()) faults.push({ path: 'accessToken', message: 'must not be empty' });
  if (typeof refreshToken === 'string' && !refreshToken.trim()) faults.push({ path: 'refreshToken', message: 'must not be empty when given' });
  return faults;
}

/**
 * A pasted token: X says whose it is. A refresh token with it is used at once: its pair rotates
 * (the one pasted dies), and the new pair's expiry is known; it must belong to this server's X
 * app. Without one, the access token lives about 2 hours and the account then needs a reconnect.
 */
async function verifyToken(ctx: AppContext, input: { accessToken: string; refreshToken?: string }): Promise<ConnectedAccount> {
  const account = await accountOf(ctx, { accessToken: input.accessToken.trim(), refreshToken: null, expiresAt: null }, 'accessToken');
  const refreshToken = input.refreshToken?.trim();
  if (!refreshToken) return account;
  let fresh: XTokens;
  try {
    fresh = await (await client(ctx)).refresh(refreshToken);
  } catch (err) {
    throw networkFailure(err, 'refreshToken', 'X');
  }
  return { ...account, accessToken: fresh.accessToken, refreshToken: fresh.refreshToken, tokenExpiresAt: fresh.expiresAt };
}

/**
 * Disconnect revokes the refresh token (and with it the access tokens it made) and the access
 * token at X. An X that cannot be reached does not keep the account connected in Skein.
 */
async function revokeXTokens(ctx: AppContext, provider: ProviderRow): Promise<void> {
  const x = await client(ctx);
  const tokens = [
    { enc: provider.refresh_token_enc, hint: 'refresh_token' as const },
    { enc: provider.access_token_enc, hint: 'access_token' as const },
  ];
  for (const { enc, hint } of tokens) {
    if (!enc) continue;
    try {
      await x.revoke(ctx.secrets.decrypt(enc), hint);
    } catch (err) {
      ctx.logger.warn({ err, providerId: provider.id, hint }, 'revoking an X token failed; Skein forgets it anyway');
    }
  }
}

export const xConnect = {
  oauth: {
    setup: xSetup,
    instance: 'none',
    async authorize(ctx, { state, redirectUri }) {
      const pkce = pkcePair();
      const authorizeUrl = (await client(ctx)).authorizeUrl({ redirectUri, state, codeChallenge: pkce.challenge, scopes: X_SCOPES });
      return { authorizeUrl, keep: { code_verifier_enc: ctx.secrets.encrypt(pkce.verifier) } };
    },
    async exchange(ctx, { code, redirectUri, state }) {
      let tokens: XTokens;
      try {
        tokens = await (await client(ctx)).exchangeCode({ code, redirectUri, codeVerifier: ctx.secrets.decrypt(state.code_verifier_enc!) });
      } catch (err) {
        throw networkFailure(err, 'code', 'X');
      }
      return accountOf(ctx, tokens, 'code');
    },
  },
  credentials: {
    route: {
      summary: 'Connect an X account with a user access token (for scripts; no sign-in page)',
      description:
        "The account is the one the token belongs to (X's users/me). With a refresh token (made by this server's X app, X_CLIENT_ID), Skein refreshes at once and keeps the new pair: the refresh token given dies. Without one, the access token lasts about 2 hours and the account then needs a reconnect. X's refusal is a 400 at the field X refused. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.",
      body: {
        accessToken: {
          description: 'An OAuth 2.0 user access token with the scopes tweet.read tweet.write users.read media.write offline.access',
        },
        refreshToken: { description: "Its refresh token (scope offline.access), from this server's X app", optional: true },
      },
      sameAccountAgain: 200,
    },
    faults: (_ctx, input) => xTokenFaults(input),
    verify: verifyToken,
  },
  revoke: revokeXTokens,
} satisfies NetworkConnect<{ accessToken: string; refreshToken?: string }>;
