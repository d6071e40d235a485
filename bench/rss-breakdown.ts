/**
 * Where a `skein serve` on the embedded database keeps its memory: starts it on a fresh data
 * folder, seeds it as bench/api.ts does (the first start's owner account, `skein provider add`,
 * 22 three-post threads), waits 1 s, and prints VmRSS with /proc/PID/smaps summed by kind of
 * mapping (glibc's thread arenas are the 64 MiB-aligned anonymous ones, V8's heap pages the
 * small ones, WebAssembly memory the one beside a multi-GiB reservation), then the same after a
 * restart on that folder. Used for docs/benchmarks.md, "memjpeg".
 *
 *   node --import tsx bench/rss-breakdown.ts [restarts]   (needs `npx tsc -p tsconfig.build.json`)
 */
import { readFileSync } from 'node:fs';
import { FakeGraphApi } from '../test/helpers/fakes/threads-graph-api.js';
import { apiClient, apiServerEnv, bannerKey, freePort, type Proc, skeinCli, startSkein, tempDir, waitReady } from './procs.js';

const MiB = 1024;

function breakdown(pid: number, label: string): void {
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
}

const restarts = Number(process.argv[2] ?? 1);
const graph = await FakeGraphApi.start({});
const dir = tempDir('rss');
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env = apiServerEnv({ dataDir: dir.path, port, graphUrl: graph.url });
let server: Proc | null = null;
try {
  const started = performance.now();
  server = startSkein('skein serve (first start)', 'serve', env);
  console.log(`first start ready in ${(await waitReady(server, baseUrl, started)).toFixed(0)} ms`);
  const api = apiClient(baseUrl, await bannerKey(server));
  const provider = await skeinCli(
    ['provider', 'add', '--email', 'owner@localhost', '--kind', 'THREADS', '--access-token', graph.createAccount('rss').accessToken],
    env,
  );
  const day = new Date(Date.now() + 2 * 86_400_000);
  day.setUTCHours(10, 0, 0, 0);
  for (let i = 0; i < 22; i++) {
    const scheduleAt = new Date(day.getTime() + i * 120_000).toISOString().slice(0, 19);
    await api('POST', '/api/v1/posts', { providerId: provider.id, scheduleAt, posts: [1, 2, 3].map((n) => ({ text: `thread ${i}: post ${n}` })) });
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  breakdown(server.pid, 'seeded, idle');
  await server.stop();
  server = null;
  for (let i = 0; i < restarts; i++) {
    const again = performance.now();
    server = startSkein('skein serve (restart)', 'serve', env);
    console.log(`restart ready in ${(await waitReady(server, baseUrl, again)).toFixed(0)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    breakdown(server.pid, 'restarted, idle');
    await server.stop();
    server = null;
  }
} finally {
  await server?.stop();
  await graph.close();
  dir.remove();
}
