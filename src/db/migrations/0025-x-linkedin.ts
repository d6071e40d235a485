import { type Kysely, sql } from 'kysely';

// Frozen. X and LinkedIn, the fourth and fifth networks (decisions.md "X", "LinkedIn"): provider kinds.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE providers DROP CONSTRAINT providers_kind_check`.execute(db);
  await sql`ALTER TABLE providers ADD CONSTRAINT providers_kind_check CHECK (kind IN ('THREADS', 'BLUESKY', 'MASTODON', 'X', 'LINKEDIN'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM providers WHERE kind IN ('X', 'LINKEDIN')`.execute(db);
  await sql`ALTER TABLE providers DROP CONSTRAINT providers_kind_check`.execute(db);
  await sql`ALTER TABLE providers ADD CONSTRAINT providers_kind_check CHECK (kind IN ('THREADS', 'BLUESKY', 'MASTODON'))`.execute(db);
}
