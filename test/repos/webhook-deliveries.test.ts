import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import { deliveryQueue } from '../../src/repos/webhook-deliveries.js';
import { describeEachDb } from '../helpers/context.js';
import { emptyQueues, owner } from './queue/fixtures.js';

const START = '2026-11-22T12:00:00.000Z';
const MINUTE = 60_000;
const LEASE_MS = 5 * MINUTE;
const at = (ms: number) => new Date(Date.parse(START) + ms);

describeEachDb('the webhook delivery queue', (env) => {
  const lease = (workerId: string) => {
    const now = env().clock.now();
    return { workerId, now, until: new Date(now.getTime() + LEASE_MS) };
  };

  beforeEach(async () => {
    env().clock.set(START);
    await emptyQueues(env().ctx);
  });

  test('a webhook delivery’s claim answers its event and endpoint; handed back, it is due from then', async () => {
    const { ctx, clock } = env();
    const who = await owner(ctx);
    const webhookId = newId();
    const eventId = newId();
    await ctx.db
      .insertInto('webhooks')
      .values({
        id: webhookId,
        account_id: who.accountId,
        team_id: null,
        url: 'https://hooks.example.test/in',
        events: ['ping'],
        secret_enc: 'sealed',
        created_at: clock.now(),
      })
      .execute();
    await ctx.db
      .insertInto('webhook_events')
      .values({ id: eventId, type: 'ping', account_id: who.accountId, team_id: null, data: JSON.stringify({ hello: 'there' }), created_at: clock.now() })
      .execute();
    await ctx.db
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: webhookId,
        event_id: eventId,
        status: 'PENDING',
        attempts: 0,
        run_at: at(-MINUTE),
        created_at: clock.now(),
        updated_at: clock.now(),
      })
      .execute();
    const { rows } = await deliveryQueue.claim(ctx.db, lease('w1'), 10);
    assert.equal(rows.length, 1);
    const { created_at: _created, event_created_at: _eventCreated, ...delivery } = rows[0]!;
    assert.deepEqual(delivery, {
      webhook_id: webhookId,
      event_id: eventId,
      attempts: 1,
      type: 'ping',
      data: { hello: 'there' },
      url: 'https://hooks.example.test/in',
      secret_enc: 'sealed',
    });
    clock.set(at(1000));
    assert.equal(await deliveryQueue.handBack(ctx.db, rows[0]!, 'w1', clock.now()), true);
    const row = await ctx.db.selectFrom('webhook_deliveries').select(['status', 'attempts', 'run_at']).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'PENDING', attempts: 0, run_at: at(1000) });
  });
});
