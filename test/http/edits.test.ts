import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser, type TestUser } from '../helpers/seeds.js';

async function makeThread(app: FastifyInstance, user: TestUser, providerId: string, posts: object[]) {
  const res = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId, scheduleAt: '2026-12-01T00:00:00Z', posts } });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().threadId as string;
  const thread = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread;
  return { id, thread };
}

describeEachDb('edit endpoints', (env) => {
  test('edit single post: updated flags are true for fields in the body', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const { id, thread } = await makeThread(app, user, provider.id, [{ text: 'hello world', topic: 'T', spoilerRanges: [{ offset: 0, length: 5 }] }]);
    const postId = thread.posts[0].id;
    const res = await user.call(app, { method: 'PATCH', url: `/api/v1/posts/${id}/posts/${postId}`, payload: { content: 'hello there', topic: null } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { postId, threadId: id, updated: { content: true, topic: true, media: false, spoilerRanges: false, isSpoilerMedia: false } });
    const after = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread.posts[0];
    assert.equal(after.content, 'hello there');
    assert.equal(after.topic, null);
    assert.deepEqual(after.spoilerRanges, [{ offset: 0, length: 5 }]);

    const media = await user.call(app, {
      method: 'PATCH',
      url: `/api/v1/posts/${id}/posts/${postId}`,
      payload: { media: [{ url: 'https://a.example/1.jpg' }, { url: 'https://a.example/2.jpg', altText: 'two' }], spoilerRanges: [], isSpoilerMedia: true },
    });
    assert.deepEqual(media.json().updated, { content: false, topic: false, media: true, spoilerRanges: true, isSpoilerMedia: true });
    const after2 = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread.posts[0];
    assert.deepEqual(after2.images, ['https://a.example/1.jpg', 'https://a.example/2.jpg']);
    assert.equal(after2.postMedia[0].altText, null);
    assert.deepEqual(after2.spoilerRanges, []);
    assert.equal(after2.isSpoilerMedia, true);
  });

  test('edit single post: empty body, unknown post, spoiler outside new text', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const { id, thread } = await makeThread(app, user, provider.id, [{ text: 'hello world', spoilerRanges: [{ offset: 6, length: 5 }] }]);
    const postId = thread.posts[0].id;
    const empty = await user.call(app, { method: 'PATCH', url: `/api/v1/posts/${id}/posts/${postId}`, payload: { unknown: 1 } });
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().code, 'VALIDATION_FAILED');
    const unknown = await user.call(app, { method: 'PATCH', url: `/api/v1/posts/${id}/posts/nope`, payload: { content: 'x' } });
    assert.equal(unknown.statusCode, 404);
    const shorter = await user.call(app, { method: 'PATCH', url: `/api/v1/posts/${id}/posts/${postId}`, payload: { content: 'hi' } });
    assert.equal(shorter.statusCode, 400);
    assert.equal(shorter.json().errors[0].path, 'spoilerRanges.0');
    const unchanged = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread.posts[0];
    assert.equal(unchanged.content, 'hello world');
  });

  test('edit entire thread: update, create, delete, reorder; omitted fields clear', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const { id, thread } = await makeThread(app, user, provider.id, [
      { text: 'one', spoilerRanges: [{ offset: 0, length: 1 }], isSpoilerMedia: true, media: [{ url: 'https://x.example/a.png' }] },
      { text: 'two' },
      { text: 'three' },
    ]);
    const [p1, , p3] = thread.posts;
    const res = await user.call(app, {
      method: 'PUT',
      url: `/api/v1/posts/${id}/edit`,
      payload: { posts: [{ id: p3.id, text: 'three!' }, { text: 'new' }, { id: p1.id, text: 'one!' }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { threadId: id, postsUpdated: 2, postsCreated: 1, postsDeleted: 1, totalPosts: 3 });
    const after = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread.posts;
    assert.deepEqual(
      after.map((p: { content: string }) => p.content),
      ['three!', 'new', 'one!'],
    );
    assert.deepEqual(
      after.map((p: { postOrder: number }) => p.postOrder),
      [0, 1, 2],
    );
    assert.equal(after[0].id, p3.id);
    assert.equal(after[2].id, p1.id);
    assert.deepEqual(after[2].spoilerRanges, []);
    assert.equal(after[2].isSpoilerMedia, false);
    assert.deepEqual(after[2].images, []);
  });

  test('edit entire thread: foreign or duplicate ids → 400, nothing changed', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const a = await makeThread(app, user, provider.id, [{ text: 'a1' }, { text: 'a2' }]);
    const b = await makeThread(app, user, provider.id, [{ text: 'b1' }]);
    const foreign = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${a.id}/edit`, payload: { posts: [{ id: b.thread.posts[0].id, text: 'x' }] } });
    assert.equal(foreign.statusCode, 400);
    assert.equal(foreign.json().errors[0].path, 'posts.0.id');
    const dup = await user.call(app, {
      method: 'PUT',
      url: `/api/v1/posts/${a.id}/edit`,
      payload: {
        posts: [
          { id: a.thread.posts[0].id, text: 'x' },
          { id: a.thread.posts[0].id, text: 'y' },
        ],
      },
    });
    assert.equal(dup.statusCode, 400);
    assert.equal(dup.json().errors[0].path, 'posts.1.id');
    const empty = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${a.id}/edit`, payload: { posts: [] } });
    assert.equal(empty.statusCode, 400);
    const after = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${a.id}` })).json().thread.posts;
    assert.deepEqual(
      after.map((p: { content: string }) => p.content),
      ['a1', 'a2'],
    );
  });
});
