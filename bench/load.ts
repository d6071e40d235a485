/**
 * The load generator, always in a process of its own: wrk when `which wrk` finds it (one thread,
 * a Lua script for headers, bodies and a JSON summary), else autocannon's CLI in a child process.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Proc, tempDir } from './procs.js';

/** Replaced by a number unique to the request in each body (autocannon: a unique id). */
export const UNIQUE = '[<id>]';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  /** Sent in turn (wrk); autocannon sends the first. */
  bodies?: string[];
}

export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Non-2xx/3xx answers, connection errors and timeouts: a run with any is suspect. */
  errors: number;
}

export interface LoadTool {
  name: 'wrk' | 'autocannon';
  version: string;
  run(spec: LoadSpec, connections: number, seconds: number): Promise<LoadResult>;
}

export function pickLoadTool(): LoadTool {
  const forced = process.env.BENCH_LOAD;
  if (forced !== 'autocannon') {
    const wrk = which('wrk');
    if (wrk) return wrkTool(wrk);
    if (forced === 'wrk') throw new Error('BENCH_LOAD=wrk but wrk is not installed (apt-get install -y wrk)');
  }
  return autocannonTool();
}

function which(cmd: string): string | null {
  try {
    return execFileSync('which', [cmd], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const scratch = tempDir('load');
process.once('exit', () => scratch.remove());
let scripts = 0;

function luaString(s: string): string {
  return `[==[${s}]==]`;
}

function wrkScript(spec: LoadSpec): string {
  const url = new URL(spec.url);
  const path = url.pathname + url.search;
  const headers = Object.entries(spec.headers)
    .map(([k, v]) => `wrk.headers[ ${luaString(k)} ] = ${luaString(v)}`)
    .join('\n');
  const bodies = (spec.bodies ?? []).map(luaString).join(',\n  ');
  return `
wrk.method = "${spec.method}"
${headers}
local bodies = {
  ${bodies}
}
local counter = 0
local path = ${luaString(path)}
request = function()
  counter = counter + 1
  if #bodies == 0 then return wrk.format(nil, path) end
  local body = (bodies[(counter % #bodies) + 1]:gsub("%[<id>%]", tostring(counter)))
  return wrk.format(nil, path, nil, body)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCHJSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;
}

function wrkTool(bin: string): LoadTool {
  let version = 'wrk';
  try {
    execFileSync(bin, ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    // wrk -v prints its version and exits 1
    const out = String((err as { stdout?: string }).stdout ?? '');
    version = out.split('\n')[0]?.split(' [')[0]?.trim() || 'wrk';
  }
  return {
    name: 'wrk',
    version,
    run: async (spec, connections, seconds) => {
      const file = join(scratch.path, `script-${++scripts}.lua`);
      writeFileSync(file, wrkScript(spec));
      const proc = new Proc('wrk', bin, ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', file, spec.url], {
        PATH: process.env.PATH ?? '',
      });
      const code = await proc.exited;
      const line = /BENCHJSON (\{.*\})/.exec(proc.output);
      if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${proc.output.slice(-1000)}`);
      const r = JSON.parse(line[1]!) as { requests: number; duration_us: number; p50_us: number; p99_us: number; errors: number };
      return { rps: r.requests / (r.duration_us / 1e6), p50Ms: r.p50_us / 1000, p99Ms: r.p99_us / 1000, requests: r.requests, errors: r.errors };
    },
  };
}

function autocannonTool(): LoadTool {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = process.env.BENCH_AUTOCANNON ?? require.resolve('autocannon/autocannon.js');
  } catch {
    throw new Error('neither wrk nor autocannon found: apt-get install -y wrk, or npm ci (autocannon is a devDependency)');
  }
  const pkg = require(join(entry, '..', 'package.json')) as { version: string };
  return {
    name: 'autocannon',
    version: `autocannon ${pkg.version}`,
    run: async (spec, connections, seconds) => {
      const args = [entry, '--json', '-c', String(connections), '-d', String(seconds), '-m', spec.method, '-t', '10'];
      for (const [k, v] of Object.entries(spec.headers)) args.push('-H', `${k}=${v}`);
      const body = spec.bodies?.[0];
      if (body !== undefined) {
        args.push('-b', body);
        if (body.includes(UNIQUE)) args.push('-I');
      }
      args.push(spec.url);
      const proc = new Proc('autocannon', process.execPath, args, { PATH: process.env.PATH ?? '' });
      const code = await proc.exited;
      const line = proc.output.split('\n').find((l) => l.startsWith('{"'));
      if (code !== 0 || !line) throw new Error(`autocannon failed (${code}): ${proc.output.slice(-1000)}`);
      const r = JSON.parse(line) as {
        requests: { total: number };
        duration: number;
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
        timeouts: number;
      };
      return {
        rps: r.requests.total / r.duration,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        requests: r.requests.total,
        errors: r.non2xx + r.errors + r.timeouts,
      };
    },
  };
}

/** Runs the same load `runs` times; each figure is the median of its runs (errors are summed). */
export async function medianRun(tool: LoadTool, spec: LoadSpec, connections: number, seconds: number, runs: number): Promise<LoadResult & { all: number[] }> {
  const results: LoadResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await tool.run(spec, connections, seconds));
  return medianOf(results);
}

/** Runs of the same load as one figure: each the median of the runs' (errors are summed). */
export function medianOf(results: LoadResult[]): LoadResult & { all: number[] } {
  return {
    rps: median(results.map((r) => r.rps)),
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
    requests: results.reduce((n, r) => n + r.requests, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    all: results.map((r) => r.rps),
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
