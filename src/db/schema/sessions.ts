import type { ColumnType, Selectable } from 'kysely';

/** A signed-in browser. The cookie holds the token; this row only its HMAC. */
export interface SessionsTable {
  id: string;
  account_id: string;
  token_hash: string;
  created_at: ColumnType<Date, Date | string, never>;
  last_seen_at: Date;
  expires_at: Date;
}
export type SessionRow = Selectable<SessionsTable>;
