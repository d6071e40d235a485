import type { ColumnType, Selectable } from 'kysely';

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** HMAC-SHA-256 of the full key under SKEIN_SECRET, hex. The key itself is never stored. */
  key_hash: string;
  last4: string;
  created_at: ColumnType<Date, Date | string, never>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}
export type ApiKeyRow = Selectable<ApiKeysTable>;
