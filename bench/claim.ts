/**
 * PostgreSQL CPU per claim, judged against the bare SKIP LOCKED claim of the same state in the same
 * run (issue 43: ≤ 1.5×; issue 26's fixed 1 ms followed the day's machine). The publisher row's runs give
 * PostgreSQL's CPU per published thread, which mixes the claim with the posts' writes and the
 * completion; this measures the claim statement alone, in a state of its own made in SQL (so the
 * figure does not depend on what the runs left behind, and takes seconds):
 *
 * - 500 THREADS providers of one account; 10,000 one-post threads, 20 per provider, due one every
 *   6 ms over a minute in round-robin order over the providers (as the publisher row schedules
 *   them), and 10,000 published the day before (a table in use);
 * - the claim lands in the middle of that minute: the first 4,744 due are PUBLISHED, the next 128
 *   PUBLISHING under another worker's live lease (two workers' 64 slots), 128 due and waiting,
 *   and 5,000 not yet due.
 *
 * The claim is Skein's own (`threadQueue.claim`, spread with SKEIN_PUBLISHER_PER_ACCOUNT=1 and a
 * round-robin history of 256 providers, 16 threads: the refill a worker of 64 slots asks for), on
 * the connections Skein's publisher claims on (DbHandle.claimDb: named, the cached generic plan), each run in
 * `BEGIN … ROLLBACK` on one connection so every claim takes the same 16 threads of the same
 * state. CPU is that backend's utime + stime from /proc/PID/stat (PostgreSQL must run on this
 * machine), over `claims` claims after a warm-up, three times; an empty `BEGIN; ROLLBACK` loop is
 * measured the same way and reported beside it (the round trips' floor, included in the figure).
 *
 * BENCH_CLAIM_SQL="…" runs a statement after the migrations (an experiment: an index dropped, the change
 * triggers disabled; docs/benchmarks.md, "Claim CPU: the floor"); only for such experiments.
 */
import { readFileSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { openPostgres } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import type { Database } from '../src/db/schema/index.js';
import { newId } from '../src/lib/ids.js';
import type { Lease } from '../src/repos/queue/leased-queue.js';
import { type ClaimSpread, threadQueue } from '../src/repos/thread-queue.js';
import { createDatabase } from './procs.js';

const PROVIDERS = 500;
const THREADS_PER_PROVIDER = 20;
const SPACING_MS = 6;
const PUBLISHED = 4_744;
const IN_FLIGHT = 128;
const DUE_WAITING = 128;
const SERVED = 256;
/** The threads a claim asks for: a worker of 64 slots refills a quarter of them at a time. */
const CLAIM_LIMIT = 16;
const LEASE_MS = 5 * 60_000;
const WARMUP = 30;

export interface ClaimCpu {
  providers: number;
  /** Threads of the minute due at the claim's `now`: published, in flight (another worker's live lease) and waiting. */
  due: { published: number; inFlight: number; waiting: number };
  limit: number;
  /** Threads each claim took (the same every time: the claims roll back). */
  claimed: number;
  claims: number;
  /** CPU ms of the backend per claim (with its BEGIN and ROLLBACK), one figure per run. */
  perClaimMs: number[];
  /** CPU ms of the backend per empty BEGIN; ROLLBACK. */
  emptyMs: number;
  /** How PostgreSQL ran the named claim statement: planned anew each time (custom) or from its cached generic plan. */
  plans: { generic: number; custom: number };
  /**
   * The textbook claim of the same state, per run beside Skein's, on a connection of its own (a
   * named statement, as Skein's): the first `limit` due threads in due order locked with
   * `FOR UPDATE SKIP LOCKED`, marked held under the lease and their posts marked, in one
   * statement: the same writes without Skein's per-account spread, version or `updated_at`.
   * `lockOnlyMs` is its SELECT alone.
   */
  bare: { perClaimMs: number[]; lockOnlyMs: number[]; claimed: number };
}

/** The due threads of the state, as the threads' due index reads them (repos/queue/tables.ts THREADS). */
const BARE_DUE = `SELECT id FROM threads
  WHERE status IN ('READY', 'PUBLISHING') AND scheduled_at IS NOT NULL AND scheduled_at <= $1
    AND (approval_state IS NULL OR approval_state = 'APPROVED')
    AND ((status = 'READY' AND (next_attempt_at IS NULL OR next_attempt_at <= $1)) OR (status = 'PUBLISHING' AND locked_until < $1))
  ORDER BY scheduled_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`;
const BARE_CLAIM = `WITH due AS (${BARE_DUE}),
  claimed AS (
    UPDATE threads AS t SET status = 'PUBLISHING', locked_by = $3, locked_until = $4, attempts = t.attempts + 1
    FROM due WHERE t.id = due.id RETURNING t.id),
  marked AS (UPDATE posts AS p SET status = 'PUBLISHING' FROM claimed WHERE p.thread_id = claimed.id AND p.status IN ('READY', 'PUBLISHING'))
  SELECT id FROM claimed`;

const TICK_MS = 10; // getconf CLK_TCK: 100 on Linux

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

export async function runClaimCpu(options: { claims: number; log: (line: string) => void }): Promise<ClaimCpu> {
  const database = await createDatabase('claim');
  const handle = openPostgres(database.url, 1);
  try {
    await migrateToLatest(handle.db);
    if (process.env.BENCH_CLAIM_SQL) {
      options.log(`claim: experiment: ${process.env.BENCH_CLAIM_SQL}`);
      await sql.raw(process.env.BENCH_CLAIM_SQL).execute(handle.db);
    }
    options.log(`claim: seeding ${PROVIDERS} providers and ${2 * PROVIDERS * THREADS_PER_PROVIDER} threads in SQL`);
    const now = new Date();
    await seed(handle.db, now);
    const served = new Map<string, number>();
    // The providers of the last SERVED threads claimed before the due ones: this worker's round so far.
    for (let k = 0; k < SERVED; k++) served.set(providerId((PUBLISHED + IN_FLIGHT - SERVED + k) % PROVIDERS), k + 1);
    const lease = { workerId: 'bench-claim', now, until: new Date(now.getTime() + LEASE_MS) };
    const spread = { perAccount: 1, lastServed: served };
    const measured = await measureClaim(handle.claimDb!, lease, spread, options.claims);
    const bare = await runBareClaims(database.url, lease, options.claims, () => sql`VACUUM threads, posts`.execute(handle.db));
    const { claimed, perClaimMs, emptyMs, plans } = measured;
    options.log(
      `claim: ${claimed} threads a claim, PostgreSQL CPU per claim ${perClaimMs.map((ms) => ms.toFixed(3)).join(', ')} ms (BEGIN; ROLLBACK alone ${emptyMs.toFixed(3)} ms); plans: ${plans.generic} generic, ${plans.custom} custom`,
    );
    options.log(
      `claim: bare SKIP LOCKED claim (${bare.claimed} threads) ${bare.perClaimMs.map((ms) => ms.toFixed(3)).join(', ')} ms, its SELECT alone ${bare.lockOnlyMs.map((ms) => ms.toFixed(3)).join(', ')} ms`,
    );
    return {
      providers: PROVIDERS,
      due: { published: PUBLISHED, inFlight: IN_FLIGHT, waiting: DUE_WAITING },
      limit: CLAIM_LIMIT,
      claimed,
      claims: options.claims,
      perClaimMs,
      emptyMs,
      plans,
      bare,
    };
  } finally {
    await handle.close();
    await database.drop();
  }
}

/**
 * Skein's claim of CLAIM_LIMIT threads at `lease.now`, `claims` times in BEGIN … ROLLBACK on one
 * connection after a warm-up, `runs` runs (each after a VACUUM: the rolled-back claims leave dead
 * row versions): that backend's CPU per claim, and per empty BEGIN; ROLLBACK.
 */
export async function measureClaim(db: Kysely<Database>, lease: Lease, spread: ClaimSpread, claims: number, runs = 3) {
  return db.connection().execute(async (conn) => {
    const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(conn)).rows[0]!.pid;
    let claimed = 0;
    const claim = async () => {
      await sql`BEGIN`.execute(conn);
      claimed = (await threadQueue.claim(conn, lease, CLAIM_LIMIT, spread)).rows.length;
      await sql`ROLLBACK`.execute(conn);
    };
    const loop = async (step: () => Promise<void>, n: number) => {
      const before = cpuMs(pid);
      for (let i = 0; i < n; i++) await step();
      return (cpuMs(pid) - before) / n;
    };
    await loop(claim, WARMUP);
    const perClaimMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      await sql`VACUUM threads, posts`.execute(conn);
      perClaimMs.push(await loop(claim, claims));
    }
    const plans = (
      await sql<{ generic: number; custom: number }>`
        SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE statement LIKE '%WITH due AS%'`.execute(conn)
    ).rows[0] ?? { generic: 0, custom: 0 };
    const emptyMs = await loop(async () => {
      await sql`BEGIN`.execute(conn);
      await sql`ROLLBACK`.execute(conn);
    }, claims);
    return { claimed, perClaimMs, emptyMs, plans };
  });
}

/** The bare claim and its SELECT alone, each in BEGIN … ROLLBACK, measured as Skein's claim is. */
async function runBareClaims(url: string, lease: Lease, claims: number, vacuum: () => Promise<unknown>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    let claimed = 0;
    const once = (name: string, text: string, values: unknown[]) => async () => {
      await client.query('BEGIN');
      claimed = (await client.query({ name, text, values })).rowCount ?? 0;
      await client.query('ROLLBACK');
    };
    const claim = once('bare-claim', BARE_CLAIM, [lease.now, CLAIM_LIMIT, lease.workerId, lease.until]);
    const lockOnly = once('bare-lock', BARE_DUE, [lease.now, CLAIM_LIMIT]);
    const loop = async (step: () => Promise<void>, n: number) => {
      const before = cpuMs(pid);
      for (let i = 0; i < n; i++) await step();
      return (cpuMs(pid) - before) / n;
    };
    await loop(claim, WARMUP);
    await loop(lockOnly, WARMUP);
    const perClaimMs: number[] = [];
    const lockOnlyMs: number[] = [];
    for (let run = 0; run < 3; run++) {
      await vacuum();
      perClaimMs.push(await loop(claim, claims));
      lockOnlyMs.push(await loop(lockOnly, claims));
    }
    await claim();
    return { perClaimMs, lockOnlyMs, claimed };
  } finally {
    await client.end();
  }
}

const providerId = (n: number) => `bench-claim-provider-${String(n).padStart(3, '0')}`;

/** The state described at the top, committed, vacuumed and analysed. */
async function seed(db: ReturnType<typeof openPostgres>['db'], now: Date): Promise<void> {
  await sql`INSERT INTO accounts (id, email, timezone) VALUES ('bench-claim', 'claim@bench.test', 'UTC')`.execute(db);
  await sql`
    INSERT INTO providers (id, account_id, kind, provider_user_id, username, status, access_token_enc)
    SELECT 'bench-claim-provider-' || lpad(g::text, 3, '0'), 'bench-claim', 'THREADS', 'user-' || g, 'bench' || g, 'ACTIVE', 'token'
    FROM generate_series(0, ${PROVIDERS - 1}::int) AS g`.execute(db);
  const total = PROVIDERS * THREADS_PER_PROVIDER;
  // Half a spacing off, so no thread is due exactly now.
  const start = now.getTime() - (PUBLISHED + IN_FLIGHT + DUE_WAITING) * SPACING_MS + SPACING_MS / 2;
  const rounds = [
    // Yesterday's minute, published.
    { from: start - 86_400_000, first: () => 'PUBLISHED' as const },
    // This minute: published, in flight, due and waiting, not yet due.
    {
      from: start,
      first: (i: number) => (i < PUBLISHED ? 'PUBLISHED' : i < PUBLISHED + IN_FLIGHT ? 'PUBLISHING' : 'READY'),
    },
  ];
  for (const round of rounds) {
    const ids = Array.from({ length: total }, () => newId(round.from));
    const statuses = ids.map((_, i) => round.first(i));
    await sql`
      INSERT INTO threads (id, account_id, provider_id, status, scheduled_at, attempts, locked_by, locked_until, published_at, created_at, updated_at)
      SELECT t.id, 'bench-claim', 'bench-claim-provider-' || lpad(((t.i - 1) % ${PROVIDERS}::int)::text, 3, '0'), t.status,
             ${new Date(round.from)}::timestamptz + (t.i - 1) * interval '${sql.raw(String(SPACING_MS))} milliseconds',
             CASE WHEN t.status = 'READY' THEN 0 ELSE 1 END,
             CASE WHEN t.status = 'PUBLISHING' THEN 'bench-other-worker' END,
             CASE WHEN t.status = 'PUBLISHING' THEN ${new Date(now.getTime() + LEASE_MS)}::timestamptz END,
             CASE WHEN t.status = 'PUBLISHED' THEN ${new Date(round.from)}::timestamptz + (t.i - 1) * interval '${sql.raw(String(SPACING_MS))} milliseconds' + interval '500 milliseconds' END,
             ${now}, ${now}
      FROM unnest(${ids}::text[], ${statuses}::text[]) WITH ORDINALITY AS t (id, status, i)`.execute(db);
    const postIds = ids.map(() => newId(round.from));
    await sql`
      INSERT INTO posts (id, thread_id, post_order, content, status, network_post_id, published_at, created_at, updated_at)
      SELECT p.id, t.id, 0, 'bench claim post', t.status, CASE WHEN t.status = 'PUBLISHED' THEN 'network-' || t.id END, t.published_at, ${now}, ${now}
      FROM unnest(${postIds}::text[], ${ids}::text[]) AS p (id, thread_id) JOIN threads AS t ON t.id = p.thread_id`.execute(db);
  }
  for (const table of ['providers', 'threads', 'posts']) await sql`VACUUM ANALYZE ${sql.raw(table)}`.execute(db);
}
