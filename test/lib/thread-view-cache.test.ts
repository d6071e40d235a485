/**
 * The thread view cache's own rules, with a signal the test drives: what is kept, per reader;
 * what a change drops; a read that raced with a change is not kept; nothing is used while the
 * instance does not listen; memory is bounded (least recently used out).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changedThreadIds, type ThreadChangeSignal } from '../../src/lib/thread-change-signal.js';
import { ThreadViewCache } from '../../src/lib/thread-view-cache.js';

class DrivenSignal implements ThreadChangeSignal {
  up = true;
  change: (ids: string[] | null) => void = () => {};
  listening(): boolean {
    return this.up;
  }
  settle(): Promise<void> {
    return Promise.resolve();
  }
  start(onChange: (ids: string[] | null) => void): void {
    this.change = onChange;
  }
  async close(): Promise<void> {}
}

function counting<T>(value: T) {
  const load = async () => {
    load.calls++;
    return value;
  };
  load.calls = 0;
  return load;
}

test('a view is kept per thread and reader, and dropped by a change to that thread or to any', async () => {
  const signal = new DrivenSignal();
  const cache = new ThreadViewCache<string, string[]>(signal);
  const a = counting('view of t1');
  assert.equal(await cache.thread('t1', 'alice', a), 'view of t1');
  assert.equal(await cache.thread('t1', 'alice', a), 'view of t1');
  assert.equal(a.calls, 1);
  // Another reader makes its own read (its access check is part of it).
  const b = counting('view of t1');
  await cache.thread('t1', 'bob', b);
  assert.equal(b.calls, 1);
  const other = counting('view of t2');
  await cache.thread('t2', 'alice', other);

  signal.change(['t1']);
  await cache.thread('t1', 'alice', a);
  await cache.thread('t2', 'alice', other);
  assert.equal(a.calls, 2, 't1 is read again');
  assert.equal(other.calls, 1, 't2 is still kept');

  signal.change(null);
  await cache.thread('t2', 'alice', other);
  assert.equal(other.calls, 2);
  cache.changedHere();
  await cache.thread('t2', 'alice', other);
  assert.equal(other.calls, 3);
});

test('a thread not found is not kept', async () => {
  const cache = new ThreadViewCache<string, string[]>(new DrivenSignal());
  const missing = counting<string | undefined>(undefined);
  await cache.thread('t1', 'alice', missing);
  await cache.thread('t1', 'alice', missing);
  assert.equal(missing.calls, 2);
});

test('a read that a change overtook is answered but not kept', async () => {
  const signal = new DrivenSignal();
  const cache = new ThreadViewCache<string, string[]>(signal);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const reads = new Promise<void>((r) => (started = r));
  let readsLeft = 2;
  const slow = async <T>(value: T) => {
    if (--readsLeft === 0) started();
    await released;
    return value;
  };
  const reading = cache.thread('t1', 'alice', () => slow('old view'));
  const list = cache.list(
    'range',
    () => slow(['old']),
    (l) => l.length,
  );
  await reads;
  signal.change(['t9']);
  release();
  assert.equal(await reading, 'old view');
  await list;
  const fresh = counting('new view');
  assert.equal(await cache.thread('t1', 'alice', fresh), 'new view');
  assert.equal(fresh.calls, 1);
  const freshList = counting(['new']);
  assert.deepEqual(await cache.list('range', freshList, (l) => l.length), ['new']);
  assert.equal(freshList.calls, 1);
});

test('reads of an answer being read share that read, unless a change came after it began', async () => {
  const signal = new DrivenSignal();
  const cache = new ThreadViewCache<string, string[]>(signal);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let calls = 0;
  const slow = async () => {
    calls++;
    const n = calls;
    await released;
    return [`read ${n}`];
  };
  const first = Array.from({ length: 50 }, () => cache.list('range', slow, (l) => l.length));
  const views = Array.from({ length: 5 }, () => cache.thread('t1', 'alice', async () => (await slow())[0]));
  // Another reader of the thread makes its own read (its access check is part of it).
  const bobs = cache.thread('t1', 'bob', async () => (await slow())[0]);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(calls, 3, 'one read for the list, one for alice, one for bob');
  // A change heard now: a read beginning after it must see it, so it does not join the earlier one.
  signal.change(['t1']);
  const after = cache.list('range', slow, (l) => l.length);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(calls, 4);
  release();
  assert.deepEqual(new Set((await Promise.all(first)).map((l) => l[0])), new Set(['read 1']));
  assert.deepEqual(new Set(await Promise.all(views)), new Set(['read 2']));
  assert.equal(await bobs, 'read 3');
  assert.deepEqual(await after, ['read 4']);
  // The read that began after the change is kept; the ones it overtook are not.
  const kept = counting(['unused']);
  assert.deepEqual(await cache.list('range', kept, (l) => l.length), ['read 4']);
  assert.equal(kept.calls, 0);
  // A failed read is shared by those that joined it, and not kept.
  let failing = 0;
  const fail = async (): Promise<string[]> => {
    failing++;
    throw new Error('the database went away');
  };
  signal.change(null);
  const failed = await Promise.allSettled([cache.list('range', fail, (l) => l.length), cache.list('range', fail, (l) => l.length)]);
  assert.deepEqual(
    failed.map((r) => r.status),
    ['rejected', 'rejected'],
  );
  assert.equal(failing, 1);
  await assert.rejects(cache.list('range', fail, (l) => l.length));
  assert.equal(failing, 2);
});

test('every change drops every List Posts answer', async () => {
  const signal = new DrivenSignal();
  const cache = new ThreadViewCache<string, string[]>(signal);
  const load = counting(['t1', 't2']);
  await cache.list('k', load, (l) => l.length);
  await cache.list('k', load, (l) => l.length);
  assert.equal(load.calls, 1);
  signal.change(['t-elsewhere']);
  await cache.list('k', load, (l) => l.length);
  assert.equal(load.calls, 2);
});

test('nothing is kept or served while the instance does not listen', async () => {
  const signal = new DrivenSignal();
  const cache = new ThreadViewCache<string, string[]>(signal);
  const load = counting('view');
  await cache.thread('t1', 'alice', load);
  signal.up = false;
  await cache.thread('t1', 'alice', load);
  await cache.thread('t1', 'alice', load);
  assert.equal(load.calls, 3);
});

test('memory is bounded: the least recently used thread and list go first', async () => {
  const cache = new ThreadViewCache<string, string[]>(new DrivenSignal(), { threads: 2, listedThreads: 5 });
  const loads = ['t1', 't2', 't3'].map((id) => counting(`view ${id}`));
  await cache.thread('t1', 'a', loads[0]!);
  await cache.thread('t2', 'a', loads[1]!);
  await cache.thread('t1', 'a', loads[0]!); // t1 used: t2 is now the oldest
  await cache.thread('t3', 'a', loads[2]!);
  await cache.thread('t1', 'a', loads[0]!);
  await cache.thread('t2', 'a', loads[1]!);
  assert.deepEqual(
    loads.map((l) => l.calls),
    [1, 2, 1],
  );

  const three = counting(['a', 'b', 'c']);
  const two = counting(['d', 'e']);
  const big = counting(['1', '2', '3', '4', '5', '6']);
  await cache.list('three', three, (l) => l.length);
  await cache.list('two', two, (l) => l.length);
  await cache.list('big', big, (l) => l.length); // more than the bound: answered, never kept
  await cache.list('big', big, (l) => l.length);
  assert.equal(big.calls, 2);
  await cache.list('three', three, (l) => l.length);
  await cache.list('two', two, (l) => l.length);
  assert.deepEqual([three.calls, two.calls], [1, 1]);
  const one = counting(['f']);
  await cache.list('one', one, (l) => l.length); // 6 > 5: the oldest (three) goes
  await cache.list('two', two, (l) => l.length);
  await cache.list('three', three, (l) => l.length);
  assert.deepEqual([three.calls, two.calls, one.calls], [2, 1, 1]);
});

test("the channel's payload: thread ids, or * for any thread", () => {
  assert.deepEqual(changedThreadIds('a,b'), ['a', 'b']);
  assert.equal(changedThreadIds('*'), null);
});
