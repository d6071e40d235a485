import { type RawBuilder, sql } from 'kysely';
import type { EmailDelivery, EmailKind, EmailNotificationsTable, EmailPreferencesTable, NotificationKind } from '../db/schema/index.js';
import type { Role } from '../lib/roles.js';
import { type LapsingTokens, lapsingToken } from './attention.js';
import { type Claimed, claimDue, type Lease, leasedQueue } from './queue/leased-queue.js';
import { EMAILS } from './queue/tables.js';
import type { DbOrTrx } from './types.js';

/**
 * Email notifications (decisions.md "Attention"; docs/decisions.md "Email notifications
 * (implementation)"): each user's choices, the email outbox written with the change it reports
 * (`emailOutbox`, one row per recipient and event, the row id made of both so a second write is a
 * conflict), the daily digests, and the leased queue the publisher sends from.
 */

const EMAIL_KINDS: readonly EmailKind[] = [
  'THREAD_FAILED',
  'FOLLOW_UP_FAILED',
  'PROVIDER_EXPIRED',
  'PROVIDER_REVOKED',
  'APPROVAL_REQUESTED',
  'THREAD_REJECTED',
  'THREAD_APPROVED',
  'COMMENT_MENTION',
];

type KindColumn = keyof Omit<EmailPreferencesTable, 'account_id' | 'digest' | 'updated_at'>;
const COLUMN: Record<EmailKind, KindColumn> = {
  THREAD_FAILED: 'thread_failed',
  FOLLOW_UP_FAILED: 'follow_up_failed',
  PROVIDER_EXPIRED: 'provider_expired',
  PROVIDER_REVOKED: 'provider_revoked',
  APPROVAL_REQUESTED: 'approval_requested',
  THREAD_REJECTED: 'thread_rejected',
  THREAD_APPROVED: 'thread_approved',
  COMMENT_MENTION: 'comment_mention',
};

/**
 * A user without a saved choice: failures and expiries by email at once (each needs the user),
 * a disconnect not at all (a person of the workspace did it, in Skein), no digest (opt-in). Of
 * a team's notices, those that wait on the user (an approval asked of them, their thread
 * rejected, a comment naming them) at once; an approval, which asks nothing of the writer, not
 * at all.
 */
const EMAIL_DEFAULTS: { kinds: Record<EmailKind, EmailDelivery>; digest: boolean } = {
  kinds: {
    THREAD_FAILED: 'immediate',
    FOLLOW_UP_FAILED: 'immediate',
    PROVIDER_EXPIRED: 'immediate',
    PROVIDER_REVOKED: 'off',
    APPROVAL_REQUESTED: 'immediate',
    THREAD_REJECTED: 'immediate',
    THREAD_APPROVED: 'off',
    COMMENT_MENTION: 'immediate',
  },
  digest: false,
};

export interface EmailPreferences {
  kinds: Record<EmailKind, EmailDelivery>;
  digest: boolean;
}

export async function findEmailPreferences(db: DbOrTrx, accountId: string): Promise<EmailPreferences> {
  const row = await db.selectFrom('email_preferences').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  if (!row) return { kinds: { ...EMAIL_DEFAULTS.kinds }, digest: EMAIL_DEFAULTS.digest };
  const kinds = Object.fromEntries(EMAIL_KINDS.map((kind) => [kind, row[COLUMN[kind]]])) as Record<EmailKind, EmailDelivery>;
  return { kinds, digest: row.digest };
}

export async function saveEmailPreferences(db: DbOrTrx, accountId: string, prefs: EmailPreferences, now: Date): Promise<void> {
  const kinds = Object.fromEntries(EMAIL_KINDS.map((kind) => [COLUMN[kind], prefs.kinds[kind]])) as Record<KindColumn, EmailDelivery>;
  const values: Omit<EmailPreferencesTable, 'account_id'> = { ...kinds, digest: prefs.digest, updated_at: now };
  await db
    .insertInto('email_preferences')
    .values({ account_id: accountId, ...values })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
    .execute();
}

/** Whose choice an email kind follows: its own, or (an expiry warning) the expiry's. */
const CHOSEN_AS: Record<NotificationKind, EmailKind> = {
  THREAD_FAILED: 'THREAD_FAILED',
  FOLLOW_UP_FAILED: 'FOLLOW_UP_FAILED',
  PROVIDER_EXPIRED: 'PROVIDER_EXPIRED',
  PROVIDER_EXPIRING: 'PROVIDER_EXPIRED',
  PROVIDER_REVOKED: 'PROVIDER_REVOKED',
  APPROVAL_REQUESTED: 'APPROVAL_REQUESTED',
  THREAD_REJECTED: 'THREAD_REJECTED',
  THREAD_APPROVED: 'THREAD_APPROVED',
  COMMENT_MENTION: 'COMMENT_MENTION',
};

/** A user's choice for `kind` in SQL: the saved one (`p`, left-joined) or the default. */
function choiceOf(kind: EmailKind, p: string): RawBuilder<string> {
  return sql<string>`coalesce(${sql.ref(`${p}.${COLUMN[kind]}`)}, ${EMAIL_DEFAULTS.kinds[kind]}::text)`;
}

/** The email kind of a webhook event type, for the types that have one. */
export function emailKindOf(type: string): EmailKind | null {
  if (type === 'thread.failed') return 'THREAD_FAILED';
  if (type === 'follow_up.failed') return 'FOLLOW_UP_FAILED';
  if (type === 'provider.expired') return 'PROVIDER_EXPIRED';
  return null;
}

/**
 * Who an outbox email goes to: a condition on `a` (the recipient's accounts row) and the source
 * CTE named `src`.
 */
type Audience = (src: string) => RawBuilder<boolean>;

/** Every user of the workspace the row is in: the owner of a personal one, every member of a team. */
const workspaceUsers: Audience = (src) => {
  const s = (column: string) => sql.ref(`${src}.${column}`);
  return sql<boolean>`(${s('team_id')} IS NULL AND a.id = ${s('account_id')})
    OR a.id IN (SELECT m.account_id FROM memberships AS m WHERE m.team_id = ${s('team_id')})`;
};

/** Members of the row's team (a personal workspace's row has none) with one of `roles`. */
export function teamMembers(src: string, roles?: readonly Role[]): RawBuilder<boolean> {
  const team = sql.ref(`${src}.team_id`);
  const ofRole = roles ? sql`AND m.role IN (${sql.join(roles.map((r) => sql`${r}::text`))})` : sql``;
  return sql<boolean>`a.id IN (SELECT m.account_id FROM memberships AS m WHERE m.team_id = ${team} ${ofRole})`;
}

export interface OutboxOptions {
  /** Whom it goes to (each still by their own choice); by default every user of the workspace. */
  to?: Audience;
  /**
   * The email's key in SQL over `src`, in place of the event id: its `event_id` and, with the
   * recipient, its row id, so whatever writes the same key again for a user writes nothing.
   */
  key?: RawBuilder<string>;
  /** The email's `data` in SQL over `src`, in place of `src.data`. */
  data?: RawBuilder<unknown>;
}

/**
 * The outbox's email part, a data-modifying CTE (`name AS (…)`) reading `src` (a CTE with
 * `account_id`, `team_id`, `data` of the row that changed; a null `data` is no event): one row per
 * user of `options.to` (every user of that workspace unless told) whose choice for `kind` is not
 * `off`, `PENDING` (sent at once) or `DAILY` (kept for the digest). The id is
 * `<eventId or key>.<accountId>`: the same event can never be queued twice for a user.
 */
export function emailOutbox(name: string, kind: NotificationKind, src: string, eventId: string, now: Date, options: OutboxOptions = {}): RawBuilder<unknown> {
  const s = (column: string) => sql.ref(`${src}.${column}`);
  const chosen = CHOSEN_AS[kind];
  const key = options.key ?? sql<string>`${eventId}::text`;
  const to = (options.to ?? workspaceUsers)(src);
  return sql`${sql.ref(name)} AS (
      INSERT INTO email_notifications (id, account_id, kind, event_id, data, status, run_at, created_at, updated_at)
      SELECT ${key} || '.' || a.id, a.id, ${kind}::text, ${key}, ${options.data ?? s('data')},
             CASE ${choiceOf(chosen, 'p')} WHEN 'immediate' THEN 'PENDING' ELSE 'DAILY' END,
             ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      FROM ${sql.table(src)}
      JOIN accounts AS a ON (${to})
      LEFT JOIN email_preferences AS p ON p.account_id = a.id
      WHERE ${s('data')} IS NOT NULL AND ${choiceOf(chosen, 'p')} <> 'off'
      ON CONFLICT DO NOTHING
    )`;
}

/**
 * The `PROVIDER_EXPIRING` emails of the accounts whose tokens lapse (attention's
 * PROVIDER_EXPIRING), each once per token: the event id is made of the provider and its token's
 * expiry, so a later sweep writes nothing new, and a reconnected account (a new expiry) is
 * warned again when its own notice period comes.
 */
export async function queueExpiryEmails(db: DbOrTrx, lapsing: readonly LapsingTokens[], now: Date): Promise<void> {
  const due = await db.selectFrom('providers as p').select(['p.id', 'p.token_expires_at']).where(lapsingToken('p', lapsing)).execute();
  for (const { id, token_expires_at: expiresAt } of due) {
    const eventId = `provider.expiring.${id}.${expiresAt!.getTime()}`;
    // Read again in the statement that writes: a reconnect or a refresh meanwhile writes nothing.
    await sql`
      WITH src AS (
        SELECT p.account_id, p.team_id, jsonb_build_object('providerId', p.id, 'teamId', p.team_id, 'expiresAt', p.token_expires_at) AS data
        FROM providers AS p
        WHERE p.id = ${id}::text AND p.token_expires_at = ${expiresAt}::timestamptz AND ${lapsingToken('p', lapsing)}
      ),
      ${emailOutbox('em', 'PROVIDER_EXPIRING', 'src', eventId, now)}
      SELECT 1`.execute(db);
  }
}

/**
 * Creates the digests that are due at `now`: for each user with the digest on or a kind set to
 * `daily`, once their local time has passed 08:00, one row for that local day (the unique key
 * `(account_id, digest_day)` makes it once, whichever worker and however often this runs). It
 * covers the 24 h before that day's 08:00 and takes the user's `DAILY` rows written before then.
 * `PENDING` when it has something to say (an event, or with the digest on a published, failed
 * or expired count above zero), else `SKIPPED`. Returns how many were created.
 */
export async function createDueDigests(db: DbOrTrx, now: Date): Promise<number> {
  const daily = sql.join(
    EMAIL_KINDS.map((kind) => sql`${choiceOf(kind, 'p')} = 'daily'`),
    sql` OR `,
  );
  const { rows } = await sql<{ n: number }>`
    WITH users AS (
      SELECT a.id AS account_id, a.timezone, coalesce(p.digest, ${EMAIL_DEFAULTS.digest}) AS summary,
             (${now}::timestamptz AT TIME ZONE a.timezone)::date AS day
      FROM accounts AS a LEFT JOIN email_preferences AS p ON p.account_id = a.id
      WHERE (coalesce(p.digest, ${EMAIL_DEFAULTS.digest}) OR ${daily})
        AND (${now}::timestamptz AT TIME ZONE a.timezone)::time >= time '08:00'
    ),
    due AS (
      SELECT u.account_id, u.day, u.summary,
             ((u.day - 1) + time '08:00') AT TIME ZONE u.timezone AS since,
             (u.day + time '08:00') AT TIME ZONE u.timezone AS until
      FROM users AS u
      WHERE NOT EXISTS (SELECT 1 FROM email_notifications AS e WHERE e.account_id = u.account_id AND e.digest_day = u.day)
    ),
    counted AS (
      SELECT d.*,
        (SELECT count(*) FROM email_notifications AS e
          WHERE e.account_id = d.account_id AND e.status = 'DAILY' AND e.digest_id IS NULL AND e.created_at < d.until)::int AS events,
        CASE WHEN d.summary THEN (SELECT count(*) FROM threads AS t
          WHERE ${visibleTo('t', 'd')} AND t.status = 'PUBLISHED' AND t.published_at >= d.since AND t.published_at < d.until)::int END AS published,
        CASE WHEN d.summary THEN (SELECT count(*) FROM threads AS t
          WHERE ${visibleTo('t', 'd')} AND t.status = 'FAILED' AND t.updated_at >= d.since AND t.updated_at < d.until)::int END AS failed,
        CASE WHEN d.summary THEN (SELECT count(*) FROM providers AS pr
          WHERE ${visibleTo('pr', 'd')} AND pr.status = 'EXPIRED' AND pr.updated_at >= d.since AND pr.updated_at < d.until)::int END AS expired
      FROM due AS d
    ),
    ins AS (
      INSERT INTO email_notifications (id, account_id, kind, digest_day, data, status, run_at, created_at, updated_at)
      SELECT 'digest.' || c.account_id || '.' || c.day::text, c.account_id, 'DIGEST', c.day,
             jsonb_build_object('day', c.day::text, 'since', c.since, 'until', c.until,
               'summary', CASE WHEN c.summary THEN jsonb_build_object('published', c.published, 'failed', c.failed, 'expired', c.expired) END),
             CASE WHEN c.events > 0 OR coalesce(c.published + c.failed + c.expired, 0) > 0 THEN 'PENDING' ELSE 'SKIPPED' END,
             ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      FROM counted AS c
      ON CONFLICT DO NOTHING
      RETURNING id, account_id, (data->>'until')::timestamptz AS until
    ),
    taken AS (
      UPDATE email_notifications AS e SET digest_id = ins.id, updated_at = ${now}::timestamptz
      FROM ins
      WHERE e.account_id = ins.account_id AND e.status = 'DAILY' AND e.digest_id IS NULL AND e.created_at < ins.until
    )
    SELECT count(*)::int AS n FROM ins`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** A thread's or provider's row (`row`) is in a workspace of the user (`user.account_id`). */
function visibleTo(row: string, user: string): RawBuilder<boolean> {
  const r = (c: string) => sql.ref(`${row}.${c}`);
  const u = sql.ref(`${user}.account_id`);
  return sql<boolean>`((${r('team_id')} IS NULL AND ${r('account_id')} = ${u})
    OR ${r('team_id')} IN (SELECT m.team_id FROM memberships AS m WHERE m.account_id = ${u}))`;
}

/**
 * Email is off (no SKEIN_SMTP_URL): what the outbox wrote meanwhile is closed as FAILED with
 * `reason`, in one statement instead of a claim, so nothing piles up to be sent, stale, on a
 * later start with SMTP. A row another worker still holds is left to it.
 */
export async function closeUnsentEmails(db: DbOrTrx, reason: string, now: Date): Promise<void> {
  await sql`
    UPDATE email_notifications
    SET status = 'FAILED', last_error = ${reason}::text, locked_by = NULL, locked_until = NULL, updated_at = ${now}::timestamptz
    WHERE status = 'PENDING' OR (status = 'DAILY' AND digest_id IS NULL) OR (status = 'SENDING' AND locked_until < ${now}::timestamptz)`.execute(db);
}

/** A claimed email with its recipient. */
export interface ClaimedEmail {
  id: string;
  account_id: string;
  kind: EmailNotificationsTable['kind'];
  event_id: string | null;
  data: Record<string, unknown>;
  attempts: number;
  created_at: Date;
  to: string;
  timezone: string;
}

function claimEmails(db: DbOrTrx, lease: Lease, limit: number): Promise<Claimed<ClaimedEmail>> {
  return claimDue<ClaimedEmail>(db, EMAILS, lease, limit, {
    select: (c) => sql`${c.col('id')}, ${c.col('account_id')}, ${c.col('kind')}, ${c.col('event_id')}, ${c.col('data')},
        ${c.col('attempts')}, ${c.col('created_at')}, ${c.col('taken_over')}, a.email AS to, a.timezone
      FROM ${c.from} JOIN accounts AS a ON a.id = ${c.col('account_id')}`,
  });
}

/** The email queue: `PENDING` rows due at `run_at`, held while `SENDING`. */
export const emailQueue = leasedQueue(EMAILS, claimEmails);

/** What an email says about its thread, follow-up or account, read at send time. */
export interface EmailSubject {
  provider: { kind: string; username: string } | null;
  threadText: string | null;
}

export async function emailSubjectOf(db: DbOrTrx, data: { providerId?: unknown; threadId?: unknown }): Promise<EmailSubject> {
  const threadId = typeof data.threadId === 'string' ? data.threadId : null;
  // A thread's event may not name its provider (the approval and comment events): the thread's own.
  const providerId =
    typeof data.providerId === 'string'
      ? data.providerId
      : threadId
        ? ((await db.selectFrom('threads').select('provider_id').where('id', '=', threadId).executeTakeFirst())?.provider_id ?? null)
        : null;
  const provider = providerId ? await db.selectFrom('providers').select(['kind', 'username']).where('id', '=', providerId).executeTakeFirst() : undefined;
  const post = threadId
    ? await db.selectFrom('posts').select('content').where('thread_id', '=', threadId).orderBy('post_order').limit(1).executeTakeFirst()
    : undefined;
  return { provider: provider ?? null, threadText: post?.content ?? null };
}

/** A digest's events (the `DAILY` rows it took), oldest first. */
export function digestEvents(db: DbOrTrx, digestId: string): Promise<{ kind: string; data: Record<string, unknown>; created_at: Date }[]> {
  return db
    .selectFrom('email_notifications')
    .select(['kind', 'data', 'created_at'])
    .where('digest_id', '=', digestId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
