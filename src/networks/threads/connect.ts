import type { AppContext } from '../../context.js';
import type { FieldFault } from '../../errors/index.js';
import { THREADS_REFRESH_WINDOW_MS } from '../../repos/providers.js';
import { type ConnectedAccount, connectRedirectUri, type MissingSetting, type NetworkConnect, networkFailure } from '../connect.js';
import { PublishError } from '../platform.js';

/**
 * Connecting a Threads account (decisions.md "Connecting Threads with a token"): Meta's sign-in
 * (OAuth, needs the Meta app's settings) or a token from the app's tester tools.
 */

// threads_read_replies: finding a reply whose publish answer was lost reads /me/replies.
const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_manage_insights'];

/** Meta's own Graph API: only there is the redirect known to need https (a local stand-in may take http). */
const META_GRAPH_API = 'https://graph.threads.net';
/** The step-by-step guide, served by the web app from docs/connect-threads.md. */
const THREADS_GUIDE_PATH = '/guide/connect-threads';

type ThreadsSetting = 'THREADS_APP_ID' | 'THREADS_APP_SECRET' | 'PUBLIC_URL';

export interface ThreadsSetup {
  /** True when Meta's sign-in (OAuth) can be used as the server is configured. */
  oauthReady: boolean;
  /** What the OAuth way still needs, each setting with what to put there. */
  missing: Array<MissingSetting & { setting: ThreadsSetting }>;
  /** The address to register as the app's redirect callback URL. */
  redirectUri: string;
  /** Whether a short-lived token given to the token path is exchanged for a 60-day one (needs the app secret). */
  exchangesTokens: boolean;
  guideUrl: string;
}

/** What the server's settings allow for connecting Threads, read before anyone clicks. */
export function threadsSetup(ctx: AppContext): ThreadsSetup {
  const { publicUrl } = ctx.config.http;
  const missing: ThreadsSetup['missing'] = [];
  if (!ctx.config.threads.appId)
    missing.push({ setting: 'THREADS_APP_ID', message: "the Threads app ID of your Meta app (App settings → Basic → 'Threads app ID')" });
  if (!ctx.threadsAppSecret)
    missing.push({ setting: 'THREADS_APP_SECRET', message: "the Threads app secret of your Meta app (App settings → Basic → 'Threads app secret')" });
  if (ctx.config.threads.apiUrl === META_GRAPH_API && !publicUrl.startsWith('https://')) {
    missing.push({
      setting: 'PUBLIC_URL',
      message: `an https address of this server that Meta can send the browser back to (now ${publicUrl}; Meta redirects only to https)`,
    });
  }
  return {
    oauthReady: missing.length === 0,
    missing,
    redirectUri: connectRedirectUri(ctx, 'THREADS'),
    exchangesTokens: Boolean(ctx.threadsAppSecret),
    guideUrl: publicUrl + THREADS_GUIDE_PATH,
  };
}

/** The content rules of Connect Threads with a token. */
function threadsTokenFaults(input: unknown): FieldFault[] {
  if (typeof input !== 'object' || input === null) return [];
  const { accessToken } = input as { accessToken?: unknown };
  return typeof accessToken === 'string' && !accessToken.trim() ? [{ path: 'accessToken', message: 'must not be empty' }] : [];
}

/**
 * A token whose lifetime Skein cannot know (one kept as given) is refreshed once Meta allows it,
 * 24 hours after it was made at the earliest; the refresh answer then tells its real expiry.
 */
const UNKNOWN_TOKEN_REFRESH_AFTER_MS = 86_400_000;

/** Meta's word on a token: the account it belongs to, and the token to keep (exchanged when it can be). */
export async function checkThreadsToken(
  ctx: AppContext,
  accessToken: string,
  field = 'accessToken',
): Promise<{ me: { id: string; username: string }; accessToken: string; expiresAt: Date }> {
  const client = (await ctx.network()).threads;
  let me;
  try {
    me = await client.getMe(accessToken);
  } catch (err) {
    throw networkFailure(err, field, 'Threads');
  }
  if (ctx.threadsAppSecret) {
    try {
      const long = await client.exchangeForLongLived(accessToken);
      return { me, ...long };
    } catch (err) {
      // Meta exchanges only short-lived tokens: a token /me accepted but the exchange refused is
      // already long-lived, and is kept. A network fault is not a refusal.
      if (!(err instanceof PublishError) || err.kind === 'transient') throw networkFailure(err, field, 'Threads');
    }
  }
  return { me, accessToken, expiresAt: new Date(ctx.clock.now().getTime() + THREADS_REFRESH_WINDOW_MS + UNKNOWN_TOKEN_REFRESH_AFTER_MS) };
}

export const threadsConnect = {
  oauth: {
    setup: threadsSetup,
    instance: 'none',
    async authorize(ctx, { state, redirectUri }) {
      const client = (await ctx.network()).threads;
      return { authorizeUrl: client.authorizeUrl({ redirectUri, state, scopes: THREADS_SCOPES }) };
    },
    async exchange(ctx, { code, redirectUri }): Promise<ConnectedAccount> {
      const client = (await ctx.network()).threads;
      let token;
      let me;
      try {
        // Meta appends `#_` to the code it hands the browser.
        const short = await client.exchangeCode(code.replace(/#_$/, ''), redirectUri);
        token = await client.exchangeForLongLived(short.accessToken);
        me = await client.getMe(token.accessToken);
      } catch (err) {
        throw networkFailure(err, 'code', 'Threads');
      }
      return { providerUserId: me.id, username: me.username, accessToken: token.accessToken, tokenExpiresAt: token.expiresAt };
    },
  },
  /**
   * Without Meta's redirect (a laptop Meta cannot reach): the account comes from /me, never from
   * the caller; a short-lived token is exchanged for a 60-day one when the app secret is set.
   */
  credentials: {
    route: {
      summary: 'Connect a Threads account with an access token (no redirect: for a server Meta cannot reach)',
      description:
        'The account is the one the token belongs to (read from Meta). A short-lived token is exchanged for a 60-day one when THREADS_APP_SECRET is set; a long-lived one is kept. The same account again in the same workspace is a reconnect: the same provider, the new token, 200.',
      body: {
        accessToken: { description: "A Threads user access token, e.g. from the User Token Generator of your Meta app's Threads use case" },
      },
      sameAccountAgain: 200,
    },
    faults: (_ctx, input) => threadsTokenFaults(input),
    async verify(ctx, input) {
      const token = await checkThreadsToken(ctx, input.accessToken.trim());
      return { providerUserId: token.me.id, username: token.me.username, accessToken: token.accessToken, tokenExpiresAt: token.expiresAt };
    },
  },
} satisfies NetworkConnect<{ accessToken: string }>;
