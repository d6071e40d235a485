import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shiftedClock } from '../../src/lib/clock.js';

test('a shifted clock reads its start at once, then runs on at the real pace', async () => {
  const start = new Date('2026-11-29T09:00:00.000Z');
  const realStart = Date.now();
  const clock = shiftedClock(start, realStart);
  const first = clock.now().getTime();
  const realFirst = Date.now();
  assert.ok(first >= start.getTime() && first - start.getTime() <= realFirst - realStart, 'reads the start, plus what really passed');
  await new Promise((r) => setTimeout(r, 20));
  const later = clock.now().getTime();
  // The offset from the real clock stays what it was.
  assert.equal(later - Date.now() <= start.getTime() - realStart, true);
  assert.ok(later - first >= 19, 'it runs on');
});
