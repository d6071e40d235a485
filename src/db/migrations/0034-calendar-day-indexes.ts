import { type Kysely, sql } from 'kysely';

// Frozen. Threads per local day (GET /api/v1/posts/days, docs/api.md) counts a workspace's
// threads of a range by local date, status and approval. On PostgreSQL 15 with 300,000 threads
// (a team holding 90,000 in a month), a team's month was a sequential scan of the table (4,498
// buffers): threads_workspace_schedule_idx (team_id, account_id, scheduled_at, id) puts the
// creator before the time, so a team of several members cannot seek to a range (nor read a
// List Posts page in order). A team's threads get (team_id, scheduled_at, id), and both
// workspace indexes carry the columns the count reads, so it is an index-only scan of the range
// (793 buffers; a personal month 226 → 111): docs/benchmarks.md, "Scale". Every query that read
// the old index filters team_id = … (a team) or team_id IS NULL AND account_id = … (personal,
// threads_personal_schedule_idx), so it is dropped.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX threads_team_schedule_idx ON threads (team_id, scheduled_at, id) INCLUDE (status, approval_state, provider_id) WHERE team_id IS NOT NULL`.execute(
    db,
  );
  await sql`DROP INDEX threads_workspace_schedule_idx`.execute(db);
  await sql`DROP INDEX threads_personal_schedule_idx`.execute(db);
  await sql`CREATE INDEX threads_personal_schedule_idx ON threads (account_id, scheduled_at, id) INCLUDE (status, approval_state, provider_id) WHERE team_id IS NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX threads_personal_schedule_idx`.execute(db);
  await sql`CREATE INDEX threads_personal_schedule_idx ON threads (account_id, scheduled_at, id) WHERE team_id IS NULL`.execute(db);
  await sql`CREATE INDEX threads_workspace_schedule_idx ON threads (team_id, account_id, scheduled_at, id)`.execute(db);
  await sql`DROP INDEX threads_team_schedule_idx`.execute(db);
}
