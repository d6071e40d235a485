/**
 * Builds the migrated database templates the test files clone, once per test run:
 * - PGlite: a migrated in-memory database dumped to a tarball (loading it is far cheaper than
 *   creating and migrating a fresh PGlite in every file);
 * - PostgreSQL: a template database that each file copies with CREATE DATABASE … TEMPLATE.
 * Prints the environment lines for the test runner as JSON on stdout.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { openPostgres } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import type { PGliteSession } from '../src/db/pglite/dialect.js';

const cacheDir = resolve('.test-cache');
const env: Record<string, string> = {};

async function dumpPGliteTemplate(): Promise<string> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { Kysely } = await import('kysely');
  const { PGliteDialect } = await import('../src/db/pglite/dialect.js');
  const pglite = await PGlite.create();
  // PGlite itself is no PGliteSession: its query's third argument is other options.
  const session: PGliteSession = {
    async query(sql, params, options) {
      if (options?.begin) await pglite.query('begin');
      return pglite.query(sql, params);
    },
    close: () => pglite.close(),
    get closed() {
      return pglite.closed;
    },
  };
  const db = new Kysely<any>({ dialect: new PGliteDialect(session) });
  await migrateToLatest(db);
  const dump = await pglite.dumpDataDir('gzip');
  const file = join(cacheDir, 'pglite-template.tar.gz');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.destroy();
  return file;
}

async function preparePostgres(baseUrl: string): Promise<string | { skip: string }> {
  const admin = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    return { skip: `PostgreSQL at ${baseUrl} is not reachable (${(err as Error).message})` };
  }
  try {
    // One template per checkout, so two working copies can run their suites at once.
    const template = `skein_test_template_${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 10)}`;
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const url = new URL(baseUrl);
    url.pathname = `/${template}`;
    const handle = openPostgres(url.toString(), 1);
    await migrateToLatest(handle.db);
    await handle.close();
    return template;
  } finally {
    await admin.end();
  }
}

mkdirSync(cacheDir, { recursive: true });
env.SKEIN_TEST_PGLITE_TEMPLATE = await dumpPGliteTemplate();
const pgUrl = process.env.SKEIN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgResult = await preparePostgres(pgUrl);
if (typeof pgResult === 'string') {
  env.SKEIN_TEST_PG_URL = pgUrl;
  env.SKEIN_TEST_PG_TEMPLATE = pgResult;
} else {
  env.SKEIN_TEST_PG_SKIP = pgResult.skip;
}
process.stdout.write(`${JSON.stringify(env)}\n`);
