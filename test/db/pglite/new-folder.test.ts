import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { openPGlite } from '../../../src/db/database.js';

// A new embedded database folder is made by a process of its own (src/db/pglite/worker.ts,
// initdbApart), so what PGlite's initdb leaves in malloc's arenas is not kept by the server.

const root = mkdtempSync(join(tmpdir(), 'skein-new-folder-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a new data folder is made, kept, and opened again; a half-made one left by a killed start is removed, never opened', async () => {
  const dataDir = join(root, 'a', 'pglite');
  const leftover = join(root, 'a', 'pglite.initdb-999999');
  mkdirSync(leftover, { recursive: true });
  writeFileSync(join(leftover, 'postgresql.conf'), '');
  let handle = await openPGlite(dataDir);
  try {
    await sql`CREATE TABLE kept (n int)`.execute(handle.db);
    await sql`INSERT INTO kept VALUES (7)`.execute(handle.db);
  } finally {
    await handle.close();
  }
  assert.deepEqual(readdirSync(join(root, 'a')), ['pglite']);
  assert.ok(existsSync(join(dataDir, 'PG_VERSION')));
  handle = await openPGlite(dataDir);
  try {
    const { rows } = await sql<{ n: number }>`SELECT n FROM kept`.execute(handle.db);
    assert.deepEqual(rows, [{ n: 7 }]);
  } finally {
    await handle.close();
  }
});

test('an empty folder where the database goes is filled', async () => {
  const dataDir = join(root, 'b', 'pglite');
  mkdirSync(dataDir, { recursive: true });
  const handle = await openPGlite(dataDir);
  try {
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db);
    assert.deepEqual(rows, [{ one: 1 }]);
  } finally {
    await handle.close();
  }
  assert.ok(existsSync(join(dataDir, 'PG_VERSION')));
});

test('opening a new data folder leaves this process less than 200 MiB bigger (about 130; initdb run in it left about 300)', () => {
  const dataDir = join(root, 'c', 'pglite');
  mkdirSync(join(root, 'c'));
  const script = `
    import { sql } from 'kysely';
    import { openPGlite } from './src/db/database.ts';
    const before = process.memoryUsage.rss();
    const handle = await openPGlite(${JSON.stringify(dataDir)});
    await sql\`SELECT 1\`.execute(handle.db);
    await new Promise((resolve) => setTimeout(resolve, 500));
    console.log(Math.round((process.memoryUsage.rss() - before) / 1048576));
    await handle.close();
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 180_000 });
  assert.equal(child.status, 0, child.stderr);
  const grownMiB = Number(child.stdout.trim());
  assert.ok(grownMiB < 200, `grew by ${grownMiB} MiB`);
});
