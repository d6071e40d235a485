import type { AppContext } from '../../../context.js';
import type { ConnectPickRow, OAuthStateRow } from '../../../db/schema/index.js';
import type { ConnectedAccount } from '../../../networks/connect.js';
import type { NetworkKind } from '../../../networks/index.js';
import { insertConnectPick } from '../../../repos/connect-picks.js';
import { newStateValue } from './states.js';

/**
 * A pick (decisions.md "LinkedIn"): a sign-in that gives several accounts (LinkedIn's member and
 * each page it administers) adds none of them at once. They are kept, encrypted with their
 * tokens, for PICK_TTL_MS under an unguessable id, for the account that connected; that user
 * picks the ones to add (`GET`/`POST /api/v1/providers/connect/picks/:id`, the accounts page's
 * checkboxes), once. Nothing of an account not picked is kept.
 */

const PICK_TTL_MS = 15 * 60_000;

/** An account a sign-in offers, as the user chooses among them. */
interface OfferedAccount {
  providerUserId: string;
  username: string;
}

/** A pick as the user sees it: what was offered, without tokens. */
export interface PickView {
  id: string;
  network: NetworkKind;
  expiresAt: Date;
  accounts: OfferedAccount[];
}

export function pickView(row: Pick<ConnectPickRow, 'id' | 'kind' | 'expires_at'>, accounts: ConnectedAccount[]): PickView {
  return {
    id: row.id,
    network: row.kind,
    expiresAt: row.expires_at,
    accounts: accounts.map(({ providerUserId, username }) => ({ providerUserId, username })),
  };
}

/** Keeps the accounts a sign-in gave for the user's pick. */
export async function savePick(
  ctx: AppContext,
  state: Pick<OAuthStateRow, 'account_id' | 'team_id' | 'kind'>,
  accounts: ConnectedAccount[],
): Promise<PickView> {
  const id = newStateValue();
  const now = ctx.clock.now();
  const row = {
    id,
    account_id: state.account_id,
    team_id: state.team_id,
    kind: state.kind,
    accounts_enc: ctx.secrets.encrypt(JSON.stringify(accounts)),
    created_at: now,
    expires_at: new Date(now.getTime() + PICK_TTL_MS),
  };
  await insertConnectPick(ctx.db, row, now);
  return pickView(row, accounts);
}

/** The accounts a pick keeps, with their tokens (JSON gave the expiry back as a string). */
export function pickedAccounts(ctx: AppContext, row: ConnectPickRow): ConnectedAccount[] {
  const accounts = JSON.parse(ctx.secrets.decrypt(row.accounts_enc)) as (ConnectedAccount & { tokenExpiresAt?: string | null })[];
  return accounts.map((account) => ({ ...account, tokenExpiresAt: account.tokenExpiresAt ? new Date(account.tokenExpiresAt) : null }));
}
