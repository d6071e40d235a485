import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { AppContext } from '../../../src/context.js';
import { down, up } from '../../../src/db/migrations/0036-late-published-threads.js';
import { describeEachDb } from '../../helpers/context.js';
import { createProvider, createUser } from '../../helpers/seeds.js';

/** A thread whose posts went out at `postTimes`, completed (PUBLISHED) at `completedAt`, or not when null. */
async function seed(ctx: AppContext, accountId: string, providerId: string, id: string, postTimes: (string | null)[], completedAt: string | null) {
  const at = new Date('2026-11-01T00:00:00.000Z');
  await sql`
    INSERT INTO threads (id, account_id, provider_id, status, scheduled_at, published_at, created_at, updated_at)
    VALUES (${id}, ${accountId}, ${providerId}, ${completedAt ? 'PUBLISHED' : 'FAILED'}, ${postTimes[0]}, ${completedAt}, ${at}, ${at})`.execute(ctx.db);
  for (const [order, time] of postTimes.entries()) {
    await sql`
      INSERT INTO posts (id, thread_id, post_order, content, is_spoiler_media, status, published_at, created_at, updated_at)
      VALUES (${`${id}-${order}`}, ${id}, ${order}, 'x', false, ${time ? 'PUBLISHED' : 'FAILED'}, ${time}, ${at}, ${at})`.execute(ctx.db);
  }
}

describeEachDb('migration 0036: late published threads over rows written before it', (env) => {
  test('a thread completed more than a day after its first post gets that post’s time and is in the late index; the others stay null', async () => {
    const { ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    await down(ctx.db);
    await seed(ctx, user.account.id, provider.id, 'late', ['2026-11-02T08:00:00Z', '2026-11-09T08:00:00Z'], '2026-11-09T08:00:00Z');
    await seed(ctx, user.account.id, provider.id, 'prompt', ['2026-11-02T08:00:00Z', '2026-11-02T08:00:05Z'], '2026-11-02T08:00:05Z');
    await seed(ctx, user.account.id, provider.id, 'a-day', ['2026-11-02T08:00:00Z', '2026-11-03T08:00:00Z'], '2026-11-03T08:00:00Z');
    await seed(ctx, user.account.id, provider.id, 'failed', ['2026-11-02T08:00:00Z', null], null);
    await up(ctx.db);

    const rows = await ctx.db.selectFrom('threads').select(['id', 'first_published_at']).where('provider_id', '=', provider.id).orderBy('id').execute();
    assert.deepEqual(rows, [
      { id: 'a-day', first_published_at: null },
      { id: 'failed', first_published_at: null },
      { id: 'late', first_published_at: new Date('2026-11-02T08:00:00Z') },
      { id: 'prompt', first_published_at: null },
    ]);
    const late = await sql<{ id: string }>`
      SELECT id FROM threads WHERE provider_id = ${provider.id} AND status = 'PUBLISHED' AND published_at - first_published_at > interval '1 day'`.execute(
      ctx.db,
    );
    assert.deepEqual(
      late.rows.map((r) => r.id),
      ['late'],
    );
    const index = await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE indexname = 'threads_provider_late_idx'`.execute(ctx.db);
    assert.equal(index.rows.length, 1);
  });
});
