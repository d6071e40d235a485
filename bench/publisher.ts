/**
 * The publisher row: N one-post threads fall due within `spreadMs` and `skein worker` processes
 * on PostgreSQL publish them to the fake Threads Graph API and, for one account in five, to the
 * fake X API; each fake answers every call after 50 ms and runs in a process of its own
 * (bench/graph-api-process.ts, bench/x-api-process.ts). Lateness (published_at −
 * scheduled_at) is read from the database afterwards; CPU time from /proc/PID/stat of the
 * workers, of the fake, and of the bench database's PostgreSQL backends.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { median } from './load.js';
import {
  apiClient,
  bannerKey,
  createDatabase,
  freePort,
  newSecret,
  OWNER_EMAIL,
  type Proc,
  pool,
  REDIS_URL,
  skeinCli,
  skeinEnv,
  startSkein,
  tempDir,
  waitReady,
} from './procs.js';

/**
 * Threads per account in the run: 10,000 threads in one minute come from an agency's hundreds of
 * accounts (500 here), not from a few accounts posting hundreds a minute. Each account's threads
 * go out one at a time in schedule order (SKEIN_PUBLISHER_PER_ACCOUNT=1), so this share sets
 * the per-account bound: 20 threads × 3–4 calls × 50 ms fit well inside the minute.
 */
const THREADS_PER_ACCOUNT = 20;
/** Every fifth account is an X account (the rest Threads): X's one call per post beside Threads' three or four. */
const X_EVERY = 5;
const DAY_MS = 86_400_000;

export interface PublisherOptions {
  threads: number;
  spreadMs: number;
  /** A run stops this long after the last thread fell due, published or not. */
  graceMs: number;
  /**
   * One run per entry: its worker processes and, for the scaling pair, the slots each has
   * (SKEIN_PUBLISHER_CONCURRENCY; the default otherwise).
   */
  runs: Array<{ workers: number; slots?: number }>;
  latencyMs: number;
  log: (line: string) => void;
  /**
   * Called once the accounts exist and before the first round, on the run's database: the scale
   * bench seeds an agency's years of threads over the accounts here (their threads are never due
   * in a round: past ones are published, the rest due from `historyNow` on).
   */
  history?: (databaseUrl: string, accountId: string, providerIds: string[]) => Promise<void>;
}

export interface PublisherRun {
  workers: number;
  /** SKEIN_PUBLISHER_CONCURRENCY set for this run (the scaling pair), or null: the default. */
  slots: number | null;
  threads: number;
  published: number;
  failed: number;
  /** Over all threads; one not published by the end counts as late until the end (a lower bound). */
  p50LatenessMs: number;
  p95LatenessMs: number;
  p99LatenessMs: number;
  /** CPU time (user + system) from the workers' start to the run's end, in ms: see RunCpu. */
  cpu: RunCpu;
  /** First due time → last thread published (or the end of the run when some were not). */
  totalMs: number;
  threadsPerSecond: number;
  complete: boolean;
}

export async function runPublisher(options: PublisherOptions): Promise<PublisherRun[]> {
  // The fake's clock moves a day ahead between runs, so every run starts with fresh 24 h quotas.
  // The provider rows share one network account (see below), so its 24 h quota is raised to fit a run.
  const fake = await FakeApiProcess.start('graph-api-process.ts', { latencyMs: options.latencyMs, postQuota: options.threads * 2 });
  // X's fake keeps its clock (see bench/x-api-process.ts): its quotas fit every run at once.
  const xFake = await FakeApiProcess.start('x-api-process.ts', { latencyMs: options.latencyMs, postQuota: options.threads * options.runs.length * 2 });
  const db = await createDatabase('publisher');
  const dir = tempDir('publisher');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = skeinEnv({
    SKEIN_DATA_DIR: dir.path,
    SKEIN_SECRET: newSecret(),
    DATABASE_URL: db.url,
    REDIS_URL,
    THREADS_API_URL: fake.url,
    X_API_URL: xFake.url,
    PORT: String(port),
  });
  const client = new pg.Client({ connectionString: db.url });
  let server: Proc | null = null;
  const workers: Proc[] = [];
  try {
    server = startSkein('skein serve (publisher seeding)', 'serve', { ...env, SKEIN_PUBLISHER: '0' });
    await waitReady(server, baseUrl, performance.now());
    const key = await bannerKey(server);
    const accounts = Math.ceil(options.threads / THREADS_PER_ACCOUNT);
    const xAccounts = Math.floor(accounts / X_EVERY);
    // One account per network through `skein provider add`; its row is copied in SQL for the
    // others (a CLI process per account would take minutes for 500). The copies share their
    // fake's one network account and its token; Skein schedules, bounds and counts each provider
    // row on its own.
    options.log(`publisher: ${accounts - xAccounts} Threads and ${xAccounts} X accounts (skein provider add, then copies of their rows)`);
    const account = await fake.createAccount('bench');
    const template = await skeinCli(['provider', 'add', '--email', OWNER_EMAIL, '--kind', 'THREADS', '--access-token', account.accessToken], env);
    const xAccount = await xFake.createAccount('benchx');
    const xTemplate = await skeinCli(
      [
        'provider',
        'add',
        '--email',
        OWNER_EMAIL,
        '--kind',
        'X',
        '--access-token',
        xAccount.accessToken,
        '--provider-user-id',
        xAccount.userId,
        '--username',
        'benchx',
      ],
      env,
    );
    await client.connect();
    const copiesOf = async (id: string, total: number): Promise<string[]> => {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO providers (id, account_id, team_id, kind, provider_user_id, username, status, access_token_enc, refresh_token_enc,
                                token_expires_at, service_url, session_enc, connected_at, updated_at)
         SELECT gen_random_uuid()::text, p.account_id, p.team_id, p.kind, p.provider_user_id, p.username || g, p.status, p.access_token_enc,
                p.refresh_token_enc, p.token_expires_at, p.service_url, p.session_enc, p.connected_at, p.updated_at
         FROM providers AS p, generate_series(1, $2::int - 1) AS g WHERE p.id = $1
         RETURNING id`,
        [id, total],
      );
      return [id, ...rows.map((r) => r.id)];
    };
    const threadsIds = await copiesOf(template.id as string, accounts - xAccounts);
    const xIds = xAccounts > 0 ? await copiesOf(xTemplate.id as string, xAccounts) : [];
    // Every X_EVERY-th account is an X one, so the round-robin order mixes the networks evenly.
    const providerIds = Array.from({ length: accounts }, (_, i) => ((i + 1) % X_EVERY === 0 && xIds.length ? xIds.shift()! : threadsIds.shift()!));
    const api = apiClient(baseUrl, key);
    if (options.history) {
      const { rows } = await client.query<{ account_id: string }>('SELECT account_id FROM providers WHERE id = $1', [template.id]);
      await options.history(db.url, rows[0]!.account_id, providerIds);
    }

    const runs: PublisherRun[] = [];
    for (const [round, { workers: count, slots }] of options.runs.entries()) {
      if (round > 0) await Promise.all([fake.advance(DAY_MS + 3600_000), xFake.advance(0)]);
      const ids = await threadsForRound(client, api, providerIds, options, round, count);
      // Each run leaves tens of thousands of dead row versions (every thread and post is updated
      // several times). A user's PostgreSQL has autovacuum on and clears them; this machine's
      // test server runs with it off (CI), and without this each run would start on the
      // previous runs' debris: PostgreSQL's CPU per thread rose run after run (3.4, 4.2, 6.4,
      // 6.3, 7.6 ms) and the later rows measured the bloat rather than the publisher.
      await client.query('VACUUM (ANALYZE)');
      const workerEnv = { ...env, LOG_LEVEL: 'info', ...(slots ? { SKEIN_PUBLISHER_CONCURRENCY: String(slots) } : {}) };
      for (let w = 0; w < count; w++) workers.push(startSkein(`skein worker ${w + 1}`, 'worker', workerEnv));
      await Promise.all(workers.map((w) => w.waitForOutput('publisher started', 60_000)));
      const cpu = new CpuMeter(
        client,
        workers.map((w) => w.pid),
        [fake.pid, xFake.pid],
      );
      await cpu.start();
      // The due times are set in one statement once the workers are up: spread evenly from t0.
      const t0 = new Date(Date.now() + 3000);
      await client.query(
        `UPDATE threads AS t SET scheduled_at = $1::timestamptz + (((n.i - 1) * $2::float8 / $3::float8) * interval '1 millisecond')
         FROM unnest($4::text[]) WITH ORDINALITY AS n(id, i) WHERE t.id = n.id`,
        [t0, options.spreadMs, options.threads, ids],
      );
      await client.query(`SELECT pg_notify('skein_schedule', '')`);
      const t1 = new Date(t0.getTime() + options.spreadMs);
      const end = t1.getTime() + options.graceMs;
      let done = 0;
      while (Date.now() < end) {
        await new Promise((r) => setTimeout(r, 500));
        // The round's threads not yet ended, through the due index (threads_due_idx: READY or
        // PUBLISHING by time; a history's are due after the round): by id over a million
        // threads the planner read the whole table, 2,600 pages a poll from this connection.
        const { rows } = await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM threads
            WHERE status IN ('READY', 'PUBLISHING') AND scheduled_at IS NOT NULL AND scheduled_at <= $2
              AND (approval_state IS NULL OR approval_state = 'APPROVED') AND id = ANY($1::text[])`,
          [ids, t1],
        );
        done = ids.length - Number(rows[0]!.n);
        await cpu.sample();
        if (done >= options.threads) break;
      }
      const stoppedAt = new Date();
      const used = await cpu.end();
      await Promise.all(workers.map((w) => w.stop()));
      workers.length = 0;
      runs.push({ ...(await measure(client, ids, t0, stoppedAt, count)), slots: slots ?? null, cpu: used });
      const last = runs[runs.length - 1]!;
      const { rows: byNetwork } = await client.query<{ kind: string; n: string }>(
        `SELECT p.kind, count(*) AS n FROM threads AS t JOIN providers AS p ON p.id = t.provider_id
         WHERE t.id = ANY($1::text[]) AND t.status = 'PUBLISHED' GROUP BY p.kind ORDER BY p.kind`,
        [ids],
      );
      options.log(
        `publisher: ${count} worker(s): ${last.published}/${last.threads} published (${byNetwork.map((r) => `${r.kind} ${r.n}`).join(', ')}), p99 lateness ${(last.p99LatenessMs / 1000).toFixed(1)} s, ${last.threadsPerSecond.toFixed(1)} threads/s; CPU ms workers ${used.workersMs}, PostgreSQL ${used.postgresMs}, fake ${used.fakeMs}`,
      );
      // Threads left over must not be published by the next round's workers.
      await client.query(`UPDATE threads SET scheduled_at = scheduled_at + interval '100 years' WHERE id = ANY($1::text[]) AND status <> 'PUBLISHED'`, [ids]);
    }
    return runs;
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await server?.stop();
    await client.end().catch(() => {});
    await fake.close();
    await xFake.close();
    await db.drop();
    dir.remove();
  }
}

/**
 * The round's threads, ordered round-robin over the accounts (so each account's posts are spread
 * in time). Threads no worker ever claimed in an earlier round are used again; the rest are
 * created through the API, due far ahead until the round sets their times.
 */
async function threadsForRound(
  client: pg.Client,
  api: ReturnType<typeof apiClient>,
  providerIds: string[],
  options: PublisherOptions,
  round: number,
  workers: number,
): Promise<string[]> {
  const perAccount = Math.ceil(options.threads / providerIds.length);
  const byProvider = new Map(providerIds.map((id) => [id, [] as string[]]));
  const { rows } = await client.query<{ id: string; provider_id: string }>(
    // Only the rounds' own parked threads (60 days ahead and more): a seeded history's READY threads are due within 30 days.
    `SELECT id, provider_id FROM threads WHERE status = 'READY' AND attempts = 0 AND scheduled_at > now() + interval '59 days' ORDER BY id`,
  );
  for (const row of rows) {
    const list = byProvider.get(row.provider_id);
    if (list && list.length < perAccount) list.push(row.id);
  }
  const missing = providerIds.flatMap((id) => Array.from({ length: perAccount - byProvider.get(id)!.length }, () => id));
  options.log(
    `publisher: ${workers} worker(s) next; ${perAccount * providerIds.length - missing.length} threads never claimed are used again, ${missing.length} created through the API`,
  );
  const parked = new Date(Date.now() + (60 + round) * DAY_MS).toISOString();
  await pool(missing, 16, async (providerId, i) => {
    const body = { providerId, scheduleAt: parked, posts: [{ text: `bench round ${round} thread ${i}` }] };
    byProvider.get(providerId)!.push((await api<{ threadId: string }>('POST', '/api/v1/posts', body)).threadId);
  });
  const ids: string[] = [];
  for (let k = 0; k < perAccount; k++) {
    for (const id of providerIds) {
      const thread = byProvider.get(id)![k];
      if (thread) ids.push(thread);
    }
  }
  return ids.slice(0, options.threads);
}

/** The round's threads (`ids`), read by id: a seeded history may hold threads at the same times. */
async function measure(client: pg.Client, ids: string[], t0: Date, stoppedAt: Date, workers: number): Promise<Omit<PublisherRun, 'cpu' | 'slots'>> {
  const threads = ids.length;
  const { rows } = await client.query<{ status: string; late_ms: number; published_ms: string | null }>(
    `SELECT status,
            EXTRACT(EPOCH FROM (coalesce(published_at, $2) - scheduled_at)) * 1000 AS late_ms,
            (EXTRACT(EPOCH FROM published_at) * 1000)::text AS published_ms
       FROM threads WHERE id = ANY($1::text[])`,
    [ids, stoppedAt],
  );
  const late = rows.map((r) => Math.max(0, Number(r.late_ms))).sort((a, b) => a - b);
  const published = rows.filter((r) => r.status === 'PUBLISHED');
  const failed = rows.filter((r) => r.status === 'FAILED').length;
  const complete = published.length + failed === threads;
  const lastPublished = Math.max(...published.map((r) => Number(r.published_ms)), t0.getTime());
  const totalMs = (complete ? lastPublished : stoppedAt.getTime()) - t0.getTime();
  const pct = (q: number) => (late.length ? late[Math.min(late.length - 1, Math.ceil(q * late.length) - 1)]! : 0);
  return {
    workers,
    threads,
    published: published.length,
    failed,
    p50LatenessMs: late.length ? median(late) : 0,
    p95LatenessMs: pct(0.95),
    p99LatenessMs: pct(0.99),
    totalMs,
    threadsPerSecond: published.length / (totalMs / 1000),
    complete,
  };
}

/** CPU time of one run, in ms (user + system, clock ticks of /proc/PID/stat). */
interface RunCpu {
  /** The `skein worker` processes, summed. */
  workersMs: number;
  /**
   * The bench database's PostgreSQL backends (pg_stat_activity.datname), summed: the workers'
   * connections, and the idle seeding server's; not the bench's own polling connection. A
   * backend that exits during the run counts up to its last sample (every 500 ms).
   */
  postgresMs: number;
  /** The fakes' processes (Graph API and X), summed. */
  fakeMs: number;
}

const TICK_MS = 10; // getconf CLK_TCK: 100 on Linux

/** utime + stime of a process in ms, null once it is gone. */
function cpuMs(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces, so split after its closing paren).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/**
 * Reads CPU time at the start of a run, during it and at its end: the workers and the fake by
 * pid, the database's backends by pid from pg_stat_activity (a backend first seen after the
 * start counts from its birth). PostgreSQL must run on this machine (its /proc).
 */
class CpuMeter {
  readonly #base = new Map<number, number>();
  readonly #last = new Map<number, number>();
  #ownBackend = 0;

  constructor(
    private readonly client: pg.Client,
    private readonly workerPids: number[],
    private readonly fakePids: number[],
  ) {}

  async start(): Promise<void> {
    this.#ownBackend = (await this.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    for (const pid of [...this.workerPids, ...this.fakePids, ...(await this.#backends())]) this.#base.set(pid, cpuMs(pid) ?? 0);
  }

  async sample(): Promise<void> {
    for (const pid of [...this.workerPids, ...this.fakePids, ...(await this.#backends())]) {
      const now = cpuMs(pid);
      if (now !== null) this.#last.set(pid, now);
    }
  }

  async end(): Promise<RunCpu> {
    const backends = new Set(await this.#backends());
    await this.sample();
    for (const pid of this.#last.keys()) if (!this.workerPids.includes(pid) && !this.fakePids.includes(pid)) backends.add(pid);
    const used = (pid: number) => Math.max(0, (this.#last.get(pid) ?? 0) - (this.#base.get(pid) ?? 0));
    const sum = (pids: Iterable<number>) => [...pids].reduce((total, pid) => total + used(pid), 0);
    return { workersMs: sum(this.workerPids), postgresMs: sum(backends), fakeMs: sum(this.fakePids) };
  }

  async #backends(): Promise<number[]> {
    const { rows } = await this.client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1', [
      this.#ownBackend,
    ]);
    return rows.map((r) => r.pid);
  }
}

/** A fake network in its own process (bench/graph-api-process.ts, bench/x-api-process.ts), driven over IPC. */
class FakeApiProcess {
  #nextId = 0;
  readonly #waiting = new Map<number, (result: unknown) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.on('message', (message: { id: number; result: unknown }) => {
      this.#waiting.get(message.id)?.(message.result);
      this.#waiting.delete(message.id);
    });
  }

  static async start(file: string, options: { latencyMs: number; postQuota: number }): Promise<FakeApiProcess> {
    const script = fileURLToPath(new URL(`./${file}`, import.meta.url));
    // BENCH_FAKE_CPU_PROF=DIR: each fake writes a CPU profile into DIR when it exits (what a fake's CPU went to).
    const profile = process.env.BENCH_FAKE_CPU_PROF;
    const child = fork(script, [JSON.stringify(options)], {
      execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('message', (message: { url: string }) => resolve(message.url));
      child.once('exit', (code) => reject(new Error(`the fake network process ${file} exited (${code}) before it listened`)));
    });
    return new FakeApiProcess(child, url);
  }

  get pid(): number {
    return this.child.pid!;
  }

  createAccount(name: string): Promise<{ userId: string; accessToken: string; refreshToken?: string | null }> {
    return this.#ask({ op: 'account', name }) as Promise<{ userId: string; accessToken: string }>;
  }

  async advance(ms: number): Promise<void> {
    await this.#ask({ op: 'advance', ms });
  }

  #ask(request: Record<string, unknown>): Promise<unknown> {
    const id = ++this.#nextId;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.child.send({ id, ...request });
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.disconnect();
    await exited;
  }
}
