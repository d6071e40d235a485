import type { Config } from './config/config.js';
import type { Secrets } from './config/secrets.js';
import { type Db, type DbHandle, type DbKind, openPostgres, pgliteHandle } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { type EmbeddedStart, startEmbedded } from './db/pglite/embedded-start.js';
import { PgKeyChangeSignal } from './db/postgres/key-change-signal.js';
import { PgNotifier } from './db/postgres/notifier.js';
import { PgScheduleSignal } from './db/postgres/schedule-signal.js';
import { ANY_THREAD, PgThreadChangeSignal } from './db/postgres/thread-change-signal.js';
import type { AccountRow } from './db/schema/index.js';
import { ApiKeyCache } from './lib/api-key-cache.js';
import type { Clock } from './lib/clock.js';
import { shiftedClock, systemClock } from './lib/clock.js';
import { SecretBox } from './lib/crypto.js';
import { LocalKeyChangeSignal } from './lib/key-change-signal.js';
import { createLogger, type Logger } from './lib/logger.js';
import { createNameResolver } from './lib/name-resolver.js';
import { MemoryRateLimitStore } from './lib/rate-limit/memory-store.js';
import { RedisRateLimitStore } from './lib/rate-limit/redis-store.js';
import type { RateLimitStore } from './lib/rate-limit/store.js';
import { LocalScheduleSignal, type ScheduleSignal } from './lib/schedule-signal.js';
import { PgliteThreadChangeSignal, THREADS_CHANNEL } from './lib/thread-change-signal.js';
import { ThreadViewCache } from './lib/thread-view-cache.js';
import type { LookupAll } from './lib/webhook-http.js';
import { openMediaStorage } from './media/open-storage.js';
import type { MediaStorage } from './media/storage.js';
import { createMetrics } from './metrics/create.js';
import type { Metrics } from './metrics/metrics.js';
import type { NetworkClients } from './networks/clients.js';
import { touchApiKeys } from './repos/api-keys.js';
import type { ThreadDays } from './services/threads/thread-days.js';
import type { ThreadList } from './services/threads/thread-list.js';
import type { ThreadView } from './services/threads/thread-views.js';
import type { DraftList } from './services/threads/threads.js';

/** Everything a request handler, the publisher or a CLI command needs, built once at start. */
export interface AppContext {
  config: Config;
  db: Db;
  /** Where the publisher's queues claim due rows: on PostgreSQL connections of their own (DbHandle.claimDb), else `db`. */
  claimDb: Db;
  dbKind: DbKind;
  clock: Clock;
  logger: Logger;
  secrets: SecretBox;
  threadsAppSecret: string | null;
  /** The network apps' secrets (X_CLIENT_SECRET, LINKEDIN_CLIENT_SECRET), kept out of the loggable config. */
  appSecrets: { x: string | null; linkedin: string | null };
  /** SKEIN_SMTP_URL: where email notifications are sent; null: email is off. */
  smtpUrl: string | null;
  rateLimits: RateLimitStore;
  /** Fired when a thread becomes due sooner (created, rescheduled, retried): wakes the publisher. */
  scheduleSignal: ScheduleSignal;
  /** Authentication without a round trip: cleared on every instance when keys or accounts change. */
  apiKeys: ApiKeyCache<AccountRow>;
  /** Get Thread's, List Posts' and List Drafts' answers, dropped on every instance when the database says a thread changed. */
  threadViews: ThreadViewCache<{ thread: ThreadView; version: number }, ThreadList | DraftList | ThreadDays>;
  /** This context's Prometheus registry and the publisher's liveness (served when SKEIN_METRICS_PORT is set). */
  metrics: Metrics;
  /** Name resolution for the URLs users give (webhooks): every address of a host. Tests replace it. */
  dnsLookup: LookupAll;
  /** Where uploads' bytes live (SKEIN_DATA_DIR/media, or the S3 bucket): shared by every instance with S3. */
  media: MediaStorage;
  /**
   * The social-network clients (Threads, Bluesky), built on first use and then shared: a
   * command that never calls a network does not load their SDKs.
   */
  network(): Promise<NetworkClients>;
  close(): Promise<void>;
}

export interface ContextOverrides {
  db?: DbHandle;
  clock?: Clock;
  logger?: Logger;
  rateLimits?: RateLimitStore;
  /** Fakes for some network clients (the others are built as usual). */
  network?: Partial<NetworkClients>;
  /** Name resolution for webhook URLs (a test makes a name resolve elsewhere at send time). */
  dnsLookup?: LookupAll;
  /** The media storage (a test's own folder or bucket); the configured one otherwise. */
  media?: MediaStorage;
  /** Skip migrations (the test template is migrated already). */
  skipMigrations?: boolean;
  /** The embedded database's lock and thread, started already (`skein serve`: embedded-start.ts). */
  embedded?: Promise<EmbeddedStart>;
}

export async function createContext(config: Config, secrets: Secrets, overrides: ContextOverrides = {}): Promise<AppContext> {
  const logger = overrides.logger ?? createLogger(config.logLevel, undefined, config.logFormat);
  const closers: Array<() => Promise<void> | void> = [];
  try {
    const dbHandle = overrides.db ?? (await openConfiguredDb(config, closers, logger, overrides.embedded));
    if (!overrides.db) closers.push(() => dbHandle.close());
    if (!overrides.skipMigrations) await migrateToLatest(dbHandle.db);

    // PostgreSQL: this process's NOTIFYs, sent after the commits they announce (db/postgres/notifier.ts).
    const notifier = dbHandle.url ? new PgNotifier(dbHandle.url, logger, { [THREADS_CHANNEL]: ANY_THREAD }) : null;
    if (notifier) closers.push(() => notifier.close());

    const scheduleSignal: ScheduleSignal = dbHandle.url && notifier ? new PgScheduleSignal(dbHandle.url, notifier, logger) : new LocalScheduleSignal();
    closers.push(() => scheduleSignal.close());

    const keySignal = dbHandle.url ? new PgKeyChangeSignal(dbHandle.url, dbHandle.db, logger) : new LocalKeyChangeSignal();
    const apiKeys = new ApiKeyCache<AccountRow>(
      keySignal,
      (uses) => touchApiKeys(dbHandle.db, uses),
      (err) => logger.warn({ err }, 'could not record when API keys were last used'),
    );
    closers.push(() => apiKeys.close());

    const pgThreadSignal = dbHandle.url && notifier ? new PgThreadChangeSignal(dbHandle.url, logger, notifier) : null;
    // This process's own writes on PostgreSQL: heard at commit, then announced to the others.
    if (pgThreadSignal) dbHandle.onThreadsChanged?.((ids) => pgThreadSignal.changedHere(ids));
    const threadSignal = pgThreadSignal ?? (await PgliteThreadChangeSignal.open(dbHandle.listen, logger));
    const threadViews = new ThreadViewCache<{ thread: ThreadView; version: number }, ThreadList | DraftList | ThreadDays>(threadSignal);
    closers.push(() => threadViews.close());

    const rateLimits = overrides.rateLimits ?? (config.redisUrl ? new RedisRateLimitStore(config.redisUrl, 'skein:ratelimit:') : new MemoryRateLimitStore());
    if (!overrides.rateLimits) closers.push(() => rateLimits.close());

    const media = overrides.media ?? (await openMediaStorage(config.mediaStorage));
    if (!overrides.media) closers.push(() => media.close());

    let network: Promise<NetworkClients> | undefined;
    const clock = overrides.clock ?? (config.clockStart ? shiftedClock(config.clockStart) : systemClock);
    if (!overrides.clock && config.clockStart)
      logger.warn({ clockStart: config.clockStart.toISOString() }, 'SKEIN_CLOCK_START: the clock reads another time than the system');
    const metrics = await createMetrics(dbHandle.db, clock, { enabled: config.metrics !== null, pollMs: config.publisher.pollMs });
    const ctx: AppContext = {
      config,
      db: dbHandle.db,
      claimDb: dbHandle.claimDb ?? dbHandle.db,
      dbKind: dbHandle.kind,
      clock,
      logger,
      secrets: new SecretBox(secrets.skeinSecret),
      threadsAppSecret: secrets.threadsAppSecret,
      appSecrets: { x: secrets.xClientSecret ?? null, linkedin: secrets.linkedinClientSecret ?? null },
      smtpUrl: secrets.smtpUrl ?? null,
      rateLimits,
      scheduleSignal,
      apiKeys,
      threadViews,
      metrics,
      dnsLookup: overrides.dnsLookup ?? ownResolver(closers),
      media,
      network: () => {
        network ??= import('./networks/clients.js').then((m) => ({ ...m.createNetworkClients(ctx), ...overrides.network }));
        return network;
      },
      close: () => closeAll(closers),
    };
    return ctx;
  } catch (err) {
    await closeAll(closers);
    throw err;
  }
}

/** Name resolution on the event loop, bounded in time and number (src/lib/name-resolver.ts). */
function ownResolver(closers: Array<() => Promise<void> | void>): LookupAll {
  const resolver = createNameResolver();
  closers.push(() => resolver.close());
  return resolver.lookup;
}

async function openConfiguredDb(
  config: Config,
  closers: Array<() => Promise<void> | void>,
  logger: Logger,
  embedded?: Promise<EmbeddedStart>,
): Promise<DbHandle> {
  if (config.db.url) return openPostgres(config.db.url, 10, (err) => logger.warn({ err }, 'a pooled database connection broke; the pool opens a new one'));
  const { lock, session } = await (embedded ?? startEmbedded(config.db.dataDir));
  closers.push(() => lock.release());
  return pgliteHandle(session);
}

/** Reverse order of opening, and every closer runs even if one fails. */
async function closeAll(closers: Array<() => Promise<void> | void>): Promise<void> {
  for (const close of closers.reverse()) {
    try {
      await close();
    } catch {
      // Closing is best effort; the process is going away.
    }
  }
  closers.length = 0;
}
