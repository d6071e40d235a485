/** The bench's one table (and the same figures as JSON), with each target PASS or MISS. */
import type { BackendResult, BareRoute, Route } from './api.js';
import { BARE_LABELS, BARE_ROUTES, ROUTE_LABELS, ROUTES } from './api.js';
import type { ClaimCpu } from './claim.js';
import type { ImageRun } from './images.js';
import type { LoadResult } from './load.js';
import { median } from './load.js';
import type { MediaRun } from './media.js';
import type { PublisherRun } from './publisher.js';

export interface Results {
  meta: Record<string, unknown>;
  ceiling: LoadResult;
  /** The bare PostgreSQL handlers (bench/bare-server.js): what a request doing the least of each row's database work reaches here. */
  bare: Record<BareRoute, LoadResult>;
  api: { postgres: BackendResult; pglite: BackendResult };
  claim: ClaimCpu;
  publisher: PublisherRun[];
  images: ImageRun;
  media: MediaRun;
}

export interface Target {
  name: string;
  figure: string;
  target: string;
  result: 'PASS' | 'MISS';
}

const BACKEND_NAMES = { postgres: 'PostgreSQL + Redis', pglite: 'PGlite' } as const;
const OF_CEILING: Partial<Record<Route, number>> = { getThread: 0.25, listPosts: 0.06 };
/**
 * Issue 43: Create's share of hello-world followed the day's machine (a bare 4-statement insert
 * reached 5.9–7.4% of it), so Create is judged against the bare insert of the same run instead.
 */
const OF_BARE: Partial<Record<BareRoute, number>> = { create: 0.6 };
/** Issue 43: the claim against the bare SKIP LOCKED claim of the same state in the same run, not a fixed 1 ms. */
const CLAIM_OF_BARE = 1.5;
const OF_POSTGRES: Partial<Record<Route, number>> = { getThread: 0.45, listPosts: 0.25, create: 0.5 };

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const pass = (ok: boolean): 'PASS' | 'MISS' => (ok ? 'PASS' : 'MISS');

const CLAIM_TARGET = (claim: ClaimCpu) => `PostgreSQL CPU per claim, ${claim.providers.toLocaleString('en-US')} accounts (${claim.limit} threads a claim)`;

/** The figure judged for a claim: the median of its runs. */
const claimMs = (claim: ClaimCpu) => median(claim.perClaimMs);
const bareClaimMs = (claim: ClaimCpu) => median(claim.bare.perClaimMs);

/** The publisher's targets (issues 9 and 26). */
export function publisherTargets(runs: PublisherRun[], claim: ClaimCpu): Target[] {
  const out: Target[] = [];
  const byWorkers = (n: number) => runs.find((p) => p.workers === n && p.slots === null);
  const scaling = (n: number) => runs.find((p) => p.workers === n && p.slots !== null);
  for (const n of [2, 4]) {
    const run = byWorkers(n);
    if (!run) continue;
    const s = run.p99LatenessMs / 1000;
    out.push({
      name: `Publisher p99 lateness, ${n} workers, ${run.threads.toLocaleString('en-US')} threads`,
      figure: `${run.complete ? '' : '≥ '}${s.toFixed(2)} s`,
      target: '< 5 s',
      result: pass(run.complete && s < 5),
    });
  }
  // Scaling shows only where one worker falls behind: the pair with fewer slots a worker.
  const one = scaling(1);
  const two = scaling(2);
  if (one && two) {
    const ratio = two.threadsPerSecond / one.threadsPerSecond;
    out.push({
      name: `Publisher throughput, 2 workers over 1 (${one.slots} slots each)`,
      figure: `${ratio.toFixed(2)}×`,
      target: '≥ 1.70×',
      result: pass(ratio >= 1.7),
    });
  }
  const cpuRun = byWorkers(2);
  if (cpuRun?.published) {
    const ms = cpuRun.cpu.workersMs / cpuRun.published;
    out.push({ name: 'Publisher CPU per published thread, workers summed, 2 workers', figure: `${ms.toFixed(2)} ms`, target: '≤ 3 ms', result: pass(ms <= 3) });
  }
  const perClaim = claimMs(claim);
  const ofBare = perClaim / bareClaimMs(claim);
  out.push({
    name: CLAIM_TARGET(claim),
    figure: `${perClaim.toFixed(2)} ms, ${ofBare.toFixed(2)}× bare`,
    target: `≤ ${CLAIM_OF_BARE}× bare`,
    result: pass(claim.claimed === claim.limit && claim.bare.claimed === claim.limit && ofBare <= CLAIM_OF_BARE),
  });
  return out;
}

export function targets(r: Results): Target[] {
  const out: Target[] = [];
  const pgRows = r.api.postgres.rows;
  for (const route of ROUTES) {
    const want = OF_CEILING[route];
    if (want === undefined) continue;
    const ratio = pgRows[route].rps / r.ceiling.rps;
    out.push({ name: `${ROUTE_LABELS[route]} on PostgreSQL, of hello-world`, figure: pct(ratio), target: `≥ ${pct(want)}`, result: pass(ratio >= want) });
  }
  for (const route of Object.keys(OF_BARE) as BareRoute[]) {
    const want = OF_BARE[route]!;
    const ratio = pgRows[route].rps / r.bare[route].rps;
    out.push({ name: ofBareTarget(route), figure: pct(ratio), target: `≥ ${pct(want)} of bare`, result: pass(ratio >= want) });
  }
  for (const route of ROUTES) {
    const want = OF_POSTGRES[route];
    if (want === undefined) continue;
    const ratio = r.api.pglite.rows[route].rps / pgRows[route].rps;
    out.push({ name: `${ROUTE_LABELS[route]} on PGlite, of PostgreSQL`, figure: pct(ratio), target: `≥ ${pct(want)}`, result: pass(ratio >= want) });
  }
  // Issue 26: the embedded database must not make the whole app wait for seconds on a busy
  // calendar. The worst row counts; its req/s bounds it (50 connections in flight).
  const worst = ROUTES.map((route) => ({ route, p99: r.api.pglite.rows[route].p99Ms })).reduce((a, b) => (b.p99 > a.p99 ? b : a));
  out.push({
    name: `p99 latency on PGlite, 50 connections, worst API row (${ROUTE_LABELS[worst.route]})`,
    figure: `${worst.p99.toFixed(0)} ms`,
    target: '< 200 ms',
    result: pass(worst.p99 < 200),
  });
  out.push(...publisherTargets(r.publisher, r.claim));
  for (const [label, backend] of [
    ['PostgreSQL', 'postgres'],
    ['PGlite', 'pglite'],
  ] as const) {
    const ms = median(r.api[backend].importMs);
    out.push({ name: `A 1,000-thread import on ${label}`, figure: `${ms.toFixed(0)} ms`, target: '< 5 s', result: pass(ms < 5000) });
  }
  out.push(rssTarget('PostgreSQL', r.api.postgres.rssIdleMiB, 150));
  out.push(rssTarget('PGlite', r.api.pglite.rssIdleMiB, 400));
  out.push({
    name: `RSS growth during a ${(r.media.bytes / 1e6).toFixed(0)} MB video upload`,
    figure: `${r.media.rssGrowthMiB.toFixed(0)} MiB`,
    target: '< 50 MiB',
    result: pass(r.media.status === 201 && r.media.rssGrowthMiB < 50),
  });
  const restart = median(r.api.pglite.restartMs ?? [Number.POSITIVE_INFINITY]);
  out.push({
    name: 'Restart on an existing embedded database, spawn → /readyz 200',
    figure: `${restart.toFixed(0)} ms`,
    target: '< 2000 ms',
    result: pass(restart < 2000),
  });
  out.push({
    name: 'A 12 MP phone JPEG made Bluesky-ready (prepareImage)',
    figure: `${r.images.medianMs.toFixed(0)} ms`,
    target: '< 300 ms',
    result: pass(r.images.medianMs < 300),
  });
  return out;
}

/** The JSON form: the same figures, each API row with its share of the ceiling (and PGlite's of PostgreSQL). */
export function toJson(r: Results, list: Target[]): unknown {
  const api = Object.fromEntries(
    (['postgres', 'pglite'] as const).map((backend) => {
      const b = r.api[backend];
      const rows = Object.fromEntries(
        ROUTES.map((route) => {
          const row = b.rows[route];
          const ofPostgres = backend === 'pglite' ? row.rps / r.api.postgres.rows[route].rps : undefined;
          const ofBare = backend === 'postgres' && route in BARE_ROUTES ? row.rps / r.bare[route as BareRoute].rps : undefined;
          return [route, { label: ROUTE_LABELS[route], ...row, ofCeiling: row.rps / r.ceiling.rps, ofPostgres, ofBare }];
        }),
      );
      return [backend, { ...b, rows }];
    }),
  );
  const bare = Object.fromEntries(
    (Object.keys(BARE_ROUTES) as BareRoute[]).map((route) => [
      route,
      { label: BARE_LABELS[route], ...r.bare[route], ofCeiling: r.bare[route].rps / r.ceiling.rps },
    ]),
  );
  return { ...r, bare, api, targets: list };
}

const ofBareTarget = (route: Route) => `${ROUTE_LABELS[route]} on PostgreSQL, of the bare handler`;

function rssTarget(backend: string, mib: number, limit: number): Target {
  return { name: `RSS idle on ${backend}`, figure: `${mib.toFixed(0)} MiB`, target: `< ${limit} MiB`, result: pass(mib < limit) };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n');
}

const num = (x: number, digits = 0) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The publisher's lines of the table (also printed alone by `npm run bench -- --only publisher`). */
export function renderPublisher(runs: PublisherRun[], claim: ClaimCpu, m: Record<string, unknown>, verdict: (name: string) => Target | undefined): string[] {
  const pubRows = runs.map((p) => {
    const target =
      p.workers >= 2 && p.slots === null ? verdict(`Publisher p99 lateness, ${p.workers} workers, ${p.threads.toLocaleString('en-US')} threads`) : undefined;
    const ge = p.complete ? '' : '≥ ';
    const perThread = (ms: number) => (p.published ? num(ms / p.published, 2) : '');
    return [
      `${p.workers} worker${p.workers > 1 ? 's' : ''}${p.slots ? `, ${p.slots} slots each` : ''}`,
      `${num(p.published)} / ${num(p.threads)}${p.failed ? ` (${p.failed} failed)` : ''}`,
      `${ge}${num(p.p50LatenessMs / 1000, 2)}`,
      `${ge}${num(p.p95LatenessMs / 1000, 2)}`,
      `${ge}${num(p.p99LatenessMs / 1000, 2)}`,
      `${p.complete ? '' : '> '}${num(p.totalMs / 1000, 1)}`,
      num(p.threadsPerSecond, 1),
      perThread(p.cpu.workersMs),
      perThread(p.cpu.postgresMs),
      perThread(p.cpu.fakeMs),
      target ? `p99 ${target.target} ${target.result}` : '',
    ];
  });
  return [
    `Publisher: ${num(runs[0]?.threads ?? 0)} one-post threads due within ${num(Number(m.publisherSpreadS))} s, 4 in 5 accounts on the fake Threads Graph API and 1 in 5 on the fake X API (each its own process) answering each call after ${String(m.publisherLatencyMs)} ms, skein worker processes on PostgreSQL; a run stops ${String(m.publisherGraceS)} s after the last due time.`,
    table(
      ['workers', 'published', 'p50 late s', 'p95 late s', 'p99 late s', 'total s', 'threads/s', 'CPU ms/thread: workers', 'PostgreSQL', 'fake API', 'target'],
      pubRows,
    ),
    "CPU: user + system time from /proc/PID/stat over the run (the worker processes summed; the bench database's PostgreSQL backends summed; the fakes' own processes), divided by the threads published.",
    claimLine(claim, verdict(CLAIM_TARGET(claim))),
  ];
}

function claimLine(claim: ClaimCpu, target: Target | undefined): string {
  const runs = claim.perClaimMs.map((ms) => num(ms, 2)).join(' / ');
  return (
    `Claim (bench/claim.ts): the spread claim of ${claim.limit} threads (${claim.claimed} taken) with ${num(claim.providers)} accounts, of a minute's threads ${num(claim.due.published)} published, ${num(claim.due.inFlight)} in flight and ${num(claim.due.waiting)} due and waiting, ` +
    `${num(claim.claims)} times in BEGIN … ROLLBACK on one connection, three runs: PostgreSQL CPU per claim ${runs} ms, median ${num(claimMs(claim), 2)} ` +
    `(BEGIN; ROLLBACK alone ${num(claim.emptyMs, 2)} ms; ${num(claim.plans.generic)} executions from the cached generic plan, ${num(claim.plans.custom)} planned anew); ` +
    `the bare SKIP LOCKED claim of the same state and writes (no spread) ${claim.bare.perClaimMs.map((ms) => num(ms, 2)).join(' / ')} ms, its SELECT … FOR UPDATE SKIP LOCKED alone ${claim.bare.lockOnlyMs.map((ms) => num(ms, 2)).join(' / ')} ms` +
    `${target ? `; target ${target.target} ${target.result}` : ''}.`
  );
}

export function render(r: Results, list: Target[]): string {
  const verdict = (name: string) => list.find((t) => t.name === name);
  const apiRows: string[][] = [
    ['Fastify hello-world (ceiling)', '—', num(r.ceiling.rps), num(r.ceiling.p50Ms, 2), num(r.ceiling.p99Ms, 2), '100%', '', '', ''],
  ];
  for (const route of Object.keys(BARE_ROUTES) as BareRoute[]) {
    const row = r.bare[route];
    apiRows.push([BARE_LABELS[route], 'PostgreSQL', num(row.rps), num(row.p50Ms, 2), num(row.p99Ms, 2), pct(row.rps / r.ceiling.rps), '', '100%', '']);
  }
  for (const backend of ['postgres', 'pglite'] as const) {
    for (const route of ROUTES) {
      const row = r.api[backend].rows[route];
      const target =
        backend === 'postgres'
          ? (verdict(`${ROUTE_LABELS[route]} on PostgreSQL, of hello-world`) ?? verdict(ofBareTarget(route)))
          : verdict(`${ROUTE_LABELS[route]} on PGlite, of PostgreSQL`);
      const ofPg = backend === 'pglite' ? pct(row.rps / r.api.postgres.rows[route].rps) : '';
      const bare = backend === 'postgres' && route in BARE_ROUTES ? pct(row.rps / r.bare[route as BareRoute].rps) : '';
      apiRows.push([
        `${ROUTE_LABELS[route]}${row.errors ? ` (${row.errors} errors!)` : ''}`,
        BACKEND_NAMES[backend],
        num(row.rps),
        num(row.p50Ms, 2),
        num(row.p99Ms, 2),
        pct(row.rps / r.ceiling.rps),
        ofPg,
        bare,
        target ? `${target.target} ${target.result}` : '',
      ]);
    }
  }
  const m = r.meta;
  const out = [
    `Skein bench (${m.mode}) — ${m.date}, ${m.cpus} CPUs, load average ${m.loadAverage} at start, Node ${m.node}`,
    `Load generator: ${m.loadGenerator}, in its own process; ${m.connections} connections, ${m.seconds} s per run, each figure the median of ${m.runs} run(s).`,
    `Rate limits out of the way: ${m.rateLimits} (the limiter still runs on every request; in Redis on PostgreSQL).`,
    `Servers: node bin/skein.js serve, SKEIN_PUBLISHER=0, LOG_LEVEL=warn; PGlite in a temp SKEIN_DATA_DIR, PostgreSQL in a fresh database + REDIS_URL.`,
    '',
    table(['API', 'database', 'req/s', 'p50 ms', 'p99 ms', 'of ceiling', 'of PostgreSQL', 'of bare', 'target'], apiRows),
    'bare: bench/bare-server.js, handlers doing only the database work of the row below them (no auth, limiter, validation or views); "of bare" is Skein\'s share of it.',
    '',
    ...renderPublisher(r.publisher, r.claim, m, verdict),
    '',
    table(
      ['resources', 'PostgreSQL + Redis', 'PGlite', 'target'],
      [
        [
          'RSS idle (after seeding), MiB',
          num(r.api.postgres.rssIdleMiB),
          num(r.api.pglite.rssIdleMiB),
          `< 150 ${verdict('RSS idle on PostgreSQL')?.result} / < 400 ${verdict('RSS idle on PGlite')?.result}`,
        ],
        ['RSS under load (peak), MiB', num(r.api.postgres.rssLoadMiB), num(r.api.pglite.rssLoadMiB), ''],
        [
          'import of 1,000 threads (JSON, 2 posts each), ms',
          r.api.postgres.importMs.map((x) => num(x)).join(', '),
          r.api.pglite.importMs.map((x) => num(x)).join(', '),
          `median < 5000 ${verdict('A 1,000-thread import on PostgreSQL')?.result} / ${verdict('A 1,000-thread import on PGlite')?.result}`,
        ],
        [
          `RSS during a ${(r.media.bytes / 1e6).toFixed(0)} MB video upload (before → peak), MiB`,
          '—',
          `${num(r.media.rssBeforeMiB)} → ${num(r.media.rssPeakMiB)} (+${num(r.media.rssGrowthMiB)}, ${num(r.media.seconds, 1)} s)`,
          `growth < 50 ${verdict(`RSS growth during a ${(r.media.bytes / 1e6).toFixed(0)} MB video upload`)?.result}`,
        ],
        [
          'restart on an existing embedded database, ms',
          '—',
          (r.api.pglite.restartMs ?? []).map((x) => num(x)).join(', '),
          `median < 2000 ${verdict('Restart on an existing embedded database, spawn → /readyz 200')?.result}`,
        ],
      ],
    ),
    '',
    table(
      ['media', 'in', 'out', 'median ms', 'runs ms', 'target'],
      [
        [
          '12 MP phone JPEG → Bluesky-ready',
          `${num(r.images.inputBytes)} bytes, 4000×3000`,
          `${num(r.images.outputBytes)} bytes, ${r.images.width}×${r.images.height}`,
          num(r.images.medianMs),
          r.images.timesMs.map((x) => num(x)).join(', '),
          `< 300 ${verdict('A 12 MP phone JPEG made Bluesky-ready (prepareImage)')?.result}`,
        ],
      ],
    ),
    '',
    table(
      ['target', 'figure', 'wanted', 'result'],
      list.map((t) => [t.name, t.figure, t.target, t.result]),
    ),
    `${list.filter((t) => t.result === 'PASS').length} of ${list.length} targets met (a miss fails nothing).`,
  ];
  return out.join('\n');
}
