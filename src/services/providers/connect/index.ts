import type { AppContext } from '../../../context.js';
import type { AccountRow, ConnectPickRow, OAuthStateRow, ProviderRow } from '../../../db/schema/index.js';
import { type FieldFault, NetworkNotConfiguredError, NotFoundError, ValidationError } from '../../../errors/index.js';
import { personalWorkspace, teamWorkspace, type Workspace } from '../../../lib/workspace.js';
import {
  type ConnectedAccount,
  type CredentialsConnect,
  type CredentialsRoute,
  connectRedirectUri,
  type NetworkConnect,
  type OAuthConnect,
  type StartInput,
} from '../../../networks/connect.js';
import { CONNECTORS } from '../../../networks/connectors.js';
import { type CredentialsKind, NETWORK_KINDS, NETWORKS, type NetworkKind, type OAuthKind } from '../../../networks/index.js';
import { findConnectPick, takeConnectPick } from '../../../repos/connect-picks.js';
import { scheduleFollowerJobs } from '../../../repos/followers.js';
import { findProvider, findProviderByNetworkUser, revokeProvider } from '../../../repos/providers.js';
import { canAccess, resolveWorkspace } from '../../accounts/accounts.js';
import { addProvider } from '../providers.js';
import { type PickView, pickedAccounts, pickView, savePick } from './picks.js';
import { assertStateLive, type CallbackState, newStateValue, saveConnectState, takeCallbackState, takeConfirmState } from './states.js';

/**
 * Connecting an account, the same on every network (decisions.md "Networks in one place"): the
 * state of a sign-in and its browser binding (states.ts), the workspace, the network's readiness
 * on this server, saving the provider and its first follower count. What is the network's own
 * (its sign-in page, turning a code or a credential into the account) is its connector,
 * networks/<kind>/connect.ts, found in CONNECTORS.
 */

export { threadsSetup } from '../../../networks/threads/connect.js';
export { xSetup } from '../../../networks/x/connect.js';

/** The body of a credentials connect: the network's own fields, and the workspace. */
export type CredentialsInput = Record<string, unknown> & { teamId?: string };

function oauthOf(kind: OAuthKind): OAuthConnect {
  return CONNECTORS[kind].oauth;
}

function credentialsOf(kind: CredentialsKind): CredentialsConnect<CredentialsInput> {
  return CONNECTORS[kind].credentials as CredentialsConnect<CredentialsInput>;
}

/** 409 `NETWORK_NOT_CONFIGURED` when this server lacks what the network's sign-in needs, naming each setting. */
function requireConfigured(ctx: AppContext, kind: OAuthKind): void {
  const { missing, guideUrl } = oauthOf(kind).setup(ctx);
  if (missing.length === 0) return;
  const { name, connect } = NETWORKS[kind];
  const needs = missing.map((m) => `${m.setting} (${m.message})`).join('; ');
  const token = (connect as readonly string[]).includes('token')
    ? ` Or connect with an access token instead (POST /api/v1/providers/${kind.toLowerCase()}).`
    : '';
  throw new NetworkNotConfiguredError(
    `Connecting ${name} through its sign-in needs these server settings: ${needs}.${token}${guideUrl ? ` Step by step: ${guideUrl}` : ''}`,
  );
}

/** A connected (or reconnected) account gets its follower count at once unless it has one for the current UTC day (decisions.md). */
async function scheduleFollowerFetch(ctx: AppContext, provider: ProviderRow): Promise<ProviderRow> {
  if ((await scheduleFollowerJobs(ctx.db, ctx.clock.now(), provider.id)) > 0) ctx.scheduleSignal.ring();
  return provider;
}

/** Saves the account a connect found in the workspace; the same network account again is a reconnect (`created` false). */
async function saveAccount(
  ctx: AppContext,
  kind: NetworkKind,
  accountId: string,
  workspace: Workspace,
  connected: ConnectedAccount,
): Promise<{ provider: ProviderRow; created: boolean }> {
  const existing = await findProviderByNetworkUser(ctx.db, workspace, kind, connected.providerUserId, connected.serviceUrl ?? null);
  const provider = await addProvider(ctx, accountId, workspace, { kind, ...connected });
  return { provider: await scheduleFollowerFetch(ctx, provider), created: !existing };
}

/** The faults of what a start names: the server where the network has many (required), nothing where it has one (ignored). */
function startInputFaults(oauth: OAuthConnect, input: StartInput): FieldFault[] {
  if (oauth.instance === 'none') return [];
  if (input.instance === undefined) return [{ path: 'instance', message: 'is required' }];
  return oauth.startFaults?.(input) ?? [];
}

/** The content rules of a sign-in start of `kind` (the route's, for an answer with every fault). */
export function startFaults(kind: OAuthKind, input: unknown): FieldFault[] {
  return typeof input === 'object' && input !== null ? startInputFaults(oauthOf(kind), input as StartInput) : [];
}

function checkedStart(oauth: OAuthConnect, input: StartInput): StartInput {
  const faults = startInputFaults(oauth, input);
  if (faults.length) throw new ValidationError(faults);
  return oauth.instance === 'none' ? {} : { instance: input.instance! };
}

/**
 * Step 1 of a sign-in connect: a single-use state bound to the caller, workspace and, when a
 * browser signed in to Skein asked, that browser's connect cookie (`browserToken`; null for an
 * API key: the connect is then confirmed in the web app after the callback).
 */
export async function startConnect(
  ctx: AppContext,
  kind: OAuthKind,
  account: AccountRow,
  input: StartInput & { teamId?: string; returnTo?: 'web' },
  browserToken: string | null,
): Promise<{ authorizeUrl: string }> {
  requireConfigured(ctx, kind);
  const oauth = oauthOf(kind);
  const start = checkedStart(oauth, input);
  const workspace = await resolveWorkspace(ctx.db, account, input.teamId);
  const state = newStateValue();
  const { authorizeUrl, keep } = await oauth.authorize(ctx, { state, redirectUri: connectRedirectUri(ctx, kind), start });
  await saveConnectState(ctx, state, { account_id: account.id, team_id: workspace.teamId, kind, return_to: input.returnTo ?? null, ...keep }, browserToken);
  return { authorizeUrl };
}

/** What a sign-in ended with: the account connected, or (several accounts offered) the pick the user makes among them. */
type Completed = { provider: ProviderRow } | { pick: PickView };

/**
 * Step 2's end: the approved code becomes the account, in the workspace the state names; a
 * sign-in that gives several (LinkedIn's member and pages) becomes a pick instead (picks.ts).
 */
async function completeConnect(ctx: AppContext, row: OAuthStateRow, code: string): Promise<Completed> {
  const kind = row.kind as OAuthKind;
  const exchanged = await oauthOf(kind).exchange(ctx, { code, redirectUri: connectRedirectUri(ctx, kind), state: row });
  const accounts = Array.isArray(exchanged) ? exchanged : [exchanged];
  if (accounts.length > 1) return { pick: await savePick(ctx, row, accounts) };
  const workspace = row.team_id ? teamWorkspace(row.team_id) : personalWorkspace(row.account_id);
  return { provider: (await saveAccount(ctx, kind, row.account_id, workspace, accounts[0]!)).provider };
}

/** A pick of the calling account, live: 404 otherwise (another's is not told apart from none). */
async function livePick(ctx: AppContext, account: AccountRow, id: string): Promise<ConnectPickRow> {
  const row = await findConnectPick(ctx.db, id, account.id, ctx.clock.now());
  if (!row) throw new NotFoundError(`Pick ${id}`);
  return row;
}

/** The accounts a sign-in offered, for the user to pick from (no tokens). */
export async function showPick(ctx: AppContext, account: AccountRow, id: string): Promise<PickView> {
  const row = await livePick(ctx, account, id);
  return pickView(row, pickedAccounts(ctx, row));
}

/**
 * Adds the offered accounts the user picked (`providerUserIds`, at least one), in the order
 * offered; the others are forgotten. A fault (an account not offered) is a 400 naming each and
 * leaves the pick as it was; a pick is used once.
 */
export async function completePick(ctx: AppContext, account: AccountRow, id: string, providerUserIds: string[]): Promise<ProviderRow[]> {
  const row = await livePick(ctx, account, id);
  const offered = pickedAccounts(ctx, row);
  const faults = providerUserIds.flatMap((chosen, i) =>
    offered.some((o) => o.providerUserId === chosen) ? [] : [{ path: `providerUserIds.${i}`, message: `was not offered by this sign-in (${chosen})` }],
  );
  if (faults.length) throw new ValidationError(faults);
  if (!(await takeConnectPick(ctx.db, row.id))) throw new NotFoundError(`Pick ${id}`);
  const workspace = row.team_id ? teamWorkspace(row.team_id) : personalWorkspace(row.account_id);
  const providers: ProviderRow[] = [];
  for (const connected of offered.filter((o) => providerUserIds.includes(o.providerUserId)))
    providers.push((await saveAccount(ctx, row.kind, row.account_id, workspace, connected)).provider);
  return providers;
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

/**
 * What a callback ends with: the account connected (or the pick among several) and where the
 * browser goes, or the confirmation a key-started connect waits for.
 */
export type ConnectOutcome = (Completed & { returnTo: 'web' | null }) | Extract<CallbackState, { confirm: unknown }>;

/**
 * Step 2 for every sign-in network: the network redirects the browser back with `code` and
 * `state` (no API key). The network must still be set up (its settings exchange the code). The
 * state says who asked, which browser and where the browser goes next (`takeCallbackState`). A
 * state that is unknown, used, of another network or another browser's says nothing about where
 * the browser came from, so that failure is always the problem (JSON, or the page for a person).
 */
export async function finishConnect(
  ctx: AppContext,
  kind: OAuthKind,
  query: { code?: string; state?: string; error?: string; error_description?: string },
  browserToken: string | undefined,
): Promise<ConnectOutcome> {
  requireConfigured(ctx, kind);
  const taken = await takeCallbackState(ctx, kind, query, browserToken);
  if ('confirm' in taken) return taken;
  const row = taken.finish;
  try {
    assertStateLive(ctx, row);
    if (query.error) throw new ValidationError({ path: 'error', message: query.error_description ?? query.error });
    if (!query.code) throw new ValidationError({ path: 'code', message: 'is required' });
    return { ...(await completeConnect(ctx, row, query.code)), returnTo: row.return_to };
  } catch (err) {
    throw row.return_to === 'web' ? new WebConnectFailure(err) : err;
  }
}

/**
 * A connect an API key started, confirmed by the signed-in user of its account in the browser
 * its callback came back to (`takeConfirmState`): the kept code becomes the connected account
 * (or a pick among several).
 */
export async function confirmConnect(
  ctx: AppContext,
  account: AccountRow,
  input: { state: string; bySession: boolean; browserToken: string | undefined },
): Promise<Completed> {
  const { row, code } = await takeConfirmState(ctx, { ...input, accountId: account.id });
  requireConfigured(ctx, row.kind as OAuthKind);
  return completeConnect(ctx, row, code);
}

/** `POST /api/v1/providers/<network>` of each network connected with a credential pasted in, from its connector. */
export function credentialsRoutes(): Array<{ kind: CredentialsKind; route: CredentialsRoute }> {
  return NETWORK_KINDS.flatMap((kind) => {
    const credentials = (CONNECTORS[kind] as NetworkConnect<never>).credentials;
    return credentials ? [{ kind: kind as CredentialsKind, route: credentials.route }] : [];
  });
}

/** The content rules of a credentials connect of `kind` (the route's, for an answer with every fault). */
export function credentialsFaults(ctx: AppContext, kind: CredentialsKind, input: unknown) {
  return credentialsOf(kind).faults(ctx, input);
}

/**
 * Connects the account a credential (a token, an app password) belongs to, without a sign-in
 * page. The account comes from the network, never from the caller. `created` is false for a
 * reconnect.
 */
export async function connectWithCredentials(
  ctx: AppContext,
  kind: CredentialsKind,
  account: AccountRow,
  input: CredentialsInput,
): Promise<{ provider: ProviderRow; created: boolean }> {
  const credentials = credentialsOf(kind);
  const faults = await credentials.faults(ctx, input);
  if (faults.length) throw new ValidationError(faults);
  const workspace = await resolveWorkspace(ctx.db, account, input.teamId);
  return saveAccount(ctx, kind, account.id, workspace, await credentials.verify(ctx, input));
}

/** Disconnect: Skein forgets the credentials (its network told first, where it has something to revoke); the threads stay (and fail if they come due). */
export async function disconnectProvider(ctx: AppContext, account: AccountRow, providerId: string): Promise<ProviderRow> {
  const row = await findProvider(ctx.db, providerId);
  if (!row || !(await canAccess(ctx.db, account.id, { account_id: row.account_id, team_id: row.team_id }))) throw new NotFoundError(`Provider ${providerId}`);
  const connector: NetworkConnect<never> = CONNECTORS[row.kind];
  await connector.revoke?.(ctx, row);
  return revokeProvider(ctx.db, providerId, ctx.clock.now());
}
