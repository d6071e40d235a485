import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openPostgres } from '../../../src/db/database.js';
import { openTestDb, postgresSkipReason } from '../../helpers/db.js';
import { until } from '../../helpers/wait.js';

const skip = postgresSkipReason();

test('an idle pooled connection ended by the server (a restart, an admin) is reported, not a crash; the pool goes on', { skip: skip ?? false }, async () => {
  const testDb = await openTestDb('postgres');
  const errors: Error[] = [];
  const handle = openPostgres(testDb.url!, 2, (err) => errors.push(err));
  const admin = new pg.Client({ connectionString: testDb.url });
  await admin.connect();
  try {
    const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(handle.db);
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    // The pool hears of it when the server's message reaches the idle connection: waited for
    // (the limit only guards against a hang), then exactly one report.
    await until('the broken idle connection to be reported', () => errors.length > 0, { intervalMs: 50 });
    assert.equal(errors.length, 1, 'the broken idle connection was reported');
    assert.match(errors[0]!.message, /terminat/);
    const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(handle.db);
    assert.equal(again.rows[0]!.one, 1, 'the pool opened a new connection');
  } finally {
    await admin.end();
    await handle.close();
    await testDb.close();
  }
});

test('claims run on connections of their own that always use a named statement’s cached generic plan; the other queries plan for their values', {
  skip: skip ?? false,
}, async () => {
  const testDb = await openTestDb('postgres');
  const handle = openPostgres(testDb.url!, 2);
  try {
    const mode = async (db: typeof handle.db) => (await sql<{ mode: string }>`SELECT current_setting('plan_cache_mode') AS mode`.execute(db)).rows[0]!.mode;
    assert.equal(await mode(handle.claimDb!), 'force_generic_plan');
    assert.equal(await mode(handle.db), 'auto', 'unnamed parameterised queries would be planned generically too');
    const jit = (await sql<{ jit: string }>`SELECT current_setting('jit') AS jit`.execute(handle.claimDb!)).rows[0]!.jit;
    assert.equal(jit, 'off');
  } finally {
    await handle.close();
    await testDb.close();
  }
});
