import type { ColumnType, Selectable } from 'kysely';

export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string | null;
  timezone: string;
  active_team_id: string | null;
  created_at: ColumnType<Date, Date | string, never>;
}
export type AccountRow = Selectable<AccountsTable>;
