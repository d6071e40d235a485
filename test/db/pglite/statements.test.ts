/**
 * Named statements on PGlite (src/db/pglite-statements.ts): a text run a second time runs as a
 * named statement, and must answer exactly as PGlite's own `query` does: the same values, errors,
 * counts, transactions and notifications.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as pgliteModule from '@electric-sql/pglite';
import { PGlite } from '@electric-sql/pglite';
import { PGliteStatements } from '../../../src/db/pglite/statements.js';

let pglite: PGlite;
let statements: PGliteStatements;
before(async () => {
  pglite = await PGlite.create();
  statements = new PGliteStatements(pglite, pgliteModule);
  await pglite.exec(`CREATE TABLE t_named (id int PRIMARY KEY, name text NOT NULL, at timestamptz, tags text[], doc jsonb)`);
});
after(() => pglite.close());

/** Runs `text` three times (unnamed, then named twice): every answer as PGlite's own. */
async function thrice(text: string, params: unknown[]) {
  const expected = await pglite.query(text, params);
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await statements.query(text, params));
  for (const answer of answers) {
    assert.deepEqual(answer.rows, expected.rows);
    assert.deepEqual(answer.fields, expected.fields);
  }
  return answers;
}

test('a named statement answers values as PGlite does: Date, int8, jsonb, bytea, arrays, NULL', async () => {
  const at = new Date('2026-01-02T03:04:05.678Z');
  const [answer] = await thrice(
    `SELECT $1::timestamptz AS at, $2::int8 AS n, $3::jsonb AS j, $4::bytea AS b, $5::text[] AS arr, $6::text AS none, $7::bool AS yes`,
    [at, 9007199254740991, JSON.stringify({ a: [1, 'x'] }), new Uint8Array([0, 1, 255]), ['a', 'b,c'], null, true],
  );
  const row = answer!.rows[0] as Record<string, unknown>;
  assert.ok(row.at instanceof Date);
  assert.equal((row.at as Date).toISOString(), at.toISOString());
  assert.equal(row.n, Number.MAX_SAFE_INTEGER);
  assert.deepEqual(row.j, { a: [1, 'x'] });
  assert.deepEqual([...(row.b as Uint8Array)], [0, 1, 255]);
  assert.deepEqual(row.arr, ['a', 'b,c']);
  assert.equal(row.none, null);
  assert.equal(row.yes, true);
});

test('writes count their rows; an error keeps PostgreSQL’s fields and the statement stays usable', async () => {
  const insert = 'INSERT INTO t_named (id, name, at, tags, doc) VALUES ($1, $2, $3, $4, $5)';
  for (let id = 1; id <= 3; id++) {
    const result = await statements.query(insert, [id, `n${id}`, new Date(), ['x'], { id }]);
    assert.equal(result.affectedRows, 1);
  }
  await assert.rejects(statements.query(insert, [1, 'again', null, null, null]), (err: Error & Record<string, unknown>) => {
    assert.match(err.message, /duplicate key value violates unique constraint "t_named_pkey"/);
    assert.equal(err.code, '23505');
    assert.equal(err.constraint, 't_named_pkey');
    return true;
  });
  assert.equal((await statements.query(insert, [4, 'n4', null, null, null])).affectedRows, 1);
  const { rows } = await pglite.query<{ id: number; doc: unknown }>('SELECT id, doc FROM t_named ORDER BY id');
  assert.deepEqual(
    rows.map((r) => r.id),
    [1, 2, 3, 4],
  );
  assert.deepEqual(rows[2]!.doc, { id: 3 });
});

test('inside a transaction block: a ROLLBACK undoes named writes, and a failed one aborts the block', async () => {
  const insert = 'INSERT INTO t_named (id, name) VALUES ($1, $2)';
  await statements.query(insert, [10, 'warm']);
  await statements.query(insert, [11, 'warm']);
  await pglite.query('BEGIN');
  await statements.query(insert, [12, 'undone']);
  await pglite.query('ROLLBACK');
  assert.equal((await pglite.query('SELECT 1 FROM t_named WHERE id = 12')).rows.length, 0);

  await pglite.query('BEGIN');
  await assert.rejects(statements.query(insert, [10, 'dup']), /duplicate key/);
  await assert.rejects(statements.query(insert, [13, 'after']), /current transaction is aborted/);
  await pglite.query('ROLLBACK');
  assert.equal((await pglite.query('SELECT 1 FROM t_named WHERE id = 13')).rows.length, 0);
});

test('a table changed under a kept plan: the statement is parsed again and answers the new columns', async () => {
  const select = 'SELECT * FROM t_named WHERE id = $1';
  await thrice(select, [1]);
  await pglite.exec('ALTER TABLE t_named ADD COLUMN extra text');
  const answer = await statements.query(select, [1]);
  assert.ok('extra' in (answer.rows[0] as object));
  assert.deepEqual(answer.rows, (await pglite.query(select, [1])).rows);
});

test('a NOTIFY sent by a named statement reaches PGlite’s listeners', async () => {
  const heard: string[] = [];
  await pglite.listen('t_named_channel', (payload) => heard.push(payload));
  const notify = `SELECT pg_notify('t_named_channel', $1)`;
  for (const payload of ['one', 'two', 'three']) await statements.query(notify, [payload]);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(heard, ['one', 'two', 'three']);
});

test('queryBytes: the rows as PostgreSQL text bytes, the same text PGlite decodes; a field larger than a write, NULLs, no rows; errors as PGlite reports them', async () => {
  const text = `SELECT g AS n, CASE WHEN g = 2 THEN NULL ELSE repeat($1::text, g * $2::int) END AS s, to_json(repeat(E'\\u0001"é✨\\n', g)) AS j
    FROM generate_series(1, 3) AS g ORDER BY g`;
  const params = ['aé✨', 20_000];
  const expected = await pglite.query<Record<string, unknown>>(text, params);
  const rows = await statements.queryBytes(text, params);
  const decode = (field: Uint8Array | null) => (field === null ? null : new TextDecoder().decode(field));
  assert.deepEqual(
    rows.map((row) => row.map(decode)),
    expected.rows.map((row) => [String(row.n), row.s as string | null, JSON.stringify(row.j)]),
  );
  assert.ok(rows[2]![1]!.length > 100_000, 'a field of several writes');
  assert.deepEqual(await statements.queryBytes(`SELECT 1 FROM t_named WHERE false`, []), []);
  await assert.rejects(
    () => statements.queryBytes(`SELECT $1::int AS n`, ['x']),
    (err: Error & { code?: string }) => err.code === '22P02' && /invalid input syntax/.test(err.message),
  );
  // The session answers as before after the error.
  assert.deepEqual((await statements.queryBytes(`SELECT 'ok'`, []))[0]!.map(decode), ['ok']);
});
