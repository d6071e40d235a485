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
    // Simulates a restarted Redis without flushing the shared server's script cache: the batch's
    // EVALSHA names a script Redis has never seen, so Redis itself answers NOSCRIPT.
    let evalshaCalls = 0;
    const forgetful = new Proxy(redis, {
      get(target, property, receiver) {
        if (property === 'evalsha') {
          return (_sha: string, ...rest: unknown[]) => {
            evalshaCalls++;
            return (target.evalsha as (...args: unknown[]) => Promise<unknown>).call(target, '0'.repeat(40), ...rest);
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

test('the hits made in one turn of the event loop go to Redis as one script call, each counted exactly and in order', async (t) => {
  if (!redisReady(t)) return;
  await withRedis(async (redis, prefix) => {
    let calls = 0;
    const counting = new Proxy(redis, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property === 'evalsha' || property === 'eval' || property === 'pipeline') {
          return (...args: unknown[]) => {
            calls++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = new RedisRateLimitStore(counting, prefix);
    const ip = { key: 'ip:x', limit: 10 };
    const a = { key: 'acct:a', limit: 3 };
    const b = { key: 'acct:b', limit: 2 };
    // Hits on different keys, one or two rules each, interleaved: each is judged after the ones before it.
    const hits = [[ip, a], [ip, b], [ip, a], [a], [ip, b], [ip, b], [ip, a], [b]];
    const results = await Promise.all(hits.map((rules, i) => store.hit(rules, T0 + i, WINDOW)));
    assert.equal(calls, 1);
    assert.deepEqual(
      results.map((r) => r.allowed),
      [true, true, true, true, true, false, false, false],
    );
    assert.deepEqual(
      results.map((r) => r.limits.map((l) => l.remaining)),
      [[9, 2], [8, 1], [7, 1], [0], [6, 0], [6, 0], [6, 0], [0]],
    );
    // The refused hits name when each frees up: b's oldest (T0+1) leaves at T0+60.001 s.
    assert.equal(results[5]!.retryAfterSeconds, 60);
    assert.equal(await redis.zcard(`${prefix}acct:a`), 3);
    assert.equal(await redis.zcard(`${prefix}acct:b`), 2);
    assert.equal(await redis.zcard(`${prefix}ip:x`), 4);
    for (const key of ['ip:x', 'acct:a', 'acct:b']) assert.ok((await redis.pttl(`${prefix}${key}`)) > WINDOW - 5_000);
    // A later turn is a batch of its own.
    assert.equal((await store.hit([ip, a], T0 + 10, WINDOW)).allowed, false);
    assert.equal(calls, 2);
  });
});

test('an error in a batch reaches every hit of it; the next batch goes on', async (t) => {
  if (!redisReady(t)) return;
  await withRedis(async (redis, prefix) => {
    const store = new RedisRateLimitStore(redis, prefix);
    await redis.set(`${prefix}acct:broken`, 'not a sorted set');
    const batch = await Promise.allSettled([store.hit([{ key: 'acct:a', limit: 5 }], T0, WINDOW), store.hit([{ key: 'acct:broken', limit: 5 }], T0, WINDOW)]);
    assert.deepEqual(
      batch.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal((await store.hit([{ key: 'acct:a', limit: 5 }], T0 + 1, WINDOW)).allowed, true);
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

test('a batch with more members for a key than one ZADD takes still counts every hit', async (t) => {
  if (!redisReady(t)) return;
  await withRedis(async (redis, prefix) => {
    const store = new RedisRateLimitStore(redis, prefix);
    // The script adds a key's members a few hundred at a time (Lua's unpack has a bounded stack).
    const rule = { key: 'ip:x', limit: 1_500 };
    const results = await Promise.all(Array.from({ length: 1_600 }, (_, i) => store.hit([rule], T0 + i, WINDOW)));
    assert.deepEqual(
      results.map((r) => r.allowed),
      Array.from({ length: 1_600 }, (_, i) => i < 1_500),
    );
    assert.equal(results[1_499]!.limits[0]!.remaining, 0);
    assert.equal(results[1_500]!.retryAfterSeconds, 59); // T0 leaves at T0+60 s; asked at T0+1.5 s
    assert.equal(await redis.zcard(`${prefix}ip:x`), 1_500);
  });
});
