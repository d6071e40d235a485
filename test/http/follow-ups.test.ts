import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublishError } from '../../src/networks/platform.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { createProvider, createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';

describeEachDb('follow-up replies: the API', (env) => {
  /** A day after the test clock: each test's threads are due only when it moves the clock there. */
  const scheduleAt = () => new Date(env().clock.now().getTime() + 86_400_000);
  const iso = (d: Date) => d.toISOString();
  async function thread(user: TestUser, kind: 'THREADS' | 'BLUESKY' = 'THREADS', teamId: string | null = null) {
    const { app, ctx } = env();
    const provider = await createProvider(ctx, user.account, kind, teamId);
    const res = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, scheduleAt: iso(scheduleAt()), posts: [{ text: 'one' }, { text: 'two' }], ...(teamId ? { teamId } : {}) },
    });
    assert.equal(res.statusCode, 201, res.body);
    return { threadId: res.json().threadId as string, providerId: provider.id };
  }
  const create = (user: TestUser, threadId: string, payload: unknown) =>
    user.call(env().app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: payload as object });
  const list = async (user: TestUser, threadId: string) => {
    const res = await user.call(env().app, { method: 'GET', url: `/api/v1/posts/${threadId}/follow-ups` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  test('create answers 201 with the follow-up, PENDING and no dueAt before the thread is published; list and delete', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const { threadId } = await thread(user);
    const res = await create(user, threadId, { text: 'Thanks for reading!', delayMinutes: 60, media: [{ url: 'https://example.com/a.png', altText: 'a' }] });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.deepEqual(
      { ...created, id: typeof created.id },
      {
        id: 'string',
        threadId,
        text: 'Thanks for reading!',
        media: [{ url: 'https://example.com/a.png', altText: 'a' }],
        delayMinutes: 60,
        status: 'PENDING',
        dueAt: null,
        publishedAt: null,
        permaLink: null,
        error: null,
      },
    );
    const second = (await create(user, threadId, { text: 'later', delayMinutes: 5 })).json();
    assert.deepEqual(second.media, []);
    const listed = await list(user, threadId);
    assert.equal(listed.count, 2);
    assert.deepEqual(
      listed.followUps.map((f: { id: string }) => f.id),
      [created.id, second.id],
      'both unscheduled: creation order',
    );
    const deleted = await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${threadId}/follow-ups/${created.id}` });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.json(), { deleted: true, id: created.id });
    assert.deepEqual(
      (await list(user, threadId)).followUps.map((f: { id: string }) => f.id),
      [second.id],
    );
    const again = await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${threadId}/follow-ups/${created.id}` });
    assert.equal(again.statusCode, 404);
    const view = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread;
    assert.equal(view.followUps, undefined, 'Get Thread does not show follow-ups (api.md)');
  });

  test("the thread's network's content rules and the shape rules: every faulty field named, nothing created", async () => {
    const { ctx } = env();
    const user = await createUser(ctx);
    const threads = await thread(user, 'THREADS');
    const bluesky = await thread(user, 'BLUESKY');
    const long = 'é'.repeat(260); // 520 UTF-8 bytes, 260 graphemes
    const onThreads = await create(user, threads.threadId, { text: long, delayMinutes: 60, media: [{ url: 'ftp://x' }] });
    assert.equal(onThreads.statusCode, 400, onThreads.body);
    assert.deepEqual(
      onThreads
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
      ['media.0.url', 'text'],
    );
    assert.equal((await create(user, bluesky.threadId, { text: long, delayMinutes: 60 })).statusCode, 201, '520 bytes and 260 graphemes are fine on Bluesky');
    const fiveImages = Array.from({ length: 5 }, (_, i) => ({ url: `https://example.com/${i}.png` }));
    const onBluesky = await create(user, bluesky.threadId, { text: 'y'.repeat(301), delayMinutes: 4, media: fiveImages });
    assert.equal(onBluesky.statusCode, 400, onBluesky.body);
    assert.deepEqual(
      onBluesky
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
      ['delayMinutes', 'media', 'text'],
    );
    for (const body of [
      { text: ' ', delayMinutes: 5 },
      { text: 'x', delayMinutes: 10_081 },
      { text: 'x', delayMinutes: 5.5 },
      { delayMinutes: 5 },
      { text: 'x' },
    ]) {
      const res = await create(user, threads.threadId, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
    }
    assert.equal((await list(user, threads.threadId)).count, 0);
    assert.equal((await create(user, threads.threadId, { text: 'x', delayMinutes: 10_080 })).statusCode, 201);
  });

  test('at most 10 per thread: the 11th is a 409', async () => {
    const { ctx } = env();
    const user = await createUser(ctx);
    const { threadId } = await thread(user);
    for (let i = 0; i < 10; i++) assert.equal((await create(user, threadId, { text: `f${i}`, delayMinutes: 5 + i })).statusCode, 201);
    const eleventh = await create(user, threadId, { text: 'f10', delayMinutes: 5 });
    assert.equal(eleventh.statusCode, 409, eleventh.body);
    assert.equal(eleventh.json().code, 'CONFLICT');
    assert.equal((await list(user, threadId)).count, 10);
  });

  test("another account's thread and follow-ups are 404; team members share them", async () => {
    const { app, ctx } = env();
    const owner = await createUser(ctx);
    const member = await createUser(ctx);
    const stranger = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account, [member.account]);
    const mine = await thread(owner);
    const ours = await thread(owner, 'BLUESKY', team.id);
    const followUp = (await create(owner, mine.threadId, { text: 'x', delayMinutes: 5 })).json();
    for (const call of [
      { method: 'GET', url: `/api/v1/posts/${mine.threadId}/follow-ups` },
      { method: 'POST', url: `/api/v1/posts/${mine.threadId}/follow-ups`, payload: { text: 'x', delayMinutes: 5 } },
      { method: 'POST', url: `/api/v1/posts/${mine.threadId}/follow-ups`, payload: { text: 'x'.repeat(600), delayMinutes: 1 } },
      { method: 'DELETE', url: `/api/v1/posts/${mine.threadId}/follow-ups/${followUp.id}` },
      { method: 'DELETE', url: `/api/v1/posts/${ours.threadId}/follow-ups/${followUp.id}` },
    ] as const) {
      const who = call.url.includes(ours.threadId) ? member : stranger;
      const res = await who.call(app, call as never);
      const expected = call.method === 'POST' && 'payload' in call && call.payload.delayMinutes === 1 ? 400 : 404;
      assert.equal(res.statusCode, expected, `${call.method} ${call.url}: ${res.body}`);
    }
    assert.equal((await list(owner, mine.threadId)).count, 1, 'nothing changed');
    const shared = await create(member, ours.threadId, { text: 'team reply', delayMinutes: 30 });
    assert.equal(shared.statusCode, 201, shared.body);
    assert.equal((await list(owner, ours.threadId)).count, 1);
    assert.equal((await stranger.call(app, { method: 'GET', url: `/api/v1/posts/${ours.threadId}/follow-ups` })).statusCode, 404);
  });

  test('a follow-up of a published thread is due at once from its last post; delete is refused while it is published', async () => {
    const { app, ctx, clock } = env();
    const user = await createUser(ctx);
    const due = scheduleAt();
    const { threadId } = await thread(user);
    // The other tests' follow-ups share the database: only this one may be due.
    await ctx.db.deleteFrom('follow_ups').execute();
    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w-http');
    clock.set(due.getTime() + 10_000);
    await loop.runOnce();
    const lastPublishedAt = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts[1].publishedAt;
    const res = await create(user, threadId, { text: 'late addition', delayMinutes: 90 });
    assert.equal(res.json().dueAt, new Date(Date.parse(lastPublishedAt) + 90 * 60_000).toISOString());

    // The delete arrives while the network call is under way.
    clock.set(Date.parse(res.json().dueAt));
    let during: { status: number; code: string; threadStatus: number } | null = null;
    fake.beforePublish = async (post) => {
      if (post.id !== res.json().id) return;
      const del = await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${threadId}/follow-ups/${res.json().id}` });
      const delThread = await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${threadId}` });
      during = { status: del.statusCode, code: del.json().code, threadStatus: delThread.statusCode };
    };
    await loop.runOnce();
    assert.deepEqual(during, { status: 409, code: 'PUBLISH_IN_PROGRESS', threadStatus: 409 });
    const [published] = (await list(user, threadId)).followUps;
    assert.equal(published.status, 'PUBLISHED');
    fake.beforePublish = null;
    const after = await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${threadId}/follow-ups/${published.id}` });
    assert.equal(after.statusCode, 200, "a published one: Skein's record only");
    assert.equal(fake.published.filter((p) => p.text === 'late addition').length, 1, 'still on the network');
  });

  test('retry: a FAILED follow-up is published again, once; only a FAILED one can be retried', async () => {
    const { app, ctx, clock } = env();
    const user = await createUser(ctx);
    const stranger = await createUser(ctx);
    const due = scheduleAt();
    const { threadId } = await thread(user);
    await ctx.db.deleteFrom('follow_ups').execute();
    const followUp = (await create(user, threadId, { text: 'see also', delayMinutes: 5 })).json();
    const retry = (who: TestUser, payload?: object) =>
      who.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups/${followUp.id}/retry`, ...(payload ? { payload } : {}) });
    assert.equal((await retry(user)).json().code, 'NOT_EDITABLE', 'a PENDING one is not retried');

    const fake = new FakePlatform();
    const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w-retry');
    clock.set(due.getTime() + 10_000);
    await loop.runOnce(); // the thread
    fake.faults.push(new PublishError('permanent', 'INVALID_MEDIA', 'the network refused it'));
    clock.set(due.getTime() + 10_000 + 6 * 60_000);
    await loop.runOnce(); // the follow-up fails
    const [failed] = (await list(user, threadId)).followUps;
    assert.deepEqual([failed.status, failed.error?.code], ['FAILED', 'INVALID_MEDIA']);

    assert.equal((await retry(stranger)).statusCode, 404, "another account's follow-up is not found");
    const bad = await retry(user, { scheduleAt: 'tomorrow' });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(bad.json().errors[0].path, 'scheduleAt');
    assert.equal((await list(user, threadId)).followUps[0].status, 'FAILED', 'a bad retry changes nothing');

    const res = await retry(user);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([res.json().status, res.json().error, res.json().dueAt], ['PENDING', null, clock.now().toISOString()]);
    await loop.runOnce();
    const [published] = (await list(user, threadId)).followUps;
    assert.equal(published.status, 'PUBLISHED');
    assert.equal(fake.published.filter((p) => p.text === 'see also').length, 1);
    const again = await retry(user);
    assert.deepEqual([again.statusCode, again.json().code], [409, 'NOT_EDITABLE']);
  });

  test('deleting the thread deletes its follow-ups', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const { threadId } = await thread(user);
    await create(user, threadId, { text: 'a', delayMinutes: 5 });
    await create(user, threadId, { text: 'b', delayMinutes: 6 });
    assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${threadId}` })).statusCode, 200);
    const left = await ctx.db.selectFrom('follow_ups').select('id').where('thread_id', '=', threadId).execute();
    assert.deepEqual(left, []);
    assert.equal((await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}/follow-ups` })).statusCode, 404);
  });
});
