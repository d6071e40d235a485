import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser, rowCounts, type TestUser } from '../helpers/seeds.js';

const AT = '2026-12-01T00:00:00Z';

async function create(app: FastifyInstance, user: TestUser, payload: object) {
  return user.call(app, { method: 'POST', url: '/api/v1/posts', payload });
}

async function getThread(app: FastifyInstance, user: TestUser, id: string) {
  const res = await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().thread;
}

function faultPaths(body: { errors: Array<{ path: string }> }): string[] {
  return body.errors.map((e) => e.path).sort();
}

/** A thread of `kind` whose first post counts as published on the network. */
async function publishedPost(ctx: AppContext, app: FastifyInstance, user: TestUser, providerId: string): Promise<string> {
  const res = await create(app, user, { providerId, scheduleAt: AT, posts: [{ text: 'quoted' }] });
  assert.equal(res.statusCode, 201, res.body);
  const post = (await getThread(app, user, res.json().threadId)).posts[0];
  await ctx.db
    .updateTable('posts')
    .set({ status: 'PUBLISHED', network_post_id: '1789', published_at: new Date(AT) })
    .where('id', '=', post.id)
    .execute();
  return post.id;
}

const DEFAULTS = { quote: null, poll: null, langs: [], contentWarning: null };

describeEachDb('network options', (env) => {
  test("unset, Get Thread and List Posts show the defaults; List Drafts keeps to api.md's fields", async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const scheduled = await create(app, user, { providerId: provider.id, scheduleAt: AT, posts: [{ text: 'one' }] });
    const draft = await create(app, user, { providerId: provider.id, posts: [{ text: 'two' }] });
    const thread = await getThread(app, user, scheduled.json().threadId);
    assert.equal(thread.replyControl, 'everyone');
    assert.equal(thread.quotesDisabled, false);
    assert.deepEqual({ ...DEFAULTS, ...thread.posts[0] }, thread.posts[0]);
    for (const key of Object.keys(DEFAULTS)) assert.ok(key in thread.posts[0], key);

    const list = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2026-11-30T00:00:00&to=2026-12-02T00:00:00' });
    const listed = list.json().threads[0];
    assert.equal(listed.replyControl, 'everyone');
    assert.deepEqual(Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, listed.posts[0][k]])), DEFAULTS);
    const drafts = (await user.call(app, { method: 'GET', url: '/api/v1/posts/drafts' })).json();
    const shown = drafts.drafts.find((d: { threadId: string }) => d.threadId === draft.json().threadId);
    assert.equal('replyControl' in shown || 'quotesDisabled' in shown || 'langs' in shown.posts[0], false, JSON.stringify(shown));
    assert.deepEqual((await getThread(app, user, draft.json().threadId)).posts[0].langs, []);
  });

  test('Create Post stores the options of the thread and of each post', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account);
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const t = await create(app, user, {
      providerId: threads.id,
      scheduleAt: AT,
      replyControl: 'mentioned',
      posts: [
        { text: 'vote', poll: { options: ['yes', 'no', 'maybe'] } },
        { text: 'see', quote: '17890001', langs: ['en'] },
      ],
    });
    assert.equal(t.statusCode, 201, t.body);
    const tThread = await getThread(app, user, t.json().threadId);
    assert.equal(tThread.replyControl, 'mentioned');
    assert.deepEqual(tThread.posts[0].poll, { options: ['yes', 'no', 'maybe'] });
    assert.equal(tThread.posts[1].quote, '17890001');
    assert.deepEqual(tThread.posts[1].langs, ['en']);

    const b = await create(app, user, {
      providerId: bluesky.id,
      scheduleAt: AT,
      replyControl: 'nobody',
      quotesDisabled: true,
      posts: [
        { text: 'hello', langs: ['pt-BR', 'en'], contentWarning: 'spoilers', quote: 'https://bsky.app/profile/alice.test/post/3kabc' },
        { text: 'again', quote: 'at://did:plc:abc123/app.bsky.feed.post/3kxyz' },
      ],
    });
    assert.equal(b.statusCode, 201, b.body);
    const bThread = await getThread(app, user, b.json().threadId);
    assert.equal(bThread.replyControl, 'nobody');
    assert.equal(bThread.quotesDisabled, true);
    assert.deepEqual(bThread.posts[0].langs, ['pt-BR', 'en']);
    assert.equal(bThread.posts[0].contentWarning, 'spoilers');
    assert.equal(bThread.posts[1].quote, 'at://did:plc:abc123/app.bsky.feed.post/3kxyz');
  });

  test('every fault of the options comes in the one 400, at its field, and nothing is written', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account);
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const before = await rowCounts(ctx);
    const t = await create(app, user, {
      providerId: threads.id,
      scheduleAt: AT,
      replyControl: 'friends',
      posts: [
        { text: 'a', poll: { options: ['only one'] }, media: [{ url: 'https://x.example/a.png' }] },
        { text: 'b', poll: { options: ['fine', 'x'.repeat(26), ' '] } },
        { text: 'c', langs: ['en', 'english language', 'de', 'fr'] },
        { text: 'd', contentWarning: '', quote: 'not-a-media-id' },
        { text: 'e', contentWarning: 'w'.repeat(501) },
      ],
    });
    assert.equal(t.statusCode, 400, t.body);
    assert.deepEqual(faultPaths(t.json()), [
      'posts.0.poll',
      'posts.0.poll.options',
      'posts.1.poll.options.1',
      'posts.1.poll.options.2',
      'posts.2.langs',
      'posts.2.langs.1',
      'posts.3.contentWarning',
      'posts.3.quote',
      'posts.4.contentWarning',
      'replyControl',
    ]);
    const b = await create(app, user, {
      providerId: bluesky.id,
      scheduleAt: AT,
      posts: [
        { text: 'a', poll: { options: ['yes', 'no'] } },
        { text: 'b', quote: 'at://did:plc:abc/app.bsky.feed.like/3k' },
        { text: 'c', quote: 'https://bsky.app/profile/alice.test' },
      ],
    });
    assert.equal(b.statusCode, 400, b.body);
    assert.deepEqual(faultPaths(b.json()), ['posts.0.poll', 'posts.1.quote', 'posts.2.quote']);
    assert.match(b.json().errors.find((e: { path: string }) => e.path === 'posts.0.poll').message, /BLUESKY has no polls/);
    assert.equal(
      t.json().errors.find((e: { path: string }) => e.path === 'replyControl').message,
      'must be one of everyone, following, followers, mentioned, nobody',
    );
    assert.deepEqual(await rowCounts(ctx), before);
  });

  test('a quote naming a Skein post must be a published post of the same network in the workspace', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const stranger = await createUser(ctx);
    const threads = await createProvider(ctx, user.account);
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const strangers = await createProvider(ctx, stranger.account);
    const ours = await publishedPost(ctx, app, user, threads.id);
    const theirs = await publishedPost(ctx, app, stranger, strangers.id);
    const onBluesky = await publishedPost(ctx, app, user, bluesky.id);
    const unpublished = (await getThread(app, user, (await create(app, user, { providerId: threads.id, posts: [{ text: 'draft' }] })).json().threadId)).posts[0]
      .id;

    const before = await rowCounts(ctx);
    const res = await create(app, user, {
      providerId: threads.id,
      scheduleAt: AT,
      posts: [
        { text: 'a', quote: theirs },
        { text: 'b', quote: onBluesky },
        { text: 'c', quote: unpublished },
        { text: 'd', quote: '01890000-0000-7000-8000-000000000000' },
      ],
    });
    assert.equal(res.statusCode, 400, res.body);
    const messages = Object.fromEntries(res.json().errors.map((e: { path: string; message: string }) => [e.path, e.message]));
    assert.deepEqual(Object.keys(messages).sort(), ['posts.0.quote', 'posts.1.quote', 'posts.2.quote', 'posts.3.quote']);
    assert.equal(messages['posts.0.quote'], messages['posts.3.quote'], 'another workspace answers as an unknown id');
    assert.match(messages['posts.1.quote'], /BLUESKY/);
    assert.match(messages['posts.2.quote'], /not published/);
    assert.deepEqual(await rowCounts(ctx), before);

    const ok = await create(app, user, { providerId: threads.id, scheduleAt: AT, posts: [{ text: 'quoting', quote: ours }] });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal((await getThread(app, user, ok.json().threadId)).posts[0].quote, ours);
  });

  test('Edit Entire Thread: omitted post options reset, as topic does; omitted thread options stay, as tags do', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const created = await create(app, user, {
      providerId: bluesky.id,
      scheduleAt: AT,
      replyControl: 'followers',
      quotesDisabled: true,
      posts: [{ text: 'one', langs: ['en'], contentWarning: 'cw' }],
    });
    const id = created.json().threadId;
    const [post] = (await getThread(app, user, id)).posts;

    const kept = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/edit`, payload: { posts: [{ id: post.id, text: 'one!' }] } });
    assert.equal(kept.statusCode, 200, kept.body);
    let thread = await getThread(app, user, id);
    assert.equal(thread.replyControl, 'followers');
    assert.equal(thread.quotesDisabled, true);
    assert.deepEqual({ langs: thread.posts[0].langs, contentWarning: thread.posts[0].contentWarning }, { langs: [], contentWarning: null });

    const changed = await user.call(app, {
      method: 'PUT',
      url: `/api/v1/posts/${id}/edit`,
      payload: {
        replyControl: 'everyone',
        quotesDisabled: false,
        posts: [{ id: post.id, text: 'one', langs: ['de'], quote: 'at://did:plc:abc/app.bsky.feed.post/3k' }],
      },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    thread = await getThread(app, user, id);
    assert.equal(thread.replyControl, 'everyone');
    assert.equal(thread.quotesDisabled, false);
    assert.deepEqual(thread.posts[0].langs, ['de']);
    assert.equal(thread.posts[0].quote, 'at://did:plc:abc/app.bsky.feed.post/3k');

    const etag = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).headers.etag;
    const refused = await user.call(app, {
      method: 'PUT',
      url: `/api/v1/posts/${id}/edit`,
      payload: { replyControl: 'all', posts: [{ id: post.id, text: 'x', poll: { options: ['a', 'b'] }, langs: ['??'] }] },
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.deepEqual(faultPaths(refused.json()), ['posts.0.langs.0', 'posts.0.poll', 'replyControl']);
    const after = await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` });
    assert.equal(after.headers.etag, etag);
    assert.equal(after.json().thread.posts[0].content, 'one');
  });
});
