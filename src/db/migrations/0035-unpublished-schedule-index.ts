import { type Kysely, sql } from 'kysely';

// Frozen. Analytics (of an account, and the workspace summary of the home page, issue 43) find
// a range's posts through the threads that hold them: those published since the range's start
// and those not published that were due by its end (a post goes out only once its thread is
// due). threads_provider_unpublished_idx (0030) held every unpublished thread of an account by
// account alone, its schedule ahead included (an agency's two weeks: 420 an account, 42,000 for
// 100): each was read to find the few due. This one orders them by their time, so a read stops
// at the range's end: docs/api.md "Workspace summary".
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX threads_provider_unpublished_at_idx ON threads (provider_id, scheduled_at) WHERE status <> 'PUBLISHED'`.execute(db);
  await sql`DROP INDEX threads_provider_unpublished_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX threads_provider_unpublished_idx ON threads (provider_id) WHERE status <> 'PUBLISHED'`.execute(db);
  await sql`DROP INDEX threads_provider_unpublished_at_idx`.execute(db);
}
