import type { Selectable } from 'kysely';
import type { ProviderKind } from './providers.js';

/** The accounts a sign-in offered, until the user who connected picks the ones to add (services/providers/connect/picks.ts). */
export interface ConnectPicksTable {
  /** Unguessable: the web app's address names it. */
  id: string;
  account_id: string;
  team_id: string | null;
  kind: ProviderKind;
  /** The offered accounts with their tokens, as JSON, encrypted (lib/crypto.ts); never logged, never returned. */
  accounts_enc: string;
  created_at: Date;
  expires_at: Date;
}
export type ConnectPickRow = Selectable<ConnectPicksTable>;
