/**
 * Saving in one request: Create Post with `tags`, Edit Entire Thread with `tags` and
 * `scheduleAt` or `queue: true`; the save lands whole or not at all, on both databases.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createTeamWith, createUser, rowCounts, threadTagNames, type UserWithProvider, userWithProvider } from '../helpers/seeds.js';

type Fixture = UserWithProvider;

function create(f: Fixture, body: object): Promise<LightMyRequestResponse> {
  return f.user.call(f.app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: f.providerId, posts: [{ text: 'one' }], ...body } });
}

function edit(f: Fixture, threadId: string, body: object, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/edit`, payload: body, headers });
}

async function snapshot(f: Fixture, threadId: string) {
  const res = await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
  assert.equal(res.statusCode, 200, res.body);
  return { thread: res.json().thread, etag: res.headers.etag, tags: await threadTagNames(f, threadId) };
}

function paths(res: LightMyRequestResponse): string[] {
  return res
    .json()
    .errors.map((e: { path: string }) => e.path)
    .sort();
}

describeEachDb('saving in one request', (env) => {
  test('Create Post with tags: created or matched case-insensitively, trimmed, duplicates ignored, first spelling kept', async () => {
    const f = await userWithProvider(env);
    const first = await create(f, { tags: ['Launch', ' launch ', 'beta'] });
    assert.equal(first.statusCode, 201, first.body);
    assert.deepEqual(Object.keys(first.json()).sort(), ['autoPlugApplied', 'postCount', 'scheduledAt', 'status', 'threadId']);
    assert.deepEqual(await threadTagNames(f, first.json().threadId), ['beta', 'Launch']);
    const second = await create(f, { tags: ['LAUNCH', 'new'], scheduleAt: '2026-12-01T10:00:00Z' });
    assert.equal(second.statusCode, 201, second.body);
    assert.deepEqual(await threadTagNames(f, second.json().threadId), ['Launch', 'new']);
    const all = (await f.user.call(f.app, { method: 'GET', url: '/api/v1/tags' })).json().tags;
    assert.deepEqual(
      all.map((t: { name: string }) => t.name),
      ['beta', 'Launch', 'new'],
    );
    // Without tags, or with [], the thread has none.
    assert.deepEqual(await threadTagNames(f, (await create(f, { tags: [] })).json().threadId), []);
    assert.deepEqual(await threadTagNames(f, (await create(f, {})).json().threadId), []);
  });

  test('Create Post in a team: the tags are the team scope’s', async () => {
    const f = await userWithProvider(env);
    const member = await createUser(f.ctx);
    const team = await createTeamWith(f.ctx, f.user.account, [member.account]);
    const teamProvider = await createProvider(f.ctx, f.user.account, 'THREADS', team.id);
    const res = await member.call(f.app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: teamProvider.id, teamId: team.id, posts: [{ text: 'team' }], tags: ['shared'] },
    });
    assert.equal(res.statusCode, 201, res.body);
    const teamTags = (await f.user.call(f.app, { method: 'GET', url: `/api/v1/tags?teamId=${team.id}` })).json().tags;
    assert.deepEqual(
      teamTags.map((t: { name: string; teamId: string }) => [t.name, t.teamId]),
      [['shared', team.id]],
    );
    assert.deepEqual((await f.user.call(f.app, { method: 'GET', url: '/api/v1/tags?teamId=personal' })).json().tags, []);
  });

  test('Create Post: tag faults at tags.N, with every other fault in one 400; nothing is created', async () => {
    const f = await userWithProvider(env);
    const before = await rowCounts(f.ctx);
    const res = await create(f, { posts: [{ text: '   ' }], tags: ['ok', '  ', 'x'.repeat(51)], scheduleAt: '2026-13-01T00:00:00' });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'VALIDATION_FAILED');
    assert.deepEqual(paths(res), ['posts.0.text', 'scheduleAt', 'tags.1', 'tags.2']);
    const many = await create(f, { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) });
    assert.equal(many.statusCode, 400);
    assert.deepEqual(paths(many), ['tags']);
    // A shape fault (a number) and a content fault (an empty name) are both named.
    const shapes = await create(f, { tags: [1, ''] });
    assert.equal(shapes.statusCode, 400);
    assert.deepEqual(paths(shapes), ['tags.0', 'tags.1']);
    assert.deepEqual(await rowCounts(f.ctx), before);
  });

  test('Edit Entire Thread with tags: replaced as Set Thread Tags replaces them; omitted, they stay; [] clears', async () => {
    const f = await userWithProvider(env);
    const threadId = (await create(f, { tags: ['a', 'b'] })).json().threadId;
    const { thread } = await snapshot(f, threadId);
    const postId = thread.posts[0].id;
    const res = await edit(f, threadId, { posts: [{ id: postId, text: 'edited' }], tags: ['B', 'c'] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { threadId, postsUpdated: 1, postsCreated: 0, postsDeleted: 0, totalPosts: 1 });
    assert.deepEqual(await threadTagNames(f, threadId), ['b', 'c']);
    assert.equal((await edit(f, threadId, { posts: [{ id: postId, text: 'again' }] })).statusCode, 200);
    assert.deepEqual(await threadTagNames(f, threadId), ['b', 'c']);
    assert.equal((await edit(f, threadId, { posts: [{ id: postId, text: 'again' }], tags: [] })).statusCode, 200);
    assert.deepEqual(await threadTagNames(f, threadId), []);
  });

  test('Edit Entire Thread: a bad tag with a valid text edit changes nothing, and all faults come in one 400', async () => {
    const f = await userWithProvider(env);
    const threadId = (await create(f, { tags: ['kept'], posts: [{ text: 'one' }, { text: 'two' }] })).json().threadId;
    const before = await snapshot(f, threadId);
    const counts = await rowCounts(f.ctx);
    const [p1, p2] = before.thread.posts;
    const badTag = await edit(f, threadId, {
      posts: [
        { id: p1.id, text: 'new text' },
        { id: p2.id, text: 'two' },
      ],
      tags: ['fine', ''],
    });
    assert.equal(badTag.statusCode, 400, badTag.body);
    assert.deepEqual(paths(badTag), ['tags.1']);
    const everything = await edit(f, threadId, {
      posts: [{ id: p1.id, text: '' }, { text: 'added' }],
      tags: ['x'.repeat(51)],
      scheduleAt: '2020-01-01T00:00:00Z',
    });
    assert.equal(everything.statusCode, 400, everything.body);
    assert.equal(everything.json().code, 'VALIDATION_FAILED');
    assert.deepEqual(paths(everything), ['posts.0.text', 'scheduleAt', 'tags.0']);
    // Shape faults too: the content rules run over the well-formed parts.
    const shapes = await edit(f, threadId, { posts: [{ id: p1.id, text: 7 }], tags: ['ok', ' '], scheduleAt: 'soon', queue: 'yes' });
    assert.equal(shapes.statusCode, 400, shapes.body);
    assert.deepEqual(paths(shapes), ['posts.0.text', 'queue', 'scheduleAt', 'tags.1']);
    const after = await snapshot(f, threadId);
    assert.deepEqual(after, before);
    assert.deepEqual(await rowCounts(f.ctx), counts);
  });

  test('Edit Entire Thread with scheduleAt: a draft is scheduled, a scheduled thread moves, as Reschedule reads the time', async () => {
    const f = await userWithProvider(env);
    const draft = (await create(f, {})).json().threadId;
    const { thread } = await snapshot(f, draft);
    assert.equal(thread.scheduledAt, null);
    const res = await edit(f, draft, { posts: [{ id: thread.posts[0].id, text: 'scheduled now' }], scheduleAt: '2026-12-03T09:30:00+01:00', tags: ['t'] });
    assert.equal(res.statusCode, 200, res.body);
    const after = await snapshot(f, draft);
    assert.equal(after.thread.scheduledAt, '2026-12-03T08:30:00.000Z');
    assert.equal(after.thread.posts[0].content, 'scheduled now');
    assert.deepEqual(after.tags, ['t']);
    // No longer a draft.
    const drafts = (await f.user.call(f.app, { method: 'GET', url: '/api/v1/posts/drafts' })).json().drafts;
    assert.equal(
      drafts.some((d: { threadId: string }) => d.threadId === draft),
      false,
    );
    // Alone, a time in the past keeps its own code; nothing changes.
    const past = await edit(f, draft, { posts: [{ id: thread.posts[0].id, text: 'other' }], scheduleAt: '2026-11-01T00:00:00Z' });
    assert.equal(past.statusCode, 400);
    assert.equal(past.json().code, 'SCHEDULE_IN_PAST');
    assert.deepEqual(await snapshot(f, draft), after);
  });

  test('Edit Entire Thread with queue: true takes the next free slot; with scheduleAt, or without a free slot, 400 at queue', async () => {
    const f = await userWithProvider(env);
    const threadId = (await create(f, {})).json().threadId;
    const { thread } = await snapshot(f, threadId);
    const postId = thread.posts[0].id;
    const noSlot = await edit(f, threadId, { posts: [{ id: postId, text: '' }], queue: true });
    assert.equal(noSlot.statusCode, 400, noSlot.body);
    assert.deepEqual(paths(noSlot), ['posts.0.text', 'queue']);
    const slot = await f.user.call(f.app, { method: 'POST', url: '/api/v1/time-slots', payload: { providerId: f.providerId, dayOfWeek: 3, time: '07:45' } });
    assert.equal(slot.statusCode, 201, slot.body);
    const both = await edit(f, threadId, { posts: [{ id: postId, text: 'x' }], queue: true, scheduleAt: '2026-12-01T10:00:00Z' });
    assert.equal(both.statusCode, 400);
    assert.deepEqual(paths(both), ['queue']);
    assert.equal((await snapshot(f, threadId)).thread.scheduledAt, null);
    const [next] = (await f.user.call(f.app, { method: 'GET', url: `/api/v1/time-slots/next?providerId=${f.providerId}&count=1` })).json().slots;
    const queued = await edit(f, threadId, { posts: [{ id: postId, text: 'queued' }], queue: true });
    assert.equal(queued.statusCode, 200, queued.body);
    const after = await snapshot(f, threadId);
    assert.equal(after.thread.scheduledAt, next);
    assert.equal(after.thread.posts[0].content, 'queued');
    // Saved again with queue: true, it stays at its instant (its own counts as free).
    assert.equal((await edit(f, threadId, { posts: [{ id: postId, text: 'queued' }], queue: true })).statusCode, 200);
    assert.equal((await snapshot(f, threadId)).thread.scheduledAt, next);
    // queue: false means no move.
    assert.equal((await edit(f, threadId, { posts: [{ id: postId, text: 'queued' }], queue: false })).statusCode, 200);
    assert.equal((await snapshot(f, threadId)).thread.scheduledAt, next);
  });

  test('Edit Entire Thread with everything and a stale If-Match: 412, nothing changed; with the fresh one, all of it saved', async () => {
    const f = await userWithProvider(env);
    const threadId = (await create(f, { tags: ['old'] })).json().threadId;
    const read = await snapshot(f, threadId);
    const postId = read.thread.posts[0].id;
    const body = { posts: [{ id: postId, text: 'mine' }], tags: ['mine'], scheduleAt: '2026-12-09T12:00:00Z' };
    assert.equal((await f.user.call(f.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/tags`, payload: { tagNames: ['theirs'] } })).statusCode, 200);
    const current = await snapshot(f, threadId);
    const stale = await edit(f, threadId, body, { 'if-match': read.etag as string });
    assert.equal(stale.statusCode, 412, stale.body);
    assert.deepEqual(await snapshot(f, threadId), current);
    const fresh = await edit(f, threadId, body, { 'if-match': current.etag as string });
    assert.equal(fresh.statusCode, 200, fresh.body);
    const saved = await snapshot(f, threadId);
    assert.equal(saved.thread.posts[0].content, 'mine');
    assert.equal(saved.thread.scheduledAt, '2026-12-09T12:00:00.000Z');
    assert.deepEqual(saved.tags, ['mine']);
  });

  test('the OpenAPI document shows tags, scheduleAt and queue, If-Match, the ETag and the 412s', async () => {
    const { app } = env();
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const createBody = doc.paths['/api/v1/posts'].post.requestBody.content['application/json'].schema;
    assert.ok(createBody.properties.tags);
    const editOp = doc.paths['/api/v1/posts/{threadId}/edit'].put;
    const editBody = editOp.requestBody.content['application/json'].schema;
    for (const field of ['posts', 'tags', 'scheduleAt', 'queue']) assert.ok(editBody.properties[field], field);
    assert.deepEqual(editBody.required, ['posts']);
    const get = doc.paths['/api/v1/posts/{threadId}'].get;
    assert.ok(get.responses['200'].headers.etag, JSON.stringify(get.responses['200']));
    const changes: Array<[string, string]> = [
      ['/api/v1/posts/{threadId}/posts/{postId}', 'patch'],
      ['/api/v1/posts/{threadId}/edit', 'put'],
      ['/api/v1/posts/{threadId}/reschedule', 'put'],
      ['/api/v1/posts/{threadId}/tags', 'put'],
      ['/api/v1/posts/{threadId}', 'delete'],
    ];
    for (const [path, method] of changes) {
      const op = doc.paths[path][method];
      assert.ok(op.responses['412'], `${method} ${path} documents 412`);
      assert.ok(
        op.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'if-match'),
        `${method} ${path} documents If-Match`,
      );
    }
  });
});
