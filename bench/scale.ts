/**
 * `npm run bench -- --scale` (issue 43): the API rows on a small database and on an agency's
 * years of threads (bench/scale-seed.ts), in one run, on PostgreSQL + Redis and on PGlite.
 *
 * 1. A fresh database; the migrations' run time measured on it (in this process).
 * 2. `skein serve` once (the owner's key), `skein provider add`, then, with the server stopped,
 *    the provider copied to `providers` accounts, a webhook and `measured` seeded in SQL: the
 *    threads the rows read (scale-seed.ts). That is the small database.
 * 3. A copy of it (PostgreSQL: CREATE DATABASE … TEMPLATE; PGlite: its data folder) gets `rest`
 *    (the large database: `threads` in all), VACUUM ANALYZE and CHECKPOINT; a server started on
 *    it (its restart timed, then its idle RSS), and one on the small database beside it.
 * 4. The rows run on both servers in turn, run by run, so both see the same minutes of the machine.
 * Each row answers the same threads on both databases, so the ratio is what the rest costs.
 */
import { cpSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { openPGlite, openPostgres } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import type { Database } from '../src/db/schema/index.js';
import { FakeGraphApi } from '../test/helpers/fakes/threads-graph-api.js';
import { type Backend, type LoadOptions, RateWindow } from './api.js';
import { type CalendarResult, measureCalendarMonth, seedTeamMonth } from './calendar.js';
import { measureClaim } from './claim.js';
import { type LoadResult, type LoadSpec, median, medianOf, UNIQUE } from './load.js';
import {
  apiClient,
  apiServerEnv,
  type BenchDatabase,
  bannerKey,
  createDatabase,
  type Env,
  freePort,
  OWNER_EMAIL,
  Proc,
  REDIS_URL,
  rssMiB,
  SKEIN_BIN,
  sampleRss,
  skeinCli,
  startSkein,
  tempDir,
  waitReady,
} from './procs.js';
import { type AgencyPlan, copyProviders, DUE_FOR_CLAIM, measuredWindows, seedAgency, seedDueThreads, seedWebhook, settle } from './scale-seed.js';

const SCALE_ROUTES = ['getThread', 'listMonth', 'listWeek', 'drafts', 'create', 'edit', 'attention', 'analytics'] as const;
type ScaleRoute = (typeof SCALE_ROUTES)[number];
const SCALE_LABELS: Record<ScaleRoute, string> = {
  getThread: 'Get Thread',
  listMonth: "List Posts, one account's month",
  listWeek: 'List Posts, a week of all accounts (a page of 100)',
  drafts: 'List Drafts',
  create: 'Create (3-post thread)',
  edit: 'Edit Entire Thread (a draft)',
  attention: 'Attention',
  analytics: 'Analytics, 90 days of one account',
};

type Row = LoadResult & { all: number[] };

export interface ScaleResult {
  backend: Backend;
  threads: number;
  providers: number;
  /** Threads the rows read (both databases hold them). */
  measuredThreads: number;
  migrateMs: number;
  seedMs: number;
  small: Record<ScaleRoute, Row>;
  large: Record<ScaleRoute, Row>;
  /** The server on the large database: spawn → /readyz 200, and its RSS at rest. */
  restartMs: number;
  rssIdleMiB: number;
  /** PostgreSQL only: the claim's backend CPU per claim (ms, CLAIM_RUNS runs, alternated) on each database, of the same due threads. */
  claim?: { small: number[]; large: number[]; claimed: number };
  /** PostgreSQL only: the web calendar's month of a team of many accounts (bench/calendar.ts), on the large database. */
  calendar?: CalendarResult;
  /**
   * `skein export` of the large database and `skein import` of its file into an empty one;
   * `threads`: those the file holds (the seeded ones and those the Create row made).
   */
  transfer: { threads: number; exportMs: number; exportPeakMiB: number; importMs: number; importPeakMiB: number; bytes: number };
}

/** Claims of the scale's claim row per run (each rolled back), and runs per database. */
const SCALE_CLAIMS = 300;
const CLAIM_RUNS = 6;

export interface ScaleSize {
  threads: number;
  providers: number;
  /** The calendar row's team (PostgreSQL): its accounts, each posting 30 threads a day around this month. */
  calendarAccounts?: number;
  /** Loads of the calendar's month view. */
  calendarLoads?: number;
}

const CALENDAR_PER_DAY = 30;

/** Times in the account's zone (UTC), without an offset. */
function local(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/**
 * The database of the run, opened in this process while no server runs on it: `fn` gets it and
 * the connections the publisher claims on (DbHandle.claimDb).
 */
async function withDatabase<T>(
  backend: Backend,
  where: { url?: string; pgliteDir: string },
  fn: (db: Kysely<Database>, claimDb: Kysely<Database>) => Promise<T>,
) {
  const handle = backend === 'postgres' ? openPostgres(where.url!, 2) : await openPGlite(where.pgliteDir);
  try {
    return await fn(handle.db, handle.claimDb ?? handle.db);
  } finally {
    await handle.close();
  }
}

/**
 * One database's side of the run: its own server (port, data folder, database) and its own
 * rate-limit window (each server limits apart: PGlite in its process, PostgreSQL's in its own
 * Redis database).
 */
interface Side {
  label: 'small' | 'large';
  env: Env;
  baseUrl: string;
  where: { url?: string; pgliteDir: string };
  server: Proc | null;
  window: RateWindow;
}

export async function runScale(backend: Backend, size: ScaleSize, options: LoadOptions): Promise<ScaleResult> {
  const log = (line: string) => options.log(`scale ${backend}: ${line}`);
  const graph = await FakeGraphApi.start({});
  const databases: BenchDatabase[] = [];
  const dirs: { remove: () => void }[] = [];
  const side = async (label: Side['label'], copyOf?: Side): Promise<Side> => {
    const database = backend === 'postgres' ? await createDatabase(`scale_${label}`, databases[0]) : null;
    if (database) databases.push(database);
    const dir = tempDir(`scale-${backend}-${label}`);
    dirs.push(dir);
    // PGlite's copy is its data folder's (the database and the media), taken with its server stopped.
    if (copyOf && backend === 'pglite') cpSync(dataDirOf(copyOf), dir.path, { recursive: true });
    const port = await freePort();
    const env: Env = {
      ...apiServerEnv({ dataDir: dir.path, port, graphUrl: graph.url, ...(database ? { databaseUrl: database.url } : {}) }),
      // Both sides are one install (the same secret: the copied keys' hashes hold), each limited apart.
      ...(copyOf ? { SKEIN_SECRET: copyOf.env.SKEIN_SECRET!, ...(database ? { REDIS_URL: redisDatabase(1) } : {}) } : {}),
    };
    const where = { url: database?.url, pgliteDir: join(dir.path, 'pglite') };
    return { label, env, baseUrl: `http://127.0.0.1:${port}`, where, server: null, window: new RateWindow(options.tool) };
  };
  const start = async (s: Side) => {
    const started = performance.now();
    s.server = startSkein(`skein serve (scale, ${backend}, ${s.label})`, 'serve', s.env);
    return waitReady(s.server, s.baseUrl, started, 300_000);
  };
  const stop = async (s: Side) => {
    await s.server?.stop();
    s.server = null;
  };
  const sides: Side[] = [];
  try {
    const small = await side('small');
    sides.push(small);
    const migrateMs = await withDatabase(backend, small.where, async (db) => {
      const t0 = performance.now();
      await migrateToLatest(db);
      return performance.now() - t0;
    });
    log(`migrations on an empty database: ${migrateMs.toFixed(0)} ms`);
    await start(small);
    const key = await bannerKey(small.server!);
    const signInLink = /Sign in: (\S+)/.exec(small.server!.output)?.[1];
    const env = small.env;
    const team = size.calendarAccounts ? ((await skeinCli(['team', 'create', '--email', OWNER_EMAIL, '--name', 'Agency'], env)) as { id: string }) : null;
    const template = await skeinCli(
      ['provider', 'add', '--email', OWNER_EMAIL, '--kind', 'THREADS', '--access-token', graph.createAccount('scale').accessToken],
      env,
    );
    const api = apiClient(small.baseUrl, key);
    // Tags through the API (their scope and keys as Skein makes them), on a thread of its own.
    const tagged = await api<{ threadId: string }>('POST', '/api/v1/posts', { providerId: template.id, posts: [{ text: 'tag holder' }] });
    const tagNames = Array.from({ length: 12 }, (_, i) => `topic ${i + 1}`);
    await api('PUT', `/api/v1/posts/${tagged.threadId}/tags`, { tagNames });
    await stop(small);

    const now = new Date();
    const plan = await withDatabase(backend, small.where, async (db): Promise<AgencyPlan> => {
      const providerIds = await copyProviders(db, template.id as string, size.providers);
      const accountId = (await sql<{ id: string }>`SELECT account_id AS id FROM providers WHERE id = ${template.id}`.execute(db)).rows[0]!.id;
      const tagIds = (await sql<{ id: string }>`SELECT id FROM tags ORDER BY name`.execute(db)).rows.map((r) => r.id);
      return { threads: size.threads, accountId, providerIds, tagIds, webhookId: await seedWebhook(db, accountId, now), now };
    });
    const measuredThreads = await withDatabase(backend, small.where, async (db) => {
      const n = await seedAgency(db, plan, 'measured');
      await seedDueThreads(db, plan);
      await settle(db);
      return n;
    });
    log(`small database: ${measuredThreads} threads (what the rows read), ${size.providers} accounts`);
    const targets = await withDatabase(backend, small.where, (db) => rowTargets(db, plan));

    // The large database begins as a copy of the small one; both are served side by side, so each
    // row's runs on the two alternate within minutes (the machine's drift falls on both alike).
    const large = await side('large', small);
    sides.push(large);
    const seedStarted = performance.now();
    const calendarPlan =
      team && size.calendarAccounts
        ? {
            accountId: plan.accountId,
            teamId: team.id,
            templateProviderId: template.id as string,
            accounts: size.calendarAccounts,
            perDay: CALENDAR_PER_DAY,
            now,
          }
        : null;
    let teamThreads = 0;
    const seeded = await withDatabase(backend, large.where, async (db) => {
      const n = await seedAgency(db, plan, 'rest');
      if (calendarPlan) teamThreads = await seedTeamMonth(db, calendarPlan);
      await settle(db);
      return n + teamThreads;
    });
    const seedMs = performance.now() - seedStarted;
    log(`large database: ${seeded + measuredThreads} threads, seeded in ${(seedMs / 1000).toFixed(1)} s`);
    const restartMs = await start(large);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssIdleMiB = rssMiB(large.server!.pid) ?? 0;
    log(`restart on the large database: ${restartMs.toFixed(0)} ms, idle RSS ${rssIdleMiB.toFixed(0)} MiB`);
    await start(small);
    const specs = { small: scaleSpecs(small.baseUrl, key, plan, targets), large: scaleSpecs(large.baseUrl, key, plan, targets) };
    await probe(specs.small, small.server!);
    await probe(specs.large, large.server!);
    const rows = await runRows([small, large], specs, options, log);
    await stop(small);
    let calendar: CalendarResult | undefined;
    if (calendarPlan && signInLink) {
      // The team is the owner's workspace from here on (the rows above read the personal one).
      await apiClient(large.baseUrl, key)('PATCH', '/api/v1/account', { activeTeamId: calendarPlan.teamId });
      const days = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
      const seededCal = { accounts: calendarPlan.accounts, threadsInMonth: calendarPlan.accounts * CALENDAR_PER_DAY * days };
      calendar = await measureCalendarMonth(
        large.baseUrl,
        signInLink.replace(small.baseUrl, large.baseUrl),
        dataDirOf(large),
        seededCal,
        size.calendarLoads ?? 10,
        log,
      );
      if (calendar.skipped) log(`calendar month not measured: ${calendar.skipped}`);
    }
    await stop(large);
    const claim = backend === 'postgres' ? await claims(small, large, backend, plan) : undefined;
    if (claim)
      log(
        `claim of ${claim.claimed} due threads, CPU ms: small ${claim.small.map((ms) => ms.toFixed(2)).join(' / ')}, large ${claim.large.map((ms) => ms.toFixed(2)).join(' / ')}`,
      );
    // The export holds the threads the rows created too (Create's runs add thousands): counted, not assumed.
    const exported = await withDatabase(
      backend,
      large.where,
      async (db) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM threads`.execute(db)).rows[0]!.n,
    );
    const transfer = { threads: exported, ...(await measureTransfer(backend, large.env, dataDirOf(large), log)) };
    return {
      backend,
      threads: seeded + measuredThreads,
      providers: size.providers,
      measuredThreads,
      migrateMs,
      seedMs,
      small: rows.small,
      large: rows.large,
      restartMs,
      rssIdleMiB,
      claim,
      ...(calendar ? { calendar } : {}),
      transfer,
    };
  } finally {
    for (const s of sides) await stop(s);
    await graph.close();
    if (process.env.BENCH_SCALE_KEEP) {
      const kept = [...databases.map((d) => d.url), ...sides.map((s) => `${s.label}: ${dataDirOf(s)}`)];
      log(`kept (BENCH_SCALE_KEEP): ${kept.join(', ')}`);
    } else {
      for (const database of databases) await database.drop();
      for (const dir of dirs) dir.remove();
    }
  }
}

function dataDirOf(s: Side): string {
  return s.env.SKEIN_DATA_DIR!;
}

/** The bench's Redis with database `n` selected (the second server's rate limits apart from the first's). */
function redisDatabase(n: number): string {
  const url = new URL(REDIS_URL);
  url.pathname = `/${n}`;
  return url.toString();
}

/**
 * The claim's CPU on each database (servers stopped), both open at once and their runs alternated
 * (S L, L S, …) as the API rows' are: measured one side after the other, the claim's figure swung
 * 1.0–1.4× between runs of the same state (a side's first run reads pages the other evicted;
 * 200 claims are 30 ticks of /proc's CPU time), so each side gets CLAIM_RUNS runs and its median.
 */
async function claims(small: Side, large: Side, backend: Backend, plan: AgencyPlan): Promise<ScaleResult['claim']> {
  return withDatabase(backend, small.where, (_smallDb, smallClaimDb) =>
    withDatabase(backend, large.where, async (_largeDb, largeClaimDb) => {
      const figures = { small: [] as number[], large: [] as number[] };
      let claimed = 0;
      for (let run = 0; run < CLAIM_RUNS; run++) {
        const sides = [
          ['small', smallClaimDb],
          ['large', largeClaimDb],
        ] as const;
        for (const [label, db] of run % 2 === 0 ? sides : [...sides].reverse()) {
          const measured = await claimCpu(db, plan);
          figures[label].push(...measured.perClaimMs);
          claimed = measured.claimed;
        }
      }
      return { ...figures, claimed };
    }),
  );
}

/** The publisher's spread claim of 16 of the due threads at the plan's time, one run (bench/claim.ts). */
function claimCpu(db: Kysely<Database>, plan: AgencyPlan) {
  const lease = { workerId: 'bench-scale', now: plan.now, until: new Date(plan.now.getTime() + 5 * 60_000) };
  return measureClaim(db, lease, { perAccount: 1, lastServed: new Map() }, SCALE_CLAIMS, 1);
}

/** A skein command run to its end: its time and peak RSS. */
async function timedCli(label: string, args: string[], env: Env) {
  const started = performance.now();
  const proc = new Proc(label, process.execPath, [SKEIN_BIN, ...args], env);
  const peak = sampleRss(proc.pid);
  const code = await proc.exited;
  const ms = performance.now() - started;
  const peakMiB = peak();
  if (code !== 0) throw new Error(`${label} failed (${code}): ${proc.output.slice(-2000)}`);
  return { ms, peakMiB };
}

/** `skein export` of the large database, then `skein import` of the file into an empty database of the same kind. */
async function measureTransfer(backend: Backend, env: Env, dir: string, log: (line: string) => void): Promise<Omit<ScaleResult['transfer'], 'threads'>> {
  const file = join(dir, 'export.jsonl');
  const exported = await timedCli('skein export (scale)', ['export', '--out', file], env);
  const bytes = statSync(file).size;
  log(`export: ${(exported.ms / 1000).toFixed(1)} s, peak RSS ${exported.peakMiB.toFixed(0)} MiB, ${(bytes / 1e6).toFixed(0)} MB`);
  const target = backend === 'postgres' ? await createDatabase('scale_import') : null;
  try {
    const importEnv: Env = target ? { ...env, DATABASE_URL: target.url } : { ...env, SKEIN_DATA_DIR: join(dir, 'imported') };
    const imported = await timedCli('skein import (scale)', ['import', '--in', file], importEnv);
    log(`import: ${(imported.ms / 1000).toFixed(1)} s, peak RSS ${imported.peakMiB.toFixed(0)} MiB`);
    return { exportMs: exported.ms, exportPeakMiB: exported.peakMiB, importMs: imported.ms, importPeakMiB: imported.peakMiB, bytes };
  } finally {
    await target?.drop();
    rmSync(file, { force: true });
  }
}

interface RowTargets {
  /** A published thread of the first account's month. */
  readThreadId: string;
  /** A draft (Edit Entire Thread rewrites it). */
  draftId: string;
}

async function rowTargets(db: Kysely<Database>, plan: AgencyPlan): Promise<RowTargets> {
  const { month } = measuredWindows(plan.now);
  const read = await sql<{ id: string }>`
    SELECT id FROM threads WHERE provider_id = ${plan.providerIds[0]} AND scheduled_at >= ${month.from} AND scheduled_at < ${month.to}
      AND status = 'PUBLISHED' ORDER BY scheduled_at LIMIT 1`.execute(db);
  const draft = await sql<{ id: string }>`
    SELECT t.id FROM threads AS t WHERE t.scheduled_at IS NULL AND t.provider_id <> ${plan.providerIds[0]}
      AND (SELECT count(*) FROM posts AS p WHERE p.thread_id = t.id) = 3 ORDER BY t.id LIMIT 1`.execute(db);
  if (!read.rows[0] || !draft.rows[0]) throw new Error('scale: the measured part holds no published thread of the month or no draft');
  return { readThreadId: read.rows[0].id, draftId: draft.rows[0].id };
}

function scaleSpecs(baseUrl: string, key: string, plan: AgencyPlan, targets: RowTargets): Record<ScaleRoute, LoadSpec> {
  const windows = measuredWindows(plan.now);
  const first = plan.providerIds[0]!;
  // As the web app's browser asks: large lists come gzip-compressed (docs/decisions.md, "Compressed lists").
  const auth = { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip, deflate, br' };
  const json = { ...auth, 'content-type': 'application/json' };
  const get = (path: string): LoadSpec => ({ url: `${baseUrl}${path}`, method: 'GET', headers: auth });
  const range = (w: { from: Date; to: Date }) => `from=${local(w.from)}&to=${local(w.to)}`;
  const threePosts = (label: string) => [{ text: `${label}: first post` }, { text: `${label}: second post` }, { text: `${label}: third post` }];
  const ahead = local(new Date(plan.now.getTime() + 60 * 86_400_000));
  return {
    getThread: get(`/api/v1/posts/${targets.readThreadId}`),
    listMonth: get(`/api/v1/posts?${range(windows.month)}&providerId=${first}`),
    // A week of every account is 9,600 threads at the full size, past List Posts' unpaged 2,000:
    // a client reads it a page at a time (docs/api.md, "Paging"); the row is its first page.
    listWeek: get(`/api/v1/posts?${range(windows.week)}&limit=100`),
    drafts: get('/api/v1/posts/drafts'),
    create: {
      url: `${baseUrl}/api/v1/posts`,
      method: 'POST',
      headers: json,
      bodies: [JSON.stringify({ providerId: first, scheduleAt: ahead, posts: threePosts(`scale ${UNIQUE}`) })],
    },
    edit: {
      url: `${baseUrl}/api/v1/posts/${targets.draftId}/edit`,
      method: 'PUT',
      headers: json,
      bodies: [JSON.stringify({ posts: threePosts('edited once') }), JSON.stringify({ posts: threePosts('edited again') })],
    },
    attention: get('/api/v1/attention'),
    analytics: get(`/api/v1/analytics?providerId=${first}&${range(windows.firstAccount)}`),
  };
}

/** Every row answers 2xx once before it is loaded: a broken seed fails here, loudly. */
async function probe(specs: Record<ScaleRoute, LoadSpec>, server: Proc): Promise<void> {
  for (const spec of Object.values(specs)) {
    const res = await fetch(spec.url, { method: spec.method, headers: spec.headers, body: spec.bodies?.[0]?.replace(UNIQUE, 'probe') });
    if (res.status >= 300) {
      throw new Error(`${spec.method} ${spec.url}: ${res.status} ${(await res.text()).slice(0, 500)}\n${server.output.slice(-3000)}`);
    }
    await res.arrayBuffer();
  }
}

/**
 * Each row on both sides, its runs alternating (small, large; then large, small; …) so that a
 * slower minute of the machine falls on both; each side's figure is the median of its runs.
 */
async function runRows(
  sides: [Side, Side],
  specs: Record<Side['label'], Record<ScaleRoute, LoadSpec>>,
  options: LoadOptions,
  log: (line: string) => void,
): Promise<Record<Side['label'], Record<ScaleRoute, Row>>> {
  const rows = { small: {}, large: {} } as Record<Side['label'], Record<ScaleRoute, Row>>;
  for (const route of SCALE_ROUTES) {
    // Each side's window sees its own side's load only: its warm-up and its runs of this route.
    const nextSeconds = options.warmupSeconds + options.runs * options.seconds;
    for (const s of sides) await s.window.clear(nextSeconds, (line) => log(`${s.label}: ${line}`));
    if (options.warmupSeconds > 0) for (const s of sides) await s.window.tool.run(specs[s.label][route], options.connections, options.warmupSeconds);
    const results: Record<Side['label'], LoadResult[]> = { small: [], large: [] };
    for (let i = 0; i < options.runs; i++) {
      for (const s of i % 2 ? [...sides].reverse() : sides)
        results[s.label].push(await s.window.tool.run(specs[s.label][route], options.connections, options.seconds));
    }
    for (const s of sides) {
      const row = medianOf(results[s.label]);
      rows[s.label][route] = row;
      const errors = row.errors ? `, ${row.errors} errors` : '';
      log(`${s.label}: ${SCALE_LABELS[route]}: ${row.all.map((r) => r.toFixed(0)).join(', ')} req/s, p99 ${row.p99Ms.toFixed(0)} ms${errors}`);
    }
  }
  return rows;
}

/** The scale table: each row on both databases, and the targets of issue 43 that this part measures. */
export function renderScale(results: ScaleResult[]): string {
  const lines: string[] = [];
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  for (const r of results) {
    lines.push(
      `\n### ${r.backend === 'postgres' ? 'PostgreSQL + Redis' : 'PGlite'}: ${r.threads.toLocaleString('en')} threads over ${r.providers} accounts (the rows read ${r.measuredThreads.toLocaleString('en')} of them)\n`,
      '| row | small req/s | large req/s | large of small | p99 small | p99 large | target | result |',
      '|:--|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const route of SCALE_ROUTES) {
      const small = r.small[route];
      const large = r.large[route];
      const ratio = large.rps / small.rps;
      const errors = small.errors + large.errors > 0 ? ` (${small.errors + large.errors} errors)` : '';
      lines.push(
        `| ${SCALE_LABELS[route]}${errors} | ${small.rps.toFixed(0)} | ${large.rps.toFixed(0)} | ${pct(ratio)} | ${small.p99Ms.toFixed(0)} ms | ${large.p99Ms.toFixed(0)} ms | ≥ ${pct(1 / 1.3)} | ${ratio >= 1 / 1.3 ? 'PASS' : 'MISS'} |`,
      );
    }
    if (r.claim) {
      const small = median(r.claim.small);
      const large = median(r.claim.large);
      lines.push(
        `| Claim of ${r.claim.claimed} of ${DUE_FOR_CLAIM} due threads, PostgreSQL CPU ms | ${small.toFixed(2)} ms | ${large.toFixed(2)} ms | ${(large / small).toFixed(2)}× | | | ≤ 1.30× | ${large <= 1.3 * small ? 'PASS' : 'MISS'} |`,
      );
    }
    if (r.calendar) lines.push(...renderCalendar(r.calendar));
    const t = r.transfer;
    const perSecond = t.threads / (t.exportMs / 1000);
    lines.push(
      '',
      '| export / import of the large database | time | threads/s | peak RSS | wanted | result |',
      '|:--|--:|--:|--:|--:|--:|',
      `| \`skein export\` (${t.threads.toLocaleString('en')} threads, ${(t.bytes / 1e6).toFixed(0)} MB) | ${(t.exportMs / 1000).toFixed(1)} s | ${perSecond.toFixed(0)} | ${t.exportPeakMiB.toFixed(0)} MiB | ≥ 20,000/s, < 300 MiB | ${perSecond >= 20_000 && t.exportPeakMiB < 300 ? 'PASS' : 'MISS'} |`,
      `| \`skein import\` into an empty database | ${(t.importMs / 1000).toFixed(1)} s | ${(t.threads / (t.importMs / 1000)).toFixed(0)} | ${t.importPeakMiB.toFixed(0)} MiB | | |`,
    );
    lines.push('', `Migrations on an empty database: ${r.migrateMs.toFixed(0)} ms. Seeding the rest in SQL: ${(r.seedMs / 1000).toFixed(1)} s.`);
    if (r.backend === 'pglite') {
      const listP99 = Math.max(r.large.listMonth.p99Ms, r.large.listWeek.p99Ms);
      lines.push(
        '',
        '| target | figure | wanted | result |',
        '|:--|--:|--:|--:|',
        `| restart on the large database | ${r.restartMs.toFixed(0)} ms | < 2000 ms | ${r.restartMs < 2000 ? 'PASS' : 'MISS'} |`,
        `| idle RSS on the large database | ${r.rssIdleMiB.toFixed(0)} MiB | < 300 MiB | ${r.rssIdleMiB < 300 ? 'PASS' : 'MISS'} |`,
        `| List Posts p99 (worst of the two) | ${listP99.toFixed(0)} ms | < 100 ms | ${listP99 < 100 ? 'PASS' : 'MISS'} |`,
      );
    } else {
      lines.push('', `Restart on the large database: ${r.restartMs.toFixed(0)} ms; idle RSS ${r.rssIdleMiB.toFixed(0)} MiB.`);
    }
  }
  return lines.join('\n');
}

function renderCalendar(c: CalendarResult): string[] {
  if (c.skipped) return ['', `Calendar month: not measured (${c.skipped}).`];
  const slowest = c.slowest.map((x) => `${x.path} ${x.ms.toFixed(0)} ms`).join('; ');
  return [
    '',
    `| web calendar, month of a team of ${c.accounts} accounts (${c.threadsInMonth.toLocaleString('en')} threads in the month), ${c.loads} loads | requests a load | p50 | p99 | wanted | result |`,
    '|:--|--:|--:|--:|--:|--:|',
    `| every /api/v1 request of the month view, timed in Chromium | ${Math.max(...c.requestsPerLoad)} | ${c.p50Ms.toFixed(0)} ms | ${c.p99Ms.toFixed(0)} ms | p99 < 100 ms | ${c.p99Ms < 100 ? 'PASS' : 'MISS'} |`,
    '',
    `Slowest requests: ${slowest}; a load until the network was quiet: ${median(c.loadMs).toFixed(0)} ms (median).`,
  ];
}
