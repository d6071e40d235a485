/**
 * node --import tsx bench/cpu-per-create.ts [postgres|pglite|bare] [seconds]
 *
 * Where a Create Post's CPU goes: a Skein server (as `npm run bench` starts it) or the bare
 * server (bench/bare-server.js), loaded with the bench's Create request by wrk (50 connections),
 * three runs; each prints req/s and the CPU milliseconds per request of every process that used
 * any (/proc ticks: the server, PostgreSQL's backends summed, Redis, the kernel's workers), and of
 * each of the server's threads (with PGlite, the database thread apart from the main one). Unlike
 * req/s, CPU per request barely moves when other work shares the machine.
 *
 * TAGS=1 sends the Create with a tag, so it runs in a transaction (Create without tags, key or
 * queue is one statement outside any).
 *
 * SQL="…" runs a statement on the bench database after the server started (an experiment: a
 * trigger disabled, an index dropped); KEEP=1 keeps that database and prints its URL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { FakeGraphApi } from '../test/helpers/fakes/threads-graph-api.js';
import { type LoadSpec, pickLoadTool, UNIQUE } from './load.js';
import { apiServerEnv, bannerKey, createDatabase, freePort, OWNER_EMAIL, Proc, skeinCli, startSkein, tempDir, waitReady } from './procs.js';

const TICK_MS = 10;
/** The processes that do a Create's work (the kernel's workers and wrk aside: other work shares them). */
const OWN = ['server', 'postgres', 'postgres (shared)', 'redis-server'];
const backend = (process.argv[2] ?? 'postgres') as 'postgres' | 'pglite' | 'bare';
const seconds = Number(process.argv[3] ?? 8);

/**
 * CPU ticks (user + system) of every task in `dir` (/proc, or /proc/PID/task), keyed `name:id`.
 * PostgreSQL's backends are told apart by their database (other work may share the server): one
 * of `database`'s is named `postgres`, another database's `postgres (other)`, and the server's own
 * processes (WAL writer, checkpointer...) `postgres (shared)`.
 */
function ticks(dir: string, database?: string): Map<string, number> {
  const byTask = new Map<string, number>();
  for (const id of readdirSync(dir)) {
    if (!/^\d+$/.test(id)) continue;
    try {
      const stat = readFileSync(`${dir}/${id}/stat`, 'utf8');
      let name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (database && name.startsWith('postgres')) name = postgresRole(id, database);
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byTask.set(`${name}:${id}`, Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone meanwhile
    }
  }
  return byTask;
}

function postgresRole(pid: string, database: string): string {
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // gone meanwhile
  }
  // A backend's title: "postgres: 15/main: USER DATABASE HOST(PORT) STATE".
  const backend = /^postgres: (?:[^:]+: )?\S+ (\S+) \S+\(\d+\)/.exec(cmdline);
  if (!backend) return 'postgres (shared)';
  return backend[1] === database ? 'postgres' : 'postgres (other)';
}

/** ms per request between two readings, grouped by `groupOf`; groups under 0.02 ms left out. */
function perRequest(before: Map<string, number>, after: Map<string, number>, requests: number, groupOf: (key: string) => string) {
  const ms: Record<string, number> = {};
  for (const [key, now] of after) {
    const used = (now - (before.get(key) ?? 0)) * TICK_MS;
    if (used > 0) ms[groupOf(key)] = (ms[groupOf(key)] ?? 0) + used;
  }
  const total = Object.values(ms).reduce((a, b) => a + b, 0) / requests;
  const shown = Object.entries(ms)
    .map(([group, used]) => [group, used / requests] as const)
    .filter(([, each]) => each >= 0.02)
    .sort((a, b) => b[1] - a[1])
    .map(([group, each]) => `${group} ${each.toFixed(3)}`);
  const of = (group: string) => (ms[group] ?? 0) / requests;
  return { total, shown, of };
}

const tool = pickLoadTool();
const db = backend !== 'pglite' ? await createDatabase('cpu') : null;
const graph = await FakeGraphApi.start({});
const dir = tempDir(backend);
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
let server: Proc;
let spec: LoadSpec;
if (backend === 'bare') {
  server = new Proc('bare', process.execPath, ['bench/bare-server.js'], { PATH: process.env.PATH ?? '', PORT: String(port), DATABASE_URL: db!.url });
  await waitReady(server, baseUrl, performance.now());
  spec = { url: `${baseUrl}/write`, method: 'POST', headers: { 'content-type': 'application/json' }, bodies: ['{}'] };
} else {
  const env = apiServerEnv({ dataDir: dir.path, port, graphUrl: graph.url, ...(db ? { databaseUrl: db.url } : {}) });
  server = startSkein(`skein serve (${backend})`, 'serve', env);
  await waitReady(server, baseUrl, performance.now());
  const key = await bannerKey(server);
  const provider = await skeinCli(
    ['provider', 'add', '--email', OWNER_EMAIL, '--kind', 'THREADS', '--access-token', graph.createAccount('bench').accessToken],
    env,
  );
  const scheduleAt = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 19);
  const posts = ['first', 'second', 'third'].map((n) => ({ text: `bench ${UNIQUE}: ${n} post` }));
  spec = {
    url: `${baseUrl}/api/v1/posts`,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    bodies: [JSON.stringify({ providerId: provider.id, scheduleAt, posts, ...(process.env.TAGS === '1' ? { tags: ['bench'] } : {}) })],
  };
}
if (process.env.SQL && db) {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(process.env.SQL);
  await client.end();
}
try {
  await tool.run(spec, 50, 2);
  for (let run = 0; run < 3; run++) {
    const [before, threadsBefore] = [ticks('/proc', db?.name), ticks(`/proc/${server.pid}/task`)];
    const result = await tool.run(spec, 50, seconds);
    const [after, threadsAfter] = [ticks('/proc', db?.name), ticks(`/proc/${server.pid}/task`)];
    const processes = perRequest(before, after, result.requests, (key) => {
      const [name, id] = key.split(':') as [string, string];
      return Number(id) === server.pid ? 'server' : name;
    });
    const threads = perRequest(threadsBefore, threadsAfter, result.requests, (key) => `thread ${key.split(':')[1]}`);
    console.log(
      `${backend} Create: ${result.rps.toFixed(0)} req/s, ${result.errors} errors, p99 ${result.p99Ms.toFixed(0)} ms; CPU ms per request: ${processes.shown.join(', ')} (all ${processes.total.toFixed(3)}; server + its database's backends + PostgreSQL's shared processes + Redis ${OWN.reduce((sum, group) => sum + processes.of(group), 0).toFixed(3)}); server threads: ${threads.shown.join(', ')}`,
    );
  }
} finally {
  await server.stop();
  await graph.close();
  if (process.env.KEEP && db) console.log(`kept ${db.url}`);
  else await db?.drop();
  dir.remove();
}
