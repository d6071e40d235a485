import type { Selectable } from 'kysely';

export interface OAuthStatesTable {
  state: string;
  account_id: string;
  team_id: string | null;
  kind: 'THREADS';
  created_at: Date;
  expires_at: Date;
  /** 'web': the web app started the connect, so the callback redirects to its accounts page; null: JSON. */
  return_to: 'web' | null;
}
export type OAuthStateRow = Selectable<OAuthStatesTable>;
