import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type RateLimitState, tighterLimit } from '../../../src/lib/rate-limit/store.js';

const state = (key: string, limit: number, remaining: number): RateLimitState => ({ key, limit, remaining, resetSeconds: 60 });

test('tighterLimit picks the lowest remaining', () => {
  assert.equal(tighterLimit([state('ip', 300, 250), state('acct', 60, 10)]).key, 'acct');
  assert.equal(tighterLimit([state('ip', 300, 5), state('acct', 60, 10)]).key, 'ip');
});

test('tighterLimit breaks ties by the lower limit, whatever the order', () => {
  assert.equal(tighterLimit([state('ip', 300, 0), state('acct', 60, 0)]).key, 'acct');
  assert.equal(tighterLimit([state('acct', 60, 0), state('ip', 300, 0)]).key, 'acct');
});

test('tighterLimit of one is that one; of none is an error', () => {
  assert.equal(tighterLimit([state('ip', 300, 299)]).key, 'ip');
  assert.throws(() => tighterLimit([]), RangeError);
});
