/**
 * Keyset pages of List Posts (docs/api.md, "Paging"): walking every page gives the unpaged
 * answer, threads at the same time included; a thread deleted between pages is skipped and no
 * other is; bad limit and cursor are 400s naming them; a page costs the round trips of the
 * unpaged read; a range over the unpaged cap is a 400 at limit, never a cut answer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { LIST_POSTS_UNPAGED_MAX } from '../../src/services/threads/thread-list.js';
import { describeEachDb } from '../helpers/context.js';
import { RoundTripCounter, untilKeyCached, untilThreadViewsListening } from '../helpers/round-trips.js';
import { type UserWithProvider, userWithProvider } from '../helpers/seeds.js';

const counter = new RoundTripCounter();
const RANGE = 'from=2026-12-01T00:00:00Z&to=2026-12-31T23:59:59Z';

/** Threads at these times (December 2026, `HH:MM` of the 1st), created in one import. */
async function threadsAt(f: UserWithProvider, times: readonly string[], tags = false): Promise<void> {
  for (let i = 0; i < times.length; i += 1000) {
    const rows = times.slice(i, i + 1000).map((time, j) => ({
      providerId: f.providerId,
      scheduleAt: `2026-12-01T${time}:00Z`,
      posts: [{ text: `thread ${i + j}` }],
      ...(tags ? { tags: [`t${(i + j) % 3}`] } : {}),
    }));
    const res = await f.user.call(f.app, { method: 'POST', url: '/api/v1/posts/import', payload: rows });
    assert.equal(res.statusCode, 201, res.body);
  }
}

function list(f: UserWithProvider, query: string): Promise<LightMyRequestResponse> {
  return f.user.call(f.app, { method: 'GET', url: `/api/v1/posts?${RANGE}${query}` });
}

type Listed = { threadId: string; scheduledAt: string };

/** Every page of `limit`, in order; checks each page's count and size on the way. */
async function walk(f: UserWithProvider, limit: number, extra = '', between?: (pageNo: number) => Promise<void>): Promise<Listed[]> {
  const seen: Listed[] = [];
  let cursor: string | null = null;
  for (let pageNo = 0; ; pageNo++) {
    const res = await list(f, `&limit=${limit}${extra}${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.count, body.threads.length);
    assert.ok(body.threads.length <= limit);
    seen.push(...body.threads);
    cursor = body.nextCursor;
    if (cursor === null) return seen;
    // A cursor that does not move on would page forever.
    assert.ok(seen.length < 10_000, 'the walk ends');
    assert.equal(body.threads.length, limit, 'a page before the last is full');
    await between?.(pageNo);
  }
}

async function unpaged(f: UserWithProvider, extra = ''): Promise<Listed[]> {
  const res = await list(f, extra);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal('nextCursor' in res.json(), false, 'the unpaged answer is the one api.md gives');
  return res.json().threads;
}

function paths(res: LightMyRequestResponse): string[] {
  return res
    .json()
    .errors.map((e: { path: string }) => e.path)
    .sort();
}

describeEachDb(
  'List Posts pages',
  (env) => {
    test('walking every page, threads at the same time included, gives the unpaged answer (with include=tags too)', async () => {
      const f = await userWithProvider(env);
      const times = [...Array(9).fill('09:00'), ...Array(7).fill('10:30'), '08:00', '11:00', '12:00', '12:01', ...Array(5).fill('13:00')];
      await threadsAt(f, times, true);
      const whole = await unpaged(f);
      assert.equal(whole.length, times.length);
      for (const limit of [1, 2, 3, 7, 9, 23, 24, 1000]) assert.deepEqual(await walk(f, limit), whole, `limit ${limit}`);
      const tagged = await unpaged(f, '&include=tags');
      assert.deepEqual(await walk(f, 4, '&include=tags'), tagged);
      // Within a time, by id.
      const at9 = whole.filter((t) => t.scheduledAt === '2026-12-01T09:00:00.000Z').map((t) => t.threadId);
      assert.deepEqual(at9, [...at9].sort());
    });

    test('a thread deleted between pages: none seen twice, none skipped that still exists (the cursor thread itself deleted too)', async () => {
      const f = await userWithProvider(env);
      await threadsAt(f, [...Array(6).fill('09:00'), ...Array(6).fill('10:00')]);
      const before = await unpaged(f);
      const gone = new Set<string>();
      const del = async (threadId: string) => {
        const res = await f.user.call(f.app, { method: 'DELETE', url: `/api/v1/posts/${threadId}` });
        assert.equal(res.statusCode, 200, res.body);
        gone.add(threadId);
      };
      const seen = await walk(f, 4, '', async (pageNo) => {
        // After page 0: the last thread shown (the cursor's) and one not yet shown; after page 1, one at the next time.
        if (pageNo === 0) {
          await del(before[3]!.threadId);
          await del(before[5]!.threadId);
        }
        if (pageNo === 1) await del(before[10]!.threadId);
      });
      const ids = seen.map((t) => t.threadId);
      assert.equal(new Set(ids).size, ids.length, 'no thread twice');
      const expected = before.filter((t, i) => i <= 3 || !gone.has(t.threadId)).map((t) => t.threadId);
      assert.deepEqual(ids, expected);
      assert.deepEqual(
        await unpaged(f),
        before.filter((t) => !gone.has(t.threadId)),
      );
    });

    test('property: for any times and limit, the pages joined are the unpaged answer', async () => {
      const base = await userWithProvider(env);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom('09:00', '09:01', '10:00', '23:59'), { minLength: 0, maxLength: 14 }),
          fc.integer({ min: 1, max: 6 }),
          async (times, limit) => {
            // A user of its own per run: its list holds this run's threads only.
            const f = await userWithProvider(() => ({ app: base.app, ctx: base.ctx }));
            if (times.length) await threadsAt(f, times);
            const whole = await unpaged(f);
            assert.equal(whole.length, times.length);
            assert.deepEqual(await walk(f, limit), whole);
          },
        ),
        { numRuns: 12 },
      );
    });

    test('bad limit or cursor: a 400 naming each, with the range faults in the same answer', async () => {
      const f = await userWithProvider(env);
      await threadsAt(f, ['09:00', '09:00', '09:00']);
      for (const limit of ['0', '1001', 'abc', '-1', '1.5', '', '99999999']) {
        const res = await list(f, `&limit=${encodeURIComponent(limit)}`);
        assert.equal(res.statusCode, 400, `limit=${limit}: ${res.body}`);
        assert.deepEqual(paths(res), ['limit'], res.body);
      }
      const first = (await list(f, '&limit=1')).json();
      const good = first.nextCursor as string;
      const forged = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');
      const [, scope] = JSON.parse(Buffer.from(good, 'base64url').toString());
      const bad = [
        'not a cursor!',
        'bm90IGpzb24',
        forged({ a: 1 }),
        forged(['posts', scope, '2026-12-01T09:00:00.000000Z']),
        forged(['posts', scope, '2026-13-01T09:00:00.000000Z', 'x']),
        forged(['posts', scope, '2026-12-01T09:00:00Z', 'x']),
        forged(['posts', scope, '2026-12-01T09:00:00.000000Z', 'a\u0000b']),
        forged(['attention', scope, '2026-12-01T09:00:00.000000Z', 'x']),
        forged(['posts', 'another-qry', '2026-12-01T09:00:00.000000Z', 'x']),
      ];
      for (const cursor of bad) {
        const res = await list(f, `&cursor=${encodeURIComponent(cursor)}`);
        assert.equal(res.statusCode, 400, `${cursor}: ${res.body}`);
        assert.deepEqual(paths(res), ['cursor'], res.body);
      }
      // Another query's cursor: another range, another provider filter.
      const otherRange = await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts?from=2026-12-01T00:00:00Z&to=2026-12-30T00:00:00Z&cursor=${good}` });
      assert.deepEqual(paths(otherRange), ['cursor'], otherRange.body);
      const otherProvider = await list(f, `&providerId=${f.providerId}&cursor=${good}`);
      assert.deepEqual(paths(otherProvider), ['cursor'], otherProvider.body);
      // Every fault at once.
      const all = await f.user.call(f.app, { method: 'GET', url: '/api/v1/posts?from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z&limit=0&cursor=zz%21' });
      assert.equal(all.statusCode, 400);
      assert.deepEqual(paths(all), ['cursor', 'from', 'limit'], all.body);
      // The good cursor still works, alone (a default page of 100) and with a limit.
      assert.equal((await list(f, `&cursor=${good}`)).json().count, 2);
      assert.deepEqual((await list(f, `&cursor=${good}&limit=5`)).json().nextCursor, null);
    });

    test('a page costs the round trips of the unpaged read', async () => {
      const f = await userWithProvider(env);
      await threadsAt(f, ['09:00', '09:00', '10:00', '11:00', '12:00']);
      const get = () => list(f, '');
      await untilKeyCached(f.ctx, f.user.key, get);
      await untilThreadViewsListening(counter, get);
      f.ctx.threadViews.changedHere();
      const whole = await counter.measure(async () => assert.equal((await get()).statusCode, 200));
      const first = await counter.measure(async () => assert.equal((await list(f, '&limit=2')).statusCode, 200));
      const cursor = (await list(f, '&limit=2')).json().nextCursor;
      const next = await counter.measure(async () => assert.equal((await list(f, `&limit=2&cursor=${cursor}`)).statusCode, 200));
      assert.equal(whole.count, 1, whole.statements.join('\n'));
      assert.equal(first.count, whole.count, first.statements.join('\n'));
      assert.equal(next.count, whole.count, next.statements.join('\n'));
    });

    test(`unpaged: up to ${LIST_POSTS_UNPAGED_MAX} threads answered whole; one more is a 400 at limit naming the range, and pages answer it`, async () => {
      const f = await userWithProvider(env);
      const times = Array.from(
        { length: LIST_POSTS_UNPAGED_MAX },
        (_, i) => `${String(Math.floor(i / 60) % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
      );
      await threadsAt(f, times);
      assert.equal((await unpaged(f)).length, LIST_POSTS_UNPAGED_MAX);
      await threadsAt(f, ['23:59']);
      const over = await list(f, '');
      assert.equal(over.statusCode, 400, over.body);
      assert.deepEqual(paths(over), ['limit']);
      assert.match(
        over.json().errors[0].message,
        /2026-12-01T00:00:00\.000Z – 2026-12-31T23:59:59\.000Z holds more than 2000 threads; page it with limit and cursor/,
      );
      const pages = await walk(f, 1000);
      assert.equal(pages.length, LIST_POSTS_UNPAGED_MAX + 1);
      assert.equal(new Set(pages.map((t) => t.threadId)).size, pages.length);
    });
  },
  { countRoundTrips: counter },
);
