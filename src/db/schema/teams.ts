import type { ColumnType, Selectable } from 'kysely';

export interface TeamsTable {
  id: string;
  name: string;
  created_at: ColumnType<Date, Date | string, never>;
}
export type TeamRow = Selectable<TeamsTable>;

export interface MembershipsTable {
  team_id: string;
  account_id: string;
  role: 'owner' | 'member';
  created_at: ColumnType<Date, Date | string, never>;
}
export type MembershipRow = Selectable<MembershipsTable>;
