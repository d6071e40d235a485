import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';

const POST_FIELDS = [
  'analytics',
  'autoRepostDelay',
  'content',
  'contentWarning',
  'error',
  'id',
  'images',
  'isSpoilerMedia',
  'langs',
  'linkPreview',
  'permaLink',
  'poll',
  'postMedia',
  'postOrder',
  'publishedAt',
  'quote',
  'spoilerRanges',
  'status',
  'topic',
];
const THREAD_FIELDS = [
  'approval',
  'posts',
  'provider',
  'providerUserId',
  'quotesDisabled',
  'repeat',
  'replyControl',
  'scheduledAt',
  'series',
  'status',
  'threadId',
];
// api.md 2.3, exactly: a draft post has these fields and no other (the options are Get Thread's).
const DRAFT_POST_FIELDS = ['content', 'id', 'images', 'isSpoilerMedia', 'postMedia', 'postOrder', 'spoilerRanges', 'topic'];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachDb('posts API', (env) => {
  async function setup(kind: 'THREADS' | 'BLUESKY' = 'THREADS', timezone = 'UTC') {
    const { ctx } = env();
    const user = await createUser(ctx, { timezone });
    const provider = await createProvider(ctx, user.account, kind);
    return { user, provider };
  }

  test('create a scheduled thread, then read it back with exact fields', async () => {
    const { app } = env();
    const { user, provider } = await setup();
    const res = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: {
        providerId: provider.id,
        scheduleAt: '2026-11-23T09:30:00',
        autoRepost: { enabled: true, delays: ['6'] },
        posts: [
          {
            text: 'first',
            topic: 'News',
            media: [{ url: 'https://img.example/a.png', altText: 'an a' }],
            spoilerRanges: [{ offset: 0, length: 3 }],
            isSpoilerMedia: true,
          },
          { text: 'second' },
        ],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.deepEqual(Object.keys(created).sort(), ['autoPlugApplied', 'postCount', 'scheduledAt', 'status', 'threadId']);
    assert.equal(created.status, 'scheduled');
    assert.equal(created.scheduledAt, '2026-11-23T09:30:00.000Z');
    assert.equal(created.postCount, 2);
    assert.equal(created.autoPlugApplied, false);

    const got = await user.call(app, { method: 'GET', url: `/api/v1/posts/${created.threadId}` });
    assert.equal(got.statusCode, 200);
    const { thread } = got.json();
    assert.deepEqual(Object.keys(thread).sort(), THREAD_FIELDS);
    assert.equal(thread.status, 'READY');
    assert.equal(thread.provider, 'THREADS');
    assert.equal(thread.providerUserId, provider.provider_user_id);
    assert.match(thread.scheduledAt, ISO_MS);
    assert.equal(thread.posts.length, 2);
    const [p0, p1] = thread.posts;
    assert.deepEqual(Object.keys(p0).sort(), POST_FIELDS);
    assert.equal(p0.content, 'first');
    assert.equal(p0.postOrder, 0);
    assert.equal(p1.postOrder, 1);
    assert.deepEqual(p0.images, ['https://img.example/a.png']);
    assert.equal(p0.postMedia.length, 1);
    assert.deepEqual(Object.keys(p0.postMedia[0]).sort(), ['altText', 'id', 'type', 'url']);
    assert.equal(p0.postMedia[0].altText, 'an a');
    assert.equal(p0.postMedia[0].type, 'IMAGE');
    assert.equal(p0.topic, 'News');
    assert.equal(p1.topic, null);
    assert.deepEqual(p0.spoilerRanges, [{ offset: 0, length: 3 }]);
    assert.equal(p0.isSpoilerMedia, true);
    assert.equal(p1.isSpoilerMedia, false);
    assert.deepEqual(p0.autoRepostDelay, ['6']);
    assert.deepEqual(p1.autoRepostDelay, []);
    for (const p of thread.posts) {
      assert.equal(p.status, 'READY');
      assert.equal(p.publishedAt, null);
      assert.equal(p.permaLink, null);
      assert.equal(p.analytics, null);
      assert.equal(p.error, null);
    }
  });

  test('linkPreview: false at create is kept and shown (default true); Edit Entire Thread sets it again, an omitted one back to true', async () => {
    const { app } = env();
    const { user, provider } = await setup();
    const res = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, scheduleAt: '2026-11-23T09:30:00', posts: [{ text: 'a https://x.example', linkPreview: false }, { text: 'b' }] },
    });
    assert.equal(res.statusCode, 201, res.body);
    const threadId = res.json().threadId as string;
    const read = async () => (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts;
    const posts = await read();
    assert.deepEqual(
      posts.map((p: { linkPreview: boolean }) => p.linkPreview),
      [false, true],
    );
    const edit = await user.call(app, {
      method: 'PUT',
      url: `/api/v1/posts/${threadId}/edit`,
      payload: {
        posts: [
          { id: posts[0].id, text: 'a https://x.example' },
          { id: posts[1].id, text: 'b', linkPreview: false },
        ],
      },
    });
    assert.equal(edit.statusCode, 200, edit.body);
    assert.deepEqual(
      (await read()).map((p: { linkPreview: boolean }) => p.linkPreview),
      [true, false],
    );
    const bad = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'x', linkPreview: 'no' }] } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().errors[0].path, 'posts.0.linkPreview');
  });

  test('a draft: create without scheduleAt, listed in drafts with the draft field set', async () => {
    const { app } = env();
    const { user, provider } = await setup('BLUESKY');
    const res = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'draft 🙂' }] } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().status, 'draft');
    assert.equal(res.json().scheduledAt, null);
    const drafts = await user.call(app, { method: 'GET', url: '/api/v1/posts/drafts' });
    assert.equal(drafts.statusCode, 200);
    const body = drafts.json();
    assert.equal(body.count, 1);
    assert.deepEqual(Object.keys(body.drafts[0]).sort(), ['createdAt', 'posts', 'provider', 'providerUserId', 'threadId']);
    assert.deepEqual(Object.keys(body.drafts[0].posts[0]).sort(), DRAFT_POST_FIELDS);
    assert.match(body.drafts[0].createdAt, ISO_MS);
    const got = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${res.json().threadId}` })).json();
    assert.equal(got.thread.scheduledAt, null);
    assert.equal(got.thread.status, 'READY');
    // Drafts never appear in List Posts.
    const list = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2000-01-01T00:00:00&to=2000-12-31T00:00:00' });
    assert.equal(list.json().count, 0);
  });

  test('list posts: inclusive range, order, provider filter, local time of the account', async () => {
    const { app } = env();
    const { user, provider } = await setup('THREADS', 'Europe/Berlin');
    const other = await createProvider(env().ctx, user.account, 'BLUESKY');
    const make = async (providerId: string, scheduleAt: string) =>
      (await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId, scheduleAt, posts: [{ text: scheduleAt }] } })).json().threadId;
    const a = await make(provider.id, '2026-12-01T10:00:00'); // 09:00Z
    const b = await make(other.id, '2026-12-01T08:00:00Z');
    const c = await make(provider.id, '2026-12-02T10:00:00');
    const list = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2026-12-01T09:00:00&to=2026-12-01T10:00:00' });
    assert.equal(list.statusCode, 200, list.body);
    // 09:00 Berlin = 08:00Z (b, inclusive) … 10:00 Berlin = 09:00Z (a, inclusive)
    assert.deepEqual(
      list.json().threads.map((t: { threadId: string }) => t.threadId),
      [b, a],
    );
    assert.equal(list.json().count, 2);
    const filtered = await user.call(app, { method: 'GET', url: `/api/v1/posts?from=2026-11-30T00:00:00Z&to=2026-12-03T00:00:00Z&providerId=${provider.id}` });
    assert.deepEqual(
      filtered.json().threads.map((t: { threadId: string }) => t.threadId),
      [a, c],
    );
  });

  test('list posts range rules', async () => {
    const { app } = env();
    const { user } = await setup();
    const inverted = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2026-12-02T00:00:00&to=2026-12-01T00:00:00' });
    assert.equal(inverted.statusCode, 400);
    assert.equal(inverted.json().code, 'VALIDATION_FAILED');
    const long = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2026-01-01T00:00:00&to=2027-01-03T00:00:00' });
    assert.equal(long.statusCode, 400);
    const missing = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2026-01-01T00:00:00' });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().errors[0].path, 'to');
    const bad = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=yesterday&to=2026-01-01T00:00:00' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().errors[0].path, 'from');
  });

  test('time rules: past → SCHEDULE_IN_PAST, DST gap → INVALID_LOCAL_TIME, overlap → earlier', async () => {
    const { app } = env();
    const { user, provider } = await setup('THREADS', 'America/New_York');
    const post = (scheduleAt: string) =>
      user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, scheduleAt, posts: [{ text: 'x' }] } });
    const past = await post('2026-11-22T11:58:59Z'); // clock is 12:00:00Z
    assert.equal(past.statusCode, 400);
    assert.equal(past.json().code, 'SCHEDULE_IN_PAST');
    const withinMinute = await post('2026-11-22T11:59:30Z');
    assert.equal(withinMinute.statusCode, 201);
    const gap = await post('2027-03-14T02:30:00');
    assert.equal(gap.statusCode, 400);
    assert.equal(gap.json().code, 'INVALID_LOCAL_TIME');
    assert.equal(gap.json().errors[0].path, 'scheduleAt');
    const overlap = await post('2027-11-07T01:30:00');
    assert.equal(overlap.statusCode, 201);
    assert.equal(overlap.json().scheduledAt, '2027-11-07T05:30:00.000Z'); // EDT, the earlier one
    const withOffset = await post('2026-12-01T09:00:00.250+05:30');
    assert.equal(withOffset.json().scheduledAt, '2026-12-01T03:30:00.250Z');
  });

  test('delete a thread', async () => {
    const { app } = env();
    const { user, provider } = await setup();
    const id = (
      await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'a' }, { text: 'b' }] } })
    ).json().threadId;
    const del = await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${id}`, headers: { 'content-type': 'application/json' } });
    assert.equal(del.statusCode, 200, del.body);
    assert.deepEqual(del.json(), { deleted: true, threadId: id, postsDeleted: 2 });
    assert.equal((await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).statusCode, 404);
    assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${id}` })).statusCode, 404);
  });

  test('reschedule: moves the time, schedules a draft, refuses the past', async () => {
    const { app } = env();
    const { user, provider } = await setup();
    const id = (
      await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'a' }, { text: 'b' }] } })
    ).json().threadId;
    const res = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/reschedule`, payload: { scheduleAt: '2026-12-24T18:00:00' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { threadId: id, scheduledAt: '2026-12-24T18:00:00.000Z', postsUpdated: 2 });
    assert.equal((await user.call(app, { method: 'GET', url: '/api/v1/posts/drafts' })).json().count, 0);
    const past = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/reschedule`, payload: { scheduleAt: '2020-01-01T00:00:00' } });
    assert.equal(past.json().code, 'SCHEDULE_IN_PAST');
    const missing = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/reschedule`, payload: {} });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().errors[0].path, 'scheduleAt');
  });

  test('non-READY posts: edits and reschedule answer 409 NOT_EDITABLE; retry only for FAILED', async () => {
    const { app, ctx } = env();
    const { user, provider } = await setup();
    const id = (
      await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: '2026-11-23T00:00:00Z', posts: [{ text: 'a' }, { text: 'b' }] },
      })
    ).json().threadId;
    const thread = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread;
    const notFailed = await user.call(app, { method: 'POST', url: `/api/v1/posts/${id}/retry` });
    assert.equal(notFailed.statusCode, 409);
    // First post published, second failed: what the publisher leaves after a permanent error.
    await ctx.db
      .updateTable('posts')
      .set({ status: 'PUBLISHED', published_at: new Date(), network_post_id: 'n1', permalink: 'https://x/1' })
      .where('id', '=', thread.posts[0].id)
      .execute();
    await ctx.db
      .updateTable('posts')
      .set({ status: 'FAILED', error_code: 'INVALID_MEDIA', error_message: 'bad image' })
      .where('id', '=', thread.posts[1].id)
      .execute();
    await ctx.db.updateTable('threads').set({ status: 'FAILED' }).where('id', '=', id).execute();

    const editPublished = await user.call(app, { method: 'PATCH', url: `/api/v1/posts/${id}/posts/${thread.posts[0].id}`, payload: { content: 'new' } });
    assert.equal(editPublished.statusCode, 409);
    assert.equal(editPublished.json().code, 'NOT_EDITABLE');
    const editThread = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/edit`, payload: { posts: [{ text: 'x' }] } });
    assert.equal(editThread.json().code, 'NOT_EDITABLE');
    const resched = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/reschedule`, payload: { scheduleAt: '2026-12-01T00:00:00' } });
    assert.equal(resched.json().code, 'NOT_EDITABLE');
    const failed = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread;
    assert.equal(failed.status, 'FAILED');
    assert.deepEqual(failed.posts[1].error, { code: 'INVALID_MEDIA', message: 'bad image' });

    const retry = await user.call(app, { method: 'POST', url: `/api/v1/posts/${id}/retry`, payload: { scheduleAt: '2026-11-22T13:00:00Z' } });
    assert.equal(retry.statusCode, 200, retry.body);
    const after = retry.json().thread;
    assert.equal(after.status, 'READY');
    assert.equal(after.scheduledAt, '2026-11-22T13:00:00.000Z');
    assert.equal(after.posts[0].status, 'PUBLISHED');
    assert.equal(after.posts[1].status, 'READY');
    assert.equal(after.posts[1].error, null);
  });

  test('delete while a publish is in flight: 409 PUBLISH_IN_PROGRESS', async () => {
    const { app, ctx, clock } = env();
    const { user, provider } = await setup();
    const id = (
      await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: '2026-11-22T12:00:30Z', posts: [{ text: 'a' }] },
      })
    ).json().threadId;
    await ctx.db
      .updateTable('threads')
      .set({ status: 'PUBLISHING', locked_by: 'w1', locked_until: new Date(clock.now().getTime() + 60_000) })
      .where('id', '=', id)
      .execute();
    const del = await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${id}` });
    assert.equal(del.statusCode, 409);
    assert.equal(del.json().code, 'PUBLISH_IN_PROGRESS');
    assert.equal((await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).statusCode, 200);
  });
});
