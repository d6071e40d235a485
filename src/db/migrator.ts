import { type Kysely, type MigrationProvider, Migrator, sql } from 'kysely';
import { migrations } from './migrations/index.js';

const provider: MigrationProvider = { getMigrations: async () => migrations };

export function createMigrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider });
}

/** Brings the schema to the newest migration, or throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  if (await upToDate(db)) return [];
  const { error, results } = await createMigrator(db).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).map((r) => r.migrationName);
}

/**
 * One read instead of Kysely's checks (which look the tables up in the catalogue and take the
 * migration lock, about half a second on the embedded database): when exactly the migrations
 * this build knows are recorded, there is nothing to do. Anything else (a new database, a
 * migration missing, one this build does not know) takes the full path and its errors.
 * A migration in progress elsewhere records itself only when it commits, so it is never
 * taken for done here.
 */
async function upToDate(db: Kysely<any>): Promise<boolean> {
  const names = Object.keys(migrations).sort();
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
    return rows.length === names.length && rows.every((row, i) => row.name === names[i]);
  } catch {
    return false; // no migration table yet: a new database
  }
}
