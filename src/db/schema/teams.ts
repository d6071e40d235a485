import type { ColumnType } from 'kysely';

export interface TeamsTable {
  id: string;
  name: string;
  created_at: ColumnType<Date, Date | string, never>;
}

export interface MembershipsTable {
  team_id: string;
  account_id: string;
  role: 'owner' | 'member';
  created_at: ColumnType<Date, Date | string, never>;
}
