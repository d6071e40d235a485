import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FollowUpRow } from '../../src/db/schema/index.js';
import { PublishError } from '../../src/networks/platform.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { takeOverWorkOfDeadProcesses } from '../../src/publisher/runner.js';
import { followUpQueue } from '../../src/repos/follow-ups.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { createProvider, createUser, type TestUser } from '../helpers/seeds.js';

const MINUTE = 60_000;

describeEachDb('follow-up replies: the publisher', (env) => {
  interface Setup {
    user: TestUser;
    threadId: string;
    fake: FakePlatform;
    loop: PublisherLoop;
    scheduledAt: Date;
    followUp(payload: { text: string; delayMinutes: number }): Promise<{ id: string }>;
    row(id: string): Promise<FollowUpRow>;
    view(): Promise<any>;
  }

  /** A scheduled thread of `texts` with a fresh fake network; the other tests' follow-ups are removed. */
  async function setup(texts = ['one', 'two', 'three']): Promise<Setup> {
    const { app, ctx, clock } = env();
    await ctx.db.deleteFrom('follow_ups').execute();
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const scheduledAt = new Date(clock.now().getTime() + MINUTE);
    const created = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, scheduleAt: scheduledAt.toISOString(), posts: texts.map((text) => ({ text })) },
    });
    assert.equal(created.statusCode, 201, created.body);
    const threadId: string = created.json().threadId;
    return {
      user,
      threadId,
      fake,
      loop,
      scheduledAt,
      followUp: async (payload) => {
        const res = await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload });
        assert.equal(res.statusCode, 201, res.body);
        return res.json();
      },
      row: (id) => ctx.db.selectFrom('follow_ups').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      view: async () => (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}/follow-ups` })).json().followUps,
    };
  }

  const at = async (s: Setup, when: Date | number) => {
    env().clock.set(when);
    return s.loop.runOnce();
  };
  /** Network ids of the thread's posts (published before any follow-up). */
  const threadPostIds = (s: Setup, count: number) => s.fake.published.slice(0, count).map((p) => p.networkPostId);

  test('published once at dueAt, as a reply to the last post in the thread of the first', async () => {
    const s = await setup();
    const f = await s.followUp({ text: 'Thanks for reading', delayMinutes: 30 });
    await at(s, s.scheduledAt);
    const [first, , last] = threadPostIds(s, 3);
    const lastPost = await env()
      .ctx.db.selectFrom('posts')
      .select('published_at')
      .where('thread_id', '=', s.threadId)
      .orderBy('post_order', 'desc')
      .executeTakeFirstOrThrow();
    const dueAt = new Date(lastPost.published_at!.getTime() + 30 * MINUTE);
    assert.equal((await s.view())[0].dueAt, dueAt.toISOString(), 'due 30 min after the last post, set with the thread PUBLISHED');
    await at(s, dueAt.getTime() - 1000);
    assert.equal(s.fake.published.length, 3, 'not before dueAt');
    await at(s, dueAt);
    const replies = s.fake.published.filter((p) => p.text === 'Thanks for reading');
    assert.equal(replies.length, 1);
    assert.equal(replies[0]!.postId, f.id, 'published under the follow-up id');
    assert.equal(replies[0]!.replyTo, last);
    assert.equal(replies[0]!.replyRoot, first);
    const [shown] = await s.view();
    assert.equal(shown.status, 'PUBLISHED');
    assert.equal(shown.publishedAt, dueAt.toISOString());
    assert.equal(shown.permaLink, `https://fake.example/p/${replies[0]!.networkPostId}`);
    assert.equal(shown.error, null);
    await at(s, dueAt.getTime() + 3600_000);
    assert.equal(s.fake.published.filter((p) => p.text === 'Thanks for reading').length, 1, 'never again');
  });

  test('a follow-up of a FAILED thread stays PENDING until the thread is retried and published', async () => {
    const { app } = env();
    const s = await setup(['a', 'b']);
    const f = await s.followUp({ text: 'after the thread', delayMinutes: 5 });
    // The second post is refused for good: the thread is FAILED with its first post out.
    const realPublish = s.fake.publishPost.bind(s.fake);
    let refuse = true;
    s.fake.publishPost = async (input) => {
      if (refuse && input.post.text === 'b') throw new PublishError('permanent', 'REFUSED', 'refused by the network');
      return realPublish(input);
    };
    await at(s, s.scheduledAt);
    const thread = (await s.user.call(app, { method: 'GET', url: `/api/v1/posts/${s.threadId}` })).json().thread;
    assert.equal(thread.status, 'FAILED');
    for (const later of [MINUTE, 10 * MINUTE, 24 * 60 * MINUTE]) await at(s, s.scheduledAt.getTime() + later);
    let row = await s.row(f.id);
    assert.equal(row.status, 'PENDING');
    assert.equal(row.due_at, null);
    assert.equal(s.fake.published.filter((p) => p.text === 'after the thread').length, 0);

    refuse = false;
    const retried = await s.user.call(app, { method: 'POST', url: `/api/v1/posts/${s.threadId}/retry` });
    assert.equal(retried.statusCode, 200, retried.body);
    await s.loop.runOnce();
    row = await s.row(f.id);
    const b = s.fake.published.find((p) => p.text === 'b')!;
    assert.equal(row.due_at?.getTime(), env().clock.now().getTime() + 5 * MINUTE, 'due from the last post, published now');
    await at(s, row.due_at!);
    const reply = s.fake.published.filter((p) => p.text === 'after the thread');
    assert.equal(reply.length, 1);
    assert.equal(reply[0]!.replyTo, b.networkPostId);
    assert.equal((await s.row(f.id)).status, 'PUBLISHED');
  });

  test('a lost answer: the retry finishes the same reply, never a second one', async () => {
    const s = await setup(['x']);
    const f = await s.followUp({ text: 'lost answer', delayMinutes: 5 });
    await at(s, s.scheduledAt);
    s.fake.faults.push({ dropResponse: true });
    const due = (await s.row(f.id)).due_at!;
    await at(s, due);
    assert.equal(s.fake.published.filter((p) => p.text === 'lost answer').length, 1, 'on the network');
    const row = await s.row(f.id);
    assert.equal(row.status, 'PENDING');
    assert.equal(row.last_error, 'TIMEOUT: response lost');
    assert.ok(row.run_at! > due, 'backs off');
    assert.equal(row.due_at?.getTime(), due.getTime(), 'dueAt stays');
    await at(s, row.run_at!);
    assert.equal((await s.row(f.id)).status, 'PUBLISHED');
    assert.equal(s.fake.published.filter((p) => p.text === 'lost answer').length, 1);
    assert.equal(s.fake.calls.filter((id) => id === f.id).length, 2, 'the retry asked about the same id');
  });

  test('a worker that crashed while publishing it: after its lease, one reply', async () => {
    const { ctx, clock } = env();
    const s = await setup(['x']);
    const f = await s.followUp({ text: 'crashed', delayMinutes: 5 });
    await at(s, s.scheduledAt);
    clock.set((await s.row(f.id)).due_at!);
    const leaseUntil = new Date(clock.now().getTime() + ctx.config.publisher.leaseMs);
    const { rows } = await followUpQueue.claim(ctx.db, { workerId: 'crasher', now: clock.now(), until: leaseUntil }, 10);
    assert.deepEqual(
      rows.map((r) => r.id),
      [f.id],
    );
    // The crasher's call reached the network; its worker died before it saved anything.
    const [post] = s.fake.published;
    const ref = { networkPostId: post!.networkPostId, cid: null, permalink: null };
    await s.fake.publishPost({
      account: { providerUserId: post!.account } as never,
      post: { id: f.id, text: 'crashed', topic: null, media: [], spoilerRanges: [], isSpoilerMedia: false, writtenAt: clock.now() },
      replyTo: { root: ref, parent: ref },
      progress: { containerId: null, networkPostId: null, cid: null },
      onProgress: async () => {},
      confirmLease: async () => {},
    });
    await s.loop.runOnce();
    assert.equal((await s.view())[0].status, 'PUBLISHING', 'the lease is still held');
    assert.equal((await s.row(f.id)).locked_by, 'crasher');
    await at(s, leaseUntil.getTime() + 1000);
    assert.equal((await s.row(f.id)).status, 'PUBLISHED');
    assert.equal(s.fake.published.filter((p) => p.text === 'crashed').length, 1);
  });

  test("on the embedded database a dead process's follow-up lease is ended at start; on PostgreSQL it runs out", async () => {
    const { ctx, clock, kind } = env();
    const s = await setup(['x']);
    const f = await s.followUp({ text: 'dead holder', delayMinutes: 5 });
    await at(s, s.scheduledAt);
    clock.set((await s.row(f.id)).due_at!);
    await followUpQueue.claim(ctx.db, { workerId: 'dead', now: clock.now(), until: new Date(clock.now().getTime() + ctx.config.publisher.leaseMs) }, 10);
    const ended = await takeOverWorkOfDeadProcesses(ctx);
    if (kind === 'pglite') assert.deepEqual(ended, { threads: 0, jobs: 0, followUps: 1, webhookDeliveries: 0, emails: 0 });
    else {
      assert.equal(ended, null);
      await s.loop.runOnce();
      assert.equal((await s.row(f.id)).locked_by, 'dead', 'a live worker may hold it');
      clock.advance(ctx.config.publisher.leaseMs + 1);
    }
    await s.loop.runOnce();
    assert.equal((await s.row(f.id)).status, 'PUBLISHED');
    assert.equal(s.fake.published.filter((p) => p.text === 'dead holder').length, 1);
  });

  test('a permanent refusal fails it with the error shown; a transient one backs off; the expired account fails it', async () => {
    const { ctx } = env();
    const s = await setup(['x']);
    const refused = await s.followUp({ text: 'refused', delayMinutes: 5 });
    await at(s, s.scheduledAt);
    s.fake.faults.push(new PublishError('transient', 'HTTP_503', 'unavailable', { retryAfterMs: 10 * MINUTE }));
    const due = (await s.row(refused.id)).due_at!;
    await at(s, due);
    let row = await s.row(refused.id);
    assert.equal(row.status, 'PENDING');
    assert.equal(row.run_at!.getTime(), due.getTime() + 10 * MINUTE, 'Retry-After honoured');
    s.fake.faults.push(new PublishError('permanent', 'CONTENT_REJECTED', 'the network refused the text'));
    await at(s, row.run_at!);
    const [shown] = await s.view();
    assert.equal(shown.status, 'FAILED');
    assert.deepEqual(shown.error, { code: 'CONTENT_REJECTED', message: 'the network refused the text' });
    row = await s.row(refused.id);
    assert.equal(row.locked_by, null);

    const expired = await s.followUp({ text: 'expired', delayMinutes: 5 });
    s.fake.faults.push(new PublishError('auth', 'TOKEN_EXPIRED', 'token expired'));
    await at(s, env().clock.now());
    const failed = await s.row(expired.id);
    assert.equal(failed.status, 'FAILED');
    assert.equal(failed.error_code, 'TOKEN_EXPIRED');
    const thread = await ctx.db.selectFrom('threads').select('provider_id').where('id', '=', s.threadId).executeTakeFirstOrThrow();
    const provider = await ctx.db.selectFrom('providers').select('status').where('id', '=', thread.provider_id).executeTakeFirstOrThrow();
    assert.equal(provider.status, 'EXPIRED');
  });

  test('a worker that stops hands a claimed follow-up back, due at once, the claim not counted', async () => {
    const { ctx } = env();
    const s = await setup(['x']);
    const f = await s.followUp({ text: 'handed back', delayMinutes: 5 });
    await at(s, s.scheduledAt);
    env().clock.set((await s.row(f.id)).due_at!);
    s.fake.beforePublish = async () => {
      throw new Error('must not publish');
    };
    const stopped = new PublisherLoop(ctx, { THREADS: s.fake }, 'w-stopping');
    await stopped.stop();
    await stopped.runOnce();
    const row = await s.row(f.id);
    assert.equal(row.status, 'PENDING');
    assert.equal(row.attempts, 0);
    assert.equal(row.locked_by, null);
  });
});
