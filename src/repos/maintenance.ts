import { sql } from 'kysely';
import type { DbOrTrx } from './types.js';

/**
 * VACUUM (ANALYZE) of the whole database: dead row versions cleared for reuse and the planner's
 * statistics refreshed. The embedded database needs it from Skein: it runs as one standalone
 * PostgreSQL backend, where autovacuum never runs (docs/deploy.md, "Vacuum"). About 2 s at
 * 100,000 threads, during which the embedded database answers nothing else.
 */
export async function vacuumAnalyze(db: DbOrTrx): Promise<void> {
  await sql`VACUUM (ANALYZE)`.execute(db);
}
