import type { AccountsTable } from './accounts.js';
import type { ApiKeysTable } from './api_keys.js';
import type { FollowUpsTable } from './follow_ups.js';
import type { FollowerCountsTable } from './follower_counts.js';
import type { JobsTable } from './jobs.js';
import type { OAuthStatesTable } from './oauth_states.js';
import type { MediaTable, PostsTable, SpoilerRangesTable } from './posts.js';
import type { ProvidersTable } from './providers.js';
import type { IdempotencyRecordsTable, WorkspaceSettingsTable } from './settings.js';
import type { TagsTable, ThreadTagsTable } from './tags.js';
import type { MembershipsTable, TeamsTable } from './teams.js';
import type { ThreadsTable } from './threads.js';
import type { TimeSlotsTable } from './time_slots.js';

export interface Database {
  accounts: AccountsTable;
  teams: TeamsTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  providers: ProvidersTable;
  threads: ThreadsTable;
  posts: PostsTable;
  media: MediaTable;
  spoiler_ranges: SpoilerRangesTable;
  tags: TagsTable;
  thread_tags: ThreadTagsTable;
  workspace_settings: WorkspaceSettingsTable;
  idempotency_records: IdempotencyRecordsTable;
  oauth_states: OAuthStatesTable;
  jobs: JobsTable;
  time_slots: TimeSlotsTable;
  follow_ups: FollowUpsTable;
  follower_counts: FollowerCountsTable;
}

export type * from './accounts.js';
export type * from './api_keys.js';
export type * from './follow_ups.js';
export type * from './follower_counts.js';
export type * from './jobs.js';
export type * from './oauth_states.js';
export type * from './posts.js';
export type * from './providers.js';
export type * from './settings.js';
export type * from './tags.js';
export type * from './teams.js';
export type * from './threads.js';
export type * from './time_slots.js';
