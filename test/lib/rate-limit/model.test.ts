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
  // Moves cluster around the window's edges, where off-by-one mistakes live.
  const advance = fc.oneof(fc.integer({ min: 0, max: Math.floor(windowMs / 4) }), fc.constantFrom(0, 1, windowMs - 1, windowMs, windowMs + 1));
  const combinations: RateLimitRule[][] = [[RULES.ip!], [RULES.ip!, RULES.a!], [RULES.ip!, RULES.b!], [RULES.a!], [RULES.a!, RULES.b!]];
  const hit = fc.constantFrom(...combinations);
  const op: fc.Arbitrary<Op> = fc.oneof(
    { arbitrary: advance.map((ms) => ({ advance: ms })), weight: 1 },
    { arbitrary: hit.map((rules) => ({ hit: rules })), weight: 3 },
  );
  return fc.array(op, { minLength: 1, maxLength: 80 });
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

test('the Redis store behaves like the reference model', async (t) => {
  if (!redisReady(t)) return;
  // One connection for all runs; each run gets its own prefix, so runs never share counters.
  const admin = new Redis(REDIS_URL);
  const prefixes: string[] = [];
  try {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const prefix = uniquePrefix();
        prefixes.push(prefix);
        await matchesModel(new RedisRateLimitStore(admin, prefix), scenario);
      }),
      { numRuns: 40 },
    );
  } finally {
    for (const prefix of prefixes) await deleteKeys(admin, prefix);
    await admin.quit();
  }
});
