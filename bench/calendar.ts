/**
 * The web calendar's month of an agency (issue 43): a team of `accounts` accounts posting
 * `perDay` threads a day each (30 in the issue: 90,000 threads a month at 100 accounts), made in
 * SQL around this month, then the month view opened in Chromium `loads` times, signed in as the
 * team's owner. Every /api/v1 request the page makes is timed by the browser (request start to
 * the response's end, Playwright's Request.timing()): the figure is the p99 of them all.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { chromium } from 'playwright-core';
import type { Database } from '../src/db/schema/index.js';
import { median } from './load.js';

const DAY_MS = 86_400_000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface CalendarPlan {
  accountId: string;
  teamId: string;
  /** A provider row (a real connect's) the team's accounts are copied from. */
  templateProviderId: string;
  accounts: number;
  perDay: number;
  now: Date;
}

/** The days seeded: the month of `now` and a week either side (what a month grid shows). */
function seededDays(now: Date): { from: number; days: number } {
  const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 7 * DAY_MS;
  const last = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) + 7 * DAY_MS;
  return { from: first, days: Math.round((last - first) / DAY_MS) };
}

/** The team's accounts and their threads (1 to 3 posts): published before `now`, READY after. Returns the threads made. */
export async function seedTeamMonth(db: Kysely<Database>, plan: CalendarPlan): Promise<number> {
  const { from, days } = seededDays(plan.now);
  const providerIds = (
    await sql<{ id: string }>`
      INSERT INTO providers (id, account_id, team_id, kind, provider_user_id, username, status, access_token_enc, refresh_token_enc,
                             token_expires_at, service_url, session_enc, connected_at, updated_at)
      SELECT 'bench-team-provider-' || lpad(g::text, 4, '0'), p.account_id, ${plan.teamId}, p.kind, p.provider_user_id || '-team-' || g,
             'agency' || g, p.status, p.access_token_enc, p.refresh_token_enc, p.token_expires_at, p.service_url, p.session_enc,
             p.connected_at, p.updated_at
      FROM providers AS p, generate_series(1, ${plan.accounts}::int) AS g WHERE p.id = ${plan.templateProviderId}
      ORDER BY g RETURNING id`.execute(db)
  ).rows.map((r) => r.id);
  const perDayAll = plan.accounts * plan.perDay;
  const total = days * perDayAll;
  const now = plan.now.getTime();
  // Thread g: account g % accounts, on day g / perDayAll, spread over 06:00–22:00 UTC.
  await sql
    .raw(`
    CREATE TEMPORARY TABLE seed_team AS
    SELECT g, 'bench-team-thread-' || g AS id, g % ${plan.accounts} AS p, 1 + g % 3 AS posts,
           (${from}::bigint + (g::bigint / ${perDayAll}) * ${DAY_MS} + 6 * 3600000 + ((g::bigint % ${perDayAll}) * (16 * 3600000 / ${perDayAll})))::bigint AS ms
    FROM generate_series(0, ${total - 1}) AS g`)
    .execute(db);
  await sql
    .raw(`
    INSERT INTO threads (id, account_id, team_id, provider_id, status, scheduled_at, attempts, published_at, created_at, updated_at)
    SELECT s.id, '${plan.accountId}', '${plan.teamId}', ('{${providerIds.join(',')}}'::text[])[s.p + 1],
           CASE WHEN s.ms < ${now} THEN 'PUBLISHED' ELSE 'READY' END, to_timestamp(s.ms / 1000.0),
           CASE WHEN s.ms < ${now} THEN 1 ELSE 0 END, CASE WHEN s.ms < ${now} THEN to_timestamp(s.ms / 1000.0 + 2) END,
           to_timestamp((s.ms - ${DAY_MS}) / 1000.0), to_timestamp((s.ms - ${DAY_MS}) / 1000.0)
    FROM seed_team AS s`)
    .execute(db);
  await sql
    .raw(`
    INSERT INTO posts (id, thread_id, post_order, content, is_spoiler_media, status, network_post_id, permalink, published_at, created_at, updated_at)
    SELECT s.id || '-' || k, s.id, k, 'Agency thread ' || s.g || ', post ' || (k + 1) || ': ' || repeat('words of a post. ', 6), false,
           CASE WHEN s.ms < ${now} THEN 'PUBLISHED' ELSE 'READY' END,
           CASE WHEN s.ms < ${now} THEN 'net-team-' || s.g || '-' || k END,
           CASE WHEN s.ms < ${now} THEN 'https://www.threads.net/@agency/post/t' || s.g || 'x' || k END,
           CASE WHEN s.ms < ${now} THEN to_timestamp(s.ms / 1000.0 + 1 + k) END,
           to_timestamp((s.ms - ${DAY_MS}) / 1000.0), to_timestamp((s.ms - ${DAY_MS}) / 1000.0)
    FROM seed_team AS s, generate_series(0, s.posts - 1) AS k`)
    .execute(db);
  await sql`DROP TABLE seed_team`.execute(db);
  return total;
}

export interface CalendarResult {
  accounts: number;
  threadsInMonth: number;
  loads: number;
  /** /api/v1 requests of each load of the month view. */
  requestsPerLoad: number[];
  /** Each load: navigation to the network's quiet (ms). */
  loadMs: number[];
  p50Ms: number;
  p99Ms: number;
  /** The slowest requests of all loads (path without the query's values, ms). */
  slowest: Array<{ path: string; ms: number }>;
  /** Why the row did not run (no Chromium), or null. */
  skipped: string | null;
}

/** Opens `/calendar?view=month` `loads` times after signing in through the first-start link. */
export async function measureCalendarMonth(
  baseUrl: string,
  signInLink: string,
  profileDir: string,
  seeded: { accounts: number; threadsInMonth: number },
  loads: number,
  log: (line: string) => void,
): Promise<CalendarResult> {
  const empty = { ...seeded, loads: 0, requestsPerLoad: [], loadMs: [], p50Ms: 0, p99Ms: 0, slowest: [] };
  if (!existsSync(CHROMIUM)) return { ...empty, skipped: `no Chromium at ${CHROMIUM} (apt-get install -y chromium)` };
  const context = await chromium.launchPersistentContext(join(profileDir, 'chromium'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    viewport: { width: 1280, height: 900 },
  });
  try {
    const page = await context.newPage();
    await page.goto(signInLink);
    await page.getByLabel('New password').fill('a bench of the calendar month');
    await page.getByLabel('Repeat the password').fill('a bench of the calendar month');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/set-password'));
    // The page signing in lands on asks for its own data: not the calendar's requests.
    await page.waitForLoadState('networkidle', { timeout: 300_000 });
    const durations: number[] = [];
    const all: Array<{ path: string; ms: number }> = [];
    const requestsPerLoad: number[] = [];
    const loadMs: number[] = [];
    for (let i = 0; i < loads; i++) {
      let requests = 0;
      const onFinished = (request: import('playwright-core').Request) => {
        const url = new URL(request.url());
        if (!url.pathname.startsWith('/api/v1/')) return;
        // Request start to the response's end, as the browser timed it.
        const ms = request.timing().responseEnd;
        durations.push(ms);
        all.push({ path: `${request.method()} ${url.pathname}${url.search ? '?…' : ''}`, ms });
        requests++;
      };
      page.on('requestfinished', onFinished);
      const started = performance.now();
      await page.goto(`${baseUrl}/calendar?view=month`, { waitUntil: 'networkidle', timeout: 300_000 });
      loadMs.push(performance.now() - started);
      page.off('requestfinished', onFinished);
      requestsPerLoad.push(requests);
    }
    durations.sort((a, b) => a - b);
    const p99 = durations[Math.min(durations.length - 1, Math.ceil(0.99 * durations.length) - 1)] ?? 0;
    all.sort((a, b) => b.ms - a.ms);
    log(`calendar month: ${loads} loads, ${requestsPerLoad.join('/')} requests, p99 ${p99.toFixed(0)} ms, load ${median(loadMs).toFixed(0)} ms (median)`);
    return { ...seeded, loads, requestsPerLoad, loadMs, p50Ms: durations.length ? median(durations) : 0, p99Ms: p99, slowest: all.slice(0, 5), skipped: null };
  } finally {
    await context.close();
  }
}
