import type { ColumnType, Selectable } from 'kysely';

/** A one-time link that lets an account set its password (first start, `skein user sign-in-link`). */
export interface SignInLinksTable {
  id: string;
  account_id: string;
  token_hash: string;
  created_at: ColumnType<Date, Date | string, never>;
  expires_at: Date;
  used_at: Date | null;
}
export type SignInLinkRow = Selectable<SignInLinksTable>;
