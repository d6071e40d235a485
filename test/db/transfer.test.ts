import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import type { DbKind } from '../../src/db/database.js';
import { exportDatabase, importDatabase, TransferError, tablesInDependencyOrder } from '../../src/db/transfer.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { createTestEnv, TEST_SECRET, type TestEnv } from '../helpers/context.js';
import { openTestDb, postgresSkipReason } from '../helpers/db.js';
import { createProvider, createUser, type TestUser } from '../helpers/seeds.js';

/** What `exportDatabase` gave `writeLines`, as text (the lines of PGlite's bytes decoded). */
const text = (lines: string | Uint8Array) => (typeof lines === 'string' ? lines : new TextDecoder().decode(lines));

/** Every row of every table, as PostgreSQL's own JSON text, sorted: equal means the same data. */
async function snapshot(db: Kysely<any>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await tablesInDependencyOrder(db)) {
    const { rows } = await sql<{ row: string }>`SELECT to_jsonb(t)::text AS row FROM ${sql.table(table)} t`.execute(db);
    out[table] = rows.map((r) => r.row).sort();
  }
  return out;
}

describe('export from the embedded database, import into another database', () => {
  let source: TestEnv & { close(): Promise<void> };
  let user: TestUser;
  let threadId: string;
  let lines: string[];

  before(async () => {
    source = await createTestEnv('pglite');
    user = await createUser(source.ctx, { timezone: 'Europe/Berlin' });
    const provider = await createProvider(source.ctx, user.account, 'THREADS');
    const created = await user.call(source.app, {
      method: 'POST',
      url: '/api/v1/posts',
      headers: { 'idempotency-key': 'transfer-1' },
      payload: {
        providerId: provider.id,
        scheduleAt: '2026-12-01T09:30:00',
        autoRepost: { enabled: true, delays: ['3'] },
        posts: [
          { text: 'first, with a spoiler', spoilerRanges: [{ offset: 0, length: 5 }], images: ['https://example.com/a.png'] },
          { text: 'second ✨ with émoji', topic: 'news' },
          { text: 'third' },
        ],
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    threadId = created.json().threadId;
    const tagged = await user.call(source.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/tags`, payload: { tagNames: ['Launch', 'ideas'] } });
    assert.equal(tagged.statusCode, 200, tagged.body);
    const draft = await user.call(source.app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'a draft' }] } });
    assert.equal(draft.statusCode, 201, draft.body);
    lines = [];
    await exportDatabase(source.ctx.db, (written) => {
      lines.push(...text(written).split('\n'));
    });
  });
  after(() => source.close());

  test('the export holds a header and every row', async () => {
    const header = JSON.parse(lines[0]!);
    assert.equal(header.format, 'skein-export');
    assert.ok(header.tables.indexOf('threads') > header.tables.indexOf('providers'), 'parents come before children');
    const snap = await snapshot(source.ctx.db);
    const rows = Object.values(snap).reduce((n, r) => n + r.length, 0);
    assert.equal(lines.length, rows + 1);
    assert.ok(snap.posts!.length >= 4 && snap.thread_tags!.length === 2 && snap.idempotency_records!.length === 1);
  });

  test('read a table page at a time (a chunk after another, the next asked for before one is written), the export is the same', async () => {
    const paged: string[] = [];
    await exportDatabase(source.ctx.db, (written) => void paged.push(...text(written).split('\n')), new Date(JSON.parse(lines[0]!).exportedAt), {}, 1);
    assert.deepEqual(paged, lines);

    // A table of many pages: every row once, in order, whatever the chunk (removed after, for the tests below).
    const db = source.ctx.db;
    await sql`
      INSERT INTO webhook_events (id, type, account_id, data, created_at)
      SELECT 'many-' || lpad(g::text, 5, '0'), 'thread.published', ${user.account.id}, jsonb_build_object('n', g, 'text', repeat('x', 200)), now()
      FROM generate_series(1, 3000) AS g`.execute(db);
    try {
      const { rows } = await sql<{ pages: number }>`SELECT (pg_relation_size('webhook_events') / 8192)::int AS pages`.execute(db);
      assert.ok(rows[0]!.pages > 50, `webhook_events spans ${rows[0]!.pages} pages`);
      const exportWith = async (chunkPages: number) => {
        const out: string[] = [];
        const counts = await exportDatabase(db, (written) => void out.push(...text(written).split('\n')), new Date(0), {}, chunkPages);
        return { out, counts };
      };
      const whole = await exportWith(100_000);
      for (const chunkPages of [1, 7]) {
        const chunked = await exportWith(chunkPages);
        assert.deepEqual(chunked.out, whole.out, `${chunkPages} page(s) a chunk`);
        assert.deepEqual(chunked.counts, whole.counts);
      }
      const many = whole.out.filter((line) => line.includes('"id":"many-'));
      assert.equal(many.length, 3000);
      assert.equal(new Set(many).size, 3000);
      assert.ok(whole.counts.webhook_events! >= 3000);
    } finally {
      await sql`DELETE FROM webhook_events WHERE id LIKE 'many-%'`.execute(db);
    }
  });

  for (const kind of ['pglite', 'postgres'] as DbKind[]) {
    const skip = kind === 'postgres' ? postgresSkipReason() : null;
    test(`imported into ${kind}: the same rows, and the same key reads the same thread`, { skip: skip ?? false }, async (t) => {
      const target = await openTestDb(kind);
      t.after(() => target.close());
      const counts = await importDatabase(target.db, lines);
      assert.equal(counts.threads, 2);
      assert.deepEqual(await snapshot(target.db), await snapshot(source.ctx.db));

      // The same SKEIN_SECRET on the new database: keys, tokens and threads work as before.
      const ctx = await createContext(
        { ...loadConfig({ LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0' }) },
        { skeinSecret: TEST_SECRET, threadsAppSecret: null },
        { db: target, clock: new ManualClock('2026-11-22T12:00:00.000Z'), logger: createLogger('silent'), skipMigrations: true },
      );
      const app = await buildApp(ctx);
      t.after(async () => {
        await app.close();
        await ctx.close();
      });
      const before = await user.call(source.app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
      const moved = await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual(moved.json(), before.json());

      // A second import into the now non-empty database is refused and changes nothing.
      const snap = await snapshot(target.db);
      await assert.rejects(
        () => importDatabase(target.db, lines),
        (err: unknown) => err instanceof TransferError && /not empty/.test(err.message),
      );
      assert.deepEqual(await snapshot(target.db), snap);
    });
  }

  test('read as bytes (PGlite, DbHandle.queryBytes): the same lines, whatever the chunk', async (t) => {
    const db = await openTestDb('pglite');
    t.after(() => db.close());
    await sql`INSERT INTO accounts (id, email, timezone, created_at) VALUES ('bytes-owner', 'b@example.com', 'UTC', now())`.execute(db.db);
    // Text JSON escapes (quotes, backslashes, control characters, newlines), characters of 2 to 4 bytes, a row of several writes.
    await sql`
      INSERT INTO webhook_events (id, type, account_id, data, created_at)
      SELECT 'bytes-' || lpad(g::text, 5, '0'), 'thread.published', 'bytes-owner',
             jsonb_build_object('n', g, 'text', '"quoted" ' || chr(92) || ' back' || chr(9) || 'slash' || chr(10) || chr(1) || 'é ✨ 𝄞 ' || repeat('x', CASE WHEN g = 7 THEN 100000 ELSE g END)),
             now()
      FROM generate_series(1, 2000) AS g`.execute(db.db);
    const exportWith = async (chunkPages: number, queryBytes?: typeof db.queryBytes) => {
      const out: string[] = [];
      let bytes = 0;
      const counts = await exportDatabase(
        db.db,
        (written) => {
          if (typeof written !== 'string') bytes++;
          out.push(...text(written).split('\n'));
        },
        new Date(0),
        {},
        chunkPages,
        queryBytes,
      );
      return { out, counts, bytes };
    };
    const strings = await exportWith(100_000);
    assert.equal(strings.out.filter((line) => line.includes('"id":"bytes-0')).length, 2000);
    for (const chunkPages of [1, 7, 100_000]) {
      const read = await exportWith(chunkPages, db.queryBytes);
      assert.ok(read.bytes > 0, 'the rows came as bytes');
      assert.deepEqual(read.out, strings.out, `${chunkPages} page(s) a chunk`);
      assert.deepEqual(read.counts, strings.counts);
    }
  });

  test('an export of another schema version, or not an export at all, is refused before anything is written', async (t) => {
    const target = await openTestDb('pglite');
    t.after(() => target.close());
    const header = JSON.parse(lines[0]!);
    const older = [JSON.stringify({ ...header, migrations: header.migrations.slice(0, -1) }), ...lines.slice(1)];
    await assert.rejects(() => importDatabase(target.db, older), /same Skein version/);
    await assert.rejects(() => importDatabase(target.db, ['{"hello":1}']), /not a Skein export/);
    const broken = [...lines.slice(0, 3), '{"table":"nope","row":{}}'];
    await assert.rejects(() => importDatabase(target.db, broken), /not a row of a table/);
    const snap = await snapshot(target.db);
    assert.ok(
      Object.values(snap).every((rows) => rows.length === 0),
      'the failed imports left nothing behind',
    );
  });
});
