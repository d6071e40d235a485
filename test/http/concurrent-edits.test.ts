/**
 * Concurrent edits: Get Thread's ETag (the thread's version) and If-Match on the five changes
 * (Edit Single Post, Edit Entire Thread, Reschedule, Set Thread Tags, Delete), on both databases.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { PublishError } from '../../src/networks/platform.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { createUser, threadTagNames, type UserWithProvider, userWithProvider } from '../helpers/seeds.js';

type Fixture = UserWithProvider;

async function newThread(f: Fixture, body: object = {}): Promise<string> {
  const res = await f.user.call(f.app, {
    method: 'POST',
    url: '/api/v1/posts',
    payload: { providerId: f.providerId, scheduleAt: '2026-12-01T09:00:00Z', posts: [{ text: 'one' }, { text: 'two' }], ...body },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().threadId;
}

/** Get Thread: its body and its ETag. */
async function read(f: Fixture, threadId: string): Promise<{ thread: any; etag: string; res: LightMyRequestResponse }> {
  const res = await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
  assert.equal(res.statusCode, 200, res.body);
  const etag = res.headers.etag;
  assert.equal(typeof etag, 'string');
  assert.match(etag as string, /^"[0-9]+"$/, 'a strong entity tag');
  return { thread: res.json().thread, etag: etag as string, res };
}

/** Each of the five changes, as a request with optional headers. */
function changes(f: Fixture, threadId: string, postId: string) {
  const base = `/api/v1/posts/${threadId}`;
  return {
    'Edit Single Post': (headers: Record<string, string>) =>
      f.user.call(f.app, { method: 'PATCH', url: `${base}/posts/${postId}`, payload: { content: 'edited one' }, headers }),
    'Edit Entire Thread': (headers: Record<string, string>) =>
      f.user.call(f.app, { method: 'PUT', url: `${base}/edit`, payload: { posts: [{ id: postId, text: 'rewritten' }] }, headers }),
    Reschedule: (headers: Record<string, string>) =>
      f.user.call(f.app, { method: 'PUT', url: `${base}/reschedule`, payload: { scheduleAt: '2026-12-05T10:00:00Z' }, headers }),
    'Set Thread Tags': (headers: Record<string, string>) =>
      f.user.call(f.app, { method: 'PUT', url: `${base}/tags`, payload: { tagNames: ['news'] }, headers }),
    Delete: (headers: Record<string, string>) => f.user.call(f.app, { method: 'DELETE', url: base, headers }),
  };
}

type Change = keyof ReturnType<typeof changes>;
const CHANGES: Change[] = ['Edit Single Post', 'Edit Entire Thread', 'Reschedule', 'Set Thread Tags', 'Delete'];

function assertPreconditionFailed(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 412, res.body);
  assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(res.json().code, 'PRECONDITION_FAILED');
  assert.equal(res.json().status, 412);
}

describeEachDb('concurrent edits: ETag and If-Match', (env) => {
  test('Get Thread answers a strong ETag that every kind of change renews; a read leaves it alone', async () => {
    const f = await userWithProvider(env);
    const threadId = await newThread(f);
    const seen = new Set<string>();
    let { thread, etag } = await read(f, threadId);
    seen.add(etag);
    assert.equal((await read(f, threadId)).etag, etag, 'reading again gives the same ETag');
    const postId = thread.posts[0].id;
    const steps: Array<[string, () => Promise<LightMyRequestResponse>]> = [
      ['edit single post', () => f.user.call(f.app, { method: 'PATCH', url: `/api/v1/posts/${threadId}/posts/${postId}`, payload: { topic: 'T' } })],
      [
        'edit entire thread',
        () => f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/edit`, payload: { posts: [{ id: postId, text: 'x' }] } }),
      ],
      ['set tags', () => f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/tags`, payload: { tagNames: ['a'] } })],
      ['set the same tags again', () => f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/tags`, payload: { tagNames: ['a'] } })],
      ['reschedule', () => f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/reschedule`, payload: { scheduleAt: '2026-12-02T09:00:00Z' } })],
    ];
    for (const [what, step] of steps) {
      const res = await step();
      assert.equal(res.statusCode, 200, `${what}: ${res.body}`);
      ({ etag } = await read(f, threadId));
      assert.ok(!seen.has(etag), `${what} gives a new ETag (${etag})`);
      seen.add(etag);
    }
    // The queue endpoint moves the thread too.
    await f.user.call(f.app, { method: 'POST', url: '/api/v1/time-slots', payload: { providerId: f.providerId, dayOfWeek: 1, time: '08:00' } });
    const queued = await f.user.call(f.app, { method: 'POST', url: `/api/v1/posts/${threadId}/queue`, payload: {} });
    assert.equal(queued.statusCode, 200, queued.body);
    ({ etag } = await read(f, threadId));
    assert.ok(!seen.has(etag), 'queue gives a new ETag');
    // A refused change (404 post, 400 content) leaves it alone.
    const refused = await f.user.call(f.app, { method: 'PATCH', url: `/api/v1/posts/${threadId}/posts/${postId}`, payload: { content: '' } });
    assert.equal(refused.statusCode, 400);
    assert.equal((await read(f, threadId)).etag, etag);
    // List Posts shows nothing new: no version or ETag in its body.
    const listed = await f.user.call(f.app, { method: 'GET', url: '/api/v1/posts?from=2026-11-01T00:00:00Z&to=2027-11-01T00:00:00Z' });
    const mine = listed.json().threads.find((t: { threadId: string }) => t.threadId === threadId);
    assert.deepEqual(Object.keys(mine).sort(), [
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
    ]);
    thread = (await read(f, threadId)).thread;
    assert.deepEqual(Object.keys(thread).sort(), [
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
    ]);
  });

  test('publishing gives new ETags (claimed, published; failed), and a stale If-Match after it is 412', async () => {
    const f = await userWithProvider(env);
    const fake = new FakePlatform();
    const now = f.ctx.clock.now();
    const create = async (text: string) => {
      const res = await f.user.call(f.app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: f.providerId, scheduleAt: new Date(now.getTime() + 1000).toISOString(), posts: [{ text }] },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().threadId as string;
    };
    const threadId = await create('goes out');
    const before = (await read(f, threadId)).etag;
    const during: string[] = [];
    fake.beforePublish = async () => {
      const seen = await read(f, threadId);
      assert.equal(seen.thread.status, 'PUBLISHING');
      during.push(seen.etag);
    };
    (env().clock as { advance(ms: number): void }).advance(5000);
    await new PublisherLoop(f.ctx, { THREADS: fake }, 'etag-worker').runOnce();
    const after = await read(f, threadId);
    assert.equal(after.thread.status, 'PUBLISHED');
    assert.equal(during.length, 1);
    assert.notEqual(during[0], before, 'claimed: a new ETag');
    assert.notEqual(after.etag, during[0], 'published: a new ETag');
    // A tag change based on the thread as it was before publishing: 412, nothing changed.
    const stale = await f.user.call(f.app, {
      method: 'PUT',
      url: `/api/v1/posts/${threadId}/tags`,
      payload: { tagNames: ['late'] },
      headers: { 'if-match': before },
    });
    assertPreconditionFailed(stale);
    assert.deepEqual(await threadTagNames(f, threadId), []);
    const fresh = await f.user.call(f.app, {
      method: 'PUT',
      url: `/api/v1/posts/${threadId}/tags`,
      payload: { tagNames: ['late'] },
      headers: { 'if-match': after.etag },
    });
    assert.equal(fresh.statusCode, 200, fresh.body);

    // A permanent failure: FAILED with a new ETag.
    fake.beforePublish = null;
    const failing = await create('refused');
    const beforeFail = (await read(f, failing)).etag;
    fake.faults.push(new PublishError('permanent', 'REFUSED', 'refused by the network'));
    await new PublisherLoop(f.ctx, { THREADS: fake }, 'etag-worker').runOnce();
    const failed = await read(f, failing);
    assert.equal(failed.thread.status, 'FAILED');
    assert.notEqual(failed.etag, beforeFail);
    // Retry honours If-Match too.
    const staleRetry = await f.user.call(f.app, { method: 'POST', url: `/api/v1/posts/${failing}/retry`, payload: {}, headers: { 'if-match': beforeFail } });
    assertPreconditionFailed(staleRetry);
    const afterStale = await read(f, failing);
    assert.equal(afterStale.etag, failed.etag);
    assert.deepEqual(afterStale.thread, failed.thread);
    const retried = await f.user.call(f.app, { method: 'POST', url: `/api/v1/posts/${failing}/retry`, payload: {}, headers: { 'if-match': failed.etag } });
    assert.equal(retried.statusCode, 200, retried.body);
    assert.notEqual((await read(f, failing)).etag, failed.etag);
  });

  for (const change of CHANGES) {
    test(`${change}: a matching If-Match changes it; a stale one is 412 and changes nothing`, async () => {
      const f = await userWithProvider(env);
      const threadId = await newThread(f, { tags: ['kept'] });
      const first = await read(f, threadId);
      const run = changes(f, threadId, first.thread.posts[0].id)[change];

      // Someone else changes the thread after it was read.
      const meanwhile = await f.user.call(f.app, {
        method: 'PATCH',
        url: `/api/v1/posts/${threadId}/posts/${first.thread.posts[1].id}`,
        payload: { content: 'changed elsewhere' },
      });
      assert.equal(meanwhile.statusCode, 200, meanwhile.body);
      const current = await read(f, threadId);

      // Stale: 412, and the thread is exactly as it was (body, tags and ETag).
      assertPreconditionFailed(await run({ 'if-match': first.etag }));
      // A weak tag never matches, even the current version.
      assertPreconditionFailed(await run({ 'if-match': `W/${current.etag}` }));
      const unchanged = await read(f, threadId);
      assert.deepEqual(unchanged.thread, current.thread);
      assert.equal(unchanged.etag, current.etag);
      assert.deepEqual(await threadTagNames(f, threadId), ['kept']);

      // A list that holds the current tag matches (odd spacing and empty elements included).
      const ok = await run({ 'if-match': ` ${first.etag} ,, W/${current.etag},${current.etag} ` });
      assert.equal(ok.statusCode, 200, ok.body);
      if (change === 'Delete') {
        assert.equal((await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).statusCode, 404);
        return;
      }
      const changed = await read(f, threadId);
      assert.notEqual(changed.etag, current.etag);
      // `*` matches any existing thread.
      const star = await run({ 'if-match': '*' });
      assert.equal(star.statusCode, 200, star.body);
      // A matching single tag.
      const latest = await read(f, threadId);
      const exact = await run({ 'if-match': latest.etag });
      assert.equal(exact.statusCode, 200, exact.body);
      // Without If-Match: as before, whatever the version.
      const plain = await run({});
      assert.equal(plain.statusCode, 200, plain.body);
    });
  }

  test('the queue endpoint honours If-Match as Reschedule does', async () => {
    const f = await userWithProvider(env);
    const threadId = await newThread(f);
    await f.user.call(f.app, { method: 'POST', url: '/api/v1/time-slots', payload: { providerId: f.providerId, dayOfWeek: 2, time: '06:30' } });
    const first = await read(f, threadId);
    assert.equal((await f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/tags`, payload: { tagNames: ['x'] } })).statusCode, 200);
    const current = await read(f, threadId);
    const queue = (ifMatch: string) =>
      f.user.call(f.app, { method: 'POST', url: `/api/v1/posts/${threadId}/queue`, payload: {}, headers: { 'if-match': ifMatch } });
    assertPreconditionFailed(await queue(first.etag));
    assert.deepEqual((await read(f, threadId)).thread, current.thread);
    const ok = await queue(current.etag);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal((await read(f, threadId)).thread.scheduledAt, ok.json().scheduledAt);
  });

  test('Delete with If-Match: * on an existing thread; stale leaves it in place; 404 comes before 412', async () => {
    const f = await userWithProvider(env);
    const threadId = await newThread(f);
    const { etag } = await read(f, threadId);
    await f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/tags`, payload: { tagNames: ['x'] } });
    assertPreconditionFailed(await f.user.call(f.app, { method: 'DELETE', url: `/api/v1/posts/${threadId}`, headers: { 'if-match': etag } }));
    assert.equal((await read(f, threadId)).thread.threadId, threadId);
    const star = await f.user.call(f.app, { method: 'DELETE', url: `/api/v1/posts/${threadId}`, headers: { 'if-match': '*' } });
    assert.equal(star.statusCode, 200, star.body);
    // Gone (or never there, or another account's): 404 whatever If-Match says.
    const gone = await f.user.call(f.app, { method: 'DELETE', url: `/api/v1/posts/${threadId}`, headers: { 'if-match': '*' } });
    assert.equal(gone.statusCode, 404);
    const otherUser = await createUser(f.ctx);
    const theirs = await newThread(f);
    const foreign = await otherUser.call(f.app, {
      method: 'PATCH',
      url: `/api/v1/posts/${theirs}/posts/x`,
      payload: { content: 'a' },
      headers: { 'if-match': '"1"' },
    });
    assert.equal(foreign.statusCode, 404);
  });

  test('a malformed If-Match is a 400 naming it, with the body faults, and changes nothing', async () => {
    const f = await userWithProvider(env);
    const threadId = await newThread(f);
    const before = await read(f, threadId);
    for (const value of ['12', '"1" "2"', '*, "1"', 'W/12']) {
      const res = await f.user.call(f.app, {
        method: 'PUT',
        url: `/api/v1/posts/${threadId}/reschedule`,
        payload: { scheduleAt: '2026-12-05T10:00:00Z' },
        headers: { 'if-match': value },
      });
      assert.equal(res.statusCode, 400, `${value}: ${res.body}`);
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        ['if-match'],
      );
    }
    const both = await f.user.call(f.app, {
      method: 'PUT',
      url: `/api/v1/posts/${threadId}/edit`,
      payload: { posts: [{ text: 42 }] },
      headers: { 'if-match': 'nope' },
    });
    assert.equal(both.statusCode, 400);
    assert.deepEqual(
      both
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
      ['if-match', 'posts.0.text'],
    );
    const after = await read(f, threadId);
    assert.deepEqual(after.thread, before.thread);
    assert.equal(after.etag, before.etag);
  });

  test('two edits at once with the same If-Match: exactly one wins, the other is 412', async () => {
    const f = await userWithProvider(env);
    for (let round = 0; round < 5; round++) {
      const threadId = await newThread(f);
      const { etag, thread } = await read(f, threadId);
      const postId = thread.posts[0].id;
      const edit = (text: string) =>
        f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/edit`, payload: { posts: [{ id: postId, text }] }, headers: { 'if-match': etag } });
      const tags = () =>
        f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/tags`, payload: { tagNames: ['race'] }, headers: { 'if-match': etag } });
      const answers = await Promise.all([edit('from A'), edit('from B'), tags()]);
      const statuses = answers.map((a) => a.statusCode).sort();
      assert.deepEqual(statuses, [200, 412, 412], answers.map((a) => a.body).join('\n'));
      const winner = answers.findIndex((a) => a.statusCode === 200);
      const after = await read(f, threadId);
      assert.deepEqual(
        after.thread.posts.map((p: { content: string }) => p.content),
        [['from A'], ['from B'], ['one', 'two']][winner],
      );
      assert.deepEqual(await threadTagNames(f, threadId), winner === 2 ? ['race'] : []);
    }
  });
});
