import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../../../src/lib/rate-limit/redis-store.js';
import { deleteKeys, REDIS_URL, redisReady, uniquePrefix } from '../../helpers/rate-limit-stores.js';

const T0 = Date.UTC(2030, 0, 1);
const WINDOW = 60_000;

/** Runs `body` with a connection and a fresh prefix, deleting the prefix's keys afterwards. */
async function withRedis(body: (redis: Redis, prefix: string) => Promise<void>): Promise<void> {
  const redis = new Redis(REDIS_URL);
  const prefix = uniquePrefix();
  try {
    await body(redis, prefix);
  } finally {
    await deleteKeys(redis, prefix);
    await redis.quit();
  }
}

test('keys are sorted sets under the prefix that expire a window after the last request', async (t) => {
  if (!redisReady(t)) return;
  await withRedis(async (redis, prefix) => {
    const store = new RedisRateLimitStore(redis, prefix);
    await store.hit([{ key: 'acct:a', limit: 60 }], T0, WINDOW);
    assert.equal(await redis.type(`${prefix}acct:a`), 'zset');
    assert.equal(await redis.zcard(`${prefix}acct:a`), 1);
    const ttl = await redis.pttl(`${prefix}acct:a`);
    assert.ok(ttl > WINDOW - 5_000 && ttl <= WINDOW, `pttl ${ttl}`);
  });
});

test('a refused hit adds nothing to any key', async (t) => {
  if (!redisReady(t)) return;
  await withRedis(async (redis, prefix) => {
    const store = new RedisRateLimitStore(redis, prefix);
    const rules = [
      { key: 'ip:x', limit: 10 },
      { key: 'acct:a', limit: 1 },
    ];
    assert.equal((await store.hit(rules, T0, WINDOW)).allowed, true);
    assert.equal((await store.hit(rules, T0 + 1, WINDOW)).allowed, false);
    assert.equal(await redis.zcard(`${prefix}ip:x`), 1);
    assert.equal(await redis.zcard(`${prefix}acct:a`), 1);
  });
});

test('a connection passed in stays open after close; one opened from a URL is closed', async (t) => {
  if (!redisReady(t)) return;
  await withRedis(async (redis, prefix) => {
    await new RedisRateLimitStore(redis, prefix).close();
    assert.equal(await redis.ping(), 'PONG');
    const owned = new RedisRateLimitStore(REDIS_URL, prefix);
    await owned.hit([{ key: 'acct:a', limit: 1 }], T0, WINDOW);
    await owned.close();
    await assert.rejects(owned.hit([{ key: 'acct:a', limit: 1 }], T0, WINDOW));
  });
});

test('falls back to EVAL when Redis does not have the script cached', async (t) => {
  if (!redisReady(t)) return;
  await withRedis(async (redis, prefix) => {
    // Simulates a restarted Redis without flushing the shared server's script cache.
    let evalshaCalls = 0;
    const forgetful = new Proxy(redis, {
      get(target, property, receiver) {
        if (property === 'evalsha') {
          return async () => {
            evalshaCalls++;
            throw new Error('NOSCRIPT No matching script. Please use EVAL.');
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = new RedisRateLimitStore(forgetful, prefix);
    assert.equal((await store.hit([{ key: 'acct:a', limit: 1 }], T0, WINDOW)).allowed, true);
    assert.equal((await store.hit([{ key: 'acct:a', limit: 1 }], T0, WINDOW)).allowed, false);
    assert.equal(evalshaCalls, 2);
  });
});

test('Redis errors other than NOSCRIPT reach the caller', async (t) => {
  if (!redisReady(t)) return;
  await withRedis(async (redis, prefix) => {
    const store = new RedisRateLimitStore(redis, prefix);
    await redis.set(`${prefix}acct:a`, 'not a sorted set');
    await assert.rejects(store.hit([{ key: 'acct:a', limit: 1 }], T0, WINDOW), /WRONGTYPE/);
  });
});
