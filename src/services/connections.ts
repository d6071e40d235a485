import type { AppContext } from '../context.js';
import type { AccountRow, OAuthStateRow, ProviderRow } from '../db/schema/index.js';
import { ConflictError, type FieldFault, NotFoundError, ValidationError } from '../errors/index.js';
import { personalWorkspace, teamWorkspace } from '../lib/workspace.js';
import { blueskyAddressPolicy, pdsAllowed } from '../networks/bluesky/address-policy.js';
import { PublishError } from '../networks/platform.js';
import { findProvider, findProviderByNetworkUser, revokeProvider, THREADS_REFRESH_WINDOW_MS } from '../repos/providers.js';
import { canAccess, resolveWorkspace } from './accounts.js';
import { networkFailure, scheduleFollowerFetch } from './connect-shared.js';
import { assertStateLive, type CallbackState, newConnectState, takeCallbackState, takeConfirmState } from './connect-states.js';
import { completeMastodonConnect, revokeMastodonToken } from './mastodon-connect.js';
import { addProvider } from './providers.js';

// threads_read_replies: finding a reply whose publish answer was lost reads /me/replies.
const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_manage_insights'];

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The content rules of Connect Bluesky, over what is well-formed in `input` (it may have shape faults too). */
export async function blueskyConnectFaults(ctx: AppContext, input: unknown): Promise<FieldFault[]> {
  if (typeof input !== 'object' || input === null) return [];
  const { identifier, appPassword, service = ctx.config.bluesky.serviceUrl } = input as { identifier?: unknown; appPassword?: unknown; service?: unknown };
  const faults: FieldFault[] = [];
  if (typeof identifier === 'string' && !identifier.trim()) faults.push({ path: 'identifier', message: 'must not be empty' });
  if (typeof appPassword === 'string' && !appPassword.trim()) faults.push({ path: 'appPassword', message: 'must not be empty' });
  if (typeof service !== 'string') return faults;
  if (!isHttpUrl(service)) faults.push({ path: 'service', message: 'must be an http or https URL' });
  else if (!(await pdsAllowed(blueskyAddressPolicy(ctx), service))) {
    // The app password is sent there: never to this server's own network on a user's say-so.
    faults.push({ path: 'service', message: 'must be a public address (SKEIN_ALLOW_PRIVATE_MEDIA=1 allows private ones, for tests)' });
  }
  return faults;
}

/** Logs in once with an app password; the session is kept (encrypted) for every later publish. */
export async function connectBlueskyAccount(
  ctx: AppContext,
  account: AccountRow,
  input: { identifier: string; appPassword: string; service?: string; teamId?: string },
): Promise<ProviderRow> {
  const service = input.service ?? ctx.config.bluesky.serviceUrl;
  const faults = await blueskyConnectFaults(ctx, input);
  if (faults.length) throw new ValidationError(faults);
  const workspace = await resolveWorkspace(ctx.db, account, input.teamId);
  let connected;
  try {
    const { connectBluesky } = await ctx.network();
    connected = await connectBluesky({ service, identifier: input.identifier, appPassword: input.appPassword });
  } catch (err) {
    throw networkFailure(err, 'appPassword', 'Bluesky');
  }
  // The PDS the account's DID document names is where every later call goes: held to the same
  // address policy as `service`, before it is stored.
  if (!(await pdsAllowed(blueskyAddressPolicy(ctx), connected.pdsUrl))) {
    throw new ValidationError({
      path: 'identifier',
      message:
        'names an account whose server (the PDS of its DID document) is not at a public address (SKEIN_ALLOW_PRIVATE_MEDIA=1 allows private ones, for tests)',
    });
  }
  const provider = await addProvider(ctx, account.id, workspace, {
    kind: 'BLUESKY',
    providerUserId: connected.did,
    username: connected.handle,
    accessToken: input.appPassword,
    serviceUrl: connected.pdsUrl,
    session: connected.session,
  });
  return scheduleFollowerFetch(ctx, provider);
}

function threadsRedirectUri(ctx: AppContext): string {
  return `${ctx.config.http.publicUrl}/api/v1/providers/threads/callback`;
}

/** Meta's own Graph API: only there is the redirect known to need https (a local stand-in may take http). */
const META_GRAPH_API = 'https://graph.threads.net';
/** The step-by-step guide, served by the web app from docs/connect-threads.md. */
const THREADS_GUIDE_PATH = '/guide/connect-threads';

export interface ThreadsSetup {
  /** True when Meta's sign-in (OAuth) can be used as the server is configured. */
  oauthReady: boolean;
  /** What the OAuth way still needs, each setting with what to put there. */
  missing: Array<{ setting: 'THREADS_APP_ID' | 'THREADS_APP_SECRET' | 'PUBLIC_URL'; message: string }>;
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
    redirectUri: threadsRedirectUri(ctx),
    exchangesTokens: Boolean(ctx.threadsAppSecret),
    guideUrl: publicUrl + THREADS_GUIDE_PATH,
  };
}

function requireThreadsApp(ctx: AppContext): void {
  const setup = threadsSetup(ctx);
  if (setup.oauthReady) return;
  const needs = setup.missing.map((m) => `${m.setting} (${m.message})`).join('; ');
  throw new ConflictError(
    'CONFLICT',
    `Connecting Threads through Meta's sign-in needs these server settings: ${needs}. Or connect with an access token instead (POST /api/v1/providers/threads). Step by step: ${setup.guideUrl}`,
  );
}

/**
 * Step 1 of the OAuth flow: a single-use state bound to the caller, workspace and, when a
 * browser signed in to Skein asked, that browser's connect cookie (`browserToken`; null for an
 * API key: the connect is then confirmed in the web app after the callback).
 */
export async function startThreadsConnect(
  ctx: AppContext,
  account: AccountRow,
  options: { teamId?: string; returnTo?: 'web'; browserToken: string | null },
): Promise<{ authorizeUrl: string }> {
  requireThreadsApp(ctx);
  const client = (await ctx.network()).threads;
  const workspace = await resolveWorkspace(ctx.db, account, options.teamId);
  const state = await newConnectState(
    ctx,
    { account_id: account.id, team_id: workspace.teamId, kind: 'THREADS', return_to: options.returnTo ?? null },
    options.browserToken,
  );
  return { authorizeUrl: client.authorizeUrl({ redirectUri: threadsRedirectUri(ctx), state, scopes: THREADS_SCOPES }) };
}

/**
 * A connect the web app started failed after its state was found: the callback sends the browser
 * back to the accounts page with `error`, the failure the API flow would have answered.
 */
export class WebConnectFailure extends Error {
  constructor(readonly error: unknown) {
    super('the connect failed', { cause: error });
  }
}

/** What a callback ends with: the account connected and where the browser goes, or the confirmation a key-started connect waits for. */
export type ConnectOutcome = { provider: ProviderRow; returnTo: 'web' | null } | Extract<CallbackState, { confirm: unknown }>;

/**
 * Step 2 for every browser-sign-in network: the network redirects the browser back with `code`
 * and `state` (no API key). The state says who asked, which browser and where the browser goes
 * next (`takeCallbackState`); `complete` turns the code into the connected account. A state
 * that is unknown, used, of another network or another browser's says nothing about where the
 * browser came from, so that failure is always the problem (JSON, or the page for a person).
 */
export async function finishConnect(
  ctx: AppContext,
  kind: 'THREADS' | 'MASTODON',
  query: { code?: string; state?: string; error?: string; error_description?: string },
  browserToken: string | undefined,
): Promise<ConnectOutcome> {
  const taken = await takeCallbackState(ctx, kind, query, browserToken);
  if ('confirm' in taken) return taken;
  const row = taken.finish;
  try {
    assertStateLive(ctx, row);
    if (query.error) throw new ValidationError({ path: 'error', message: query.error_description ?? query.error });
    if (!query.code) throw new ValidationError({ path: 'code', message: 'is required' });
    const provider = kind === 'THREADS' ? await completeThreadsConnect(ctx, row, query.code) : await completeMastodonConnect(ctx, row, query.code);
    return { provider, returnTo: row.return_to };
  } catch (err) {
    throw row.return_to === 'web' ? new WebConnectFailure(err) : err;
  }
}

/** Meta's callback: the app must still be set up (its secret exchanges the code). */
export async function finishThreadsConnect(
  ctx: AppContext,
  query: { code?: string; state?: string; error?: string; error_description?: string },
  browserToken: string | undefined,
): Promise<ConnectOutcome> {
  requireThreadsApp(ctx);
  return finishConnect(ctx, 'THREADS', query, browserToken);
}

/**
 * A connect an API key started, confirmed by the signed-in user of its account in the browser
 * its callback came back to (`takeConfirmState`): the kept code becomes the connected account.
 */
export async function confirmConnect(
  ctx: AppContext,
  account: AccountRow,
  input: { state: string; bySession: boolean; browserToken: string | undefined },
): Promise<ProviderRow> {
  const { row, code } = await takeConfirmState(ctx, { ...input, accountId: account.id });
  if (row.kind === 'THREADS') {
    requireThreadsApp(ctx);
    return completeThreadsConnect(ctx, row, code);
  }
  return completeMastodonConnect(ctx, row, code);
}

async function completeThreadsConnect(ctx: AppContext, row: OAuthStateRow, rawCode: string): Promise<ProviderRow> {
  const client = (await ctx.network()).threads;
  const code = rawCode.replace(/#_$/, '');
  let token;
  let me;
  try {
    const short = await client.exchangeCode(code, threadsRedirectUri(ctx));
    token = await client.exchangeForLongLived(short.accessToken);
    me = await client.getMe(token.accessToken);
  } catch (err) {
    throw networkFailure(err, 'code', 'Threads');
  }
  const workspace = row.team_id ? teamWorkspace(row.team_id) : personalWorkspace(row.account_id);
  const provider = await addProvider(ctx, row.account_id, workspace, {
    kind: 'THREADS',
    providerUserId: me.id,
    username: me.username,
    accessToken: token.accessToken,
    tokenExpiresAt: token.expiresAt,
  });
  return scheduleFollowerFetch(ctx, provider);
}

/** The content rules of Connect Threads with a token. */
export function threadsTokenFaults(input: unknown): FieldFault[] {
  if (typeof input !== 'object' || input === null) return [];
  const { accessToken } = input as { accessToken?: unknown };
  return typeof accessToken === 'string' && !accessToken.trim() ? [{ path: 'accessToken', message: 'must not be empty' }] : [];
}

/**
 * A token whose lifetime Skein cannot know (one kept as given) is refreshed once Meta allows it,
 * 24 hours after it was made at the earliest; the refresh answer then tells its real expiry.
 */
const UNKNOWN_TOKEN_REFRESH_AFTER_MS = 86_400_000;

/**
 * Connects the Threads account a token belongs to, without Meta's redirect (a laptop Meta cannot
 * reach). The account comes from /me, never from the caller; a short-lived token is exchanged
 * for a 60-day one when the app secret is set. `created` is false for a reconnect.
 */
export async function connectThreadsWithToken(
  ctx: AppContext,
  account: AccountRow,
  input: { accessToken: string; teamId?: string },
): Promise<{ provider: ProviderRow; created: boolean }> {
  const faults = threadsTokenFaults(input);
  if (faults.length) throw new ValidationError(faults);
  const workspace = await resolveWorkspace(ctx.db, account, input.teamId);
  const token = await checkThreadsToken(ctx, input.accessToken.trim());
  const existing = await findProviderByNetworkUser(ctx.db, workspace, 'THREADS', token.me.id);
  const provider = await addProvider(ctx, account.id, workspace, {
    kind: 'THREADS',
    providerUserId: token.me.id,
    username: token.me.username,
    accessToken: token.accessToken,
    tokenExpiresAt: token.expiresAt,
  });
  return { provider: await scheduleFollowerFetch(ctx, provider), created: !existing };
}

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

/** Disconnect: Skein forgets the credentials; the threads stay (and fail if they come due). */
export async function disconnectProvider(ctx: AppContext, account: AccountRow, providerId: string): Promise<ProviderRow> {
  const row = await findProvider(ctx.db, providerId);
  if (!row || !(await canAccess(ctx.db, account.id, { account_id: row.account_id, team_id: row.team_id }))) throw new NotFoundError(`Provider ${providerId}`);
  if (row.kind === 'MASTODON') await revokeMastodonToken(ctx, row);
  return revokeProvider(ctx.db, providerId, ctx.clock.now());
}
