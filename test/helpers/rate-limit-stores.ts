/**
 * Runs a behavioural test against both rate-limit stores. The Redis half uses a fresh key
 * prefix per test (deleted afterwards) and is skipped, with the reason printed, when Redis is
 * unreachable; under CI (where .ci/run starts Redis) that is a failure instead.
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { MemoryRateLimitStore } from '../../src/lib/rate-limit/memory-store.js';
import { RedisRateLimitStore } from '../../src/lib/rate-limit/redis-store.js';
import type { RateLimitStore } from '../../src/lib/rate-limit/store.js';

export const REDIS_URL = `redis://${process.env.SKEIN_TEST_REDIS_HOST ?? '127.0.0.1:6379'}`;

export interface StoreKit {
  name: 'memory' | 'redis';
  store: RateLimitStore;
  /**
   * Another store sharing the same counters, as a second API instance would: for Redis a
   * separate connection; for memory the same store (one process has one).
   */
  sibling(): RateLimitStore;
}

/** Null when Redis answers, else why not. */
async function probeRedis(): Promise<string | null> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  // connect() only says "Connection is closed"; the socket error says why (ECONNREFUSED...).
  let cause: Error | undefined;
  redis.on('error', (error: Error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return `Redis at ${REDIS_URL} unreachable: ${(cause ?? (error as Error)).message}`;
  } finally {
    redis.disconnect();
  }
}

const redisProblem = await probeRedis();

/** A key prefix nobody else uses, so parallel test files and runs never share counters. */
export function uniquePrefix(): string {
  return `skein-test:rate-limit:${process.pid}:${randomBytes(6).toString('hex')}:`;
}

export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
    if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
  }
}

/** Skips (or, in CI, fails) the current test when Redis is missing; true when it may go on. */
export function redisReady(t: TestContext): boolean {
  if (redisProblem === null) return true;
  if (process.env.CI) throw new Error(`CI needs Redis: ${redisProblem}`);
  console.log(`Redis half skipped: ${redisProblem}`);
  t.skip(redisProblem);
  return false;
}

async function withMemory(body: (kit: StoreKit) => Promise<void>): Promise<void> {
  const store = new MemoryRateLimitStore();
  try {
    await body({ name: 'memory', store, sibling: () => store });
  } finally {
    await store.close();
  }
}

async function withRedis(body: (kit: StoreKit) => Promise<void>): Promise<void> {
  const prefix = uniquePrefix();
  const stores = [new RedisRateLimitStore(REDIS_URL, prefix)];
  const sibling = () => {
    const store = new RedisRateLimitStore(REDIS_URL, prefix);
    stores.push(store);
    return store;
  };
  const admin = new Redis(REDIS_URL);
  try {
    await body({ name: 'redis', store: stores[0]!, sibling });
  } finally {
    await Promise.all(stores.map((store) => store.close()));
    await deleteKeys(admin, prefix);
    await admin.quit();
  }
}

/** Runs `body` as two subtests, "memory" and "redis", each with fresh, empty counters. */
export async function forEachStore(t: TestContext, body: (kit: StoreKit) => Promise<void>): Promise<void> {
  await t.test('memory', () => withMemory(body));
  await t.test('redis', async (t) => {
    if (redisReady(t)) await withRedis(body);
  });
}
