import type { ColumnType, Selectable } from 'kysely';

/** Per-workspace settings, keyed by scope (`team:<id>` or `personal:<accountId>`). */
export interface WorkspaceSettingsTable {
  scope: string;
  auto_plug_enabled: boolean;
  auto_plug_text: string;
  auto_plug_min_likes: number;
  updated_at: Date;
}
export type WorkspaceSettingsRow = Selectable<WorkspaceSettingsTable>;

export interface IdempotencyRecordsTable {
  account_id: string;
  key: string;
  request_hash: string;
  response_status: number;
  response_body: unknown;
  created_at: ColumnType<Date, Date | string, never>;
}
