#!/usr/bin/env node
// Measures how fast the CLI and the server start (docs/configuration.md, "Start-up time and memory"), on the compiled build:
//
//   npm run build && node scripts/measure-cli.js [--runs 5] [--pg postgres://postgres@127.0.0.1:5432/skein_measure] [--skip-bootstrap]
//
// Prints the median (and every run) of the wall time of: `skein --help`; `skein key list` on the embedded database
// and on PostgreSQL; `npm start` on an existing embedded database until /readyz answers 200; the
// resident memory (VmRSS) of that server after 5 s idle; and one run of a bootstrap script of
// 38 CLI calls (10 accounts, each with a key and a provider, one team with members). Everything
// happens in a fresh temporary data folder; the PostgreSQL database is created and dropped.
// Wall time depends on what else the machine runs, so each CLI line also gives the command's own
// CPU time (user + system, all threads) and peak RSS, which depend far less on it; the load
// average is printed at the start and the end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, pg: { type: 'string' }, 'skip-bootstrap': { type: 'boolean' } },
});
const RUNS = Number(opts.runs);
const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'skein.js');
const dataDir = mkdtempSync(join(tmpdir(), 'skein-measure-'));
const baseEnv = { ...process.env, SKEIN_DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' };

// Loaded into each measured command: at exit it writes its own CPU time and peak RSS to fd 3.
const USAGE_HOOK = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.on('exit', () => { const u = process.resourceUsage(); writeSync(3, JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rss: u.maxRSS / 1024 })); });",
)}`;

function skein(args, env = baseEnv) {
  const started = performance.now();
  const res = spawnSync(process.execPath, ['--import', USAGE_HOOK, BIN, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const seconds = (performance.now() - started) / 1000;
  if (res.status !== 0) throw new Error(`skein ${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  const usage = JSON.parse(res.output[3]);
  return { seconds, stdout: res.stdout, cpu: usage.cpu, rss: usage.rss };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => x.toFixed(2);
const results = [];
function report(what, xs, unit = 's', target = null) {
  const line = `${what.padEnd(52)} median ${fmt(median(xs))} ${unit}${target ? ` (target < ${target} ${unit})` : ''}   runs: ${xs.map(fmt).join(' ')}`;
  results.push(line);
  console.log(line);
}
const repeat = (fn) => Array.from({ length: RUNS }, fn);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Runs a CLI command RUNS times; reports its wall time, CPU time and peak RSS. */
function measureCli(what, args, env, target) {
  const runs = repeat(() => skein(args, env));
  report(
    what,
    runs.map((r) => r.seconds),
    's',
    target,
  );
  const line = `${''.padEnd(52)} its CPU time median ${fmt(median(runs.map((r) => r.cpu)))} s, peak RSS median ${median(runs.map((r) => r.rss)).toFixed(0)} MiB`;
  results.push(line);
  console.log(line);
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The node process running `skein serve` under `npm start` (npm → sh → node). */
function serverPid(rootPid) {
  const children = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.shift();
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (cmd.some((a) => a.endsWith('bin/skein.js')) && cmd.includes('serve')) return pid;
    queue.push(...children(pid));
  }
  return null;
}

/** CPU seconds (user + system, all threads) a process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime, in clock ticks (USER_HZ = 100)
}

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** `npm start` until /readyz answers 200; then (optionally) 5 s idle and its VmRSS; then SIGTERM. */
async function startServer(idleRss) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: { ...baseEnv, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore', detached: true });
  let ready = null;
  while (ready === null) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.status === 200) ready = (performance.now() - started) / 1000;
    } catch {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const pid = serverPid(child.pid);
  const cpu = pid ? cpuSeconds(pid) : null;
  let rss = null;
  if (idleRss) {
    await new Promise((r) => setTimeout(r, 5000));
    rss = pid ? rssMiB(pid) : null;
  }
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
  return { ready, rss, cpu };
}

async function withPostgres(url, fn) {
  const { default: pg } = await import('pg');
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).href });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  try {
    return await fn();
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

/** 38 calls: 10 × (user create, key create, provider add), team create, 5 × team add-member, key list, provider list. */
function bootstrap(env, tag) {
  const started = performance.now();
  let calls = 0;
  const call = (args) => {
    skein(args, env);
    calls++;
  };
  for (let i = 0; i < 10; i++) {
    const email = `user${i}-${tag}@example.test`;
    call(['user', 'create', '--email', email, '--timezone', 'Europe/Berlin']);
    call(['key', 'create', '--email', email, '--name', 'bootstrap']);
    call([
      'provider',
      'add',
      '--email',
      email,
      // BLUESKY: a THREADS account is checked with Meta, which this measurement has no stand-in for.
      '--kind',
      'BLUESKY',
      '--provider-user-id',
      `id-${i}-${tag}`,
      '--username',
      `user${i}`,
      '--access-token',
      'token',
    ]);
  }
  const owner = `user0-${tag}@example.test`;
  const team = JSON.parse(skein(['team', 'create', '--email', owner, '--name', 'Crew', '--json'], env).stdout);
  calls++;
  for (let i = 1; i <= 5; i++) call(['team', 'add-member', '--team', team.id, '--email', `user${i}-${tag}@example.test`]);
  call(['key', 'list', '--email', owner]);
  call(['provider', 'list', '--email', owner]);
  return { seconds: (performance.now() - started) / 1000, calls };
}

try {
  console.log(`node ${process.version}, ${RUNS} runs each, load average ${load()}`);
  skein(['--help']); // warm the file cache
  measureCli('skein --help', ['--help'], baseEnv, 0.3);

  skein(['migrate']);
  skein(['user', 'create', '--email', 'measure@example.test', '--timezone', 'UTC']);
  skein(['key', 'create', '--email', 'measure@example.test']);
  measureCli('skein key list (embedded database)', ['key', 'list', '--email', 'measure@example.test'], baseEnv, 1.5);

  if (opts.pg) {
    const env = { ...baseEnv, DATABASE_URL: opts.pg };
    await withPostgres(opts.pg, async () => {
      skein(['migrate'], env);
      skein(['user', 'create', '--email', 'measure@example.test', '--timezone', 'UTC'], env);
      skein(['key', 'create', '--email', 'measure@example.test'], env);
      measureCli('skein key list (PostgreSQL)', ['key', 'list', '--email', 'measure@example.test'], env, 0.5);
      if (!opts['skip-bootstrap']) {
        const run = bootstrap(env, 'pg');
        report(`bootstrap script, ${run.calls} CLI calls (PostgreSQL)`, [run.seconds]);
      }
    });
  }

  await startServer(false); // first start: creates the owner; later starts find it
  const starts = [];
  for (let i = 0; i < RUNS; i++) starts.push(await startServer(i === RUNS - 1));
  report(
    'npm start until /readyz answers (embedded)',
    starts.map((s) => s.ready),
    's',
    2,
  );
  const cpus = starts.map((s) => s.cpu).filter((c) => c !== null);
  if (cpus.length) {
    results.push(`${''.padEnd(52)} the server's CPU time until ready, median ${fmt(median(cpus))} s`);
    console.log(results.at(-1));
  }
  const rss = starts.at(-1).rss;
  if (rss !== null) report('idle npm start RSS after 5 s (embedded)', [rss], 'MiB', 300);

  if (!opts['skip-bootstrap']) {
    const run = bootstrap(baseEnv, 'embedded');
    report(`bootstrap script, ${run.calls} CLI calls (embedded)`, [run.seconds]);
  }
  console.log(`load average at the end: ${load()}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
