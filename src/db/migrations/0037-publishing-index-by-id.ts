import { type Kysely, sql } from 'kysely';

// Frozen. A worker's statements on a thread it holds (save a post's container, renew the lease,
// complete, fail, release) find it by id under the lease rule `locked_by = … AND status =
// 'PUBLISHING'`. That literal matches the predicate of threads_publishing_idx (0008, keyed by
// provider), which the planner, seeing it small, took over the primary key: every such
// statement read the whole index and fetched each entry's row, the threads in flight and the
// dead versions of those published since (170 row fetches per published thread in the scale
// bench's burst, more than half of PostgreSQL's buffer reads there). Keyed by id, the same index
// finds the one row; the claim's count of each provider's threads in flight reads it whole as
// before (provider_id is carried along).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX threads_publishing_id_idx ON threads (id) INCLUDE (provider_id) WHERE status = 'PUBLISHING'`.execute(db);
  await sql`DROP INDEX threads_publishing_idx`.execute(db);
  await sql`ALTER INDEX threads_publishing_id_idx RENAME TO threads_publishing_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX threads_publishing_provider_idx ON threads (provider_id) WHERE status = 'PUBLISHING'`.execute(db);
  await sql`DROP INDEX threads_publishing_idx`.execute(db);
  await sql`ALTER INDEX threads_publishing_provider_idx RENAME TO threads_publishing_idx`.execute(db);
}
