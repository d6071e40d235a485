import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryRateLimitStore } from '../../../src/lib/rate-limit/memory-store.js';

const T0 = Date.UTC(2030, 0, 1);
const WINDOW = 60_000;

test('idle keys are forgotten once a sweep interval has passed', async () => {
  const store = new MemoryRateLimitStore();
  for (let i = 0; i < 5_000; i++) await store.hit([{ key: `ip:${i}`, limit: 300 }], T0, WINDOW);
  assert.equal(store.size, 5_000);
  await store.hit([{ key: 'ip:new', limit: 300 }], T0 + WINDOW, WINDOW);
  assert.equal(store.size, 1, 'every earlier key had left its window');
});

test('the number of keys stays bounded by the live ones, even without time-based sweeps', async () => {
  const store = new MemoryRateLimitStore({ sweepAtKeys: 100, sweepIntervalMs: Number.MAX_SAFE_INTEGER });
  const window = 1_000;
  let largest = 0;
  // 10 new keys every second, each live for one second: about 10 live at any time.
  for (let second = 0; second < 1_000; second++) {
    for (let i = 0; i < 10; i++) await store.hit([{ key: `ip:${second}:${i}`, limit: 5 }], T0 + second * 1_000, window);
    largest = Math.max(largest, store.size);
  }
  assert.ok(largest <= 110, `grew to ${largest} keys`);
});

test('a sweep keeps the counts of keys still in their window', async () => {
  const store = new MemoryRateLimitStore({ sweepAtKeys: 10 });
  const keep = [{ key: 'acct:keep', limit: 3 }];
  for (let i = 0; i < 3; i++) assert.equal((await store.hit(keep, T0, WINDOW)).allowed, true);
  for (let i = 0; i < 100; i++) await store.hit([{ key: `ip:${i}`, limit: 1 }], T0 + 59_000, WINDOW);
  assert.equal((await store.hit(keep, T0 + 59_999, WINDOW)).allowed, false);
  assert.equal((await store.hit(keep, T0 + WINDOW, WINDOW)).allowed, true);
});

test('a clock stepping back keeps the stamps in order', async () => {
  const store = new MemoryRateLimitStore();
  const rule = [{ key: 'acct:a', limit: 3 }];
  await store.hit(rule, T0 + 2_000, WINDOW);
  await store.hit(rule, T0, WINDOW);
  await store.hit(rule, T0 + 1_000, WINDOW);
  const refused = await store.hit(rule, T0 + 2_000, WINDOW);
  assert.equal(refused.retryAfterSeconds, 58, 'the oldest (T0) frees first');
  assert.equal((await store.hit(rule, T0 + WINDOW, WINDOW)).allowed, true);
  assert.equal((await store.hit(rule, T0 + WINDOW, WINDOW)).allowed, false);
});

test('close forgets everything', async () => {
  const store = new MemoryRateLimitStore();
  await store.hit([{ key: 'acct:a', limit: 1 }], T0, WINDOW);
  await store.close();
  assert.equal(store.size, 0);
});
