/**
 * Recurring threads in the publisher (decisions.md "Recurring threads"): the real loop publishes
 * an occurrence and makes the next in the transaction that completes (or fails) it; the two
 * commit or roll back together, so a failure between them can neither lose the series nor make
 * two occurrences of one number.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../../src/lib/ids.js';
import { PublishError } from '../../src/networks/platform.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { createProvider, createUser } from '../helpers/seeds.js';

describeEachDb('recurring threads: the publisher', (env) => {
  async function repeating(body: object, timezone = 'UTC') {
    const { ctx, app } = env();
    const user = await createUser(ctx, { timezone });
    const provider = await createProvider(ctx, user.account);
    const res = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, ...body } });
    assert.equal(res.statusCode, 201, res.body);
    const threadId = res.json().threadId as string;
    const get = async (id: string) => {
      const r = await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` });
      assert.equal(r.statusCode, 200, r.body);
      return r.json().thread;
    };
    const series = async () =>
      ctx.db
        .selectFrom('threads')
        .select(['id', 'series_occurrence', 'status', 'scheduled_at'])
        .where('series_id', '=', threadId)
        .orderBy('series_occurrence')
        .execute();
    return { user, provider, threadId, get, series };
  }

  test('the real loop: each published occurrence makes the next at 09:00 local across the March 2027 change, a copy carrying edits; count ends it', async (t) => {
    const { ctx, clock, app } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
    const { user, provider, threadId, get, series } = await repeating(
      {
        scheduleAt: '2027-03-13T09:00:00',
        posts: [
          { text: 'evergreen', spoilerRanges: [{ offset: 0, length: 3 }] },
          { text: 'second', topic: 'news' },
        ],
        tags: ['Evergreen'],
        autoRepost: { enabled: true, delays: ['2'] },
        replyControl: 'followers',
        repeat: { every: 1, unit: 'day', count: 3 },
      },
      'America/New_York',
    );
    const hook = await user.call(app, {
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: { url: 'https://hooks.example/skein', events: ['thread.scheduled'] },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const first = await get(threadId);
    // A media row as an upload leaves it, to see it copied.
    await ctx.db
      .insertInto('media')
      .values({ id: newId(), post_id: first.posts[0].id, position: 0, url: 'https://cdn.example/a.jpg', alt_text: 'alt', type: 'IMAGE' })
      .execute();
    clock.set('2027-03-13T14:00:00Z'); // 09:00 EST
    await loop.runOnce();
    const published = await get(threadId);
    assert.equal(published.status, 'PUBLISHED');
    assert.equal(published.repeat, null, 'the rule travels with the waiting occurrence');
    assert.deepEqual(published.series, { id: threadId, occurrence: 1 });
    let rows = await series();
    assert.equal(rows.length, 2);
    const secondId = rows[1]!.id;
    const second = await get(secondId);
    assert.equal(second.scheduledAt, '2027-03-14T13:00:00.000Z', '09:00 EDT');
    assert.equal(second.status, 'READY');
    assert.deepEqual(second.series, { id: threadId, occurrence: 2 });
    assert.deepEqual(second.repeat, { every: 1, unit: 'day', until: null, count: 3 });
    assert.equal(second.replyControl, 'followers');
    assert.deepEqual(
      second.posts.map((p: { content: string; topic: string | null; status: string }) => [p.content, p.topic, p.status]),
      [
        ['evergreen', null, 'READY'],
        ['second', 'news', 'READY'],
      ],
    );
    assert.deepEqual(
      second.posts[0].postMedia.map((m: { url: string; altText: string }) => [m.url, m.altText]),
      [['https://cdn.example/a.jpg', 'alt']],
    );
    assert.deepEqual(second.posts[0].spoilerRanges, [{ offset: 0, length: 3 }]);
    assert.deepEqual(second.posts[0].autoRepostDelay, ['2']);
    const tags = await user.call(app, { method: 'GET', url: `/api/v1/posts/${secondId}/tags` });
    assert.deepEqual(
      tags.json().tags.map((x: { name: string }) => x.name),
      ['Evergreen'],
    );
    assert.notEqual(second.posts[0].id, first.posts[0].id);
    // Its webhook event, written with it.
    const events = await ctx.db.selectFrom('webhook_events').select(['type', 'data']).where('account_id', '=', user.account.id).execute();
    assert.deepEqual(events, [
      {
        type: 'thread.scheduled',
        data: { threadId: secondId, providerId: provider.id, teamId: null, scheduledAt: '2027-03-14T13:00:00.000Z', series: { id: threadId, occurrence: 2 } },
      },
    ]);

    // An edit of the waiting occurrence carries into the next ones.
    const edit = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${secondId}/edit`, payload: { posts: [{ text: 'edited' }] } });
    assert.equal(edit.statusCode, 200, edit.body);
    clock.set('2027-03-14T13:00:00Z');
    await loop.runOnce();
    rows = await series();
    assert.equal(rows.length, 3);
    const third = await get(rows[2]!.id);
    assert.equal(third.scheduledAt, '2027-03-15T13:00:00.000Z');
    assert.deepEqual(
      third.posts.map((p: { content: string }) => p.content),
      ['edited'],
    );
    assert.deepEqual(third.series, { id: threadId, occurrence: 3 });
    // The third of count 3 is the last.
    clock.set('2027-03-15T13:00:00Z');
    await loop.runOnce();
    rows = await series();
    assert.deepEqual(
      rows.map((r) => [r.series_occurrence, r.status]),
      [
        [1, 'PUBLISHED'],
        [2, 'PUBLISHED'],
        [3, 'PUBLISHED'],
      ],
    );
    assert.deepEqual((await get(rows[2]!.id)).repeat, { every: 1, unit: 'day', until: null, count: 3 });
  });

  test('a FAILED occurrence does not stop the series; retrying it later makes no second next one', async (t) => {
    const { ctx, clock, app } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w2');
    const { user, threadId, get, series } = await repeating({
      scheduleAt: '2027-01-31T10:00:00Z',
      posts: [{ text: 'monthly' }],
      repeat: { every: 1, unit: 'month', until: '2027-03-31' },
    });
    fake.faults.push(new PublishError('permanent', 'REFUSED', 'refused'));
    clock.set('2027-01-31T10:00:00Z');
    await loop.runOnce();
    assert.equal((await get(threadId)).status, 'FAILED');
    let rows = await series();
    assert.deepEqual(
      rows.map((r) => [r.series_occurrence, r.status, r.scheduled_at?.toISOString()]),
      [
        [1, 'FAILED', '2027-01-31T10:00:00.000Z'],
        [2, 'READY', '2027-02-28T10:00:00.000Z'],
      ],
    );
    const retry = await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/retry`, payload: {} });
    assert.equal(retry.statusCode, 200, retry.body);
    await loop.runOnce();
    assert.equal((await get(threadId)).status, 'PUBLISHED');
    assert.equal((await series()).length, 2, 'the retried occurrence made no other');
    // Mar 31 after Feb 28 (the series' day), then nothing after until.
    clock.set('2027-02-28T10:00:00Z');
    await loop.runOnce();
    rows = await series();
    assert.equal(rows[2]?.scheduled_at?.toISOString(), '2027-03-31T10:00:00.000Z');
    clock.set('2027-03-31T10:00:00Z');
    await loop.runOnce();
    assert.equal((await series()).length, 3, 'until 2027-03-31: no April');
  });

  test('completion and the next occurrence commit or roll back together; afterwards exactly one next, each post published once', async (t) => {
    const { ctx, clock } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w3');
    const { threadId, get, series } = await repeating({
      scheduleAt: '2026-11-22T12:00:00Z',
      posts: [{ text: 'a' }, { text: 'b' }],
      repeat: { every: 1, unit: 'week' },
    });
    // A row holding occurrence 2 already: making the next one fails after the completion was written.
    const blocker = newId();
    const original = await ctx.db.selectFrom('threads').selectAll().where('id', '=', threadId).executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('threads')
      .values({
        ...original,
        id: blocker,
        series_occurrence: 2,
        repeat_every: null,
        repeat_unit: null,
        repeat_zone: null,
        repeat_local: null,
        repeat_day: null,
        repeat_until: null,
        repeat_count: null,
        status: 'FAILED',
        scheduled_at: null,
      })
      .execute();
    await loop.runOnce();
    const after = await get(threadId);
    assert.notEqual(after.status, 'PUBLISHED', 'the completion rolled back with the failed next occurrence');
    assert.deepEqual(after.repeat, { every: 1, unit: 'week', until: null, count: null }, 'the series is not lost');
    const jobs = await ctx.db.selectFrom('jobs').select('id').where('thread_id', '=', threadId).execute();
    assert.equal(jobs.length, 0, 'no follow-up jobs of a completion that did not commit');
    assert.deepEqual(
      (await series()).map((r) => r.id),
      [threadId, blocker],
    );
    // The cause gone, the publisher finishes it: one completion, one next occurrence.
    await ctx.db.deleteFrom('threads').where('id', '=', blocker).execute();
    clock.advance(60 * 60_000);
    await loop.runOnce();
    assert.equal((await get(threadId)).status, 'PUBLISHED');
    const rows = await series();
    assert.deepEqual(
      rows.map((r) => [r.series_occurrence, r.status]),
      [
        [1, 'PUBLISHED'],
        [2, 'READY'],
      ],
    );
    assert.equal(rows[1]!.scheduled_at?.toISOString(), '2026-11-29T12:00:00.000Z');
    const mine = fake.published.filter((p) => after.posts.some((q: { id: string }) => q.id === p.postId));
    assert.deepEqual(
      mine.map((p) => p.text),
      ['a', 'b'],
      'each post published once',
    );
  });
});
