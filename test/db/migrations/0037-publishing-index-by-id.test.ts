import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { AppContext } from '../../../src/context.js';
import { down, up } from '../../../src/db/migrations/0037-publishing-index-by-id.js';
import { describeEachDb } from '../../helpers/context.js';
import { createProvider, createUser } from '../../helpers/seeds.js';

/** The plan of a worker's lease check on one thread (leased-queue.ts leaseHeld), as text. */
async function leaseCheckPlan(ctx: AppContext, id: string): Promise<string> {
  return ctx.db.connection().execute(async (conn) => {
    // The tables are tiny here: without this the planner reads them whole and the test says nothing.
    await sql`SET enable_seqscan = off`.execute(conn);
    try {
      const { rows } = await sql<Record<string, string>>`
        EXPLAIN SELECT id FROM threads WHERE id = ${id} AND (locked_by = 'w1' AND status = 'PUBLISHING') FOR UPDATE`.execute(conn);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    } finally {
      await sql`RESET enable_seqscan`.execute(conn);
    }
  });
}

describeEachDb('migration 0037: the threads in flight indexed by id', (env) => {
  test('a lease check by id reads the row by its id, not every thread in flight; the index still holds only PUBLISHING threads', async () => {
    const { ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const at = new Date('2026-11-01T00:00:00.000Z');
    for (let i = 0; i < 40; i++) {
      await sql`
        INSERT INTO threads (id, account_id, provider_id, status, scheduled_at, locked_by, locked_until, created_at, updated_at)
        VALUES (${`t${String(i).padStart(2, '0')}`}, ${user.account.id}, ${provider.id}, 'READY', ${at}, NULL, NULL, ${at}, ${at})`.execute(ctx.db);
    }
    // Analysed while nothing was in flight (the bench's VACUUM ANALYZE before a burst, a quiet
    // hour's autovacuum), then a burst claims half of them.
    await sql`ANALYZE threads`.execute(ctx.db);
    await sql`UPDATE threads SET status = 'PUBLISHING', locked_by = 'w1', locked_until = ${at} WHERE right(id, 1)::int % 2 = 1`.execute(ctx.db);

    await down(ctx.db);
    const before = await leaseCheckPlan(ctx, 't07');
    await up(ctx.db);
    const after = await leaseCheckPlan(ctx, 't07');

    // Before: the literal status matched the provider-keyed partial index, read whole with the id as a filter.
    assert.match(before, /threads_publishing_idx/);
    assert.doesNotMatch(before, /Index Cond: \(id =/);
    assert.match(after, /Index Cond: \(id =/);
    const index = await sql<{ def: string }>`SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'threads_publishing_idx'`.execute(ctx.db);
    assert.match(index.rows[0]!.def, /\(id\) INCLUDE \(provider_id\) WHERE \(status = 'PUBLISHING'::text\)/);
    const held = await sql<{ id: string }>`SELECT id FROM threads WHERE status = 'PUBLISHING' AND id = 't07' AND locked_by = 'w1'`.execute(ctx.db);
    assert.deepEqual(held.rows, [{ id: 't07' }]);
  });
});
