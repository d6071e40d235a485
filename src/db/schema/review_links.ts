import type { ColumnType } from 'kysely';

/** A team's review link for clients (migration 0031): the token itself is never stored. */
export interface ReviewLinksTable {
  id: string;
  team_id: string;
  /** SHA-256 of the link's token, hex. */
  token_hash: string;
  range_from: Date;
  range_to: Date;
  /** The accounts whose threads it shows; null: every account of the team. */
  provider_ids: ColumnType<string[] | null, string | null, string | null>;
  can_approve: boolean;
  expires_at: Date;
  created_by: string | null;
  created_at: ColumnType<Date, Date | string, never>;
}
