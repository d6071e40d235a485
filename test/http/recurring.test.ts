/**
 * Recurring threads through the API (decisions.md "Recurring threads"): `repeat` on Create Post
 * and Edit Entire Thread, its faults in one 400, `repeat` and `series` on Get Thread and List
 * Posts, a reschedule re-anchoring the series, on both databases.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDb } from '../helpers/context.js';
import { rowCounts, type UserWithProvider, userWithProvider } from '../helpers/seeds.js';

type Fixture = UserWithProvider;

function create(f: Fixture, body: object): Promise<LightMyRequestResponse> {
  return f.user.call(f.app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: f.providerId, posts: [{ text: 'one' }], ...body } });
}

async function get(f: Fixture, threadId: string) {
  const res = await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().thread;
}

function paths(res: LightMyRequestResponse): string[] {
  return res
    .json()
    .errors.map((e: { path: string }) => e.path)
    .sort();
}

async function stored(f: Fixture, threadId: string) {
  return f.ctx.db
    .selectFrom('threads')
    .select(['repeat_zone', 'repeat_local', 'repeat_day', 'series_id', 'series_occurrence'])
    .where('id', '=', threadId)
    .executeTakeFirstOrThrow();
}

describeEachDb('recurring threads: the API', (env) => {
  test('Create Post with repeat: Get Thread and List Posts show the rule and the series (its id the first thread id)', async () => {
    const f = await userWithProvider(env);
    const res = await create(f, { scheduleAt: '2026-12-01T09:00:00Z', repeat: { every: 2, unit: 'week', count: 5 } });
    assert.equal(res.statusCode, 201, res.body);
    const threadId = res.json().threadId;
    const thread = await get(f, threadId);
    assert.deepEqual(thread.repeat, { every: 2, unit: 'week', until: null, count: 5 });
    assert.deepEqual(thread.series, { id: threadId, occurrence: 1 });
    assert.deepEqual(await stored(f, threadId), {
      repeat_zone: 'UTC',
      repeat_local: '2026-12-01T09:00:00.000',
      repeat_day: 1,
      series_id: threadId,
      series_occurrence: 1,
    });
    const list = await f.user.call(f.app, { method: 'GET', url: '/api/v1/posts?from=2026-12-01T00:00:00Z&to=2026-12-02T00:00:00Z' });
    const listed = list.json().threads.find((t: { threadId: string }) => t.threadId === threadId);
    assert.deepEqual([listed.repeat, listed.series], [thread.repeat, thread.series]);
    // Without repeat: both null.
    const plain = await create(f, { scheduleAt: '2026-12-01T09:00:00Z' });
    const plainThread = await get(f, plain.json().threadId);
    assert.deepEqual([plainThread.repeat, plainThread.series], [null, null]);
    // repeat: null on Create Post is no repeat.
    const none = await create(f, { scheduleAt: '2026-12-01T09:00:00Z', repeat: null });
    assert.equal(none.statusCode, 201, none.body);
    assert.equal((await get(f, none.json().threadId)).repeat, null);
  });

  test('with queue: the series is anchored at the slot the queue gave', async () => {
    const f = await userWithProvider(env);
    const slot = await f.user.call(f.app, {
      method: 'POST',
      url: '/api/v1/time-slots',
      payload: { providerId: f.providerId, dayOfWeek: 3, time: '08:30', timezone: 'UTC' },
    });
    assert.equal(slot.statusCode, 201, slot.body);
    const res = await create(f, { queue: true, repeat: { every: 1, unit: 'month', until: '2027-06-30' } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().scheduledAt, '2026-11-25T08:30:00.000Z');
    assert.deepEqual((await get(f, res.json().threadId)).repeat, { every: 1, unit: 'month', until: '2027-06-30', count: null });
    assert.equal((await stored(f, res.json().threadId)).repeat_local, '2026-11-25T08:30:00.000');
    // The queue's slot after an until: a fault at repeat.until, nothing created.
    const before = await rowCounts(f.ctx);
    const late = await create(f, { queue: true, repeat: { every: 1, unit: 'day', until: '2026-11-24' } });
    assert.equal(late.statusCode, 400, late.body);
    assert.deepEqual(paths(late), ['repeat.until']);
    assert.deepEqual(await rowCounts(f.ctx), before);
  });

  test('bad repeats: every fault at its path in one 400 VALIDATION_FAILED, with the other faults; nothing created', async () => {
    const f = await userWithProvider(env);
    const before = await rowCounts(f.ctx);
    const all = await create(f, {
      posts: [{ text: '  ' }],
      scheduleAt: '2026-12-01T09:00:00Z',
      repeat: { every: 0, unit: 'year', until: '2026-02-30', count: 1 },
    });
    assert.equal(all.statusCode, 400, all.body);
    assert.equal(all.json().code, 'VALIDATION_FAILED');
    assert.deepEqual(paths(all), ['posts.0.text', 'repeat.count', 'repeat.every', 'repeat.unit', 'repeat.until']);
    const cases: Array<[object, string[]]> = [
      [{ repeat: { every: 1, unit: 'day' } }, ['repeat']], // a draft
      [{ scheduleAt: '2026-12-01T09:00:00Z', repeat: { every: 366, unit: 'day', count: 101 } }, ['repeat.count', 'repeat.every']],
      [{ scheduleAt: '2026-12-01T09:00:00Z', repeat: { every: 1.5, unit: 'day' } }, ['repeat.every']],
      [{ scheduleAt: '2026-12-01T09:00:00Z', repeat: { every: '1', unit: 'day' } }, ['repeat.every']],
      [{ scheduleAt: '2026-12-01T09:00:00Z', repeat: { unit: 'day' } }, ['repeat.every']],
      [{ scheduleAt: '2026-12-01T09:00:00Z', repeat: { every: 1, unit: 'day', until: '01/12/2026' } }, ['repeat.until']],
      [{ scheduleAt: '2026-12-01T09:00:00Z', repeat: { every: 1, unit: 'day', until: '2026-11-30' } }, ['repeat.until']], // before the first
      [{ scheduleAt: '2026-12-01T09:00:00Z', repeat: 'weekly' }, ['repeat']],
    ];
    for (const [body, expected] of cases) {
      const res = await create(f, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED', JSON.stringify(body));
      assert.deepEqual(paths(res), expected, JSON.stringify(body));
    }
    // until on the first occurrence's own local date is accepted (the account's zone decides the date).
    assert.equal((await create(f, { scheduleAt: '2026-12-01T09:00:00Z', repeat: { every: 1, unit: 'day', until: '2026-12-01' } })).statusCode, 201);
    const created = (await rowCounts(f.ctx)).threads! - before.threads!;
    assert.equal(created, 1);
  });

  test('Edit Entire Thread: sets a repeat, changes it, stops it with null; a draft cannot repeat', async () => {
    const f = await userWithProvider(env);
    const threadId = (await create(f, { scheduleAt: '2026-12-01T09:00:00Z' })).json().threadId;
    const edit = (body: object) => f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/edit`, payload: { posts: [{ text: 'one' }], ...body } });
    const set = await edit({ repeat: { every: 3, unit: 'day' } });
    assert.equal(set.statusCode, 200, set.body);
    let thread = await get(f, threadId);
    assert.deepEqual(thread.repeat, { every: 3, unit: 'day', until: null, count: null });
    assert.deepEqual(thread.series, { id: threadId, occurrence: 1 });
    // Omitted: unchanged; a new rule replaces it.
    assert.equal((await edit({})).statusCode, 200);
    assert.deepEqual((await get(f, threadId)).repeat, { every: 3, unit: 'day', until: null, count: null });
    assert.equal((await edit({ repeat: { every: 1, unit: 'month', count: 12 } })).statusCode, 200);
    assert.deepEqual((await get(f, threadId)).repeat, { every: 1, unit: 'month', until: null, count: 12 });
    // Faults in one answer with the others.
    const bad = await edit({ posts: [{ text: '' }], repeat: { every: 400, unit: 'hour' } });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.deepEqual(paths(bad), ['posts.0.text', 'repeat.every', 'repeat.unit']);
    // null: stops after this one; the thread stays in its series.
    assert.equal((await edit({ repeat: null })).statusCode, 200);
    thread = await get(f, threadId);
    assert.equal(thread.repeat, null);
    assert.deepEqual(thread.series, { id: threadId, occurrence: 1 });
    // A draft: 400 at repeat, unless the same save gives it a time.
    const draftId = (await create(f, {})).json().threadId;
    const editDraft = (body: object) =>
      f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${draftId}/edit`, payload: { posts: [{ text: 'd' }], ...body } });
    const refused = await editDraft({ repeat: { every: 1, unit: 'week' } });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.deepEqual(paths(refused), ['repeat']);
    const scheduled = await editDraft({ scheduleAt: '2026-12-07T18:15:00', repeat: { every: 1, unit: 'week' } });
    assert.equal(scheduled.statusCode, 200, scheduled.body);
    assert.deepEqual((await get(f, draftId)).repeat, { every: 1, unit: 'week', until: null, count: null });
    assert.equal((await stored(f, draftId)).repeat_local, '2026-12-07T18:15:00.000');
  });

  test('a reschedule of the waiting occurrence re-anchors the series there, in the account zone', async () => {
    const f = await userWithProvider(env);
    await f.user.call(f.app, { method: 'PATCH', url: '/api/v1/account', payload: { timezone: 'Europe/Berlin' } });
    const threadId = (await create(f, { scheduleAt: '2027-01-31T09:00:00', repeat: { every: 1, unit: 'month' } })).json().threadId;
    assert.deepEqual(await stored(f, threadId), {
      repeat_zone: 'Europe/Berlin',
      repeat_local: '2027-01-31T09:00:00.000',
      repeat_day: 31,
      series_id: threadId,
      series_occurrence: 1,
    });
    const res = await f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/reschedule`, payload: { scheduleAt: '2027-02-15T07:45:00' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await stored(f, threadId)).repeat_local, '2027-02-15T07:45:00.000');
    assert.equal((await stored(f, threadId)).repeat_day, 15);
    // Edit Entire Thread with a new time re-anchors too.
    const edit = await f.user.call(f.app, {
      method: 'PUT',
      url: `/api/v1/posts/${threadId}/edit`,
      payload: { posts: [{ text: 'one' }], scheduleAt: '2027-03-28T02:30:00Z' },
    });
    assert.equal(edit.statusCode, 200, edit.body);
    assert.equal((await stored(f, threadId)).repeat_local, '2027-03-28T04:30:00.000');
    assert.deepEqual((await get(f, threadId)).repeat, { every: 1, unit: 'month', until: null, count: null });
  });
});
