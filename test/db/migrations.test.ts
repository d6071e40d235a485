import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { migrations } from '../../src/db/migrations/index.js';
import { createMigrator, migrateToLatest } from '../../src/db/migrator.js';
import { DIALECTS, openTestDb, postgresSkipReason } from '../helpers/db.js';

async function schemaOf(db: Kysely<any>): Promise<string[]> {
  const columns = await sql<{ t: string; c: string; ty: string; n: string }>`
    SELECT table_name AS t, column_name AS c, data_type AS ty, is_nullable AS n
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%'
    ORDER BY table_name, column_name`.execute(db);
  const indexes = await sql<{
    d: string;
  }>`SELECT indexdef AS d FROM pg_indexes WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_%' ORDER BY indexname`.execute(db);
  return [...columns.rows.map((r) => `${r.t}.${r.c} ${r.ty} ${r.n}`), ...indexes.rows.map((r) => r.d)];
}

for (const kind of DIALECTS) {
  const skip = kind === 'postgres' ? postgresSkipReason() : null;
  describe(`migrations [${kind}]`, { skip: skip ?? false }, () => {
    test('down to nothing and up again gives the same schema', async () => {
      const handle = await openTestDb(kind);
      try {
        if (!handle.migrated) await migrateToLatest(handle.db);
        const before = await schemaOf(handle.db);
        assert.ok(before.some((line) => line.startsWith('threads.locked_until timestamp with time zone')));
        const migrator = createMigrator(handle.db);
        for (let i = 0; i < Object.keys(migrations).length; i++) {
          const { error } = await migrator.migrateDown();
          assert.equal(error, undefined);
        }
        assert.deepEqual(await schemaOf(handle.db), []);
        await migrateToLatest(handle.db);
        assert.deepEqual(await schemaOf(handle.db), before);
      } finally {
        await handle.close();
      }
    });

    test('an up-to-date database is checked with one query (every CLI command and start does it); a missing migration still runs', async () => {
      const handle = await openTestDb(kind);
      try {
        if (!handle.migrated) await migrateToLatest(handle.db);
        let queries = 0;
        const counted = handle.db.withPlugin({
          transformQuery: (args) => {
            queries++;
            return args.node;
          },
          transformResult: async (args) => args.result,
        });
        assert.deepEqual(await migrateToLatest(counted), []);
        assert.equal(queries, 1, 'one read of the migration table, not the catalogue checks and the lock');
        const names = Object.keys(migrations);
        const { error } = await createMigrator(handle.db).migrateDown();
        assert.equal(error, undefined);
        assert.deepEqual(await migrateToLatest(handle.db), [names.at(-1)]);
        assert.deepEqual(await migrateToLatest(handle.db), []);
      } finally {
        await handle.close();
      }
    });
  });
}
