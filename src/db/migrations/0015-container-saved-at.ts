import { type Kysely, sql } from 'kysely';

// Frozen. When the saved network container was saved: a Threads video is waited for across
// claims (the thread handed back between looks), and the wait is bounded from this instant.
const TABLES = ['posts', 'follow_ups', 'jobs'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN network_container_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN network_container_at`.execute(db);
}
