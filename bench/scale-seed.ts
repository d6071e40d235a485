/**
 * An agency's years of threads, made in SQL (issue 43): `threads` threads of 1 to 5 posts over
 * `providers` accounts, one every `730 days / threads` in round-robin order over the accounts,
 * from 700 days ago to 30 days ahead; published in the past (one in a thousand FAILED), READY
 * ahead, one in 2,000 a draft. Published posts carry analytics; two in five threads carry a tag
 * (one in ten two); one published thread in 20 has a published follow-up; every published thread
 * made a `thread.published` event delivered to the workspace's webhook.
 *
 * The same generator makes both databases of the scale bench, split by `part`: `measured` is what
 * the rows read (the threads in the windows of `MeasuredWindows`, every draft, every failure),
 * `rest` is everything else. The small database holds `measured` alone; the large one both. So a
 * row answers the same threads on both and what differs is only what is around them.
 *
 * One SQL dialect: it runs on PostgreSQL and on PGlite alike (gen_random_uuid, md5, to_hex).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/schema/index.js';

const DAY_MS = 86_400_000;
const PAST_DAYS = 700;
const SPAN_DAYS = 730;

export interface AgencyPlan {
  threads: number;
  accountId: string;
  /** Provider ids, the first the one the single-account rows read. */
  providerIds: string[];
  tagIds: string[];
  webhookId: string;
  now: Date;
}

/** The ranges the rows read: analytics over 90 days and a month of the first account, a week of every account. */
export interface MeasuredWindows {
  /** The first account's 90 days (analytics); its month (List Posts) is the last 30 of them. */
  firstAccount: { from: Date; to: Date };
  month: { from: Date; to: Date };
  /** A week of all accounts (List Posts without providerId). */
  week: { from: Date; to: Date };
}

export function measuredWindows(now: Date): MeasuredWindows {
  const at = (days: number) => new Date(now.getTime() + days * DAY_MS);
  return {
    firstAccount: { from: at(-120), to: at(-30) },
    month: { from: at(-60), to: at(-30) },
    week: { from: at(-14), to: at(-7) },
  };
}

/** A UUIDv7 (as src/lib/ids.ts makes) of the millisecond `ms`, its random part from md5(`salt`). */
function uuidv7(ms: string, salt: string): string {
  const h = `lpad(to_hex((${ms})::bigint), 12, '0')`;
  const r = `md5(${salt})`;
  return `(substr(${h}, 1, 8) || '-' || substr(${h}, 9, 4) || '-7' || substr(${r}, 1, 3) || '-' || substr('89ab', 1 + (get_byte(decode(substr(${r}, 4, 2), 'hex'), 0) % 4), 1) || substr(${r}, 6, 3) || '-' || substr(${r}, 9, 12))`;
}

/**
 * Inserts `part` of the plan. Runs on one connection (a temporary table holds the threads being
 * made); returns the threads inserted.
 */
export async function seedAgency(db: Kysely<Database>, plan: AgencyPlan, part: 'measured' | 'rest'): Promise<number> {
  const windows = measuredWindows(plan.now);
  const providers = plan.providerIds.length;
  const start = plan.now.getTime() - PAST_DAYS * DAY_MS;
  const step = (SPAN_DAYS * DAY_MS) / plan.threads;
  const now = plan.now.getTime();
  const ms = (d: Date) => d.getTime();
  return db.connection().execute(async (conn) => {
    await sql`DROP TABLE IF EXISTS seed_threads`.execute(conn);
    // g: the thread's number; its account, time, status, post count and tags follow from it.
    await sql
      .raw(`
      CREATE TEMPORARY TABLE seed_threads AS
      SELECT g, p, sched_ms, draft, posts,
             CASE WHEN draft THEN 'READY' WHEN sched_ms >= ${now} THEN 'READY' WHEN g % 1000 = 3 THEN 'FAILED' ELSE 'PUBLISHED' END AS status,
             ${uuidv7('sched_ms - 2 * 86400000', "'t' || g")} AS id
      FROM (
        SELECT g, g % ${providers} AS p, (${start} + floor(g::float8 * ${step}))::bigint AS sched_ms, g % 2000 = 17 AS draft,
               1 + ((g::bigint * 2654435761) % 4294967291) % 5 AS posts
        FROM generate_series(0, ${plan.threads - 1}) AS g
      ) AS s`)
      .execute(conn);
    const measured = `(draft OR (sched_ms < ${now} AND g % 1000 = 3)
      OR (sched_ms >= ${ms(windows.week.from)} AND sched_ms < ${ms(windows.week.to)})
      OR (p = 0 AND sched_ms >= ${ms(windows.firstAccount.from)} AND sched_ms < ${ms(windows.firstAccount.to)}))`;
    await sql.raw(`DELETE FROM seed_threads WHERE ${part === 'measured' ? 'NOT ' : ''}${measured}`).execute(conn);
    await sql`CREATE INDEX ON seed_threads (g)`.execute(conn);
    await sql`ANALYZE seed_threads`.execute(conn);

    await sql`
      INSERT INTO threads (id, account_id, provider_id, status, scheduled_at, attempts, published_at, last_error, created_at, updated_at)
      SELECT s.id, ${plan.accountId}, (${plan.providerIds}::text[])[s.p + 1], s.status,
             CASE WHEN s.draft THEN NULL ELSE to_timestamp(s.sched_ms / 1000.0) END,
             CASE WHEN s.status = 'READY' THEN 0 ELSE 1 END,
             CASE WHEN s.status = 'PUBLISHED' THEN to_timestamp(s.sched_ms / 1000.0 + 2 + s.posts) END,
             CASE WHEN s.status = 'FAILED' THEN 'The network refused the post (seeded)' END,
             to_timestamp((s.sched_ms - 2 * 86400000) / 1000.0), to_timestamp((s.sched_ms - 86400000) / 1000.0)
      FROM seed_threads AS s`.execute(conn);

    await sql
      .raw(`
      INSERT INTO posts (id, thread_id, post_order, content, is_spoiler_media, status, network_post_id, permalink, published_at,
                         error_code, error_message, analytics, created_at, updated_at)
      SELECT ${uuidv7('s.sched_ms - 2 * 86400000', "'p' || s.g || '.' || k")}, s.id, k,
             'Seeded thread ' || s.g || ', post ' || (k + 1) || ' of ' || s.posts || ': ' || repeat('a sentence of an ordinary length. ', 5),
             false,
             CASE WHEN s.status = 'FAILED' AND k > 0 THEN 'READY' ELSE s.status END,
             CASE WHEN s.status = 'PUBLISHED' THEN 'net-' || s.g || '-' || k END,
             CASE WHEN s.status = 'PUBLISHED' THEN 'https://www.threads.net/@bench/post/seed' || s.g || 'x' || k END,
             CASE WHEN s.status = 'PUBLISHED' THEN to_timestamp(s.sched_ms / 1000.0 + 2 + k) END,
             CASE WHEN s.status = 'FAILED' AND k = 0 THEN 'NETWORK_REFUSED' END,
             CASE WHEN s.status = 'FAILED' AND k = 0 THEN 'The network refused the post (seeded)' END,
             CASE WHEN s.status = 'PUBLISHED' THEN jsonb_build_object('views', (s.g * 31 + k) % 9000, 'likes', (s.g * 7 + k) % 300,
               'replies', (s.g + k) % 40, 'reposts', (s.g * 3) % 25, 'quotes', s.g % 7, 'shares', (s.g + 2 * k) % 11,
               'fetchedAt', to_char(to_timestamp(s.sched_ms / 1000.0 + 7 * 86400) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
             to_timestamp((s.sched_ms - 2 * 86400000) / 1000.0), to_timestamp((s.sched_ms - 86400000) / 1000.0)
      FROM seed_threads AS s, generate_series(0, s.posts - 1) AS k`)
      .execute(conn);

    if (plan.tagIds.length > 0) {
      await sql`
        INSERT INTO thread_tags (thread_id, tag_id)
        SELECT s.id, (${plan.tagIds}::text[])[1 + (s.g / 7) % ${plan.tagIds.length}] FROM seed_threads AS s WHERE s.g % 10 < 4
        UNION
        SELECT s.id, (${plan.tagIds}::text[])[1 + (s.g / 7 + 5) % ${plan.tagIds.length}] FROM seed_threads AS s WHERE s.g % 10 = 0`.execute(conn);
    }

    await sql
      .raw(`
      INSERT INTO follow_ups (id, thread_id, text, delay_minutes, status, due_at, run_at, attempts, network_post_id, published_at, created_at, updated_at)
      SELECT ${uuidv7('s.sched_ms - 2 * 86400000', "'f' || s.g")}, s.id, 'And one more thing (seeded follow-up)', 60, 'PUBLISHED',
             to_timestamp(s.sched_ms / 1000.0 + 3600), to_timestamp(s.sched_ms / 1000.0 + 3600), 1, 'net-f-' || s.g,
             to_timestamp(s.sched_ms / 1000.0 + 3601), to_timestamp((s.sched_ms - 2 * 86400000) / 1000.0), to_timestamp(s.sched_ms / 1000.0 + 3601)
      FROM seed_threads AS s WHERE s.status = 'PUBLISHED' AND s.g % 20 = 0`)
      .execute(conn);

    await sql
      .raw(`
      INSERT INTO webhook_events (id, type, account_id, data, created_at)
      SELECT ${uuidv7('s.sched_ms + 2000', "'e' || s.g")}, 'thread.published', '${plan.accountId}',
             jsonb_build_object('threadId', s.id, 'status', 'PUBLISHED'), to_timestamp(s.sched_ms / 1000.0 + 2)
      FROM seed_threads AS s WHERE s.status = 'PUBLISHED'`)
      .execute(conn);
    await sql`
      INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempts, run_at, created_at, updated_at)
      SELECT ${plan.webhookId}, e.id, 'DELIVERED', 1, e.created_at, e.created_at, e.created_at
      FROM webhook_events AS e WHERE e.account_id = ${plan.accountId}
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries AS d WHERE d.webhook_id = ${plan.webhookId} AND d.event_id = e.id)`.execute(conn);

    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM seed_threads`.execute(conn);
    await sql`DROP TABLE seed_threads`.execute(conn);
    return rows[0]!.n;
  });
}

/** The workspace's webhook the seeded events were delivered to (an address never called: every delivery is DELIVERED). */
export async function seedWebhook(db: Kysely<Database>, accountId: string, now: Date): Promise<string> {
  const id = `bench-scale-webhook`;
  await sql`
    INSERT INTO webhooks (id, account_id, url, events, secret_enc, created_at)
    VALUES (${id}, ${accountId}, 'https://hooks.example.com/skein', ARRAY['thread.published'], 'unused', ${now})`.execute(db);
  return id;
}

/** Copies of the provider row `templateId` (a real connect's, its token encrypted), `count` in all with it, first. */
export async function copyProviders(db: Kysely<Database>, templateId: string, count: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO providers (id, account_id, team_id, kind, provider_user_id, username, status, access_token_enc, refresh_token_enc,
                           token_expires_at, service_url, session_enc, connected_at, updated_at)
    SELECT 'bench-scale-provider-' || lpad(g::text, 4, '0'), p.account_id, p.team_id, p.kind, p.provider_user_id || '-' || g, 'bench' || g,
           p.status, p.access_token_enc, p.refresh_token_enc, p.token_expires_at, p.service_url, p.session_enc, p.connected_at, p.updated_at
    FROM providers AS p, generate_series(1, ${count - 1}::int) AS g WHERE p.id = ${templateId}
    ORDER BY g
    RETURNING id`.execute(db);
  return [templateId, ...rows.map((r) => r.id)];
}

/** Threads due for the claim row: `count` one-post READY threads over the last 10 minutes, round-robin over the accounts. */
export const DUE_FOR_CLAIM = 128;

export async function seedDueThreads(db: Kysely<Database>, plan: AgencyPlan): Promise<void> {
  const from = plan.now.getTime() - 10 * 60_000;
  await sql
    .raw(`
    INSERT INTO threads (id, account_id, provider_id, status, scheduled_at, attempts, created_at, updated_at)
    SELECT ${uuidv7(`${from} + g * 1000`, "'due' || g")}, '${plan.accountId}', ('{${plan.providerIds.join(',')}}'::text[])[1 + g % ${plan.providerIds.length}],
           'READY', to_timestamp((${from} + g * 1000) / 1000.0), 0, to_timestamp(${from} / 1000.0), to_timestamp(${from} / 1000.0)
    FROM generate_series(0, ${DUE_FOR_CLAIM - 1}) AS g`)
    .execute(db);
  await sql
    .raw(`
    INSERT INTO posts (id, thread_id, post_order, content, is_spoiler_media, status, created_at, updated_at)
    SELECT ${uuidv7(`${from} + g * 1000`, "'duep' || g")}, ${uuidv7(`${from} + g * 1000`, "'due' || g")}, 0, 'Due for the claim row', false, 'READY',
           to_timestamp(${from} / 1000.0), to_timestamp(${from} / 1000.0)
    FROM generate_series(0, ${DUE_FOR_CLAIM - 1}) AS g`)
    .execute(db);
}

/**
 * After a bulk seed: statistics and visibility (VACUUM ANALYZE), then the seed's dirty pages
 * written out (CHECKPOINT). Without it PostgreSQL's checkpointer spreads a million threads' pages
 * over the next minutes (checkpoint_completion_target of checkpoint_timeout), under the rows
 * measured right after: the first rows on the large database read half their figure, rising run
 * after run (Get Thread, a cached read, 7,072 → 9,040 → 10,298 req/s against 18,000 on the small).
 */
export async function settle(db: Kysely<Database>): Promise<void> {
  await sql`VACUUM ANALYZE`.execute(db);
  await sql`CHECKPOINT`.execute(db);
}
