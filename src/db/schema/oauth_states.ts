import type { Selectable } from 'kysely';

export interface OAuthStatesTable {
  state: string;
  account_id: string;
  team_id: string | null;
  kind: 'THREADS';
  created_at: Date;
  expires_at: Date;
}
export type OAuthStateRow = Selectable<OAuthStatesTable>;
