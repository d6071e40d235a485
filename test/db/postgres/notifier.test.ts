/**
 * Thread changes on PostgreSQL without a NOTIFY in the writing transaction (migration 0022): a
 * Skein connection hears its own statements' changed threads as NOTICEs and announces them after
 * the commit through the notifier; any other connection (psql) still NOTIFYs from the trigger.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openPostgres } from '../../../src/db/database.js';
import { PgNotifier } from '../../../src/db/postgres/notifier.js';
import { createLogger } from '../../../src/lib/logger.js';
import { createTestEnv } from '../../helpers/context.js';
import { openTestDb, postgresSkipReason } from '../../helpers/db.js';
import { createProvider, createUser } from '../../helpers/seeds.js';
import { until } from '../../helpers/wait.js';

const skip = postgresSkipReason();
const logger = createLogger('silent');

/** A connection that LISTENs on `channels` and keeps what it hears, in order. */
async function listen(url: string, ...channels: string[]) {
  const client = new pg.Client({ connectionString: url });
  const heard: Array<{ channel: string; payload: string }> = [];
  client.on('notification', (n) => heard.push({ channel: n.channel, payload: n.payload ?? '' }));
  await client.connect();
  for (const channel of channels) await client.query(`LISTEN ${channel}`);
  return { heard, end: () => client.end() };
}

describe('PostgreSQL: thread changes announced after the commit', { skip: skip ?? false }, () => {
  let testDb: Awaited<ReturnType<typeof openTestDb>>;
  before(async () => {
    testDb = await openTestDb('postgres');
  });
  after(() => testDb.close());

  test("a Skein connection's write reports its threads at the commit and sends no NOTIFY; another writer's write NOTIFYs", async () => {
    const env = await createTestEnv('postgres');
    const user = await createUser(env.ctx);
    const provider = await createProvider(env.ctx, user.account);
    const created = await user.call(env.app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, tags: ['x'], posts: [{ text: 'one' }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { threadId } = created.json();
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(env.ctx.db);
    const url = new URL(testDb.url!);
    url.pathname = `/${rows[0]!.name}`;
    // The API's own announcements of that create go out as it closes: none is heard below.
    await env.app.close();
    await env.ctx.close();
    const psql = new pg.Client({ connectionString: url.toString() });
    await psql.connect();
    const listener = await listen(url.toString(), 'skein_threads');
    const handle = openPostgres(url.toString(), 2);
    const reported: Array<string[] | null> = [];
    handle.onThreadsChanged!((ids) => reported.push(ids));
    try {
      await handle.db.transaction().execute(async (trx) => {
        await sql`UPDATE threads SET reply_control = 'mentioned' WHERE id = ${threadId}`.execute(trx);
        assert.deepEqual(reported, [], 'nothing is reported before the commit');
      });
      assert.deepEqual(reported, [[threadId]], 'reported when the commit answered');

      await sql`UPDATE tags SET color = '#222222' WHERE name = 'x'`.execute(handle.db);
      assert.deepEqual(reported, [[threadId], null], 'a tag change outside a transaction block, reported: it may touch any thread');

      await sql`SELECT 1`.execute(handle.db);
      const rolledBack = handle.db.transaction().execute(async (trx) => {
        await sql`UPDATE threads SET reply_control = 'everyone' WHERE id = ${threadId}`.execute(trx);
        throw new Error('rolled back');
      });
      await assert.rejects(rolledBack, /rolled back/);
      assert.equal(reported.length, 2, 'a read, or a write rolled back, reports nothing');

      // The pool's writes sent no NOTIFY: the psql write after them is the first thing heard.
      await psql.query(`UPDATE threads SET reply_control = 'followers' WHERE id = $1`, [threadId]);
      await until('the psql update to be heard', () => listener.heard.length > 0, { intervalMs: 20 });
      assert.deepEqual(listener.heard, [{ channel: 'skein_threads', payload: threadId }]);
    } finally {
      await handle.close();
      await listener.end();
      await psql.end();
      await env.close();
    }
  });

  test('the notifier sends what waits in one statement, collapses past its bound and keeps what a failed send held', async () => {
    const listener = await listen(testDb.url!, 'skein_threads', 'skein_schedule');
    const notifier = new PgNotifier(testDb.url!, logger, { skein_threads: '*' });
    const admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
    try {
      notifier.notify('skein_threads', 'a');
      notifier.notify('skein_threads', 'b,c');
      notifier.notify('skein_schedule', '');
      notifier.notify('skein_schedule', '');
      await until('three notifications', () => listener.heard.length >= 3, { intervalMs: 20 });
      // The first send took `a` alone; the rest waited and went in the next one, rings merged.
      assert.deepEqual(listener.heard.map((n) => `${n.channel}:${n.payload}`).sort(), ['skein_schedule:', 'skein_threads:a', 'skein_threads:b,c']);

      // A send that fails (its connection ended by the server) is tried again with what it held.
      const { rows } = await admin.query(
        `SELECT pid FROM pg_stat_activity WHERE query LIKE '%pg_notify(c, p)%' AND pid <> pg_backend_pid() AND datname = current_database()`,
      );
      assert.equal(rows.length, 1, 'the notifier has its connection');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      listener.heard.length = 0;
      notifier.notify('skein_threads', 'd');
      await until('the notification after the broken connection', () => listener.heard.some((n) => n.payload === 'd'), { intervalMs: 20 });

      // Past 256 distinct payloads waiting, they become the one that stands for all.
      listener.heard.length = 0;
      for (let i = 0; i < 400; i++) notifier.notify('skein_threads', `t${i}`);
      await notifier.close();
      await until('the collapsed notification', () => listener.heard.some((n) => n.payload === '*'), { intervalMs: 20 });
      assert.ok(listener.heard.length < 300, `sent ${listener.heard.length}`);
      notifier.notify('skein_threads', 'after close');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(!listener.heard.some((n) => n.payload === 'after close'), 'nothing goes out after close');
    } finally {
      await notifier.close();
      await admin.end();
      await listener.end();
    }
  });
});
