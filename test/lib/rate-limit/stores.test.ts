import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { type RateLimitResult, type RateLimitRule, type RateLimitStore, tighterLimit } from '../../../src/lib/rate-limit/store.js';
import { forEachStore } from '../../helpers/rate-limit-stores.js';

const WINDOW = 60_000;
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

const ip = (limit = 300, address = '1.2.3.4'): RateLimitRule => ({ key: `ip:${address}`, limit });
const acct = (id: string, limit = 60): RateLimitRule => ({ key: `acct:${id}`, limit });

/** A store driven by a manual clock, as the HTTP layer will drive it with the injected one. */
function driver(store: RateLimitStore, clock = new ManualClock(T0)) {
  return {
    clock,
    hit: (...rules: RateLimitRule[]) => store.hit(rules, clock.now().getTime(), WINDOW),
    /** Hits `count` times in sequence; returns how many were allowed. */
    async hitTimes(count: number, ...rules: RateLimitRule[]): Promise<number> {
      let allowed = 0;
      for (let i = 0; i < count; i++) if ((await store.hit(rules, clock.now().getTime(), WINDOW)).allowed) allowed++;
      return allowed;
    },
  };
}

function stateOf(result: RateLimitResult, key: string) {
  const state = result.limits.find((limit) => limit.key === key);
  assert.ok(state, `no state for ${key}`);
  return state;
}

test('the 61st request in a window is refused, with Retry-After until the oldest expires', async (t) => {
  await forEachStore(t, async ({ store }) => {
    const { clock, hit } = driver(store);
    const rule = acct('a');
    for (let i = 0; i < 60; i++) {
      const result = await hit(rule);
      assert.equal(result.allowed, true, `request ${i + 1}`);
      assert.equal(result.retryAfterSeconds, null);
      assert.equal(result.limits[0]!.remaining, 59 - i);
      clock.advance(500); // 60 requests over 30 s
    }
    const refused = await hit(rule); // at T0 + 30 s
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 30);
    assert.deepEqual(refused.limits, [{ key: 'acct:a', limit: 60, remaining: 0, resetSeconds: 30 }]);
  });
});

test('the window rolls: at exactly t0+60s the first entry has expired', async (t) => {
  await forEachStore(t, async ({ store }) => {
    const { clock, hit, hitTimes } = driver(store);
    const rule = acct('a');
    assert.equal(await hitTimes(1, rule), 1); // T0
    clock.advance(10_000);
    assert.equal(await hitTimes(59, rule), 59); // T0 + 10 s

    clock.set(T0 + WINDOW - 1);
    const justBefore = await hit(rule);
    assert.equal(justBefore.allowed, false);
    assert.equal(justBefore.retryAfterSeconds, 1, '1 ms left rounds up to 1 s');

    clock.set(T0 + WINDOW);
    assert.equal((await hit(rule)).allowed, true, 'the T0 entry has left (T0, T0+60s]');
    const full = await hit(rule);
    assert.equal(full.allowed, false);
    assert.equal(full.retryAfterSeconds, 10, 'next frees at T0 + 70 s');

    clock.set(T0 + 70_000 - 1);
    assert.equal((await hit(rule)).allowed, false);
    clock.set(T0 + 70_000);
    assert.equal(await hitTimes(60, rule), 59, 'the 59 from T0 + 10 s expired; the one from T0 + 60 s still counts');
  });
});

test('refused requests do not count: capacity returns exactly as the allowed ones expire', async (t) => {
  await forEachStore(t, async ({ store }) => {
    const { clock, hit } = driver(store);
    const rule = acct('a');
    for (let i = 0; i < 60; i++) {
      clock.set(T0 + i * 100);
      assert.equal((await hit(rule)).allowed, true);
    }
    // Hammer for the rest of the window: all refused, none counted.
    for (let at = T0 + 6_000; at < T0 + WINDOW; at += 180) {
      clock.set(at);
      const result = await hit(rule);
      assert.equal(result.allowed, false);
      assert.equal(result.retryAfterSeconds, Math.ceil((T0 + WINDOW - at) / 1000));
    }
    // Each allowed request frees its slot exactly one window later, and only that one slot.
    for (let i = 0; i < 60; i++) {
      clock.set(T0 + WINDOW + i * 100);
      assert.equal((await hit(rule)).allowed, true, `slot ${i} back at +${i * 100} ms`);
      assert.equal((await hit(rule)).allowed, false, `only one slot back at +${i * 100} ms`);
    }
  });
});

test('two rules: a refusal by one is not counted on the other', async (t) => {
  await forEachStore(t, async ({ store }) => {
    const { clock, hit, hitTimes } = driver(store);
    const address = ip(5);
    assert.equal(await hitTimes(2, address, acct('a', 2)), 2);

    const byAccount = await hit(address, acct('a', 2));
    assert.equal(byAccount.allowed, false);
    assert.equal(byAccount.retryAfterSeconds, 60);
    assert.equal(stateOf(byAccount, 'ip:1.2.3.4').remaining, 3, 'the IP did not count the refused request');
    assert.equal(stateOf(byAccount, 'acct:a').remaining, 0);

    clock.advance(1_000);
    assert.equal(await hitTimes(3, address, acct('b', 5)), 3, 'the IP still has its 3');
    const byAddress = await hit(address, acct('b', 5));
    assert.equal(byAddress.allowed, false);
    assert.equal(byAddress.retryAfterSeconds, 59, 'the IP frees at T0 + 60 s');
    assert.equal(stateOf(byAddress, 'acct:b').remaining, 2, 'the account did not count the refused request');

    // From another address account b has exactly its 2 left.
    assert.equal(await hitTimes(3, ip(5, '5.6.7.8'), acct('b', 5)), 2);
  });
});

test('300 per IP and 60 per account combine', async (t) => {
  await forEachStore(t, async ({ store }) => {
    const { clock, hit, hitTimes } = driver(store);
    // Five accounts behind one address use up the address's 300 between them.
    for (let round = 0; round < 60; round++) {
      for (const id of ['a', 'b', 'c', 'd', 'e']) assert.equal((await hit(ip(), acct(id))).allowed, true);
      clock.advance(100);
    }
    const sixth = await hit(ip(), acct('f'));
    assert.equal(sixth.allowed, false);
    assert.deepEqual(stateOf(sixth, 'acct:f'), { key: 'acct:f', limit: 60, remaining: 60, resetSeconds: 0 }, 'nothing counted');
    assert.equal(tighterLimit(sixth.limits).key, 'ip:1.2.3.4');
    assert.equal(sixth.retryAfterSeconds, 54, 'first requests at T0, now T0 + 6 s');
    assert.equal((await hit(ip())).allowed, false, 'unauthenticated requests hit the IP limit too');

    // One account spread over many addresses still gets only 60.
    let allowed = 0;
    for (let i = 0; i < 100; i++) if ((await hit(ip(300, `10.0.0.${i}`), acct('g'))).allowed) allowed++;
    assert.equal(allowed, 60);

    // Unauthenticated requests from a fresh address: 300.
    assert.equal(await hitTimes(301, ip(300, '9.9.9.9')), 300);
  });
});

test('concurrent hits never let more than the limit through', async (t) => {
  await forEachStore(t, async ({ store, sibling }) => {
    const now = T0;
    const rules = [acct('a')];
    const results = await Promise.all(Array.from({ length: 100 }, () => store.hit(rules, now, WINDOW)));
    assert.equal(results.filter((result) => result.allowed).length, 60);

    // Two instances (for Redis: two connections) racing on the same counters.
    const other = sibling();
    const both = [store, other];
    const raced = await Promise.all(Array.from({ length: 100 }, (_, i) => both[i % 2]!.hit([acct('b')], now, WINDOW)));
    assert.equal(raced.filter((result) => result.allowed).length, 60);

    // Two rules racing: the shared IP limit binds exactly, each account stays within its own.
    const mixed = await Promise.all(
      Array.from({ length: 200 }, (_, i) => both[i % 2]!.hit([ip(80, '7.7.7.7'), acct(i % 3 === 0 ? 'c' : 'd')], now + (i % 7), WINDOW)),
    );
    const allowed = mixed.filter((result) => result.allowed);
    assert.equal(allowed.length, 80);
    for (const id of ['c', 'd']) {
      const forAccount = allowed.filter((result) => result.limits[1]!.key === `acct:${id}`).length;
      assert.ok(forAccount <= 60, `acct:${id} allowed ${forAccount}`);
      const after = await store.hit([acct(id)], now + 10, WINDOW);
      assert.equal(after.limits[0]!.remaining, Math.max(0, 60 - forAccount - 1), `acct:${id} counted exactly its allowed requests`);
    }
  });
});

test('requests in the same millisecond all count', async (t) => {
  await forEachStore(t, async ({ store }) => {
    const { hitTimes } = driver(store);
    assert.equal(await hitTimes(4, acct('a', 3)), 3);
  });
});

test('remaining and resetSeconds', async (t) => {
  await forEachStore(t, async ({ store }) => {
    const { clock, hit } = driver(store);
    const rule = acct('a');
    assert.deepEqual((await hit(rule)).limits, [{ key: 'acct:a', limit: 60, remaining: 59, resetSeconds: 60 }]);
    clock.advance(10_500);
    assert.deepEqual((await hit(rule)).limits, [{ key: 'acct:a', limit: 60, remaining: 58, resetSeconds: 50 }], 'ceil(49.5)');
    clock.set(T0 + 59_001);
    assert.deepEqual((await hit(rule)).limits, [{ key: 'acct:a', limit: 60, remaining: 57, resetSeconds: 1 }], 'ceil(0.999)');
    clock.set(T0 + WINDOW);
    // T0 has gone; 10.5 s, 59.001 s and now remain, the oldest freeing at 70.5 s.
    assert.deepEqual((await hit(rule)).limits, [{ key: 'acct:a', limit: 60, remaining: 57, resetSeconds: 11 }]);

    const two = await hit(ip(300), acct('b', 60));
    assert.deepEqual(two.limits, [
      { key: 'ip:1.2.3.4', limit: 300, remaining: 299, resetSeconds: 60 },
      { key: 'acct:b', limit: 60, remaining: 59, resetSeconds: 60 },
    ]);
    assert.equal(tighterLimit(two.limits).key, 'acct:b');
  });
});

test('bad calls are rejected', async (t) => {
  await forEachStore(t, async ({ store }) => {
    await assert.rejects(store.hit([], T0, WINDOW), RangeError);
    await assert.rejects(store.hit([acct('a'), acct('a')], T0, WINDOW), /duplicate/);
    await assert.rejects(store.hit([acct('a', 0)], T0, WINDOW), /bad limit/);
    await assert.rejects(store.hit([acct('a', 1.5)], T0, WINDOW), /bad limit/);
    await assert.rejects(store.hit([acct('a')], T0 + 0.5, WINDOW), /bad time/);
    await assert.rejects(store.hit([acct('a')], T0, 0), /bad window/);
    assert.equal((await store.hit([acct('a', 1)], T0, WINDOW)).allowed, true, 'nothing was counted by the bad calls');
  });
});
