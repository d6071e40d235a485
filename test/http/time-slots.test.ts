import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ManualClock } from '../../src/lib/clock.js';
import { createTimeSlot } from '../../src/services/threads/time-slots.js';
import { createTestEnv, describeEachDb, TEST_SECRET } from '../helpers/context.js';
import { postgresSkipReason } from '../helpers/db.js';
import { createProvider, createTeamWith, createUser, rowCounts, type TestUser } from '../helpers/seeds.js';

// The test clock starts at Sunday 2026-11-22 12:00 UTC.
const NOW = '2026-11-22T12:00:00.000Z';

async function addSlot(app: FastifyInstance, user: TestUser, payload: Record<string, unknown>) {
  return user.call(app, { method: 'POST', url: '/api/v1/time-slots', payload });
}

async function next(app: FastifyInstance, user: TestUser, providerId: string, count?: number | string) {
  const query = count === undefined ? '' : `&count=${count}`;
  return user.call(app, { method: 'GET', url: `/api/v1/time-slots/next?providerId=${providerId}${query}` });
}

async function createPost(app: FastifyInstance, user: TestUser, payload: Record<string, unknown>) {
  return user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { posts: [{ text: 'queued' }], ...payload } });
}

describeEachDb('time slots and the queue', (env) => {
  test('create, list (by provider, day, time), delete; the zone defaults to the account’s and stays with the slot', async () => {
    const { app, ctx, clock } = env();
    clock.set(NOW);
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const a = await createProvider(ctx, user.account);
    const b = await createProvider(ctx, user.account, 'BLUESKY');
    const created = await addSlot(app, user, { providerId: a.id, dayOfWeek: 3, time: '09:30' });
    assert.equal(created.statusCode, 201, created.body);
    const slot = created.json();
    assert.deepEqual(Object.keys(slot).sort(), ['createdAt', 'dayOfWeek', 'id', 'providerId', 'time', 'timezone']);
    assert.deepEqual({ ...slot, id: undefined }, { id: undefined, providerId: a.id, dayOfWeek: 3, time: '09:30', timezone: 'Europe/Berlin', createdAt: NOW });
    assert.equal(
      (await addSlot(app, user, { providerId: a.id, dayOfWeek: 1, time: '18:00', timezone: 'america/new_york' })).json().timezone,
      'America/New_York',
    );
    await addSlot(app, user, { providerId: a.id, dayOfWeek: 1, time: '07:05', timezone: 'UTC' });
    await addSlot(app, user, { providerId: b.id, dayOfWeek: 7, time: '23:59' });

    // A later change of the account's zone moves no slot.
    await user.call(app, { method: 'PATCH', url: '/api/v1/account', payload: { timezone: 'Asia/Tokyo' } });
    const all = await user.call(app, { method: 'GET', url: '/api/v1/time-slots' });
    assert.equal(all.statusCode, 200, all.body);
    assert.equal(all.json().count, 4);
    const byProvider = [a.id, b.id].sort();
    const expected = [
      ...(byProvider[0] === a.id ? [] : [[b.id, 7, '23:59']]),
      [a.id, 1, '07:05'],
      [a.id, 1, '18:00'],
      [a.id, 3, '09:30'],
      ...(byProvider[0] === a.id ? [[b.id, 7, '23:59']] : []),
    ];
    assert.deepEqual(
      all.json().timeSlots.map((s: { providerId: string; dayOfWeek: number; time: string }) => [s.providerId, s.dayOfWeek, s.time]),
      expected,
    );
    assert.equal(all.json().timeSlots.find((s: { id: string }) => s.id === slot.id).timezone, 'Europe/Berlin');
    const onlyB = await user.call(app, { method: 'GET', url: `/api/v1/time-slots?providerId=${b.id}` });
    assert.deepEqual(
      onlyB.json().timeSlots.map((s: { providerId: string }) => s.providerId),
      [b.id],
    );

    const deleted = await user.call(app, { method: 'DELETE', url: `/api/v1/time-slots/${slot.id}` });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.json(), { deleted: true, id: slot.id });
    assert.equal((await user.call(app, { method: 'GET', url: `/api/v1/time-slots?providerId=${a.id}` })).json().count, 2);
    assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/time-slots/${slot.id}` })).statusCode, 404);
  });

  test('the same provider, day, time and zone twice is 409 CONFLICT; another zone or provider is another slot', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const provider = await createProvider(ctx, user.account);
    const other = await createProvider(ctx, user.account);
    assert.equal((await addSlot(app, user, { providerId: provider.id, dayOfWeek: 2, time: '10:00' })).statusCode, 201);
    const twice = await addSlot(app, user, { providerId: provider.id, dayOfWeek: 2, time: '10:00', timezone: 'Europe/Berlin' });
    assert.equal(twice.statusCode, 409, twice.body);
    assert.equal(twice.json().code, 'CONFLICT');
    assert.equal(twice.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal((await addSlot(app, user, { providerId: provider.id, dayOfWeek: 2, time: '10:00', timezone: 'UTC' })).statusCode, 201);
    assert.equal((await addSlot(app, user, { providerId: other.id, dayOfWeek: 2, time: '10:00' })).statusCode, 201);
    assert.equal((await user.call(app, { method: 'GET', url: '/api/v1/time-slots' })).json().count, 3);
  });

  test('bad input is a 400 naming the field, and writes nothing', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const before = await ctx.db
      .selectFrom('time_slots')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ dayOfWeek: 0, time: '09:00' }, 'dayOfWeek'],
      [{ dayOfWeek: 8, time: '09:00' }, 'dayOfWeek'],
      [{ dayOfWeek: '1', time: '09:00' }, 'dayOfWeek'],
      [{ dayOfWeek: 1.5, time: '09:00' }, 'dayOfWeek'],
      [{ time: '09:00' }, 'dayOfWeek'],
      [{ dayOfWeek: 1, time: '9:00' }, 'time'],
      [{ dayOfWeek: 1, time: '24:00' }, 'time'],
      [{ dayOfWeek: 1, time: '12:60' }, 'time'],
      [{ dayOfWeek: 1, time: '12:00:00' }, 'time'],
      [{ dayOfWeek: 1 }, 'time'],
      [{ dayOfWeek: 1, time: '12:00', timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      [{ dayOfWeek: 1, time: '12:00', timezone: '' }, 'timezone'],
      [{ dayOfWeek: 1, time: '12:00', timezone: 7 }, 'timezone'],
    ];
    for (const [fields, path] of cases) {
      const res = await addSlot(app, user, { providerId: provider.id, ...fields });
      assert.equal(res.statusCode, 400, `${JSON.stringify(fields)}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.ok(
        res.json().errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(fields)} names ${path}: ${res.body}`,
      );
    }
    const noProvider = await addSlot(app, user, { dayOfWeek: 1, time: '12:00' });
    assert.equal(noProvider.statusCode, 400);
    assert.equal(noProvider.json().errors[0].path, 'providerId');
    for (const count of ['0', '51', 'abc', '-1', '1.5', '']) {
      const res = await next(app, user, provider.id, count);
      assert.equal(res.statusCode, 400, `count=${count}: ${res.body}`);
      assert.equal(res.json().errors[0].path, 'count');
    }
    const noProviderId = await user.call(app, { method: 'GET', url: '/api/v1/time-slots/next' });
    assert.equal(noProviderId.statusCode, 400);
    assert.equal(noProviderId.json().errors[0].path, 'providerId');
    const after = await ctx.db
      .selectFrom('time_slots')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n));
  });

  test('another account gets 404 for everything of a provider it cannot see, and learns nothing', async () => {
    const { app, ctx } = env();
    const owner = await createUser(ctx);
    const stranger = await createUser(ctx);
    const provider = await createProvider(ctx, owner.account);
    const slot = (await addSlot(app, owner, { providerId: provider.id, dayOfWeek: 1, time: '09:00' })).json();
    const draft = (await createPost(app, owner, { providerId: provider.id })).json();
    const counts = await rowCounts(ctx);

    const answers = [
      await addSlot(app, stranger, { providerId: provider.id, dayOfWeek: 2, time: '09:00' }),
      await stranger.call(app, { method: 'GET', url: `/api/v1/time-slots?providerId=${provider.id}` }),
      await next(app, stranger, provider.id),
      await stranger.call(app, { method: 'DELETE', url: `/api/v1/time-slots/${slot.id}` }),
      await createPost(app, stranger, { providerId: provider.id, queue: true }),
      await stranger.call(app, { method: 'POST', url: `/api/v1/posts/${draft.threadId}/queue`, payload: {} }),
    ];
    for (const res of answers) {
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.json().code, 'NOT_FOUND');
      assert.ok(!res.body.includes(owner.account.email));
    }
    // Unknown ids answer the same.
    assert.equal((await stranger.call(app, { method: 'DELETE', url: '/api/v1/time-slots/0193a1b2-0000-7000-8000-000000000000' })).statusCode, 404);
    assert.equal((await next(app, stranger, 'no-such-provider')).statusCode, 404);
    assert.deepEqual((await stranger.call(app, { method: 'GET', url: '/api/v1/time-slots' })).json(), { timeSlots: [], count: 0 });
    assert.deepEqual(await rowCounts(ctx), counts);
    assert.equal((await owner.call(app, { method: 'GET', url: '/api/v1/time-slots' })).json().count, 1);
  });

  test('team members share a team provider’s slots and queue; the personal workspace does not see them', async () => {
    const { app, ctx, clock } = env();
    clock.set(NOW);
    const owner = await createUser(ctx);
    const member = await createUser(ctx);
    const outsider = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account, [member.account], 'admin');
    const provider = await createProvider(ctx, owner.account, 'THREADS', team.id);
    const made = await addSlot(app, owner, { providerId: provider.id, dayOfWeek: 1, time: '09:00', timezone: 'UTC', teamId: team.id });
    assert.equal(made.statusCode, 201, made.body);
    // Without teamId the request addresses the caller's active (here: personal) workspace.
    assert.equal((await addSlot(app, member, { providerId: provider.id, dayOfWeek: 2, time: '09:00' })).statusCode, 404);
    assert.equal((await member.call(app, { method: 'GET', url: '/api/v1/time-slots' })).json().count, 0);
    const seen = await member.call(app, { method: 'GET', url: `/api/v1/time-slots?teamId=${team.id}` });
    assert.deepEqual(
      seen.json().timeSlots.map((s: { id: string }) => s.id),
      [made.json().id],
    );
    const byMember = await addSlot(app, member, { providerId: provider.id, dayOfWeek: 2, time: '09:00', timezone: 'UTC', teamId: team.id });
    assert.equal(byMember.statusCode, 201);
    assert.equal((await outsider.call(app, { method: 'GET', url: `/api/v1/time-slots?teamId=${team.id}` })).statusCode, 404);

    const first = await createPost(app, owner, { providerId: provider.id, teamId: team.id, queue: true });
    assert.equal(first.json().scheduledAt, '2026-11-23T09:00:00.000Z');
    const second = await createPost(app, member, { providerId: provider.id, teamId: team.id, queue: true });
    assert.equal(second.json().scheduledAt, '2026-11-24T09:00:00.000Z');
    const upcoming = await member.call(app, { method: 'GET', url: `/api/v1/time-slots/next?providerId=${provider.id}&teamId=${team.id}&count=2` });
    assert.deepEqual(upcoming.json(), { providerId: provider.id, slots: ['2026-11-30T09:00:00.000Z', '2026-12-01T09:00:00.000Z'] });
    // A member may delete a slot the owner made.
    assert.equal((await member.call(app, { method: 'DELETE', url: `/api/v1/time-slots/${made.json().id}` })).statusCode, 200);
    assert.equal((await outsider.call(app, { method: 'DELETE', url: `/api/v1/time-slots/${byMember.json().id}` })).statusCode, 404);
  });

  test('next: free instants after now, default 5; scheduled threads take theirs, drafts and other providers do not', async () => {
    const { app, ctx, clock } = env();
    clock.set(NOW);
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const provider = await createProvider(ctx, user.account);
    const other = await createProvider(ctx, user.account);
    assert.deepEqual((await next(app, user, provider.id)).json(), { providerId: provider.id, slots: [] });
    // Sunday 13:00 Berlin = 12:00 UTC = now: not after now.
    for (const [dayOfWeek, time] of [
      [7, '13:00'],
      [7, '13:01'],
      [1, '08:00'],
    ] as const)
      await addSlot(app, user, { providerId: provider.id, dayOfWeek, time });
    const five = await next(app, user, provider.id);
    assert.equal(five.statusCode, 200, five.body);
    assert.deepEqual(five.json().slots, [
      '2026-11-22T12:01:00.000Z',
      '2026-11-23T07:00:00.000Z',
      '2026-11-29T12:00:00.000Z',
      '2026-11-29T12:01:00.000Z',
      '2026-11-30T07:00:00.000Z',
    ]);
    await createPost(app, user, { providerId: provider.id, scheduleAt: '2026-11-23T08:00:00' }); // takes Monday 08:00 Berlin
    await createPost(app, user, { providerId: provider.id }); // a draft takes nothing
    await createPost(app, user, { providerId: other.id, scheduleAt: '2026-11-29T13:00:00' }); // another provider
    await createPost(app, user, { providerId: provider.id, scheduleAt: '2026-11-29T13:01:30' }); // not exactly an instant
    assert.deepEqual((await next(app, user, provider.id, 3)).json().slots, [
      '2026-11-22T12:01:00.000Z',
      '2026-11-29T12:00:00.000Z',
      '2026-11-29T12:01:00.000Z',
    ]);
    assert.equal((await next(app, user, provider.id, 50)).json().slots.length, 50);
  });

  test('free: every free instant of every provider in a range, in one request; taken ones and the past left out; bad ranges 400', async () => {
    const { app, ctx, clock } = env();
    clock.set(NOW);
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const a = await createProvider(ctx, user.account);
    const b = await createProvider(ctx, user.account, 'BLUESKY');
    const outsider = await createUser(ctx);
    const theirs = await createProvider(ctx, outsider.account);
    const free = (query: string) => user.call(app, { method: 'GET', url: `/api/v1/time-slots/free?${query}` });
    assert.deepEqual((await free('from=2026-11-22T00:00:00&to=2026-11-30T00:00:00')).json(), { slots: [], count: 0 });
    await addSlot(app, user, { providerId: a.id, dayOfWeek: 7, time: '13:00' }); // Sunday 12:00 UTC: now, not after it
    await addSlot(app, user, { providerId: a.id, dayOfWeek: 1, time: '08:00' });
    await addSlot(app, user, { providerId: b.id, dayOfWeek: 1, time: '08:00' });
    await addSlot(app, user, { providerId: b.id, dayOfWeek: 3, time: '18:30', timezone: 'America/New_York' });
    await addSlot(app, outsider, { providerId: theirs.id, dayOfWeek: 1, time: '08:00' });
    await createPost(app, user, { providerId: a.id, scheduleAt: '2026-11-30T08:00:00' }); // takes a's second Monday
    const week = await free('from=2026-11-22T00:00:00&to=2026-12-01T00:00:00');
    assert.equal(week.statusCode, 200, week.body);
    const [first, second] = [a.id, b.id].sort();
    assert.deepEqual(week.json(), {
      slots: [
        { providerId: first, at: '2026-11-23T07:00:00.000Z' },
        { providerId: second, at: '2026-11-23T07:00:00.000Z' },
        { providerId: b.id, at: '2026-11-25T23:30:00.000Z' },
        { providerId: a.id, at: '2026-11-29T12:00:00.000Z' },
        { providerId: b.id, at: '2026-11-30T07:00:00.000Z' },
      ],
      count: 5,
    });
    // `from` is inclusive, `to` too; one provider.
    const one = await free(`from=2026-11-23T08:00:00&to=2026-11-25T18:30:00-05:00&providerId=${b.id}`);
    assert.deepEqual(one.json().slots, [
      { providerId: b.id, at: '2026-11-23T07:00:00.000Z' },
      { providerId: b.id, at: '2026-11-25T23:30:00.000Z' },
    ]);
    // Bad input: a 400 naming the field.
    for (const [query, path] of [
      ['from=2026-11-22T00:00:00&to=2027-01-24T00:00:01', 'to'],
      ['from=2026-11-30T00:00:00&to=2026-11-22T00:00:00', 'from'],
      ['from=yesterday&to=2026-11-22T00:00:00', 'from'],
      ['to=2026-11-22T00:00:00', 'from'],
    ] as const) {
      const res = await free(query);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.ok(
        res.json().errors.some((e: { path: string }) => e.path === path),
        `${query}: ${res.body}`,
      );
    }
    // Another workspace's provider is not found, and its slots are never listed.
    assert.equal((await free(`from=2026-11-22T00:00:00&to=2026-12-01T00:00:00&providerId=${theirs.id}`)).statusCode, 404);
  });

  test('queue: true schedules at the next free instant; with scheduleAt, or with no free instant, it is 400 at queue', async () => {
    const { app, ctx, clock } = env();
    clock.set(NOW);
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const none = await createPost(app, user, { providerId: provider.id, queue: true });
    assert.equal(none.statusCode, 400, none.body);
    assert.deepEqual(
      none.json().errors.map((e: { path: string }) => e.path),
      ['queue'],
    );
    await addSlot(app, user, { providerId: provider.id, dayOfWeek: 1, time: '09:00' });
    const both = await createPost(app, user, { providerId: provider.id, queue: true, scheduleAt: '2026-12-01T10:00:00Z' });
    assert.equal(both.statusCode, 400);
    assert.deepEqual(
      both.json().errors.map((e: { path: string }) => e.path),
      ['queue'],
    );
    const notBool = await createPost(app, user, { providerId: provider.id, queue: 'true' });
    assert.equal(notBool.statusCode, 400);
    assert.equal(notBool.json().errors[0].path, 'queue');

    const first = await createPost(app, user, { providerId: provider.id, queue: true });
    assert.equal(first.statusCode, 201, first.body);
    const firstBody: Record<string, unknown> = first.json();
    assert.deepEqual(
      { ...firstBody, threadId: undefined },
      { threadId: undefined, status: 'scheduled', scheduledAt: '2026-11-23T09:00:00.000Z', postCount: 1, autoPlugApplied: false },
    );
    assert.equal((await createPost(app, user, { providerId: provider.id, queue: true })).json().scheduledAt, '2026-11-30T09:00:00.000Z');
    assert.equal((await createPost(app, user, { providerId: provider.id, queue: false })).json().status, 'draft');
    // A replay with the same Idempotency-Key answers the instant the first request got and takes no other.
    const keyed = () =>
      user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        headers: { 'idempotency-key': 'queue-once' },
        payload: { providerId: provider.id, queue: true, posts: [{ text: 'once' }] },
      });
    const once = (await keyed()).json();
    assert.equal(once.scheduledAt, '2026-12-07T09:00:00.000Z');
    assert.deepEqual((await keyed()).json(), once);
    assert.equal((await next(app, user, provider.id, 1)).json().slots[0], '2026-12-14T09:00:00.000Z');
    const got = await user.call(app, { method: 'GET', url: `/api/v1/posts/${first.json().threadId}` });
    assert.equal(got.json().thread.scheduledAt, '2026-11-23T09:00:00.000Z');

    // All 52 or 53 instants within 366 days taken: the next one is refused.
    const weekly = await createProvider(ctx, user.account);
    await addSlot(app, user, { providerId: weekly.id, dayOfWeek: 3, time: '12:00' });
    let taken = 0;
    for (;;) {
      const res = await createPost(app, user, { providerId: weekly.id, queue: true });
      if (res.statusCode !== 201) {
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().errors[0].path, 'queue');
        break;
      }
      taken++;
    }
    assert.equal(taken, 52);
  });

  test('POST /posts/:threadId/queue moves a draft or a scheduled READY thread; answers as Reschedule; not a published one', async () => {
    const { app, ctx, clock } = env();
    clock.set(NOW);
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    await addSlot(app, user, { providerId: provider.id, dayOfWeek: 1, time: '09:00' });
    const draft = (await createPost(app, user, { providerId: provider.id })).json().threadId;
    const queued = await user.call(app, { method: 'POST', url: `/api/v1/posts/${draft}/queue`, payload: {} });
    assert.equal(queued.statusCode, 200, queued.body);
    assert.deepEqual(queued.json(), { threadId: draft, scheduledAt: '2026-11-23T09:00:00.000Z', postsUpdated: 1 });
    // Queued again, it keeps its instant: its own instant counts as free for it.
    const again = await user.call(app, { method: 'POST', url: `/api/v1/posts/${draft}/queue` });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().scheduledAt, '2026-11-23T09:00:00.000Z');

    const scheduled = (await createPost(app, user, { providerId: provider.id, scheduleAt: '2027-03-01T17:00:00Z' })).json().threadId;
    const moved = await user.call(app, { method: 'POST', url: `/api/v1/posts/${scheduled}/queue`, payload: {} });
    assert.equal(moved.json().scheduledAt, '2026-11-30T09:00:00.000Z');
    assert.equal((await user.call(app, { method: 'GET', url: `/api/v1/posts/${scheduled}` })).json().thread.scheduledAt, '2026-11-30T09:00:00.000Z');

    await ctx.db.updateTable('threads').set({ status: 'PUBLISHED' }).where('id', '=', scheduled).execute();
    const published = await user.call(app, { method: 'POST', url: `/api/v1/posts/${scheduled}/queue`, payload: {} });
    assert.equal(published.statusCode, 409);
    assert.equal(published.json().code, 'NOT_EDITABLE');
    const bad = await user.call(app, { method: 'POST', url: `/api/v1/posts/${draft}/queue`, payload: [] });
    assert.equal(bad.statusCode, 400);
  });

  test('deleting or rescheduling a thread frees its instant; a published thread keeps it', async () => {
    const { app, ctx, clock } = env();
    clock.set(NOW);
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    await addSlot(app, user, { providerId: provider.id, dayOfWeek: 1, time: '09:00' });
    const a = (await createPost(app, user, { providerId: provider.id, queue: true })).json();
    const b = (await createPost(app, user, { providerId: provider.id, queue: true })).json();
    assert.deepEqual([a.scheduledAt, b.scheduledAt], ['2026-11-23T09:00:00.000Z', '2026-11-30T09:00:00.000Z']);
    const firstFree = async () => (await next(app, user, provider.id, 1)).json().slots[0];
    assert.equal(await firstFree(), '2026-12-07T09:00:00.000Z');

    await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${a.threadId}` });
    assert.equal(await firstFree(), '2026-11-23T09:00:00.000Z');
    await user.call(app, { method: 'PUT', url: `/api/v1/posts/${b.threadId}/reschedule`, payload: { scheduleAt: '2026-11-23T09:00:00Z' } });
    assert.equal(await firstFree(), '2026-11-30T09:00:00.000Z');
    // Published (or failed) threads stay where they were scheduled and keep the instant.
    await ctx.db.updateTable('threads').set({ status: 'PUBLISHED' }).where('id', '=', b.threadId).execute();
    assert.equal(await firstFree(), '2026-11-30T09:00:00.000Z');
    // Deleting the slot leaves the threads scheduled where they are.
    const slots = (await user.call(app, { method: 'GET', url: '/api/v1/time-slots' })).json().timeSlots;
    await user.call(app, { method: 'DELETE', url: `/api/v1/time-slots/${slots[0].id}` });
    assert.equal((await user.call(app, { method: 'GET', url: `/api/v1/posts/${b.threadId}` })).json().thread.scheduledAt, '2026-11-23T09:00:00.000Z');
    assert.deepEqual((await next(app, user, provider.id)).json().slots, []);
  });

  test('the OpenAPI document has the time-slot and queue endpoints with their schemas and problem answers', async () => {
    const { app } = env();
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const ops = {
      '/api/v1/time-slots': ['get', 'post'],
      '/api/v1/time-slots/next': ['get'],
      '/api/v1/time-slots/{id}': ['delete'],
      '/api/v1/posts/{threadId}/queue': ['post'],
    };
    for (const [path, methods] of Object.entries(ops)) {
      for (const m of methods) {
        const op = doc.paths[path]?.[m];
        assert.ok(op, `${m} ${path}`);
        assert.ok(Object.keys(op.responses).some((s) => s.startsWith('2')));
        for (const status of ['401', '404', '429'])
          assert.deepEqual(Object.keys(op.responses[status].content), ['application/problem+json'], `${m} ${path} ${status}`);
      }
    }
    const create = doc.paths['/api/v1/time-slots'].post;
    const body = create.requestBody.content['application/json'].schema;
    assert.deepEqual(body.required.sort(), ['dayOfWeek', 'providerId', 'time']);
    assert.deepEqual([body.properties.dayOfWeek.minimum, body.properties.dayOfWeek.maximum], [1, 7]);
    assert.ok(body.properties.time.pattern);
    assert.ok(create.responses['409']);
    assert.deepEqual(Object.keys(create.responses['201'].content['application/json'].schema.properties).sort(), [
      'createdAt',
      'dayOfWeek',
      'id',
      'providerId',
      'time',
      'timezone',
    ]);
    const nextParams = doc.paths['/api/v1/time-slots/next'].get.parameters.map((p: { name: string; in: string; required?: boolean }) => [
      p.name,
      p.in,
      !!p.required,
    ]);
    assert.deepEqual(nextParams.sort(), [
      ['count', 'query', false],
      ['providerId', 'query', true],
      ['teamId', 'query', false],
    ]);
    assert.equal(doc.paths['/api/v1/posts'].post.requestBody.content['application/json'].schema.properties.queue.type, 'boolean');
    assert.deepEqual(Object.keys(doc.paths['/api/v1/posts/{threadId}/queue'].post.responses['200'].content['application/json'].schema.properties).sort(), [
      'postsUpdated',
      'scheduledAt',
      'threadId',
    ]);
  });

  test('50 parallel queue: true creates for one provider take 50 different instants', async () => {
    const { app, ctx, clock } = env();
    clock.set(NOW);
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    for (let day = 1; day <= 7; day++) {
      for (const time of ['08:00', '12:00', '18:00']) await addSlot(app, user, { providerId: provider.id, dayOfWeek: day, time, timezone: 'Europe/Berlin' });
    }
    const expected = (await next(app, user, provider.id, 50)).json().slots;
    const answers = await Promise.all(Array.from({ length: 50 }, () => createPost(app, user, { providerId: provider.id, queue: true })));
    for (const res of answers) assert.equal(res.statusCode, 201, res.body);
    const instants = answers.map((r) => r.json().scheduledAt as string).sort();
    assert.equal(new Set(instants).size, 50, 'no instant given twice');
    assert.deepEqual(instants, [...expected].sort(), 'the first 50 free instants, none skipped');
  });
});

/** A real `node bin/skein.js serve` (no publisher) on the given database; resolves with its address. */
function serve(databaseUrl: string): { child: ChildProcess; address: Promise<string>; exited: Promise<number | null>; lines: string[] } {
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-serve-'));
  const child = spawn(process.execPath, ['bin/skein.js', 'serve'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      SKEIN_SECRET: TEST_SECRET,
      SKEIN_PUBLISHER: '0',
      SKEIN_DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
    },
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const address = new Promise<string>((resolve, reject) => {
    let rest = '';
    const onData = (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (found) resolve(found[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`skein serve exited (${code}) before listening:\n${lines.join('\n')}`)));
  });
  address.catch(() => {});
  return { child, address, exited, lines };
}

describe('the queue across two API processes on one PostgreSQL database', { skip: postgresSkipReason() ?? false }, () => {
  // The time limit only guards against a hang: two `skein serve` starts on a loaded machine are slow.
  test('50 parallel queue: true creates, spread over two `skein serve` processes, take 50 different instants', { timeout: 600_000 }, async () => {
    const env = await createTestEnv('postgres', { clock: new ManualClock(Date.now()) });
    const db = env.ctx.db;
    const user = await createUser(env.ctx);
    const provider = await createProvider(env.ctx, user.account);
    // Every hour of the week: the 50 instants lie within the next three days, whatever the real time is.
    for (let day = 1; day <= 7; day++) {
      for (let hour = 0; hour < 24; hour++) {
        await createTimeSlot(env.ctx, user.account, { providerId: provider.id, dayOfWeek: day, time: `${String(hour).padStart(2, '0')}:00`, timezone: 'UTC' });
      }
    }
    const url = (await db.selectNoFrom(sql<string>`current_database()`.as('name')).executeTakeFirstOrThrow()).name;
    const base = new URL(process.env.SKEIN_TEST_PG_URL!);
    base.pathname = `/${url}`;
    const servers = [serve(base.toString()), serve(base.toString())];
    try {
      const addresses = await Promise.all(servers.map((s) => s.address));
      const answers = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const res = await fetch(`${addresses[i % 2]}/api/v1/posts`, {
            method: 'POST',
            headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ providerId: provider.id, queue: true, posts: [{ text: `queued ${i}` }] }),
          });
          return { status: res.status, body: (await res.json()) as { scheduledAt: string } };
        }),
      );
      for (const a of answers) assert.equal(a.status, 201, JSON.stringify(a.body));
      const instants = answers.map((a) => a.body.scheduledAt);
      assert.equal(new Set(instants).size, 50, 'no instant given twice');
      for (const t of instants) assert.match(t, /^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/);
      const stored = await db.selectFrom('threads').select('scheduled_at').where('provider_id', '=', provider.id).execute();
      assert.equal(new Set(stored.map((r) => r.scheduled_at!.getTime())).size, 50);
    } finally {
      for (const s of servers) s.child.kill('SIGTERM');
      await Promise.all(servers.map((s) => s.exited));
      await env.close();
    }
  });
});
