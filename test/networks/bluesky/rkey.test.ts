import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { newId } from '../../../src/lib/ids.js';
import { decodeTid, encodeTid, isTid, postRkey, repostRkey } from '../../../src/networks/bluesky/rkey.js';

/** The last millisecond whose microseconds still fit a TID's 53 bits (year 2255). */
const MAX_MS = Math.floor((2 ** 53 - 1) / 1000) - 1;

interface V7Parts {
  ms: number;
  randA: number;
  randB: bigint;
}

const v7Parts = fc.record({
  ms: fc.integer({ min: 0, max: MAX_MS }),
  randA: fc.integer({ min: 0, max: 0xfff }),
  randB: fc.bigInt(0n, 2n ** 62n - 1n),
});

function uuidV7({ ms, randA, randB }: V7Parts): string {
  const hex = `${ms.toString(16).padStart(12, '0')}7${randA.toString(16).padStart(3, '0')}${((2n << 62n) | randB).toString(16)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function msOf(tid: string): bigint {
  return decodeTid(tid).micros / 1000n;
}

describe('postRkey', () => {
  test('is a valid TID, the same every time, in the id’s millisecond', () => {
    fc.assert(
      fc.property(v7Parts, (parts) => {
        const id = uuidV7(parts);
        const rkey = postRkey(id);
        assert.ok(isTid(rkey), rkey);
        assert.equal(rkey.length, 13);
        assert.equal(postRkey(id), rkey);
        assert.equal(postRkey(id.toUpperCase()), rkey);
        assert.equal(msOf(rkey), BigInt(parts.ms));
      }),
      { numRuns: 2000 },
    );
  });

  test('sorts like the ids across milliseconds', () => {
    fc.assert(
      fc.property(v7Parts, v7Parts, (a, b) => {
        fc.pre(a.ms !== b.ms);
        const [early, late] = a.ms < b.ms ? [a, b] : [b, a];
        assert.ok(postRkey(uuidV7(early)) < postRkey(uuidV7(late)));
      }),
    );
  });

  test('ids of one millisecond that differ in rand_a (the generator’s counter) never collide', () => {
    fc.assert(
      fc.property(v7Parts, fc.integer({ min: 0, max: 0xfff }), fc.bigInt(0n, 2n ** 62n - 1n), (a, otherRandA, otherRandB) => {
        fc.pre(otherRandA !== a.randA);
        const b = { ms: a.ms, randA: otherRandA, randB: otherRandB };
        assert.notEqual(postRkey(uuidV7(a)), postRkey(uuidV7(b)));
      }),
      { numRuns: 2000 },
    );
  });

  test('ids from Skein’s generator give distinct keys, also within one millisecond', () => {
    const burst = Array.from({ length: 4000 }, () => newId(1_800_000_000_000));
    const spread = Array.from({ length: 20_000 }, () => newId());
    for (const ids of [burst, spread]) {
      assert.equal(new Set(ids).size, ids.length);
      assert.equal(new Set(ids.map(postRkey)).size, ids.length);
    }
  });

  test('random ids from different processes collide rarely', () => {
    // 1,000 ids of one millisecond with independent random bits in 1,024,000 slots: about 0.5 collisions are
    // expected (birthday bound); 6 or more has a chance near 1e-5, while a mapping onto few slots fails at once.
    const ids = Array.from({ length: 1000 }, () => uuidV7({ ms: 1_800_000_000_000, randA: randomInt(0x1000), randB: randomBigInt62() }));
    assert.ok(new Set(ids.map(postRkey)).size >= 995);
  });

  test('refuses ids that are not UUIDv7 or whose time does not fit a TID', () => {
    assert.throws(() => postRkey('not-a-uuid'), RangeError);
    assert.throws(() => postRkey('0190b6a2-7c4e-4c3a-8b1e-2f6d4c8a9e10'), RangeError); // version 4
    assert.throws(() => postRkey('ffffffff-ffff-7fff-bfff-ffffffffffff'), RangeError); // year 10889
  });
});

describe('repostRkey', () => {
  test('is a valid TID, deterministic, and not the post’s own key', () => {
    fc.assert(
      fc.property(v7Parts, fc.constantFrom('did:plc:abc', 'did:plc:xyz'), (parts, did) => {
        const postKey = postRkey(uuidV7(parts));
        const uri = `at://${did}/app.bsky.feed.post/${postKey}`;
        const rkey = repostRkey(uri);
        assert.ok(isTid(rkey));
        assert.equal(repostRkey(uri), rkey);
        assert.notEqual(rkey, postKey);
        assert.equal(msOf(rkey), BigInt(parts.ms));
      }),
    );
  });

  test('works for a subject whose key is not a TID', () => {
    const rkey = repostRkey('at://did:plc:abc/app.bsky.feed.post/self');
    assert.ok(isTid(rkey));
    assert.equal(repostRkey('at://did:plc:abc/app.bsky.feed.post/self'), rkey);
  });
});

describe('TID encoding', () => {
  test('round-trips and keeps the top bit clear', () => {
    fc.assert(
      fc.property(fc.bigInt(0n, 2n ** 53n - 1n), fc.integer({ min: 0, max: 1023 }), (micros, clockId) => {
        const tid = encodeTid(micros, clockId);
        assert.match(tid, /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/);
        assert.deepEqual(decodeTid(tid), { micros, clockId });
      }),
    );
  });

  test('matches the spec’s alphabet at the edges', () => {
    assert.equal(encodeTid(0n, 0), '2222222222222');
    assert.ok(isTid('3jzfcijpj2z2a')); // example from atproto.com/specs/tid
    assert.ok(!isTid('kjzfcijpj2z2a')); // top bit set
    assert.throws(() => encodeTid(2n ** 53n, 0), RangeError);
    assert.throws(() => encodeTid(0n, 1024), RangeError);
  });
});

function randomInt(bound: number): number {
  return Math.floor(Math.random() * bound);
}

function randomBigInt62(): bigint {
  return (BigInt(randomInt(2 ** 31)) << 31n) | BigInt(randomInt(2 ** 31));
}
