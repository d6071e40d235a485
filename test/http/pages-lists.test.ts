/**
 * Keyset pages of the attention list and a webhook's deliveries (docs/api.md, "Paging"): the
 * pages joined are the unpaged answer, items at the same time included; an item resolved between
 * pages is skipped and no other is; bad limit and cursor are 400s naming them; a page costs the
 * round trips of the unpaged answer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { ATTENTION_UNPAGED_MAX } from '../../src/services/notices/attention.js';
import { describeEachDb } from '../helpers/context.js';
import { RoundTripCounter, untilKeyCached } from '../helpers/round-trips.js';
import { createProvider, type UserWithProvider, userWithProvider } from '../helpers/seeds.js';

const counter = new RoundTripCounter();

/** `count` threads of the user's provider, FAILED at the given times (round robin): each a THREAD_FAILED item. */
async function failedThreads(f: UserWithProvider, times: readonly string[], providerId = f.providerId): Promise<string[]> {
  if (times.length === 0) return [];
  const rows = times.map((_, i) => ({ providerId, scheduleAt: '2026-12-01T09:00:00Z', posts: [{ text: `thread ${i}` }] }));
  const res = await f.user.call(f.app, { method: 'POST', url: '/api/v1/posts/import', payload: rows });
  assert.equal(res.statusCode, 201, res.body);
  const ids: string[] = res.json().threads.map((t: { threadId: string }) => t.threadId);
  for (const [i, id] of ids.entries()) {
    await sql`UPDATE threads SET status = 'FAILED', last_error = 'X: failed', updated_at = ${times[i]}::timestamptz WHERE id = ${id}`.execute(f.ctx.db);
  }
  return ids;
}

type Answer = { statusCode: number; body: string; json(): any };

/** Every page of `limit` of a list at `url` (`key`: its array), checking each page on the way. */
async function walk(call: (query: string) => Promise<Answer>, key: string, limit: number, between?: (pageNo: number) => Promise<void>) {
  const seen: unknown[] = [];
  let cursor: string | null = null;
  for (let pageNo = 0; ; pageNo++) {
    const res = await call(`limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.count, body[key].length);
    seen.push(...body[key]);
    cursor = body.nextCursor;
    if (cursor === null) return seen;
    // A cursor that does not move on would page forever.
    assert.ok(seen.length < 10_000, 'the walk ends');
    assert.equal(body[key].length, limit, 'a page before the last is full');
    await between?.(pageNo);
  }
}

function paths(res: Answer): string[] {
  return res
    .json()
    .errors.map((e: { path: string }) => e.path)
    .sort();
}

const T1 = '2026-11-20T10:00:00.123456Z';
const T2 = '2026-11-21T10:00:00Z';

describeEachDb(
  'attention and deliveries pages',
  (env) => {
    test('attention: pages joined are the unpaged answer (same times across kinds), a resolved item between pages is skipped, bad limit/cursor are 400s', async () => {
      const f = await userWithProvider(env);
      const attention = (query: string) => f.user.call(f.app, { method: 'GET', url: `/api/v1/attention?${query}` });
      const ids = await failedThreads(f, [T1, T1, T1, T2, T2, T1, T2, T1]);
      // An expired account at the same instant as failed threads: a tie across kinds.
      const other = await createProvider(f.ctx, f.user.account);
      await sql`UPDATE providers SET status = 'EXPIRED', updated_at = ${T1}::timestamptz WHERE id = ${other.id}`.execute(f.ctx.db);
      const whole = await attention('');
      assert.equal(whole.statusCode, 200, whole.body);
      assert.equal('nextCursor' in whole.json(), false);
      const items = whole.json().items;
      assert.equal(items.length, 9);
      for (const limit of [1, 2, 4, 9, 10]) assert.deepEqual(await walk(attention, 'items', limit), items, `limit ${limit}`);
      // Retried between pages: the thread leaves the list; nothing else is lost or repeated.
      const retried = items[5].threadId as string;
      const seen = await walk(attention, 'items', 3, async (pageNo) => {
        if (pageNo === 0) await sql`UPDATE threads SET status = 'READY' WHERE id = ${retried}`.execute(f.ctx.db);
      });
      assert.deepEqual(
        seen,
        items.filter((i: { threadId?: string }) => i.threadId !== retried),
      );
      assert.ok(ids.includes(retried));
      for (const [query, path] of [
        ['limit=0', 'limit'],
        ['limit=x', 'limit'],
        ['cursor=%21', 'cursor'],
        [`cursor=${(await attention('limit=1')).json().nextCursor}&teamId=personal&limit=2000`, 'limit'],
      ] as const) {
        const res = await attention(query);
        assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
        assert.deepEqual(paths(res), [path], res.body);
      }
      // Another list's cursor.
      const postsCursor = (await f.user.call(f.app, { method: 'GET', url: '/api/v1/posts?from=2026-12-01T00:00:00Z&to=2026-12-02T00:00:00Z&limit=1' })).json()
        .nextCursor;
      assert.deepEqual(paths(await attention(`cursor=${postsCursor}`)), ['cursor']);
    });

    test('attention property: for any failure times and limit, the pages joined are the unpaged answer', async () => {
      const base = await userWithProvider(env);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(T1, T2, '2026-11-19T00:00:00Z'), { maxLength: 8 }), fc.integer({ min: 1, max: 4 }), async (times, limit) => {
          const f = await userWithProvider(() => ({ app: base.app, ctx: base.ctx }));
          await failedThreads(f, times);
          const attention = (query: string) => f.user.call(f.app, { method: 'GET', url: `/api/v1/attention?${query}` });
          const whole = (await attention('')).json().items;
          assert.equal(whole.length, times.length);
          assert.deepEqual(await walk(attention, 'items', limit), whole);
        }),
        { numRuns: 8 },
      );
    });

    test(`attention: more than ${ATTENTION_UNPAGED_MAX} items unpaged is a 400 at limit; pages answer them; a page costs the unpaged answer's round trips`, async () => {
      const f = await userWithProvider(env);
      const attention = (query: string) => f.user.call(f.app, { method: 'GET', url: `/api/v1/attention?${query}` });
      await failedThreads(f, [T1, T2, T2]);
      await untilKeyCached(f.ctx, f.user.key, () => attention(''));
      const whole = await counter.measure(async () => assert.equal((await attention('')).statusCode, 200));
      const cursor = (await attention('limit=1')).json().nextCursor;
      const page = await counter.measure(async () => assert.equal((await attention(`limit=1&cursor=${cursor}`)).statusCode, 200));
      assert.equal(page.count, whole.count, `${whole.statements.join('\n')}\n---\n${page.statements.join('\n')}`);
      // Over the cap: the threads made FAILED in one statement.
      const res = await f.user.call(f.app, {
        method: 'POST',
        url: '/api/v1/posts/import',
        payload: Array.from({ length: ATTENTION_UNPAGED_MAX - 2 }, (_, i) => ({
          providerId: f.providerId,
          scheduleAt: '2026-12-01T09:00:00Z',
          posts: [{ text: `t${i}` }],
        })),
      });
      assert.equal(res.statusCode, 201, res.body);
      await sql`UPDATE threads SET status = 'FAILED', updated_at = ${T1}::timestamptz WHERE provider_id = ${f.providerId}`.execute(f.ctx.db);
      const over = await attention('');
      assert.equal(over.statusCode, 400, over.body);
      assert.deepEqual(paths(over), ['limit']);
      const all = await walk(attention, 'items', 1000);
      assert.equal(all.length, ATTENTION_UNPAGED_MAX + 1);
    });

    test('deliveries: without limit the latest 100 and the cursor of the rest; pages joined are every attempt, same times included; bad limit/cursor are 400s', async () => {
      const f = await userWithProvider(env);
      const created = await f.user.call(f.app, { method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://example.com/hook', events: ['ping'] } });
      assert.equal(created.statusCode, 201, created.body);
      const webhookId = created.json().id as string;
      await sql`INSERT INTO webhook_events (id, type, account_id, team_id, data, created_at) VALUES ('ev-1', 'ping', ${f.user.account.id}, NULL, '{}', ${T1}::timestamptz)`.execute(
        f.ctx.db,
      );
      // 130 attempts: ten at each of 13 instants, ids not in time order.
      for (let i = 0; i < 130; i++) {
        const at = new Date(Date.parse('2026-11-20T00:00:00Z') + Math.floor(i / 10) * 60_000).toISOString();
        await sql`INSERT INTO webhook_attempts (id, webhook_id, event_id, attempt, status, response_status, error, at)
                  VALUES (${`att-${String((i * 37) % 130).padStart(3, '0')}`}, ${webhookId}, 'ev-1', ${i + 1}, 'FAILED', 500, 'HTTP 500', ${at}::timestamptz)`.execute(
          f.ctx.db,
        );
      }
      const deliveries = (query: string) => f.user.call(f.app, { method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries?${query}` });
      const latest = await deliveries('');
      assert.equal(latest.statusCode, 200, latest.body);
      assert.equal(latest.json().count, 100);
      assert.equal(typeof latest.json().nextCursor, 'string');
      const rest = await deliveries(`cursor=${latest.json().nextCursor}`);
      assert.equal(rest.json().count, 30);
      assert.equal(rest.json().nextCursor, null);
      const every = [...latest.json().deliveries, ...rest.json().deliveries];
      assert.deepEqual(
        every.map((d) => d.at),
        [...every.map((d) => d.at)].sort().reverse(),
        'newest first',
      );
      assert.equal(new Set(every.map((d) => d.attempt)).size, 130);
      for (const limit of [1, 7, 10, 130, 1000]) assert.deepEqual(await walk(deliveries, 'deliveries', limit), every, `limit ${limit}`);
      for (const [query, path] of [
        ['limit=1001', 'limit'],
        ['cursor=abc', 'cursor'],
        [`cursor=${(await f.user.call(f.app, { method: 'GET', url: '/api/v1/attention?limit=1' })).json().nextCursor ?? 'x'}`, 'cursor'],
      ] as const) {
        const res = await deliveries(query);
        assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
        assert.deepEqual(paths(res), [path], res.body);
      }
      // Another webhook's cursor.
      const second = await f.user.call(f.app, { method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://example.com/other', events: ['ping'] } });
      const foreign = await f.user.call(f.app, { method: 'GET', url: `/api/v1/webhooks/${second.json().id}/deliveries?cursor=${latest.json().nextCursor}` });
      assert.deepEqual(paths(foreign), ['cursor'], foreign.body);
      const unpagedTrips = await counter.measure(async () => assert.equal((await deliveries('')).statusCode, 200));
      const pageTrips = await counter.measure(async () => assert.equal((await deliveries(`limit=5&cursor=${latest.json().nextCursor}`)).statusCode, 200));
      assert.equal(pageTrips.count, unpagedTrips.count, pageTrips.statements.join('\n'));
    });
  },
  { countRoundTrips: counter },
);
