/**
 * The retention sweep (repos/retention.ts): what is past its keeping goes, batch by batch; what
 * is still to be done, or young, stays. Times are offsets from the test clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { newId } from '../../src/lib/ids.js';
import { purgeExpired } from '../../src/repos/retention.js';
import { describeEachDb } from '../helpers/context.js';
import { createUser } from '../helpers/seeds.js';

const DAY_MS = 86_400_000;
const RETENTION = { webhookDays: 30, emailDays: 10, idempotencyMs: DAY_MS };

describeEachDb('the retention sweep', (env) => {
  test('old finished webhook events (with deliveries and attempts), emails and idempotency keys go; pending and young ones stay', async () => {
    const { ctx, clock } = env();
    const now = clock.now();
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const { account } = await createUser(ctx);
    const webhookId = newId();
    await sql`INSERT INTO webhooks (id, account_id, url, events, secret_enc, created_at)
              VALUES (${webhookId}, ${account.id}, 'https://hooks.example.com/x', ARRAY['thread.published'], 'unused', ${ago(40)})`.execute(ctx.db);
    const event = async (days: number, status: string) => {
      const id = newId(ago(days).getTime());
      await sql`INSERT INTO webhook_events (id, type, account_id, data, created_at) VALUES (${id}, 'thread.published', ${account.id}, '{}', ${ago(days)})`.execute(
        ctx.db,
      );
      await sql`INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempts, run_at, created_at, updated_at)
                VALUES (${webhookId}, ${id}, ${status}, 1, ${ago(days)}, ${ago(days)}, ${ago(days)})`.execute(ctx.db);
      await sql`INSERT INTO webhook_attempts (id, webhook_id, event_id, attempt, status, response_status, at)
                VALUES (${newId()}, ${webhookId}, ${id}, 1, 'DELIVERED', 200, ${ago(days)})`.execute(ctx.db);
      return id;
    };
    // Three old delivered ones (more than a batch is not needed to show the loop: it stops on a short batch).
    const oldDelivered = [await event(45, 'DELIVERED'), await event(31, 'FAILED'), await event(31, 'DELIVERED')];
    const oldPending = await event(40, 'PENDING');
    const young = await event(29, 'DELIVERED');

    const email = async (days: number, status: string, digested = false) => {
      const id = newId(ago(days).getTime());
      await sql`INSERT INTO email_notifications (id, account_id, kind, event_id, digest_id, data, status, run_at, created_at, updated_at)
                VALUES (${id}, ${account.id}, 'THREAD_FAILED', ${newId()}, ${digested ? newId() : null}, '{}', ${status}, ${ago(days)}, ${ago(days)}, ${ago(days)})`.execute(
        ctx.db,
      );
      return id;
    };
    const oldEmails = [await email(11, 'SENT'), await email(20, 'FAILED'), await email(12, 'SKIPPED'), await email(15, 'DAILY', true)];
    const keptEmails = [await email(15, 'PENDING'), await email(15, 'DAILY'), await email(9, 'SENT')];

    const key = async (hours: number, name: string) =>
      sql`INSERT INTO idempotency_records (account_id, key, request_hash, response_status, response_body, created_at)
          VALUES (${account.id}, ${name}, 'h', 201, '{}', ${new Date(now.getTime() - hours * 3600_000)})`.execute(ctx.db);
    await key(25, 'old');
    await key(23, 'young');

    const purged = await purgeExpired(ctx.db, now, RETENTION);
    assert.deepEqual(purged, { webhookEvents: 3, emails: 4, idempotencyKeys: 1 });

    const ids = async (table: 'webhook_events' | 'email_notifications') =>
      (await sql<{ id: string }>`SELECT id FROM ${sql.table(table)}`.execute(ctx.db)).rows.map((r) => r.id).sort();
    assert.deepEqual(await ids('webhook_events'), [oldPending, young].sort());
    const deliveries = (await sql<{ event_id: string }>`SELECT event_id FROM webhook_deliveries`.execute(ctx.db)).rows.map((r) => r.event_id).sort();
    assert.deepEqual(deliveries, [oldPending, young].sort(), 'deliveries went with their events');
    const attempts = (await sql<{ event_id: string }>`SELECT event_id FROM webhook_attempts`.execute(ctx.db)).rows.map((r) => r.event_id).sort();
    assert.deepEqual(attempts, [oldPending, young].sort(), 'attempts went with their events');
    for (const id of oldDelivered) assert.ok(!(await ids('webhook_events')).includes(id));
    assert.deepEqual(await ids('email_notifications'), keptEmails.sort());
    for (const id of oldEmails) assert.ok(!(await ids('email_notifications')).includes(id));
    const keys = (await sql<{ key: string }>`SELECT key FROM idempotency_records`.execute(ctx.db)).rows.map((r) => r.key);
    assert.deepEqual(keys, ['young']);

    assert.deepEqual(await purgeExpired(ctx.db, now, RETENTION), { webhookEvents: 0, emails: 0, idempotencyKeys: 0 }, 'a second sweep finds nothing');
  });
});
