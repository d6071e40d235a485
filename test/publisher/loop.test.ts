import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublishError } from '../../src/networks/platform.js';
import { claimDue, nextDueAt } from '../../src/publisher/claim.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { backoffMs, MAX_ATTEMPTS } from '../../src/publisher/publish-thread.js';
import { threadQueue } from '../../src/repos/thread-queue.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { createProvider, createUser } from '../helpers/seeds.js';

describeEachDb('publisher loop', (env) => {
  async function scheduled(texts: string[], at = '2026-11-22T12:00:30Z') {
    const { ctx, app } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const res = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, scheduleAt: at, posts: texts.map((text) => ({ text })) },
    });
    assert.equal(res.statusCode, 201, res.body);
    const get = async () => (await user.call(app, { method: 'GET', url: `/api/v1/posts/${res.json().threadId}` })).json().thread;
    return { user, provider, threadId: res.json().threadId as string, get };
  }

  // First in the file: it needs a database with no pending rows yet.
  test('nextDueAt: the earliest scheduled thread, retry after backoff, lease end or job', async (t) => {
    const { ctx, clock } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    assert.equal(await nextDueAt(ctx.db), null, 'nothing pending');
    const later = await scheduled(['later'], '2026-11-22T13:00:00Z');
    assert.equal((await nextDueAt(ctx.db))?.toISOString(), '2026-11-22T13:00:00.000Z');
    const sooner = await scheduled(['sooner'], '2026-11-22T12:30:00Z');
    assert.equal((await nextDueAt(ctx.db))?.toISOString(), '2026-11-22T12:30:00.000Z');
    // A retry is due at the later of its schedule and its backoff.
    await ctx.db
      .updateTable('threads')
      .set({ next_attempt_at: new Date('2026-11-22T12:45:00Z') })
      .where('id', '=', sooner.threadId)
      .execute();
    assert.equal((await nextDueAt(ctx.db))?.toISOString(), '2026-11-22T12:45:00.000Z');
    // A claimed thread is due again when its lease runs out.
    clock.set('2026-11-22T12:50:00Z');
    const claimed = await claimDue(threadQueue, { db: ctx.db, workerId: 'w0', now: clock.now(), leaseMs: 60_000 }, 10);
    assert.deepEqual(
      claimed.map((t) => t.id),
      [sooner.threadId],
    );
    assert.equal((await nextDueAt(ctx.db))?.toISOString(), '2026-11-22T12:51:00.000Z');
    await ctx.db.updateTable('threads').set({ status: 'FAILED', locked_by: null, locked_until: null }).where('id', '=', sooner.threadId).execute();
    assert.equal((await nextDueAt(ctx.db))?.toISOString(), '2026-11-22T13:00:00.000Z');
    await ctx.db.updateTable('threads').set({ status: 'FAILED', locked_by: null, locked_until: null }).where('id', '=', later.threadId).execute();
    assert.equal(await nextDueAt(ctx.db), null);
  });

  test('publishes a due thread in order, each post a reply to the previous one', async (t) => {
    const { ctx, clock } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
    const { get, threadId } = await scheduled(['one', 'two', 'three'], '2026-11-22T12:05:00Z');
    assert.equal(await loop.runOnce(), 0, 'not due yet');
    clock.advance(5 * 60_000);
    assert.equal(await loop.runOnce(), 1);
    const thread = await get();
    assert.equal(thread.status, 'PUBLISHED');
    const mine = fake.published.filter((p) => thread.posts.some((q: { id: string }) => q.id === p.postId));
    assert.deepEqual(
      mine.map((p) => p.text),
      ['one', 'two', 'three'],
    );
    assert.deepEqual(
      mine.map((p) => p.replyTo),
      [null, mine[0]!.networkPostId, mine[1]!.networkPostId],
    );
    for (const post of thread.posts) {
      assert.equal(post.status, 'PUBLISHED');
      assert.equal(post.publishedAt, clock.now().toISOString());
      assert.match(post.permaLink, /^https:\/\/fake\.example\/p\//);
    }
    const row = await ctx.db.selectFrom('threads').select(['published_at', 'first_published_at']).where('id', '=', threadId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { published_at: clock.now(), first_published_at: clock.now() });
    assert.equal(await loop.runOnce(), 0, 'nothing left');
  });

  test('transient errors are retried with backoff; an unknown outcome is not posted twice', async (t) => {
    const { ctx, clock } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
    const { get } = await scheduled(['a', 'b']);
    clock.advance(60_000);
    fake.faults.push(new PublishError('transient', 'HTTP_500', 'server error'), { dropResponse: true });
    await loop.runOnce();
    let thread = await get();
    assert.equal(thread.status, 'READY');
    assert.equal(thread.posts[0].status, 'READY');
    clock.advance(60_000);
    await loop.runOnce(); // post a published, response dropped
    thread = await get();
    assert.equal(thread.status, 'READY');
    clock.advance(5 * 60_000);
    await loop.runOnce();
    thread = await get();
    assert.equal(thread.status, 'PUBLISHED');
    const ids = thread.posts.map((p: { id: string }) => p.id);
    assert.equal(fake.published.filter((p) => ids.includes(p.postId)).length, 2);
  });

  test('a permanent error fails the post and thread with a readable error; retry resumes after the last published post', async (t) => {
    const { ctx, clock, app } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
    const { get, user, threadId } = await scheduled(['a', 'b', 'c']);
    clock.advance(60_000);
    fake.beforePublish = async (post) => {
      if (post.text === 'b' && fake.faults.length === 0 && !fake.calls.includes('retried'))
        fake.faults.push(new PublishError('permanent', 'INVALID_MEDIA', 'The image could not be fetched'));
    };
    await loop.runOnce();
    let thread = await get();
    assert.equal(thread.status, 'FAILED');
    assert.deepEqual(
      thread.posts.map((p: { status: string }) => p.status),
      ['PUBLISHED', 'FAILED', 'READY'],
    );
    assert.deepEqual(thread.posts[1].error, { code: 'INVALID_MEDIA', message: 'The image could not be fetched' });
    const failedPost = await user.call(app, { method: 'PATCH', url: `/api/v1/posts/${threadId}/posts/${thread.posts[1].id}`, payload: { content: 'b fixed' } });
    assert.equal(failedPost.statusCode, 409, 'the FAILED post itself needs a retry first');
    assert.match(failedPost.json().detail, /this one is FAILED/);
    const readyPost = await user.call(app, { method: 'PATCH', url: `/api/v1/posts/${threadId}/posts/${thread.posts[2].id}`, payload: { content: 'c' } });
    assert.equal(readyPost.statusCode, 200, 'a READY post of a FAILED thread can be fixed before the retry');
    fake.calls.push('retried');
    // Retried three days later: the thread completes then, its first post stays on the first day.
    const firstPostAt = thread.posts[0].publishedAt;
    clock.advance(3 * 86_400_000);
    const retry = await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/retry` });
    assert.equal(retry.statusCode, 200, retry.body);
    await loop.runOnce();
    thread = await get();
    assert.equal(thread.status, 'PUBLISHED');
    const ids = thread.posts.map((p: { id: string }) => p.id);
    assert.equal(fake.published.filter((p) => ids.includes(p.postId)).length, 3);
    const row = await ctx.db.selectFrom('threads').select(['published_at', 'first_published_at']).where('id', '=', threadId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { published_at: clock.now(), first_published_at: new Date(firstPostAt) });
    // Analytics of the first day counts the post that went out then (a late thread: migration 0036).
    const { provider } = await ctx.db.selectFrom('threads').select('provider_id as provider').where('id', '=', threadId).executeTakeFirstOrThrow();
    const day = await user.call(app, { method: 'GET', url: `/api/v1/analytics?providerId=${provider}&from=2026-11-22T00:00:00Z&to=2026-11-22T23:59:59Z` });
    assert.equal(day.statusCode, 200, day.body);
    assert.deepEqual(
      day.json().topPosts.map((p: { postId: string }) => p.postId),
      [thread.posts[0].id],
    );
  });

  test('auth errors expire the provider and fail the thread', async (t) => {
    const { ctx, clock, app } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
    const { get, user } = await scheduled(['a']);
    clock.advance(60_000);
    fake.faults.push(new PublishError('auth', 'TOKEN_EXPIRED', 'Error validating access token'));
    await loop.runOnce();
    const thread = await get();
    assert.equal(thread.status, 'FAILED');
    assert.equal(thread.posts[0].error.code, 'TOKEN_EXPIRED');
    const providers = (await user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers;
    assert.equal(providers[0].status, 'EXPIRED');
  });

  test('too many transient failures end FAILED, not forgotten', async (t) => {
    const { ctx, clock } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
    const { get } = await scheduled(['a']);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      fake.faults.push(new PublishError('transient', 'HTTP_503', 'unavailable'));
      clock.advance(2 * 3600_000);
      await loop.runOnce();
    }
    const thread = await get();
    assert.equal(thread.status, 'FAILED');
    assert.equal(thread.posts[0].error.code, 'HTTP_503');
  });

  test('a crashed worker: its lease runs out and another worker resumes without duplicates', async (t) => {
    const { ctx, clock } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const { get } = await scheduled(['a', 'b', 'c']);
    clock.advance(60_000);
    // A worker claims the thread, publishes post "a", records it, then dies: the lease stays.
    const claimed = await claimDue(threadQueue, { db: ctx.db, workerId: 'crasher', now: clock.now(), leaseMs: ctx.config.publisher.leaseMs }, 10);
    assert.equal(claimed.length, 1);
    const first = (await get()).posts[0];
    const ref = await fake.publishPost({
      account: {} as never,
      post: { id: first.id, text: 'a', topic: null, media: [], spoilerRanges: [], isSpoilerMedia: false, linkPreview: true, writtenAt: clock.now() },
      replyTo: null,
      progress: { containerId: null, networkPostId: null, cid: null },
      onProgress: async () => {},
      confirmLease: async () => {},
    });
    await ctx.db
      .updateTable('posts')
      .set({ status: 'PUBLISHED', network_post_id: ref.networkPostId, permalink: ref.permalink, published_at: clock.now() })
      .where('id', '=', first.id)
      .execute();
    let thread = await get();
    assert.equal(thread.status, 'PUBLISHING');
    const other = new PublisherLoop(ctx, { THREADS: fake }, 'w2');
    assert.equal(await other.runOnce(), 0, 'lease still held');
    clock.advance(ctx.config.publisher.leaseMs + 1000);
    assert.equal(await other.runOnce(), 1);
    thread = await get();
    assert.equal(thread.status, 'PUBLISHED');
    const ids = thread.posts.map((p: { id: string }) => p.id);
    const mine = fake.published.filter((p) => ids.includes(p.postId));
    assert.deepEqual(
      mine.map((p) => p.text),
      ['a', 'b', 'c'],
    );
    assert.equal(mine[1]!.replyTo, mine[0]!.networkPostId);
  });

  test('an edit that races with the claim: the claim locks the row, so stale text is never published', async (t) => {
    const { ctx, clock, app } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
    const { user, threadId, get } = await scheduled(['original']);
    const postId = (await get()).posts[0].id;
    clock.advance(60_000);
    // Edit and claim at once: whichever wins, what is published is what is stored.
    const [edit] = await Promise.all([
      user.call(app, { method: 'PATCH', url: `/api/v1/posts/${threadId}/posts/${postId}`, payload: { content: 'edited' } }),
      loop.runOnce(),
    ]);
    await loop.runOnce();
    const thread = await get();
    const published = fake.published.find((p) => p.postId === postId)!;
    if (edit.statusCode === 200) assert.equal(published.text, 'edited');
    else {
      assert.equal(edit.statusCode, 409);
      assert.equal(published.text, 'original');
    }
    assert.equal(thread.posts[0].content, published.text);
  });

  test('stopping mid-thread: the post in flight goes out, the thread is handed back due at once, another worker resumes it', async (t) => {
    const { ctx, clock } = env();
    t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'stopping');
    const { get, threadId } = await scheduled(['s1', 's2', 's3']);
    clock.advance(60_000);
    let stopped: Promise<void> | null = null;
    fake.beforePublish = async (post) => {
      if (post.text === 's2') stopped ??= loop.stop();
    };
    loop.start();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (!stopped) return;
        clearInterval(timer);
        resolve();
      }, 5);
    });
    await stopped;
    fake.beforePublish = null;
    const thread = await get();
    assert.equal(thread.status, 'READY', 'handed back');
    assert.deepEqual(
      thread.posts.map((p: { status: string }) => p.status),
      ['PUBLISHED', 'PUBLISHED', 'READY'],
      'the post in flight was finished',
    );
    const row = await ctx.db.selectFrom('threads').selectAll().where('id', '=', threadId).executeTakeFirstOrThrow();
    assert.deepEqual([row.locked_by, row.locked_until, row.next_attempt_at, row.attempts], [null, null, null, 0], 'due at once, the attempt not counted');
    const next = new PublisherLoop(ctx, { THREADS: fake }, 'next');
    assert.equal(await next.runOnce(), 1, 'no lease to wait for');
    const done = await get();
    assert.equal(done.status, 'PUBLISHED');
    const ids = done.posts.map((p: { id: string }) => p.id);
    assert.deepEqual(
      fake.published.filter((p) => ids.includes(p.postId)).map((p) => p.text),
      ['s1', 's2', 's3'],
    );
  });

  test('backoff grows, is capped, and honours Retry-After', () => {
    const mid = () => 0.5;
    assert.equal(backoffMs(1, 0, mid), 5000);
    assert.equal(backoffMs(2, 0, mid), 10000);
    assert.equal(backoffMs(30, 0, mid), 30 * 60_000);
    assert.equal(backoffMs(1, 120_000, mid), 120_000);
    assert.ok(backoffMs(3, 0, () => 0) >= 15000);
    assert.ok(backoffMs(3, 0, () => 0.999) <= 25000);
  });
});
