/**
 * Property test: over random sequences of clock moves and hits, each store gives exactly the
 * results of a deliberately naive reference model (keeps every allowed request forever and
 * filters by the window definition on each hit).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { MemoryRateLimitStore } from '../../../src/lib/rate-limit/memory-store.js';
import { RedisRateLimitStore } from '../../../src/lib/rate-limit/redis-store.js';
import type { RateLimitResult, RateLimitRule, RateLimitStore } from '../../../src/lib/rate-limit/store.js';
import { deleteKeys, REDIS_URL, redisReady, uniquePrefix } from '../../helpers/rate-limit-stores.js';

const T0 = Date.UTC(2030, 0, 1);
/** Small limits so that refusals and expiries are frequent. */
const RULES: Record<string, RateLimitRule> = {
  ip: { key: 'ip:1.2.3.4', limit: 5 },
  a: { key: 'acct:a', limit: 3 },
  b: { key: 'acct:b', limit: 2 },
};

/** The rule sets a request can carry: the IP alone (signed out), an account alone, or both. */
const COMBINATIONS: RateLimitRule[][] = [[RULES.ip!], [RULES.ip!, RULES.a!], [RULES.ip!, RULES.b!], [RULES.a!], [RULES.a!, RULES.b!]];

type Op = { advance: number } | { hit: RateLimitRule[] };

class ReferenceModel {
  readonly #allowed = new Map<string, number[]>();
  constructor(readonly windowMs: number) {}

  hit(rules: RateLimitRule[], now: number): RateLimitResult {
    // The definition itself: counted iff allowed at s with now - W < s <= now.
    const inWindow = (key: string) => (this.#allowed.get(key) ?? []).filter((s) => s > now - this.windowMs && s <= now).sort((x, y) => x - y);
    const before = rules.map((rule) => inWindow(rule.key));
    const allowed = rules.every((rule, i) => before[i]!.length < rule.limit);
    if (allowed) for (const rule of rules) this.#allowed.set(rule.key, [...(this.#allowed.get(rule.key) ?? []), now]);
    const freeAt = rules.flatMap((rule, i) => (before[i]!.length >= rule.limit ? [before[i]![before[i]!.length - rule.limit]! + this.windowMs] : []));
    return {
      allowed,
      limits: rules.map((rule) => {
        const after = inWindow(rule.key);
        return {
          key: rule.key,
          limit: rule.limit,
          remaining: rule.limit - after.length,
          resetSeconds: after.length === 0 ? 0 : Math.ceil((after[0]! + this.windowMs - now) / 1000),
        };
      }),
      retryAfterSeconds: allowed ? null : Math.ceil((Math.max(...freeAt) - now) / 1000),
    };
  }
}

const windowArb = fc.constantFrom(1_000, 2_500, 60_000);

function opsArb(windowMs: number): fc.Arbitrary<Op[]> {
  const advance = advanceArb(windowMs);
  const hit = fc.constantFrom(...COMBINATIONS);
  const op: fc.Arbitrary<Op> = fc.oneof(
    { arbitrary: advance.map((ms) => ({ advance: ms })), weight: 1 },
    { arbitrary: hit.map((rules) => ({ hit: rules })), weight: 3 },
  );
  return fc.array(op, { minLength: 1, maxLength: 80 });
}

/** Advances that cluster around the window's edges, where off-by-one mistakes live. */
function advanceArb(windowMs: number): fc.Arbitrary<number> {
  return fc.oneof(fc.integer({ min: 0, max: Math.floor(windowMs / 4) }), fc.constantFrom(0, 1, windowMs - 1, windowMs, windowMs + 1));
}

const scenarioArb = windowArb.chain((windowMs) => opsArb(windowMs).map((ops) => ({ windowMs, ops })));

async function matchesModel(store: RateLimitStore, { windowMs, ops }: { windowMs: number; ops: Op[] }): Promise<void> {
  const model = new ReferenceModel(windowMs);
  let now = T0;
  for (const [step, op] of ops.entries()) {
    if ('advance' in op) {
      now += op.advance;
      continue;
    }
    const actual = await store.hit(op.hit, now, windowMs);
    assert.deepEqual(actual, model.hit(op.hit, now), `step ${step} at +${now - T0} ms`);
  }
}

test('the memory store behaves like the reference model', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const store = new MemoryRateLimitStore({ sweepAtKeys: 1, sweepIntervalMs: 1 }); // sweep as often as possible
      await matchesModel(store, scenario);
    }),
    { numRuns: 500 },
  );
});

/**
 * One Redis connection for all of a property's runs; `newStore()` gives each run stores on
 * prefixes of their own (so runs never share counters), all deleted afterwards.
 */
async function withRedisStores(body: (newStore: () => RedisRateLimitStore) => Promise<void>): Promise<void> {
  const admin = new Redis(REDIS_URL);
  const prefixes: string[] = [];
  try {
    await body(() => {
      const prefix = uniquePrefix();
      prefixes.push(prefix);
      return new RedisRateLimitStore(admin, prefix);
    });
  } finally {
    for (const prefix of prefixes) await deleteKeys(admin, prefix);
    await admin.quit();
  }
}

test('the Redis store behaves like the reference model', async (t) => {
  if (!redisReady(t)) return;
  await withRedisStores((newStore) =>
    fc.assert(
      fc.asyncProperty(scenarioArb, (scenario) => matchesModel(newStore(), scenario)),
      { numRuns: 40 },
    ),
  );
});

/**
 * The Redis store judges the hits of one turn of the event loop in one script call that keeps
 * each key's count between hits: each batch here is fired without awaiting, its hits' times
 * moving forward (sometimes past a whole window within the batch), and every result must still
 * be the model's, hit by hit in the order they were made.
 */
test('the Redis store judges a batch of hits made in one turn like the reference model, hit by hit', async (t) => {
  if (!redisReady(t)) return;
  const batchesArb = windowArb.chain((windowMs) => {
    const hit = fc.record({ advance: advanceArb(windowMs), rules: fc.constantFrom(...COMBINATIONS) });
    return fc.array(fc.array(hit, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 6 }).map((batches) => ({ windowMs, batches }));
  });
  await withRedisStores((newStore) =>
    fc.assert(
      fc.asyncProperty(batchesArb, async ({ windowMs, batches }) => {
        const store = newStore();
        const model = new ReferenceModel(windowMs);
        let now = T0;
        for (const [b, batch] of batches.entries()) {
          const made = batch.map(({ advance, rules }) => {
            now += advance;
            return { rules, now, result: store.hit(rules, now, windowMs) };
          });
          for (const [i, { rules, now: at, result }] of made.entries()) {
            assert.deepEqual(await result, model.hit(rules, at), `batch ${b}, hit ${i} at +${at - T0} ms`);
          }
        }
      }),
      { numRuns: 60 },
    ),
  );
});

/**
 * Where the clock steps back (another instance's clock, an NTP correction) the model's definition
 * no longer applies, but a batch must still be judged exactly as its hits would be one by one:
 * here the same hits at times in any order, once in batches and once each awaited (a batch of
 * one), on separate counters, give the same results.
 */
test('the Redis store judges a batch as it judges the same hits one at a time, whatever the order of their times', async (t) => {
  if (!redisReady(t)) return;
  const batchesArb = windowArb.chain((windowMs) => {
    const at = fc.integer({ min: 0, max: 3 * windowMs });
    const hit = fc.record({ at: fc.oneof(at, fc.constantFrom(0, windowMs - 1, windowMs, windowMs + 1)), rules: fc.constantFrom(...COMBINATIONS) });
    return fc.array(fc.array(hit, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 4 }).map((batches) => ({ windowMs, batches }));
  });
  await withRedisStores((newStore) =>
    fc.assert(
      fc.asyncProperty(batchesArb, async ({ windowMs, batches }) => {
        const [batched, oneByOne] = [newStore(), newStore()];
        for (const [b, batch] of batches.entries()) {
          const results = await Promise.all(batch.map(({ at, rules }) => batched.hit(rules, T0 + at, windowMs)));
          for (const [i, { at, rules }] of batch.entries()) {
            assert.deepEqual(results[i], await oneByOne.hit(rules, T0 + at, windowMs), `batch ${b}, hit ${i} at +${at} ms`);
          }
        }
      }),
      { numRuns: 60 },
    ),
  );
});
