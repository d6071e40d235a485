import { type OperationNodeSource, type RawBuilder, sql } from 'kysely';
import type { WebhookEventType } from '../db/schema/index.js';
import { newId } from '../lib/ids.js';
import { type CteRef, cteRef } from './cte.js';
import { emailKindOf, emailOutbox } from './email.js';
import type { DbOrTrx } from './types.js';

/**
 * The outbox (decisions.md "Events: webhooks"): an event is written by the statement that
 * makes the change it reports, or in its transaction, so it exists if and only if the change
 * committed. It is written only when a webhook of the workspace subscribes to its type, with
 * one delivery per such webhook; a workspace without webhooks pays no extra round trip, as the
 * event rides on the change's own statement (a data-modifying CTE).
 */

/**
 * A statement (an UPDATE … RETURNING, or a SELECT) giving at most one row with `account_id`,
 * `team_id` (the workspace of the row that changed) and `data` (jsonb, the event's `data`).
 */
export type EventSource = OperationNodeSource | RawBuilder<unknown>;

/** `w` (a webhook) belongs to the workspace of `src`. */
function sameWorkspace(w: string, src: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(`${w}.team_id`)} IS NOT DISTINCT FROM ${sql.ref(`${src}.team_id`)} AND (${sql.ref(`${src}.team_id`)} IS NOT NULL OR ${sql.ref(`${w}.account_id`)} = ${sql.ref(`${src}.account_id`)})`;
}

/**
 * Runs `source` and, in the same statement, writes a `type` event for the row it returns
 * (if any, and if a webhook of that workspace subscribes to `type`) with its deliveries.
 * Returns how many rows `source` gave (0 or 1): the change happened or not.
 */
export async function changeWithEvent(db: DbOrTrx, type: WebhookEventType, source: EventSource, now: Date): Promise<number> {
  return (await changeWithEventRows(db, type, source, now)).length;
}

/**
 * The same, answering the rows `source` returned (`Row`: what it returns). `also`: more
 * data-modifying CTEs (`name AS (…)`) that read the changed row (and may use the event's id),
 * run in the same statement, so they happen if and only if the change does.
 */
export async function changeWithEventRows<Row>(
  db: DbOrTrx,
  type: WebhookEventType,
  source: EventSource,
  now: Date,
  also: (changed: CteRef<Row>, eventId: string) => RawBuilder<unknown>[] = () => [],
): Promise<Row[]> {
  const { rows } = await withEvent<Row>(type, source, newId(now.getTime()), now, also).execute(db);
  return rows;
}

/** The statement of changeWithEventRows, its event's id given (a statement compiled once passes a placeholder). */
export function withEvent<Row>(
  type: WebhookEventType,
  source: EventSource,
  eventId: string,
  now: Date,
  also: (changed: CteRef<Row>, eventId: string) => RawBuilder<unknown>[] = () => [],
): RawBuilder<Row> {
  const pieces = [...eventWrites(type, 'src', eventId, now), ...also(cteRef<Row>('src'), eventId)];
  return sql<Row>`
    WITH src AS (${source}),
    ${sql.join(pieces)}
    SELECT * FROM src`;
}

/**
 * The outbox's writes for a `type` event (id `eventId`) of the row the CTE `src` returns, as
 * data-modifying CTEs of the statement that makes the change: the event when a webhook of that
 * workspace subscribes to `type`, its deliveries, and its emails (thread.failed,
 * follow_up.failed, provider.expired: the same event id). Their names start with `prefix`, so
 * one statement can write the events of two changes.
 */
export function eventWrites(type: WebhookEventType, src: string, eventId: string, now: Date, prefix = ''): RawBuilder<unknown>[] {
  const from = sql.table(src);
  const s = (column: string) => sql.ref(`${src}.${column}`);
  const ev = sql.table(`${prefix}ev`);
  const kind = emailKindOf(type);
  return [
    sql`${ev} AS (
      INSERT INTO webhook_events (id, type, account_id, team_id, data, created_at)
      SELECT ${eventId}::text, ${type}::text, ${s('account_id')}, ${s('team_id')}, ${s('data')}, ${now}::timestamptz
      FROM ${from}
      WHERE EXISTS (SELECT 1 FROM webhooks AS w WHERE ${sameWorkspace('w', src)} AND ${type}::text = ANY (w.events))
      RETURNING id, account_id, team_id
    )`,
    sql`${sql.table(`${prefix}dl`)} AS (
      INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempts, run_at, created_at, updated_at)
      SELECT w.id, ${sql.ref(`${prefix}ev.id`)}, 'PENDING', 0, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      FROM ${ev} JOIN webhooks AS w ON ${sameWorkspace('w', `${prefix}ev`)} AND ${type}::text = ANY (w.events)
    )`,
    ...(kind ? [emailOutbox(`${prefix}em`, kind, src, eventId, now)] : []),
  ];
}

/** The event's `error`: what the API shows on the post or follow-up. */
export function errorJson(error: { code: string; message: string }): RawBuilder<unknown> {
  return sql`jsonb_build_object('code', ${error.code}::text, 'message', ${error.message}::text)`;
}

/** A `ping` to one webhook only (its Test button), whatever types it subscribes to. Returns the event id. */
export async function insertPing(db: DbOrTrx, webhook: { id: string; account_id: string; team_id: string | null }, now: Date): Promise<string> {
  const eventId = newId(now.getTime());
  await sql`
    WITH ev AS (
      INSERT INTO webhook_events (id, type, account_id, team_id, data, created_at)
      VALUES (${eventId}::text, 'ping', ${webhook.account_id}::text, ${webhook.team_id}::text,
              jsonb_build_object('webhookId', ${webhook.id}::text, 'teamId', ${webhook.team_id}::text), ${now}::timestamptz)
      RETURNING id
    )
    INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempts, run_at, created_at, updated_at)
    SELECT ${webhook.id}::text, ev.id, 'PENDING', 0, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz FROM ev`.execute(db);
  return eventId;
}

/**
 * A follow-up reply's `follow_up.published` / `follow_up.failed` event, written in the
 * transaction that records the outcome (its workspace and provider come from the thread row).
 */
export async function writeFollowUpEvent(
  trx: DbOrTrx,
  type: 'follow_up.published' | 'follow_up.failed',
  followUp: { id: string; thread_id: string },
  error: { code: string; message: string } | null,
  now: Date,
): Promise<void> {
  const data = sql`jsonb_build_object('followUpId', ${followUp.id}::text, 'threadId', t.id, 'providerId', t.provider_id, 'teamId', t.team_id)`;
  await changeWithEvent(
    trx,
    type,
    sql`SELECT t.account_id, t.team_id, ${error ? sql`${data} || jsonb_build_object('error', ${errorJson(error)})` : data} AS data
        FROM threads AS t WHERE t.id = ${followUp.thread_id}::text`,
    now,
  );
}
