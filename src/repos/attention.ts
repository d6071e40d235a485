import { type RawBuilder, sql } from 'kysely';
import type { ProviderKind } from '../db/schema/index.js';
import type { Workspace } from '../lib/workspace.js';
import { textSnippet } from './snippet.js';
import { type DbOrTrx, ofWorkspace } from './types.js';

/**
 * What needs the user in a workspace, read in one statement (services/notices/attention.ts holds the
 * rule and the kinds): failed threads (with the error of their failed post), failed follow-up
 * replies, expired or revoked accounts, accounts whose token runs out soon and cannot be
 * refreshed, threads due before `dueBefore` whose account is not ACTIVE, and threads put back
 * until their account's daily posting cap resets. Each row exists
 * only while its cause does: a retried thread is READY, a deleted one is gone, a reconnected
 * account is ACTIVE again, a thread out of the cap is published (its last_error cleared).
 */

/**
 * The publisher's codes for a network's per-account daily cap (a transient error whose retry
 * waits for the reset): a thread whose last attempt met one is waiting on the cap.
 */
const DAILY_CAP_CODES = ['X_DAILY_LIMIT'];

export interface AttentionRow {
  kind:
    | 'THREAD_FAILED'
    | 'FOLLOW_UP_FAILED'
    | 'PROVIDER_EXPIRED'
    | 'PROVIDER_REVOKED'
    | 'PROVIDER_EXPIRING'
    | 'PROVIDER_NOT_ACTIVE_FOR_DUE'
    | 'PROVIDER_RATE_LIMITED'
    | 'THREAD_AWAITING_APPROVAL';
  at: Date;
  providerId: string;
  threadId: string | null;
  followUpId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** A snippet of the thread's first post (repos/snippet.ts); null without a thread or a text. */
  threadText: string | null;
}

/** An ACTIVE account of `kind` whose token expires before `until` and has no refresh token: it will lapse. */
export interface LapsingTokens {
  kind: ProviderKind;
  until: Date;
}

/** The providers (`alias`) whose tokens lapse as `lapsing` says; false when no network's do. */
export function lapsingToken(alias: string, lapsing: readonly LapsingTokens[]): RawBuilder<boolean> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  if (!lapsing.length) return sql<boolean>`false`;
  const byKind = sql.join(
    lapsing.map(({ kind, until }) => sql`(${col('kind')} = ${kind}::text AND ${col('token_expires_at')} <= ${until}::timestamptz)`),
    sql` OR `,
  );
  return sql<boolean>`(${col('status')} = 'ACTIVE' AND ${col('access_token_enc')} IS NOT NULL AND ${col('refresh_token_enc')} IS NULL AND (${byKind}))`;
}

/**
 * A page of the list: at most `limit` items after the key (`at` as pageKey writes it, kind, the
 * thread's or provider's id, the follow-up's id or ''), in the list's order.
 */
export interface AttentionPage {
  limit: number;
  after: readonly [string, string, string, string] | null;
}

/** The order, and the key a page is cut at: each item once (one per kind and subject). */
const ORDER_KEY = sql`at DESC, kind COLLATE "C", COALESCE(thread_id, provider_id) COLLATE "C", COALESCE(follow_up_id, '') COLLATE "C"`;

/** The items after `after` in ORDER_KEY's order (newest first, then the rest ascending), as a row test. */
function afterKey(after: AttentionPage['after']): RawBuilder<unknown> {
  if (after === null) return sql`true`;
  const [at, kind, subject, followUp] = after;
  const sid = sql`COALESCE(thread_id, provider_id) COLLATE "C"`;
  const fid = sql`COALESCE(follow_up_id, '') COLLATE "C"`;
  return sql`(at < ${at}::timestamptz OR (at = ${at}::timestamptz AND (kind COLLATE "C" > ${kind}::text
    OR (kind COLLATE "C" = ${kind}::text AND (${sid} > ${subject}::text OR (${sid} = ${subject}::text AND ${fid} > ${followUp}::text))))))`;
}

/** `pendingBefore`: threads still waiting for approval at or before it are listed (THREAD_AWAITING_APPROVAL); none when null. */
export async function listAttention(
  db: DbOrTrx,
  workspace: Workspace,
  page: AttentionPage,
  dueBefore: Date,
  lapsing: readonly LapsingTokens[] = [],
  pendingBefore: Date | null = null,
): Promise<Array<AttentionRow & { pageKey: [string, string, string, string] }>> {
  // A thread fails on one post, which keeps the network's error; a thread failed before any post
  // was tried keeps it only in last_error ("CODE: message").
  const { rows } = await sql<{
    kind: AttentionRow['kind'];
    at: Date | string;
    provider_id: string;
    thread_id: string | null;
    follow_up_id: string | null;
    error_code: string | null;
    error_message: string | null;
    thread_text: string | null;
    page_at: string;
  }>`
    -- The page's items only (after its LIMIT) name their thread: its first post, by posts_thread_order_key.
    SELECT page.*, (SELECT ${textSnippet(sql.ref('fp.content'))} FROM posts AS fp WHERE fp.thread_id = page.thread_id ORDER BY fp.post_order LIMIT 1) AS thread_text
    FROM (
    SELECT *, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS page_at FROM (
      SELECT 'THREAD_FAILED' AS kind, COALESCE(fp.updated_at, t.updated_at) AS at, t.provider_id, t.id AS thread_id, NULL::text AS follow_up_id,
             COALESCE(fp.error_code, NULLIF(split_part(t.last_error, ': ', 1), ''), 'UNKNOWN') AS error_code,
             COALESCE(fp.error_message, substr(t.last_error, strpos(t.last_error, ': ') + 2), '') AS error_message
        FROM threads AS t
        LEFT JOIN LATERAL (
          SELECT p.error_code, p.error_message, p.updated_at FROM posts AS p
           WHERE p.thread_id = t.id AND p.status = 'FAILED' AND p.error_code IS NOT NULL
           ORDER BY p.post_order LIMIT 1
        ) AS fp ON true
       WHERE t.status = 'FAILED' AND ${ofWorkspace('t', workspace)}
      UNION ALL
      SELECT 'FOLLOW_UP_FAILED', f.updated_at, t.provider_id, t.id, f.id, COALESCE(f.error_code, 'UNKNOWN'), COALESCE(f.error_message, '')
        FROM follow_ups AS f JOIN threads AS t ON t.id = f.thread_id
       WHERE f.status = 'FAILED' AND ${ofWorkspace('t', workspace)}
      UNION ALL
      SELECT 'PROVIDER_' || p.status, p.updated_at, p.id, NULL, NULL, NULL, NULL
        FROM providers AS p
       WHERE p.status IN ('EXPIRED', 'REVOKED') AND ${ofWorkspace('p', workspace)}
      UNION ALL
      SELECT 'PROVIDER_EXPIRING', p.token_expires_at, p.id, NULL, NULL, NULL, NULL
        FROM providers AS p
       WHERE ${lapsingToken('p', lapsing)} AND ${ofWorkspace('p', workspace)}
      UNION ALL
      SELECT 'PROVIDER_NOT_ACTIVE_FOR_DUE', t.scheduled_at, t.provider_id, t.id, NULL, NULL, NULL
        FROM threads AS t JOIN providers AS p ON p.id = t.provider_id
       WHERE t.status = 'READY' AND t.scheduled_at <= ${dueBefore}::timestamptz AND p.status <> 'ACTIVE' AND ${ofWorkspace('t', workspace)}
      UNION ALL
      SELECT 'PROVIDER_RATE_LIMITED', t.updated_at, t.provider_id, t.id, NULL,
             split_part(t.last_error, ': ', 1), substr(t.last_error, strpos(t.last_error, ': ') + 2)
        FROM threads AS t
       WHERE t.status IN ('READY', 'PUBLISHING') AND t.last_error IS NOT NULL AND split_part(t.last_error, ': ', 1) IN (${sql.join(DAILY_CAP_CODES.map((code) => sql`${code}::text`))})
         AND ${ofWorkspace('t', workspace)}
      UNION ALL
      SELECT 'THREAD_AWAITING_APPROVAL', t.scheduled_at, t.provider_id, t.id, NULL, NULL, NULL
        FROM threads AS t
       WHERE ${pendingBefore !== null} AND t.approval_state = 'PENDING' AND t.status = 'READY' AND t.scheduled_at <= ${pendingBefore}::timestamptz AND ${ofWorkspace('t', workspace)}
    ) AS items
    WHERE ${afterKey(page.after)}
    ORDER BY ${ORDER_KEY}
    LIMIT ${page.limit}
    ) AS page
    ORDER BY ${ORDER_KEY}`.execute(db);
  return rows.map((row) => ({
    kind: row.kind,
    at: new Date(row.at),
    providerId: row.provider_id,
    threadId: row.thread_id,
    followUpId: row.follow_up_id,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    threadText: row.thread_text,
    pageKey: [row.page_at, row.kind, row.thread_id ?? row.provider_id, row.follow_up_id ?? ''],
  }));
}
