import { type Insertable, sql } from 'kysely';
import type { WebhookAttemptRow, WebhookRow, WebhooksTable } from '../db/schema/index.js';
import type { Workspace } from '../lib/workspace.js';
import { type DbOrTrx, inWorkspace } from './types.js';

/** Webhook endpoints and their deliveries list; the outbox is webhook-outbox.ts, sending webhook-deliveries.ts. */

export function insertWebhook(db: DbOrTrx, row: Insertable<WebhooksTable>): Promise<WebhookRow> {
  return db.insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findWebhook(db: DbOrTrx, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listWebhooks(db: DbOrTrx, workspace: Workspace): Promise<WebhookRow[]> {
  return inWorkspace(db.selectFrom('webhooks').selectAll(), workspace).orderBy('created_at').orderBy('id').execute();
}

export async function countWebhooks(db: DbOrTrx, workspace: Workspace): Promise<number> {
  const row = await inWorkspace(
    db.selectFrom('webhooks').select((eb) => eb.fn.countAll<string>().as('n')),
    workspace,
  ).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteWebhook(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

export type AttemptWithType = WebhookAttemptRow & { type: string };

/**
 * Up to `limit` attempts of a webhook, newest first (by time, then id), after the key (time as
 * `pageKey` writes it, id) when given, with each event's type and the row's page key. The
 * (webhook_id, at DESC, id DESC) index seeks to the key.
 */
export function latestAttempts(
  db: DbOrTrx,
  webhookId: string,
  limit: number,
  after: { at: string; id: string } | null,
): Promise<Array<AttemptWithType & { pageKey: string }>> {
  let query = db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_events as e', 'e.id', 'a.event_id')
    .selectAll('a')
    .select(sql<string>`e.type`.as('type'))
    .select(sql<string>`to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('pageKey'))
    .where('a.webhook_id', '=', webhookId);
  if (after) query = query.where(sql<boolean>`(a.at, a.id) < (${after.at}::timestamptz, ${after.id}::text)`);
  return query.orderBy('a.at', 'desc').orderBy('a.id', 'desc').limit(limit).execute();
}
