/**
 * The publisher's burst on an agency's years (issue 43): bench/publisher.ts's run of N threads
 * falling due within the spread, 2 workers, twice in one bench run: on a database holding only
 * the accounts (the small one), then on one where the same accounts already have `history`
 * threads of the scale seed (bench/scale-seed.ts: published posts with analytics, follow-ups,
 * tags, webhook deliveries). The ratio of the two is what the history costs the publisher.
 */
import { sql } from 'kysely';
import { openPostgres } from '../src/db/database.js';
import { purgeExpired } from '../src/repos/retention.js';
import { type PublisherOptions, type PublisherRun, runPublisher } from './publisher.js';
import { seedAgency, seedWebhook, settle } from './scale-seed.js';

const HOUR_MS = 3_600_000;

export interface BurstResult {
  history: number;
  small: PublisherRun;
  large: PublisherRun;
}

type BurstOptions = Omit<PublisherOptions, 'runs' | 'history'>;

export async function runBurst(history: number, options: BurstOptions): Promise<BurstResult> {
  const runs = [{ workers: 2 }];
  options.log(`scale burst: ${options.threads} threads, 2 workers, on the accounts alone`);
  const [small] = await runPublisher({ ...options, runs });
  options.log(`scale burst: the same on ${history.toLocaleString('en')} threads of history`);
  const [large] = await runPublisher({
    ...options,
    runs,
    history: (url, accountId, providerIds) => seedHistory(url, accountId, providerIds, history, options.log),
  });
  return { history, small: small!, large: large! };
}

/**
 * The scale seed's threads over the run's accounts, as if "now" were three hours ahead: every
 * thread before it published (or failed), every one after it due later than the run ends, so
 * none falls due in a round. 12 tags as the scale rows have.
 */
async function seedHistory(url: string, accountId: string, providerIds: string[], threads: number, log: (line: string) => void): Promise<void> {
  const handle = openPostgres(url, 2);
  try {
    const started = performance.now();
    const db = handle.db;
    const now = new Date(Date.now() + 3 * HOUR_MS);
    const tags = await sql<{ id: string }>`
      INSERT INTO tags (id, scope, team_id, name, name_key, color, created_by, created_at, updated_at)
      SELECT 'bench-burst-tag-' || g, 'personal:' || ${accountId}, NULL, 'topic ' || g, 'topic ' || g, '#3366cc', ${accountId}, now(), now()
      FROM generate_series(1, 12) AS g RETURNING id`.execute(db);
    const webhookId = await seedWebhook(db, accountId, now);
    const plan = { threads, accountId, providerIds, tagIds: tags.rows.map((r) => r.id), webhookId, now };
    const seeded = (await seedAgency(db, plan, 'measured')) + (await seedAgency(db, plan, 'rest'));
    // The history's deliveries stay; the webhook no longer listens, so the rounds' own
    // publications queue no deliveries to an address never reached (the small run has none).
    await sql`UPDATE webhooks SET events = ARRAY['ping'] WHERE id = ${webhookId}`.execute(db);
    // The history as a running Skein keeps it: each publishing process deletes the webhook events
    // past SKEIN_RETAIN_WEBHOOK_DAYS (30 by default) every hour, so a user's database never holds
    // 700 days of them. Without this the round's two workers made that deletion of 960,000
    // events (with their deliveries) at their start, inside the measured round, and it was
    // counted as the publisher's CPU (docs/benchmarks.md, "The burst's PostgreSQL CPU").
    const purged = await purgeExpired(db, new Date(), { webhookDays: 30, emailDays: 30, idempotencyMs: 24 * HOUR_MS });
    await settle(db);
    log(
      `scale burst: ${purged.webhookEvents.toLocaleString('en')} webhook events past their 30 days deleted before the round, as the hourly retention would have`,
    );
    log(`scale burst: ${seeded.toLocaleString('en')} threads of history seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await handle.close();
  }
}

/** The burst's rows of the scale table: each figure on both databases and the targets. */
export function renderBurst(b: BurstResult): string[] {
  const perThread = (run: PublisherRun, ms: number) => (run.published ? ms / run.published : Number.NaN);
  const row = (label: string, small: number, large: number, unit: string, ok: boolean, wanted: string) =>
    `| ${label} | ${small.toFixed(2)}${unit} | ${large.toFixed(2)}${unit} | ${(large / small).toFixed(2)}× | ${wanted} | ${ok ? 'PASS' : 'MISS'} |`;
  const cpu = (key: 'workersMs' | 'postgresMs', label: string) => {
    const small = perThread(b.small, b.small.cpu[key]);
    const large = perThread(b.large, b.large.cpu[key]);
    return row(label, small, large, ' ms', large <= 1.3 * small, '≤ 1.30×');
  };
  const late = (run: PublisherRun) => run.p99LatenessMs / 1000;
  const published = (run: PublisherRun) => `${run.published.toLocaleString('en')} of ${run.threads.toLocaleString('en')}`;
  return [
    '',
    `#### Publisher burst: ${b.small.threads.toLocaleString('en')} threads due within the spread, 2 workers, without and with ${b.history.toLocaleString('en')} threads of history`,
    '',
    '| row | accounts alone | with the history | ratio | wanted | result |',
    '|:--|--:|--:|--:|--:|--:|',
    `| published | ${published(b.small)} | ${published(b.large)} | | all | ${b.large.complete && b.large.failed === 0 ? 'PASS' : 'MISS'} |`,
    row('p99 lateness', late(b.small), late(b.large), ' s', late(b.large) < 5, '< 5 s'),
    cpu('workersMs', 'worker CPU per thread'),
    cpu('postgresMs', 'PostgreSQL CPU per thread'),
  ];
}
