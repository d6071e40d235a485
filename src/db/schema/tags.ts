import type { ColumnType, Selectable } from 'kysely';

export interface TagsTable {
  id: string;
  /** `team:<id>` or `personal:<accountId>`: unique names are per scope. */
  scope: string;
  team_id: string | null;
  name: string;
  name_key: string;
  color: string;
  created_by: string;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: Date;
}
export type TagRow = Selectable<TagsTable>;

export interface ThreadTagsTable {
  thread_id: string;
  tag_id: string;
}
