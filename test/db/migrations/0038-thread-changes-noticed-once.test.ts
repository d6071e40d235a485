/**
 * Migration 0038: a Skein connection hears each changed thread once per transaction, not once per
 * statement trigger (Create Post's statement inserts the thread and its posts: one NOTICE, not
 * two), and still hears every thread it changed. Another writer's NOTIFY is unchanged.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { down, up } from '../../../src/db/migrations/0038-thread-changes-noticed-once.js';
import { THREAD_CHANGES_BY_NOTICE } from '../../../src/db/prepared-statements.js';
import { createTestEnv } from '../../helpers/context.js';
import { postgresSkipReason } from '../../helpers/db.js';
import { createProvider, createUser } from '../../helpers/seeds.js';
import { until } from '../../helpers/wait.js';

const skip = postgresSkipReason();

describe('migration 0038: thread changes reported once per transaction', { skip: skip ?? false }, () => {
  let env: Awaited<ReturnType<typeof createTestEnv>>;
  let url: string;
  let provider: string;
  let account: string;
  let serial = 0;
  before(async () => {
    env = await createTestEnv('postgres');
    const user = await createUser(env.ctx);
    account = user.account.id;
    provider = (await createProvider(env.ctx, user.account)).id;
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(env.ctx.db);
    const parsed = new URL(process.env.SKEIN_TEST_PG_URL!);
    parsed.pathname = `/${rows[0]!.name}`;
    url = parsed.toString();
  });
  after(() => env.close());

  /** A connection as Skein's pool opens them, and the SKT01 NOTICEs it hears, in order. */
  async function skeinConnection() {
    const client = new pg.Client({ connectionString: url, options: THREAD_CHANGES_BY_NOTICE });
    const noticed: string[] = [];
    client.on('notice', (n) => {
      if (n.code === 'SKT01') noticed.push(n.message ?? '');
    });
    await client.connect();
    return { client, noticed };
  }

  /** Create Post's shape: the thread and its posts in one statement (data-modifying CTEs). */
  function createThread(client: pg.Client, posts: number): Promise<unknown> & { id: string } {
    const id = `t038-${++serial}`;
    const values = Array.from({ length: posts }, (_, i) => `('${id}-p${i}', '${id}', ${i}, 'post ${i}', 'READY')`).join(', ');
    const done = client.query(
      `WITH t AS (INSERT INTO threads (id, account_id, provider_id, status) VALUES ($1, $2, $3, 'READY')),
            p AS (INSERT INTO posts (id, thread_id, post_order, content, status) VALUES ${values})
       SELECT 1`,
      [id, account, provider],
    );
    return Object.assign(done, { id });
  }

  test('before: one NOTICE per trigger; after: one per thread and transaction, every changed thread still heard', async () => {
    const { client, noticed } = await skeinConnection();
    try {
      await down(env.ctx.db);
      const old = createThread(client, 3);
      await old;
      assert.deepEqual(noticed, [old.id, old.id], '0022: the threads trigger and the posts trigger each report the thread');

      await up(env.ctx.db);
      noticed.length = 0;
      const created = createThread(client, 3);
      await created;
      assert.deepEqual(noticed, [created.id], 'the posts trigger stays silent: its thread was reported in this transaction');

      // The setting is the transaction's: the next statement (a transaction of its own) reports again.
      noticed.length = 0;
      await client.query(`UPDATE posts SET content = 'edited' WHERE thread_id = $1`, [created.id]);
      await client.query(`UPDATE threads SET version = version + 1 WHERE id = $1`, [created.id]);
      assert.deepEqual(noticed, [created.id, created.id]);

      // In a transaction block: other ids are reported, repeated ones not; a savepoint's rollback
      // undoes the setting, so the thread is reported again after it (the writer keeps both).
      noticed.length = 0;
      const other = createThread(client, 1);
      await other;
      noticed.length = 0;
      await client.query('BEGIN');
      await client.query(`UPDATE threads SET version = version + 1 WHERE id = $1`, [created.id]);
      await client.query(`UPDATE posts SET content = 'again' WHERE thread_id = $1`, [created.id]);
      await client.query(`UPDATE posts SET content = 'other' WHERE thread_id = $1`, [other.id]);
      await client.query('SAVEPOINT s');
      await client.query(`UPDATE threads SET version = version + 1 WHERE id = $1`, [created.id]);
      await client.query('ROLLBACK TO SAVEPOINT s');
      await client.query(`UPDATE threads SET version = version + 1 WHERE id = $1`, [created.id]);
      await client.query('COMMIT');
      assert.deepEqual(noticed, [created.id, other.id, created.id, created.id]);

      // Several threads at once, then one of them alone: not the same ids, so reported.
      noticed.length = 0;
      await client.query(`UPDATE threads SET version = version + 1 WHERE id IN ($1, $2)`, [created.id, other.id]);
      await client.query('BEGIN');
      await client.query(`UPDATE threads SET version = version + 1 WHERE id IN ($1, $2)`, [created.id, other.id]);
      await client.query(`UPDATE posts SET content = 'x' WHERE thread_id = $1`, [created.id]);
      await client.query('COMMIT');
      assert.deepEqual(noticed, [[created.id, other.id].sort().join(','), [created.id, other.id].sort().join(','), created.id]);
    } finally {
      await client.end();
    }
  });

  test('another writer still NOTIFYs each change', async () => {
    const listener = new pg.Client({ connectionString: url });
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.connect();
    await listener.query('LISTEN skein_threads');
    const psql = new pg.Client({ connectionString: url });
    await psql.connect();
    try {
      const created = createThread(psql, 2);
      await created;
      await psql.query(`UPDATE posts SET content = 'edited' WHERE thread_id = $1`, [created.id]);
      await until('both statements to be heard', () => heard.length >= 2, { intervalMs: 20 });
      assert.deepEqual(heard, [created.id, created.id]);
    } finally {
      await psql.end();
      await listener.end();
    }
  });
});
