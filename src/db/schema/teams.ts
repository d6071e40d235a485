import type { ColumnType } from 'kysely';
import type { Role } from '../../lib/roles.js';

export interface TeamsTable {
  id: string;
  name: string;
  created_at: ColumnType<Date, Date | string, never>;
}

export interface MembershipsTable {
  team_id: string;
  account_id: string;
  role: Role;
  created_at: ColumnType<Date, Date | string, never>;
}
