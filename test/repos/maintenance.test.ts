import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { vacuumAnalyze } from '../../src/repos/maintenance.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';

describeEachDb('the vacuum the embedded database gets on a schedule', (env) => {
  test('VACUUM (ANALYZE) runs through the app database handle and vacuums a table (its stats say so)', async () => {
    const { ctx } = env();
    const user = await createUser(ctx);
    await createProvider(ctx, user.account);
    await vacuumAnalyze(ctx.db);
    const { rows } = await sql<{ vacuumed: boolean }>`
      SELECT last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables WHERE relname = 'providers'`.execute(ctx.db);
    assert.deepEqual(rows, [{ vacuumed: true }]);
  });
});
