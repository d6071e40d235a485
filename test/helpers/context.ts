import { lookup as systemLookup } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import type { DbKind } from '../../src/db/database.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import type { RateLimitStore } from '../../src/lib/rate-limit/store.js';
import type { NetworkClients } from '../../src/networks/clients.js';
import { DIALECTS, openTestDb, postgresSkipReason } from './db.js';
import type { RoundTripCounter } from './round-trips.js';

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/**
 * The tests' name resolution (ContextOverrides.dnsLookup) unless a test brings its own: names
 * under `.example` and `example.com` (RFC 2606, made up by the tests for media and webhook
 * hosts) resolve to a public address, as they would on the internet, so checks of where Threads
 * can fetch from need no network; every other name is resolved by the system.
 */
const testLookup: AppContext['dnsLookup'] = async (hostname) => {
  if (/(^|\.)example(\.com|\.org|\.net)?$/i.test(hostname)) return [{ address: '93.184.216.34', family: 4 }];
  return systemLookup(hostname, { all: true, verbatim: true });
};

export interface TestEnv {
  kind: DbKind;
  ctx: AppContext;
  app: FastifyInstance;
  clock: ManualClock;
}

export interface TestEnvOptions {
  /** Real limits for the rate-limit tests; others get limits high enough never to interfere. */
  realRateLimits?: boolean;
  rateLimits?: RateLimitStore;
  config?: (config: Config) => Config;
  start?: string;
  threadsAppSecret?: string;
  /** LINKEDIN_CLIENT_SECRET (LinkedIn's sign-in configured, with LINKEDIN_CLIENT_ID in `config`). */
  linkedinClientSecret?: string;
  /** SKEIN_SMTP_URL (email notifications on). */
  smtpUrl?: string;
  /** Share a clock with a fake network. */
  clock?: ManualClock;
  logger?: Logger;
  /** Fake network clients (ContextOverrides.network). */
  network?: Partial<NetworkClients>;
  /** Name resolution for webhook URLs (ContextOverrides.dnsLookup). */
  dnsLookup?: AppContext['dnsLookup'];
  /** The media storage; a local one in a temporary folder (removed at close) otherwise. */
  media?: AppContext['media'];
  /** Counts the round trips to the database (env.roundTrips). */
  countRoundTrips?: RoundTripCounter;
}

export async function createTestEnv(kind: DbKind, options: TestEnvOptions = {}): Promise<TestEnv & { close(): Promise<void> }> {
  const db = await openTestDb(kind, options.countRoundTrips?.wrap);
  let config = loadConfig({ LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0' });
  if (!options.realRateLimits) config = { ...config, rateLimit: { ...config.rateLimit, perAccount: 1_000_000, perIp: 1_000_000 } };
  // Uploads go to a folder of this environment's own, never ./data/media.
  const mediaDir = mkdtempSync(join(tmpdir(), 'skein-media-'));
  config = { ...config, mediaStorage: { dir: mediaDir, s3: null } };
  if (options.config) config = options.config(config);
  const clock = options.clock ?? new ManualClock(options.start ?? '2026-11-22T12:00:00.000Z');
  const ctx = await createContext(
    config,
    {
      skeinSecret: TEST_SECRET,
      threadsAppSecret: options.threadsAppSecret ?? null,
      linkedinClientSecret: options.linkedinClientSecret ?? null,
      smtpUrl: options.smtpUrl ?? null,
    },
    {
      db,
      clock,
      logger: options.logger ?? createLogger(process.env.LOG_LEVEL ?? 'silent'),
      skipMigrations: db.migrated,
      ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
      ...(options.network ? { network: options.network } : {}),
      dnsLookup: options.dnsLookup ?? testLookup,
      ...(options.media ? { media: options.media } : {}),
    },
  );
  const app = await buildApp(ctx);
  await app.ready();
  return {
    kind,
    ctx,
    app,
    clock,
    close: async () => {
      await app.close();
      await ctx.close();
      await db.close();
      rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `body` once per database (PGlite, then PostgreSQL), each with its own migrated
 * database and app. The PostgreSQL half is skipped, with the reason, only when none is reachable.
 */
export function describeEachDb(title: string, body: (env: () => TestEnv) => void, options: TestEnvOptions = {}): void {
  for (const kind of DIALECTS) {
    const skip = kind === 'postgres' ? postgresSkipReason() : null;
    describe(`${title} [${kind}]`, { skip: skip ?? false }, () => {
      let env: (TestEnv & { close(): Promise<void> }) | null = null;
      before(async () => {
        env = await createTestEnv(kind, options);
      });
      after(async () => {
        await env?.close();
      });
      body(() => {
        if (!env) throw new Error('test environment not ready');
        return env;
      });
    });
  }
}
