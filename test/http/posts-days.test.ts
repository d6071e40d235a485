/**
 * Threads per local day (GET /api/v1/posts/days): the counts are List Posts' threads of the same
 * range grouped by the local date of the account's zone, around DST changes too; filters, bad
 * input, roles and round trips.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { setTeamMember } from '../../src/services/accounts/members.js';
import { describeEachDb } from '../helpers/context.js';
import { RoundTripCounter } from '../helpers/round-trips.js';
import { createProvider, createTeamWith, createUser, rowCounts, type TestUser } from '../helpers/seeds.js';
import { until } from '../helpers/wait.js';

const counter = new RoundTripCounter();

interface Day {
  date: string;
  threads: number;
  byStatus: Record<string, number>;
  pendingApproval: number;
  rejected: number;
}

function days(app: FastifyInstance, user: TestUser, query: string) {
  return user.call(app, { method: 'GET', url: `/api/v1/posts/days?${query}` });
}

async function importRows(app: FastifyInstance, user: TestUser, rows: object[], teamId?: string) {
  const res = await user.call(app, { method: 'POST', url: `/api/v1/posts/import${teamId ? `?teamId=${teamId}` : ''}`, payload: rows });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** The local date of an instant in a zone, as the calendar shows it (Intl, not the database). */
function localDate(instant: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** List Posts' threads of the range (paged), grouped by local date as the days answer should be. */
async function expectedFromList(app: FastifyInstance, user: TestUser, query: string, zone: string): Promise<Day[]> {
  const byDate = new Map<string, Day>();
  let cursor: string | null = null;
  do {
    const res = await user.call(app, { method: 'GET', url: `/api/v1/posts?${query}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}` });
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json();
    for (const t of page.threads as Array<{ scheduledAt: string; status: string; approval: { state: string } | null }>) {
      const date = localDate(t.scheduledAt, zone);
      let day = byDate.get(date);
      if (!day) {
        day = { date, threads: 0, byStatus: { READY: 0, PUBLISHING: 0, PUBLISHED: 0, FAILED: 0 }, pendingApproval: 0, rejected: 0 };
        byDate.set(date, day);
      }
      day.threads++;
      day.byStatus[t.status]!++;
      if (t.approval?.state === 'PENDING') day.pendingApproval++;
      if (t.approval?.state === 'REJECTED') day.rejected++;
    }
    cursor = page.nextCursor;
  } while (cursor);
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

// DST changes of 2026 in zones that have them (and two that have none), with the local midnight
// of the day before: threads are put within three days either side, where a date computed in
// UTC or with a fixed offset would be wrong.
const ZONES = [
  { zone: 'Europe/Berlin', change: '2026-03-29T01:00:00Z' },
  { zone: 'Europe/Berlin', change: '2026-10-25T01:00:00Z' },
  { zone: 'America/New_York', change: '2026-03-08T07:00:00Z' },
  { zone: 'America/New_York', change: '2026-11-01T06:00:00Z' },
  { zone: 'Australia/Lord_Howe', change: '2026-04-04T15:00:00Z' },
  { zone: 'Pacific/Chatham', change: '2026-09-26T14:00:00Z' },
  { zone: 'Asia/Kolkata', change: '2026-06-01T00:00:00Z' },
  { zone: 'Pacific/Kiritimati', change: '2026-06-01T00:00:00Z' },
];
const HOUR = 3_600_000;

describeEachDb(
  'threads per local day',
  (env) => {
    test('property: the counts are List Posts grouped by the local date of the account zone, around DST changes', async () => {
      const { app, ctx, clock } = env();
      clock.set('2026-01-01T00:00:00.000Z');
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ZONES),
          fc.array(fc.tuple(fc.integer({ min: -72 * 60, max: 72 * 60 }), fc.constantFrom('READY', 'PUBLISHED', 'FAILED')), { minLength: 1, maxLength: 40 }),
          async ({ zone, change }, threads) => {
            const user = await createUser(ctx, { timezone: zone });
            const provider = await createProvider(ctx, user.account);
            const at = (minutes: number) => new Date(Date.parse(change) + minutes * 60_000).toISOString();
            const created = await importRows(
              app,
              user,
              threads.map(([minutes], i) => ({ providerId: provider.id, scheduleAt: at(minutes), posts: [{ text: `t${i}` }] })),
            );
            // Statuses the publisher would have set.
            const ids: string[] = created.threads.map((t: { threadId: string }) => t.threadId);
            for (const [i, [, status]] of threads.entries())
              if (status !== 'READY') await ctx.db.updateTable('threads').set({ status }).where('id', '=', ids[i]!).execute();
            // A range in local times of the zone, a few hours inside the threads' span at either end.
            const from = localDate(at(-60 * 60), zone);
            const to = localDate(at(60 * 60), zone);
            const query = `from=${from}T05:00:00&to=${to}T19:30:00`;
            const res = await days(app, user, query);
            assert.equal(res.statusCode, 200, res.body);
            const body = res.json();
            const expected = await expectedFromList(app, user, query, zone);
            assert.deepEqual(body.days, expected);
            assert.equal(body.timeZone, zone);
            assert.equal(body.count, expected.length);
            assert.equal(
              body.threads,
              expected.reduce((n, d) => n + d.threads, 0),
            );
          },
        ),
        { numRuns: 12 },
      );
    });

    test('a day of each status and approval; filters by provider, tag and team; days without threads left out', async () => {
      const { app, ctx, clock } = env();
      clock.set('2026-11-01T00:00:00.000Z');
      const owner = await createUser(ctx, { timezone: 'Europe/Berlin' });
      const writer = await createUser(ctx, { timezone: 'Europe/Berlin' });
      const team = await createTeamWith(ctx, owner.account, [writer.account], 'writer');
      const a = await createProvider(ctx, owner.account, 'THREADS', team.id);
      const b = await createProvider(ctx, owner.account, 'BLUESKY', team.id);
      const mine = await createProvider(ctx, owner.account);
      const t = `teamId=${team.id}`;
      // 23:30 Berlin on the 2nd is the 2nd there, the 2nd 22:30 UTC.
      await importRows(
        app,
        owner,
        [
          { providerId: a.id, scheduleAt: '2026-11-02T23:30:00', posts: [{ text: 'late' }], tags: ['Launch'] },
          { providerId: a.id, scheduleAt: '2026-11-03T00:30:00', posts: [{ text: 'early' }] },
          { providerId: b.id, scheduleAt: '2026-11-03T09:00:00', posts: [{ text: 'b' }], tags: ['launch'] },
          { providerId: b.id, scheduleAt: '2026-11-10T09:00:00', posts: [{ text: 'failed' }] },
        ],
        team.id,
      );
      // A writer's threads wait for approval; one of them is rejected.
      const waiting = await importRows(
        app,
        writer,
        [
          { providerId: a.id, scheduleAt: '2026-11-03T10:00:00', posts: [{ text: 'w1' }] },
          { providerId: a.id, scheduleAt: '2026-11-03T11:00:00', posts: [{ text: 'w2' }] },
        ],
        team.id,
      );
      const rejected = await owner.call(app, { method: 'POST', url: `/api/v1/posts/${waiting.threads[1].threadId}/reject`, payload: {} });
      assert.equal(rejected.statusCode, 200, rejected.body);
      await ctx.db
        .updateTable('threads')
        .set({ status: 'FAILED' })
        .where('provider_id', '=', b.id)
        .where('scheduled_at', '>', new Date('2026-11-05'))
        .execute();
      await importRows(app, owner, [{ providerId: mine.id, scheduleAt: '2026-11-03T09:00:00', posts: [{ text: 'personal' }] }], 'personal');
      // A draft has no day.
      await owner.call(app, { method: 'POST', url: `/api/v1/posts?${t}`, payload: { providerId: a.id, posts: [{ text: 'draft' }] } });

      const range = 'from=2026-11-01T00:00:00&to=2026-11-30T23:59:59';
      const all = await days(app, owner, `${range}&${t}`);
      assert.equal(all.statusCode, 200, all.body);
      const zero = { READY: 0, PUBLISHING: 0, PUBLISHED: 0, FAILED: 0 };
      assert.deepEqual(all.json(), {
        timeZone: 'Europe/Berlin',
        days: [
          { date: '2026-11-02', threads: 1, byStatus: { ...zero, READY: 1 }, pendingApproval: 0, rejected: 0 },
          { date: '2026-11-03', threads: 4, byStatus: { ...zero, READY: 4 }, pendingApproval: 1, rejected: 1 },
          { date: '2026-11-10', threads: 1, byStatus: { ...zero, FAILED: 1 }, pendingApproval: 0, rejected: 0 },
        ],
        count: 3,
        threads: 6,
      });
      // The same as List Posts grouped by local day.
      assert.deepEqual(all.json().days, await expectedFromList(app, owner, `${range}&${t}`, 'Europe/Berlin'));
      // By provider.
      const onlyB = (await days(app, owner, `${range}&${t}&providerId=${b.id}`)).json();
      assert.deepEqual(
        onlyB.days.map((d: Day) => [d.date, d.threads]),
        [
          ['2026-11-03', 1],
          ['2026-11-10', 1],
        ],
      );
      // By tag.
      const tags = (await owner.call(app, { method: 'GET', url: `/api/v1/tags?${t}` })).json().tags;
      const launch = tags.find((g: { name: string }) => g.name.toLowerCase() === 'launch');
      const tagged = (await days(app, owner, `${range}&${t}&tagId=${launch.id}`)).json();
      assert.deepEqual(
        tagged.days.map((d: Day) => [d.date, d.threads]),
        [
          ['2026-11-02', 1],
          ['2026-11-03', 1],
        ],
      );
      // List Posts takes the same tag (paged, unpaged); its cursor is good for that tag alone.
      assert.deepEqual(tagged.days, await expectedFromList(app, owner, `${range}&${t}&tagId=${launch.id}`, 'Europe/Berlin'));
      const list = (query: string) => owner.call(app, { method: 'GET', url: `/api/v1/posts?${range}&${t}&${query}` });
      const unpaged = (await list(`tagId=${launch.id}`)).json();
      assert.deepEqual(
        unpaged.threads.map((x: { posts: Array<{ content: string }> }) => x.posts[0]!.content),
        ['late', 'b'],
      );
      assert.equal((await list('tagId=nope')).json().count, 0);
      const first = (await list(`tagId=${launch.id}&limit=1`)).json();
      assert.equal(first.threads[0].posts[0].content, 'late');
      const second = (await list(`tagId=${launch.id}&limit=1&cursor=${first.nextCursor}`)).json();
      assert.equal(second.threads[0].posts[0].content, 'b');
      const otherQuery = await list(`limit=1&cursor=${first.nextCursor}`);
      assert.equal(otherQuery.statusCode, 400, otherQuery.body);
      assert.equal(otherQuery.json().errors[0].path, 'cursor');
      // The personal workspace is its own; `to` is inclusive, from too, offsets are read.
      const personal = (await days(app, owner, 'from=2026-11-03T09:00:00&to=2026-11-03T08:00:00Z&teamId=personal')).json();
      assert.deepEqual(
        personal.days.map((d: Day) => [d.date, d.threads]),
        [['2026-11-03', 1]],
      );
      // A viewer reads; the writer too.
      const viewer = await createUser(ctx, { timezone: 'UTC' });
      await setTeamMember(ctx, team.id, viewer.account, 'viewer');
      const asViewer = await days(app, viewer, `${range}&${t}`);
      assert.equal(asViewer.statusCode, 200, asViewer.body);
      // In the viewer's own zone (UTC), the 23:30 Berlin thread is on the 2nd 22:30 UTC, 00:30 on the 2nd 23:30.
      assert.deepEqual(
        asViewer.json().days.map((d: Day) => [d.date, d.threads]),
        [
          ['2026-11-02', 2],
          ['2026-11-03', 3],
          ['2026-11-10', 1],
        ],
      );
      assert.equal(asViewer.json().timeZone, 'UTC');
      assert.equal((await days(app, writer, `${range}&${t}`)).statusCode, 200);
      // Outside the team: 404, as List Posts.
      const stranger = await createUser(ctx);
      const outside = await days(app, stranger, `${range}&${t}`);
      assert.equal(outside.statusCode, 404, outside.body);
      assert.equal((await stranger.call(app, { method: 'GET', url: `/api/v1/posts?${range}&${t}` })).statusCode, 404);
      // Nothing in the range: no days.
      assert.deepEqual((await days(app, owner, `from=2027-01-01T00:00:00&to=2027-01-31T00:00:00&${t}`)).json(), {
        timeZone: 'Europe/Berlin',
        days: [],
        count: 0,
        threads: 0,
      });
    });

    test('bad input: a 400 naming each field, nothing written', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const other = await createUser(ctx);
      const theirs = await createProvider(ctx, other.account);
      const before = await rowCounts(ctx);
      const range = 'from=2026-12-01T00:00:00&to=2026-12-31T00:00:00';
      for (const [query, paths] of [
        ['from=2026-12-01T00:00:00&to=2027-02-01T00:00:01', ['to']],
        ['from=2026-12-01T00:00:00&to=2027-02-01T00:00:00', null],
        ['from=2026-12-30T00:00:00&to=2026-12-01T00:00:00', ['from']],
        ['from=yesterday&to=tomorrow', ['from', 'to']],
        ['from=2026-12-01T00:00:00', ['to']],
        ['to=2026-12-01T00:00:00', ['from']],
        ['from=2026-02-30T00:00:00&to=2026-03-01T00:00:00', ['from']],
        [`${range}&providerId=${theirs.id}`, ['providerId']],
        [`${range}&providerId=nope`, ['providerId']],
        [`${range}&tagId=nope`, ['tagId']],
        [`${range}&providerId=nope&tagId=nope`, ['providerId', 'tagId']],
        [`${range}&providerId=${provider.id}`, null],
      ] as const) {
        const res = await days(app, user, query);
        if (paths === null) {
          assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
          continue;
        }
        assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
        assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
        assert.deepEqual(
          res
            .json()
            .errors.map((e: { path: string }) => e.path)
            .sort(),
          [...paths].sort(),
          `${query}: ${res.body}`,
        );
      }
      // Another workspace's tag is not this one's.
      const theirTag = await other.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: theirs.id, posts: [{ text: 'x' }], tags: ['theirs'] },
      });
      assert.equal(theirTag.statusCode, 201, theirTag.body);
      const tagId = (await other.call(app, { method: 'GET', url: '/api/v1/tags' })).json().tags[0].id;
      const foreign = await days(app, user, `${range}&tagId=${tagId}`);
      assert.equal(foreign.statusCode, 400, foreign.body);
      assert.equal(foreign.json().errors[0].path, 'tagId');
      const after = await rowCounts(ctx);
      // Only the other user's draft (and its tag) were written.
      assert.equal(after.threads, before.threads! + 1);
    });

    test('round trips: one statement after the workspace (two for a team: its membership, then the counts)', async () => {
      const { app, ctx, clock } = env();
      clock.set('2026-11-01T00:00:00.000Z');
      const user = await createUser(ctx);
      const team = await createTeamWith(ctx, user.account);
      const provider = await createProvider(ctx, user.account, 'THREADS', team.id);
      await importRows(
        app,
        user,
        Array.from({ length: 50 }, (_, i) => ({
          providerId: provider.id,
          scheduleAt: new Date(Date.parse('2026-11-02T00:00:00Z') + i * 7 * HOUR).toISOString(),
          posts: [{ text: `${i}` }],
        })),
        team.id,
      );
      const range = 'from=2026-11-01T00:00:00&to=2026-12-12T23:59:59';
      // The key is read once, then served from the key cache.
      await days(app, user, `${range}&teamId=personal`);
      const personal = await counter.measure(async () => assert.equal((await days(app, user, `${range}&teamId=personal&tagId=x`)).statusCode, 400));
      assert.equal(personal.count, 1, personal.statements.join('\n'));
      let answer: { threads: number } | undefined;
      const inTeam = await counter.measure(async () => {
        answer = (await days(app, user, `${range}&teamId=${team.id}&providerId=${provider.id}`)).json();
      });
      assert.equal(answer!.threads, 50);
      assert.equal(inTeam.count, 2, inTeam.statements.join('\n'));
      // The same answer again is kept by the thread view cache (as List Posts'): no statement.
      const url = `${range}&teamId=${team.id}&providerId=${provider.id}`;
      const again = await counter.measure(async () => assert.equal((await days(app, user, url)).json().threads, 50));
      assert.equal(again.count, 0, again.statements.join('\n'));
      // Any change of a thread drops it: the next answer counts the new thread.
      await importRows(app, user, [{ providerId: provider.id, scheduleAt: '2026-11-20T10:00:00Z', posts: [{ text: 'one more' }] }], team.id);
      await until('the change to be heard', async () => (await days(app, user, url)).json().threads === 51);
    });
  },
  { countRoundTrips: counter },
);
