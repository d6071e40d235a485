import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { type DbHandle, pgliteHandle } from '../../../src/db/database.js';
import { type PGliteThreadSession, startPGliteThread } from '../../../src/db/pglite/thread.js';
import { openTestDb } from '../../helpers/db.js';

// The embedded database runs in a thread of its own (src/db/pglite/thread.ts): what crosses the
// boundary must arrive as PGlite gave it, and this thread must stay free while SQL runs there.

let handle: DbHandle;
before(async () => {
  handle = await openTestDb('pglite');
  await sql`CREATE TABLE t_probe (id int PRIMARY KEY, name text NOT NULL CONSTRAINT t_probe_name_short CHECK (length(name) < 10))`.execute(handle.db);
});
after(() => handle.close());

test('this thread runs on while a statement runs in the database thread', async () => {
  let turns = 0;
  let spinning = true;
  const spin = () => {
    turns++;
    if (spinning) setImmediate(spin);
  };
  setImmediate(spin);
  // One WebAssembly call that holds its thread for half a second: in this thread, no turn at all.
  await sql`SELECT pg_sleep(0.5)`.execute(handle.db);
  spinning = false;
  assert.ok(turns > 100, `the event loop turned ${turns} times during the statement`);
});

test('values cross as PGlite returns them: timestamptz a Date, int8 a number, jsonb parsed, bytea bytes, NULL null', async () => {
  const at = new Date('2026-01-02T03:04:05.678Z');
  const { rows } = await sql<{ at: Date; n: number; j: unknown; b: Uint8Array; none: null }>`
    SELECT ${at}::timestamptz AS at, 9007199254740991::int8 AS n, '{"a":[1,"x"]}'::jsonb AS j,
           ${Buffer.from([0, 1, 255])}::bytea AS b, NULL AS none`.execute(handle.db);
  const row = rows[0]!;
  assert.ok(row.at instanceof Date);
  assert.equal(row.at.toISOString(), at.toISOString());
  assert.equal(row.n, Number.MAX_SAFE_INTEGER);
  assert.deepEqual(row.j, { a: [1, 'x'] });
  assert.deepEqual([...row.b], [0, 1, 255]);
  assert.equal(row.none, null);
});

test('errors cross with PostgreSQL’s fields (code, constraint, detail, table), and the affected row count comes back', async () => {
  const inserted = await handle.db
    .insertInto('t_probe' as never)
    .values({ id: 1, name: 'one' } as never)
    .executeTakeFirst();
  assert.equal(inserted.numInsertedOrUpdatedRows, 1n);
  await assert.rejects(sql`INSERT INTO t_probe VALUES (1, 'again')`.execute(handle.db), (err: Error & Record<string, unknown>) => {
    assert.match(err.message, /duplicate key value violates unique constraint "t_probe_pkey"/);
    assert.equal(err.code, '23505');
    assert.equal(err.constraint, 't_probe_pkey');
    assert.equal(err.table, 't_probe');
    assert.equal(err.detail, 'Key (id)=(1) already exists.');
    assert.equal(err.severity, 'ERROR');
    return true;
  });
  await assert.rejects(sql`INSERT INTO t_probe VALUES (2, 'far too long a name')`.execute(handle.db), { code: '23514', constraint: 't_probe_name_short' });
  await assert.rejects(sql`SELEC 1`.execute(handle.db), { code: '42601', position: '1' });
});

test('a transaction is one session: others wait for its end, a rollback undoes it, and the database goes on after an error in it', async () => {
  const order: string[] = [];
  let outside: Promise<unknown> = Promise.resolve();
  await handle.db.transaction().execute(async (trx) => {
    await sql`INSERT INTO t_probe VALUES (10, 'in trx')`.execute(trx);
    outside = sql<{ n: number }>`SELECT count(*)::int AS n FROM t_probe WHERE id = 10`
      .execute(handle.db)
      .then(({ rows }) => order.push(`outside saw ${rows[0]!.n}`));
    await sql`SELECT pg_sleep(0.05)`.execute(trx);
    order.push('commit');
  });
  await outside;
  assert.deepEqual(order, ['commit', 'outside saw 1']);

  await assert.rejects(
    handle.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t_probe VALUES (11, 'undone')`.execute(trx);
      await sql`INSERT INTO t_probe VALUES (11, 'twice')`.execute(trx);
    }),
    { code: '23505' },
  );
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM t_probe WHERE id = 11`.execute(handle.db);
  assert.equal(rows[0]!.n, 0);
});

test('a transaction sends its BEGIN with its first statement: a message a statement, none for a transaction that ran nothing', async () => {
  const session = await startPGliteThread(null);
  const sent: string[] = [];
  const counted: PGliteThreadSession = {
    query(text, params, options) {
      sent.push(`${options?.begin ? 'begin + ' : ''}${text}`);
      return session.query(text, params, options);
    },
    close: () => session.close(),
    get closed() {
      return session.closed;
    },
    onNotification: (listener) => session.onNotification(listener),
    queryBytes: (text, params) => session.queryBytes(text, params),
  };
  const own = pgliteHandle(counted);
  try {
    await sql`CREATE TABLE t_begin (id int PRIMARY KEY)`.execute(own.db);
    sent.length = 0;
    await own.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t_begin VALUES (1)`.execute(trx);
      await sql`INSERT INTO t_begin VALUES (2)`.execute(trx);
    });
    assert.deepEqual(sent, ['begin + INSERT INTO t_begin VALUES (1)', 'INSERT INTO t_begin VALUES (2)', 'commit']);

    // Nothing ran: nothing to send, and the session is free for the next holder.
    sent.length = 0;
    await assert.rejects(
      own.db.transaction().execute(async () => {
        throw new Error('refused before any statement');
      }),
      /refused before any statement/,
    );
    assert.deepEqual(sent, []);

    // A first statement that fails: the BEGIN ran, so the ROLLBACK is sent and undoes nothing else.
    await assert.rejects(
      own.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t_begin VALUES (1)`.execute(trx);
      }),
      { code: '23505' },
    );
    assert.equal(sent.at(-1), 'rollback');
    // The rollback ended the block: a statement outside a transaction commits by itself.
    await sql`INSERT INTO t_begin VALUES (3)`.execute(own.db);
    await assert.rejects(
      own.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t_begin VALUES (4)`.execute(trx);
        await sql`INSERT INTO t_begin VALUES (4)`.execute(trx);
      }),
      { code: '23505' },
    );
    const { rows } = await sql<{ id: number }>`SELECT id FROM t_begin ORDER BY id`.execute(own.db);
    assert.deepEqual(
      rows.map((r) => r.id),
      [1, 2, 3],
    );
  } finally {
    await own.close();
  }
});

test('an idle embedded database does not keep a process alive (a CLI command ends after its last query), a query in flight does', () => {
  const script = `
    import { sql } from 'kysely';
    import { openPGlite } from './src/db/database.ts';
    const handle = await openPGlite(null);
    // No close: the process must end by itself after this answer arrives.
    setTimeout(() => {}, 0);
    const { rows } = await sql\`SELECT pg_sleep(0.2), 42 AS answer\`.execute(handle.db);
    console.log(rows[0].answer);
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(child.stderr, '');
  assert.equal(child.status, 0);
  assert.equal(child.stdout.trim(), '42');
});
