import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openPostgres } from '../../src/db/database.js';
import { MAX_NAMES, StatementNames } from '../../src/db/prepared-statements.js';
import { openTestDb, postgresSkipReason } from '../helpers/db.js';

const skip = postgresSkipReason();

test('a statement text is named the second time it is seen, up to MAX_NAMES texts', () => {
  const names = new StatementNames();
  assert.equal(names.nameFor('select $1'), null, 'a one-off takes no name');
  const name = names.nameFor('select $1');
  assert.ok(name);
  assert.equal(names.nameFor('select $1'), name, 'the same text keeps its name');
  for (let i = 0; names.size < MAX_NAMES; i++) {
    names.nameFor(`select ${i}, $1`);
    names.nameFor(`select ${i}, $1`);
  }
  assert.equal(names.nameFor('select 1 + $1'), null);
  assert.equal(names.nameFor('select 1 + $1'), null, 'past the cap, new texts run unnamed');
  assert.equal(names.nameFor('select $1'), name, 'named texts keep their names');
  names.reset();
  assert.equal(names.size, 0);
  names.nameFor('select $1');
  assert.notEqual(names.nameFor('select $1'), name, 'after a reset, a text gets a new name');
});

test('PostgreSQL: repeated statements run prepared on each connection; a plan gone stale under a migration is parsed again', {
  skip: skip ?? false,
}, async () => {
  const testDb = await openTestDb('postgres');
  const handle = openPostgres(testDb.url!, 1);
  const admin = new pg.Client({ connectionString: testDb.url });
  await admin.connect();
  try {
    const read = () => sql<Record<string, unknown>>`SELECT * FROM teams WHERE id = ${'k'}`.execute(handle.db);
    await sql`INSERT INTO teams (id, name) VALUES (${'k'}, ${'team'})`.execute(handle.db);
    for (let i = 0; i < 3; i++) assert.equal((await read()).rows.length, 1);
    const prepared = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(handle.db);
    assert.deepEqual(
      prepared.rows.map((r) => r.statement),
      ['SELECT * FROM teams WHERE id = $1'],
    );

    // Another instance migrates: the prepared `SELECT *` would now change its result type.
    await admin.query('ALTER TABLE teams ADD COLUMN extra text');
    const after = await read();
    assert.equal(after.rows.length, 1);
    assert.ok('extra' in after.rows[0]!, 'the new column is read');
    for (let i = 0; i < 2; i++) assert.ok('extra' in (await read()).rows[0]!);

    // Inside a transaction the statement fails with it (nothing runs twice); the next one works.
    await admin.query('ALTER TABLE teams ADD COLUMN more text');
    await assert.rejects(
      handle.db.transaction().execute(async (trx) => sql`SELECT * FROM teams WHERE id = ${'k'}`.execute(trx)),
      /cached plan must not change result type/,
    );
    assert.ok('more' in (await read()).rows[0]!);
  } finally {
    await admin.end();
    await handle.close();
    await testDb.close();
  }
});
