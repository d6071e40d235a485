/**
 * Where a `skein serve` keeps its memory: starts it on a fresh data folder (the embedded
 * database) or, with --postgres, on a fresh PostgreSQL database and Redis, seeds it as
 * bench/api.ts does (the first start's owner account, `skein provider add`, 22 three-post
 * threads, each of the API rows' routes answered once), waits 1 s, and prints VmRSS with
 * /proc/PID/smaps summed by kind of mapping (glibc's thread arenas are the 64 MiB-aligned
 * anonymous ones, V8's heap pages the small ones, WebAssembly memory the one beside a
 * multi-GiB reservation) and the process's own view (process.memoryUsage() and V8's heap
 * spaces, asked for over SIGUSR2 by a preloaded data: module), then the same after a restart
 * on that database. Used for docs/benchmarks.md, "memjpeg" and "Idle RSS on PostgreSQL".
 *
 *   node --import tsx bench/rss-breakdown.ts [--postgres] [restarts]   (needs `npx tsc -p tsconfig.build.json`)
 */
import { readFileSync } from 'node:fs';
import { FakeGraphApi } from '../test/helpers/fakes/threads-graph-api.js';
import { apiClient, apiServerEnv, bannerKey, createDatabase, type Env, freePort, Proc, SKEIN_BIN, skeinCli, tempDir, waitReady } from './procs.js';

const MiB = 1024;

/** Preloaded into the server: SIGUSR2 prints one line, `memory-report {json}`, on stderr. */
const REPORTER = `import v8 from 'node:v8';
process.on('SIGUSR2', () => {
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { used: s.space_used_size, committed: s.physical_space_size }]));
  process.stderr.write('memory-report ' + JSON.stringify({ usage: process.memoryUsage(), spaces }) + '\\n');
});`;

/** BENCH_NODE_ARGS as bench/procs.ts reads it (e.g. "--heap-prof --heap-prof-dir=/tmp/prof"). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

function startServer(label: string, env: Env): Proc {
  return new Proc(label, process.execPath, [...NODE_ARGS, '--import', `data:text/javascript,${encodeURIComponent(REPORTER)}`, SKEIN_BIN, 'serve'], env);
}

interface Report {
  usage: NodeJS.MemoryUsage;
  spaces: Record<string, { used: number; committed: number }>;
}

/** The server's own view of its memory, asked for by SIGUSR2. */
async function report(server: Proc): Promise<Report> {
  const seen = server.output.split('memory-report ').length;
  server.child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    const parts = server.output.split('memory-report ');
    if (parts.length > seen) return JSON.parse(parts[parts.length - 1]!.split('\n')[0]!) as Report;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no memory report from the server');
}

async function breakdown(server: Proc, label: string): Promise<void> {
  const pid = server.pid;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  console.log(
    `${label}: VmRSS ${(kB('VmRSS') / MiB).toFixed(0)} MiB (anonymous ${(kB('RssAnon') / MiB).toFixed(0)}, files ${(kB('RssFile') / MiB).toFixed(0)})`,
  );
  const maps: { head: string; size: number; rss: number }[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) maps.push({ head: line.replace(/\s+/g, ' '), size: 0, rss: 0 });
    else if (line.startsWith('Size:')) maps[maps.length - 1]!.size = Number(/\d+/.exec(line)![0]);
    else if (line.startsWith('Rss:')) maps[maps.length - 1]!.rss = Number(/\d+/.exec(line)![0]);
  }
  const kinds: Record<string, number> = {};
  for (const m of maps) {
    const start = Number.parseInt(m.head.slice(0, m.head.indexOf('-')), 16);
    const kind = m.head.includes('/')
      ? 'files'
      : m.head.includes('[heap]')
        ? 'brk heap (main arena)'
        : m.head.includes('rwxp')
          ? 'code space'
          : start % (64 * MiB * MiB) === 0 && m.size <= 128 * MiB
            ? '64 MiB-aligned (thread arenas, WebAssembly memory)'
            : m.size < 4 * MiB
              ? 'small anonymous (V8 heap pages, …)'
              : 'other anonymous';
    kinds[kind] = (kinds[kind] ?? 0) + m.rss;
  }
  for (const [kind, rss] of Object.entries(kinds).sort((a, b) => b[1] - a[1])) console.log(`  ${(rss / MiB).toFixed(0).padStart(5)} MiB  ${kind}`);
  console.log('  largest mappings:');
  for (const m of maps.sort((a, b) => b.rss - a.rss).slice(0, 8))
    console.log(`  ${(m.rss / MiB).toFixed(1).padStart(6)} of ${(m.size / MiB).toFixed(0).padStart(5)} MiB  ${m.head.slice(0, 100)}`);
  const { usage, spaces } = await report(server);
  const mib = (bytes: number) => (bytes / MiB / MiB).toFixed(1);
  console.log(
    `  process.memoryUsage(): heap used ${mib(usage.heapUsed)} of ${mib(usage.heapTotal)} MiB, external ${mib(usage.external)} (array buffers ${mib(usage.arrayBuffers)})`,
  );
  console.log(
    `  V8 heap spaces, used/committed MiB: ${Object.entries(spaces)
      .filter(([, s]) => s.committed > 0)
      .map(([name, s]) => `${name.replace(/_space$/, '')} ${mib(s.used)}/${mib(s.committed)}`)
      .join(', ')}`,
  );
}

const postgres = process.argv.includes('--postgres');
const restarts = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 1);
const graph = await FakeGraphApi.start({});
const db = postgres ? await createDatabase('rss') : null;
const dir = tempDir('rss');
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env = apiServerEnv({ dataDir: dir.path, port, graphUrl: graph.url, ...(db ? { databaseUrl: db.url } : {}) });
let server: Proc | null = null;
try {
  const started = performance.now();
  server = startServer('skein serve (first start)', env);
  console.log(`${postgres ? 'PostgreSQL' : 'embedded database'}: first start ready in ${(await waitReady(server, baseUrl, started)).toFixed(0)} ms`);
  const api = apiClient(baseUrl, await bannerKey(server));
  const provider = await skeinCli(
    ['provider', 'add', '--email', 'owner@localhost', '--kind', 'THREADS', '--access-token', graph.createAccount('rss').accessToken],
    env,
  );
  const day = new Date(Date.now() + 2 * 86_400_000);
  day.setUTCHours(10, 0, 0, 0);
  const at = (ms: number) => new Date(ms).toISOString().slice(0, 19);
  const thread = (i: number, ms: number) =>
    api<{ threadId: string }>('POST', '/api/v1/posts', {
      providerId: provider.id,
      scheduleAt: at(ms),
      posts: [1, 2, 3].map((n) => ({ text: `thread ${i}: post ${n}` })),
    });
  for (let i = 0; i < 20; i++) await thread(i, day.getTime() + i * 120_000);
  const read = await thread(20, day.getTime() + 86_400_000);
  const tagged = await thread(21, day.getTime() + 86_400_000);
  // The routes the API rows load, each answered once (as bench/api.ts does before its rows).
  await api('GET', `/api/v1/posts/${read.threadId}`);
  await api('GET', `/api/v1/posts?from=${at(day.getTime())}&to=${at(day.getTime() + 3600_000)}`);
  await thread(22, day.getTime() + 30 * 86_400_000);
  await api('PUT', `/api/v1/posts/${tagged.threadId}/tags`, { tagNames: ['bench', 'weekly'] });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await breakdown(server, 'seeded, idle');
  await server.stop();
  server = null;
  for (let i = 0; i < restarts; i++) {
    const again = performance.now();
    server = startServer('skein serve (restart)', env);
    console.log(`restart ready in ${(await waitReady(server, baseUrl, again)).toFixed(0)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await breakdown(server, 'restarted, idle');
    await server.stop();
    server = null;
  }
} finally {
  await server?.stop();
  await graph.close();
  await db?.drop();
  dir.remove();
}
