import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../../context.js';
import type { OAuthStateRow, OAuthStatesTable } from '../../../db/schema/index.js';
import { ConnectRefusedError, ValidationError } from '../../../errors/index.js';
import { generateWebToken, SecretBox, WEB_TOKEN_PATTERN } from '../../../lib/crypto.js';
import { NETWORKS, type NetworkKind } from '../../../networks/index.js';
import { insertOAuthState, takeOAuthState } from '../../../repos/oauth-states.js';

/**
 * The `state` of a connect through a network's sign-in page, once for every such network (decisions.md
 * "Security rules"): single-use, 15 minutes, for one network, and honoured only in the browser that started it (the HMAC of that browser's connect cookie is
 * kept with it). A connect started with an API key has no browser: its callback binds the
 * browser that came back, and the signed-in user of the account that started it confirms it
 * there (`takeConfirmState`).
 */

const STATE_TTL_MS = 15 * 60_000;
/** How long a key-started connect waits for its confirmation after the callback (a Mastodon code lasts 10 minutes). */
const CONFIRM_TTL_MS = 10 * 60_000;
const INVALID_STATE = 'is unknown, used already or expired; start the connection again';
const OTHER_BROWSER =
  'This connection was not started in this browser, so nothing was connected. Start again from Skein (Accounts → Connect), in the browser you use for Skein.';

/** The connect cookie's value for a start: the browser's own when it sent a well-formed one (parallel connects), else a new one. */
export function connectBrowserToken(presented: string | undefined): string {
  return presented && WEB_TOKEN_PATTERN.test(presented) ? presented : generateWebToken();
}

/** A new state's value: unguessable, sent to the network and back. */
export function newStateValue(): string {
  return randomBytes(24).toString('base64url');
}

/** Saves the state `state` for `fields`; `browserToken` is the starting browser's connect cookie, null for an API key. */
export async function saveConnectState(
  ctx: AppContext,
  state: string,
  fields: Pick<OAuthStatesTable, 'account_id' | 'team_id' | 'kind' | 'return_to'> & Partial<Pick<OAuthStatesTable, 'instance' | 'code_verifier_enc'>>,
  browserToken: string | null,
): Promise<void> {
  const now = ctx.clock.now();
  await insertOAuthState(
    ctx.db,
    {
      ...fields,
      state,
      created_at: now,
      expires_at: new Date(now.getTime() + STATE_TTL_MS),
      browser_hash: browserToken === null ? null : ctx.secrets.hashWebToken(browserToken),
      code_enc: null,
    },
    now,
  );
}

function sameBrowser(ctx: AppContext, row: OAuthStateRow, browserToken: string | undefined): boolean {
  return Boolean(
    row.browser_hash && browserToken && WEB_TOKEN_PATTERN.test(browserToken) && SecretBox.sameHash(ctx.secrets.hashWebToken(browserToken), row.browser_hash),
  );
}

/** What a callback's state says: finish the connect now, or (started with an API key) wait for the user's confirmation in this browser. */
export type CallbackState = { finish: OAuthStateRow } | { confirm: { state: string; browserToken: string; network: NetworkKind } };

/**
 * Takes the state of a callback of `kind` (single-use: taken whatever follows). Refused: a state
 * unknown, used or of another network (400 at `state`), or one a browser started that is not
 * this one (403 `CONNECT_REFUSED`); the caller checks its expiry (`assertStateLive`). A key-started state with a code is kept for 10 more
 * minutes, bound to a new connect cookie for this browser, until the user confirms it.
 */
export async function takeCallbackState(
  ctx: AppContext,
  kind: NetworkKind,
  query: { code?: string; state?: string; error?: string },
  browserToken: string | undefined,
): Promise<CallbackState> {
  if (!query.state) throw new ValidationError({ path: 'state', message: 'is required' });
  const row = await takeOAuthState(ctx.db, query.state);
  if (!row || row.code_enc !== null) throw new ValidationError({ path: 'state', message: INVALID_STATE });
  if (row.kind !== kind) {
    throw new ValidationError({
      path: 'state',
      message: `belongs to a ${NETWORKS[row.kind].name} connection, not ${NETWORKS[kind].name}; start the connection again`,
    });
  }
  if (row.browser_hash !== null) {
    if (!sameBrowser(ctx, row, browserToken)) throw new ConnectRefusedError(OTHER_BROWSER);
    return { finish: row };
  }
  // Started with an API key: expired, refused at the network or without a code, it fails as it
  // would have (`assertStateLive`, then the completion); nothing to confirm.
  const now = ctx.clock.now();
  if (row.expires_at < now || query.error || !query.code) return { finish: row };
  const token = connectBrowserToken(browserToken);
  await insertOAuthState(
    ctx.db,
    {
      ...row,
      expires_at: new Date(now.getTime() + CONFIRM_TTL_MS),
      browser_hash: ctx.secrets.hashWebToken(token),
      code_enc: ctx.secrets.encrypt(query.code),
    },
    now,
  );
  return { confirm: { state: row.state, browserToken: token, network: kind } };
}

/** A state taken in time; past its expiry it fails the way its connect answers (the accounts page for a web connect). */
export function assertStateLive(ctx: AppContext, row: OAuthStateRow): void {
  if (row.expires_at < ctx.clock.now()) throw new ValidationError({ path: 'state', message: INVALID_STATE });
}

/**
 * Takes a key-started state waiting for confirmation, with its code: only in the browser the
 * callback came back to, and only by the signed-in user (a session, not a key) of the account
 * that started it. Taken whatever follows, so a refused confirmation cannot be tried again.
 */
export async function takeConfirmState(
  ctx: AppContext,
  input: { state: string; accountId: string; bySession: boolean; browserToken: string | undefined },
): Promise<{ row: OAuthStateRow; code: string }> {
  if (!input.bySession) {
    throw new ConnectRefusedError(
      'A connection started with an API key is confirmed by its user, signed in to the web app, on the page the network sent the browser to.',
    );
  }
  const row = await takeOAuthState(ctx.db, input.state);
  if (!row || row.code_enc === null || row.expires_at < ctx.clock.now()) throw new ValidationError({ path: 'state', message: INVALID_STATE });
  if (!sameBrowser(ctx, row, input.browserToken)) throw new ConnectRefusedError(OTHER_BROWSER);
  if (row.account_id !== input.accountId) {
    throw new ConnectRefusedError(
      'This connection was started by another Skein account, so nothing was connected. Sign in as that account, or start again from Skein.',
    );
  }
  return { row, code: ctx.secrets.decrypt(row.code_enc) };
}
