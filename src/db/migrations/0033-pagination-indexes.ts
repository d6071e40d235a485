import { type Kysely, sql } from 'kysely';

// Frozen. List Posts of a personal workspace, by pages (docs/api.md, "Paging"): its filter is
// `team_id IS NULL AND account_id = …`, and an IS NULL makes no equality the planner can order
// by, so threads_workspace_schedule_idx (team_id, account_id, scheduled_at, id) served it only as
// a bitmap of the whole range, sorted; on 200,000 threads PostgreSQL chose a sequential scan
// (2,874 buffers for a page of 101). This index, of personal threads only, is read in order from
// the page's key and stops at the page's end (7 buffers): docs/benchmarks.md, "Keyset pages".
// A team's threads (`team_id = …`) are read in order by the workspace index already.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX threads_personal_schedule_idx ON threads (account_id, scheduled_at, id) WHERE team_id IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX threads_personal_schedule_idx`.execute(db);
}
