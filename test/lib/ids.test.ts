import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSkeinId, newId } from '../../src/lib/ids.js';

test('ids made in bulk (random bytes drawn for many at once) are well formed, in order, and share no random bits', () => {
  const now = Date.UTC(2030, 0, 1);
  // More than one draw of random bytes, all within one millisecond and across several.
  const ids = Array.from({ length: 1_000 }, (_, i) => newId(now + Math.floor(i / 400)));
  for (const id of ids) assert.ok(isSkeinId(id), id);
  assert.deepEqual([...ids].sort(), ids);
  // The last 62 bits are random in every id: a slice of the pool handed out twice would repeat them.
  const randomTails = new Set(ids.map((id) => id.slice(-12)));
  assert.equal(randomTails.size, ids.length);
});
