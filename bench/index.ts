/**
 * npm run bench [-- --quick] [-- --scale] [-- --only PART] [-- --json FILE]
 *
 * One run, one table: the API of real `skein serve` processes on PGlite and on PostgreSQL + Redis
 * against a bare Fastify hello-world (the machine's ceiling), the publisher (`skein worker`
 * processes) against the fake Threads Graph API with 50 ms per call, RSS and restart time, and a
 * 500 MB video upload's RSS growth. The
 * load generator runs in its own process (wrk, else autocannon). The targets (docs/benchmarks.md)
 * are printed PASS or MISS; a miss fails nothing. Progress goes to stderr, the table to stdout.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type LoadOptions, runBackend, runBare, runHello } from './api.js';
import { runClaimCpu } from './claim.js';
import { runImages } from './images.js';
import { pickLoadTool } from './load.js';
import { runMediaUpload } from './media.js';
import { RATE_LIMITS, ROOT } from './procs.js';
import { runPublisher } from './publisher.js';
import { publisherTargets, render, renderPublisher, targets, toJson } from './report.js';
import { renderScale, runScale } from './scale.js';
import { renderBurst, runBurst } from './scale-burst.js';

const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, scale: { type: 'boolean' }, json: { type: 'string' }, only: { type: 'string' } },
  strict: true,
});
const ONLY = values.scale ? ['postgres', 'pglite', 'burst'] : ['publisher'];
if (values.only !== undefined && !ONLY.includes(values.only))
  throw new Error(`--only: one of ${ONLY.join(', ')}${values.scale ? ' with --scale' : ''} (got ${values.only})`);
const quick = values.quick === true;
const started = performance.now();
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** dist/ must be the compiled src/: build when it is missing or older than a source file. */
function ensureBuilt(): void {
  let built = 0;
  try {
    built = newestMtime(join(ROOT, 'dist'));
  } catch {
    // no dist yet
  }
  if (built >= newestMtime(join(ROOT, 'src'))) return;
  log('dist/ is missing or older than src/: npm run build');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

ensureBuilt();
const tool = pickLoadTool();
const load: LoadOptions = {
  tool,
  connections: 50,
  seconds: quick ? 3 : 8,
  runs: quick ? 1 : 3,
  warmupSeconds: quick ? 0 : 2,
  log,
};
const publisher = {
  threads: quick ? 1000 : 10_000,
  spreadMs: quick ? 6_000 : 60_000,
  graceMs: quick ? 4_000 : 30_000,
  // The default slots (SKEIN_PUBLISHER_CONCURRENCY, 64) let one worker keep up with this load, so
  // the scaling pair runs with 16 slots a worker, where one worker falls behind (docs/benchmarks.md).
  runs: [{ workers: 1 }, { workers: 2 }, { workers: 4 }, { workers: 1, slots: 16 }, { workers: 2, slots: 16 }],
  latencyMs: 50,
  log,
};
// The claim statement alone (bench/claim.ts): a few seconds.
const claimOptions = { claims: quick ? 100 : 400, log };
const meta = {
  mode: quick ? 'quick' : 'full',
  date: new Date().toISOString(),
  cpus: cpus().length,
  loadAverage: loadavg()[0]!.toFixed(2),
  node: process.version,
  loadGenerator: `${tool.version}${tool.name === 'wrk' ? ' (1 thread)' : ''}`,
  connections: load.connections,
  seconds: load.seconds,
  runs: load.runs,
  rateLimits: Object.entries(RATE_LIMITS)
    .map(([k, v]) => `${k}=${v}`)
    .join(', '),
  publisherSpreadS: publisher.spreadMs / 1000,
  publisherGraceS: publisher.graceMs / 1000,
  publisherLatencyMs: publisher.latencyMs,
};
log(`${meta.mode} run; load generator: ${meta.loadGenerator}`);

if (values.scale) {
  // An agency's years (bench/scale.ts): each API row on a small and a large database, in this run.
  const sizes = quick
    ? { postgres: { threads: 50_000, providers: 500, calendarAccounts: 20, calendarLoads: 5 }, pglite: { threads: 10_000, providers: 10 } }
    : { postgres: { threads: 1_000_000, providers: 500, calendarAccounts: 100, calendarLoads: 20 }, pglite: { threads: 100_000, providers: 10 } };
  // `--only postgres`, `pglite` or `burst`: one part of the scale run (its rows and targets only).
  const part = (name: string) => values.only === undefined || values.only === name;
  const results = [
    ...(part('postgres') ? [await runScale('postgres', sizes.postgres, load)] : []),
    ...(part('pglite') ? [await runScale('pglite', sizes.pglite, load)] : []),
  ];
  // The publisher's burst (the publisher row's threads and accounts) without and with the PostgreSQL size's history.
  const burst = part('burst')
    ? await runBurst(sizes.postgres.threads, {
        threads: publisher.threads,
        spreadMs: publisher.spreadMs,
        graceMs: publisher.graceMs,
        latencyMs: publisher.latencyMs,
        log,
      })
    : null;
  const seconds = Math.round((performance.now() - started) / 1000);
  process.stdout.write(
    `Skein bench, scale (${meta.mode}) — ${meta.date}, ${meta.cpus} CPUs, load average ${meta.loadAverage} at start\n${renderScale(results)}\n${burst ? renderBurst(burst).join('\n') : ''}\n\nTotal time: ${seconds} s.\n`,
  );
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ meta, scale: results, burst }, null, 2)}\n`);
  process.exit(0);
}

if (values.only === 'publisher') {
  // The publisher row alone (no API rows, no targets on them): what its own work needs measured.
  const claim = await runClaimCpu(claimOptions);
  const runs = await runPublisher(publisher);
  const list = publisherTargets(runs, claim);
  const verdict = (name: string) => list.find((t) => t.name === name);
  process.stdout.write(
    `${[`Skein bench, publisher only (${meta.mode}) — ${meta.date}, ${meta.cpus} CPUs, load average ${meta.loadAverage} at start`, ...renderPublisher(runs, claim, meta, verdict)].join('\n')}\n`,
  );
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ meta, claim, publisher: runs }, null, 2)}\n`);
  process.exit(0);
}

try {
  const ceiling = await runHello(load);
  const bare = await runBare(load);
  const postgres = await runBackend('postgres', load, 0);
  const pglite = await runBackend('pglite', load, quick ? 1 : 3);
  const claim = await runClaimCpu(claimOptions);
  const publisherRuns = await runPublisher(publisher);
  const images = await runImages({ runs: quick ? 5 : 15, log });
  const media = await runMediaUpload({ bytes: 500_000_000, log });
  const results = { meta: { ...meta, seconds_total: 0 }, ceiling, bare, api: { postgres, pglite }, claim, publisher: publisherRuns, images, media };
  results.meta.seconds_total = Math.round((performance.now() - started) / 1000);
  const list = targets(results);
  process.stdout.write(`${render(results, list)}\nTotal time: ${results.meta.seconds_total} s.\n`);
  if (values.json) {
    writeFileSync(values.json, `${JSON.stringify(toJson(results, list), null, 2)}\n`);
    log(`JSON written to ${values.json}`);
  }
} catch (err) {
  // Usually PostgreSQL or Redis not reachable (BENCH_PG_URL, BENCH_REDIS_URL) or a server that did not start.
  log(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
}
process.exit(0);
