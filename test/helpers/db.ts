import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { type DbHandle, type DbKind, openPGlite, openPostgres, type WrapDialect } from '../../src/db/database.js';

export const DIALECTS: DbKind[] = ['pglite', 'postgres'];

/** Why the PostgreSQL half cannot run here, or null when it can. */
export function postgresSkipReason(): string | null {
  if (process.env.SKEIN_TEST_PG_URL && process.env.SKEIN_TEST_PG_TEMPLATE) return null;
  return process.env.SKEIN_TEST_PG_SKIP ?? 'run the tests with npm test (it prepares the PostgreSQL template)';
}

let templateBlob: Blob | null = null;
function pgliteTemplate(): Blob | undefined {
  const file = process.env.SKEIN_TEST_PGLITE_TEMPLATE;
  if (!file) return undefined;
  templateBlob ??= new Blob([readFileSync(file)]);
  return templateBlob;
}

/**
 * A migrated database of its own for one test file: PGlite loaded from the run's dumped
 * template, or a PostgreSQL database copied from the run's template database.
 */
export async function openTestDb(kind: DbKind, wrapDialect?: WrapDialect): Promise<DbHandle & { migrated: boolean; url?: string }> {
  if (kind === 'pglite') {
    const template = pgliteTemplate();
    const handle = await openPGlite(null, template, wrapDialect);
    return { ...handle, migrated: template !== undefined };
  }
  const baseUrl = process.env.SKEIN_TEST_PG_URL!;
  const name = `skein_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${process.env.SKEIN_TEST_PG_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), 5, undefined, wrapDialect);
  return {
    ...handle,
    migrated: true,
    url: url.toString(),
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
