import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDb, type TestEnv } from '../helpers/context.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { pngBytes } from '../helpers/media-files.js';
import { createUser, type TestUser } from '../helpers/seeds.js';

// Two servers with their own limits: every write path holds a post to its account's server's.
let big: FakeMastodonApi;
let small: FakeMastodonApi;

before(async () => {
  big = await FakeMastodonApi.start({ maxCharacters: 1000, maxMediaAttachments: 6 });
  small = await FakeMastodonApi.start({ maxCharacters: 500 });
});
after(async () => {
  await big.close();
  await small.close();
});

const LONG = 'x'.repeat(700);
const media = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}.png` }));

/** An account on each server, connected with a token (its limits read from the server then), and a draft on each. */
async function setUp(env: TestEnv) {
  const user = await createUser(env.ctx);
  const connect = async (fake: FakeMastodonApi, name: string) => {
    const { accessToken } = fake.createAccount(`${name}${Math.floor(Math.random() * 1e6)}`);
    const res = await user.call(env.app, { method: 'POST', url: '/api/v1/providers/mastodon', payload: { instance: fake.url, accessToken } });
    assert.equal(res.statusCode, 201, res.body);
    const draft = await user.call(env.app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: res.json().id, posts: [{ text: 'first' }] } });
    assert.equal(draft.statusCode, 201, draft.body);
    const threadId: string = draft.json().threadId;
    const thread = (await user.call(env.app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread;
    return { providerId: res.json().id as string, threadId, postId: thread.posts[0].id as string };
  };
  return { user, onBig: await connect(big, 'big'), onSmall: await connect(small, 'small') };
}

function paths(res: { json(): { errors?: Array<{ path: string }> } }): string[] {
  return (res.json().errors ?? []).map((e) => e.path).sort();
}

async function editThread(env: TestEnv, user: TestUser, threadId: string, payload: object) {
  return user.call(env.app, { method: 'PUT', url: `/api/v1/posts/${threadId}/edit`, payload });
}

describeEachDb(
  "Mastodon: every write path holds posts to the account's server's own limits (1,000 and 500 characters)",
  (env) => {
    test('Edit Entire Thread: 700 characters and 6 images fit the 1,000-character server, not the 500 one (faults at the fields, nothing changed)', async () => {
      const { user, onBig, onSmall } = await setUp(env());
      const posts = [{ text: LONG }, { text: 'images', media: media(6) }];
      const fits = await editThread(env(), user, onBig.threadId, { posts });
      assert.equal(fits.statusCode, 200, fits.body);
      const refused = await editThread(env(), user, onSmall.threadId, { posts });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(paths(refused), ['posts.0.text', 'posts.1.media']);
      assert.match(refused.json().errors.find((e: { path: string }) => e.path === 'posts.0.text').message, /at most 500/);
      const kept = (await user.call(env().app, { method: 'GET', url: `/api/v1/posts/${onSmall.threadId}` })).json().thread;
      assert.deepEqual(
        kept.posts.map((p: { content: string }) => p.content),
        ['first'],
      );
      // With a shape fault too, the content faults come in the same answer, against the same limits.
      const shape = { posts, tags: 'not-a-list' };
      assert.deepEqual(paths(await editThread(env(), user, onBig.threadId, shape)), ['tags']);
      assert.deepEqual(paths(await editThread(env(), user, onSmall.threadId, shape)), ['posts.0.text', 'posts.1.media', 'tags']);
    });

    test("Edit Single Post: the server's limits, with and without shape faults", async () => {
      const { user, onBig, onSmall } = await setUp(env());
      const patch = (at: { threadId: string; postId: string }, payload: object) =>
        user.call(env().app, { method: 'PATCH', url: `/api/v1/posts/${at.threadId}/posts/${at.postId}`, payload });
      assert.equal((await patch(onBig, { content: LONG, media: media(6) })).statusCode, 200);
      const refused = await patch(onSmall, { content: LONG, media: media(6) });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(paths(refused), ['content', 'media']);
      assert.deepEqual(paths(await patch(onBig, { content: LONG, isSpoilerMedia: 'yes' })), ['isSpoilerMedia']);
      assert.deepEqual(paths(await patch(onSmall, { content: LONG, isSpoilerMedia: 'yes' })), ['content', 'isSpoilerMedia']);
    });

    test("follow-ups: the server's limits, with and without shape faults", async () => {
      const { user, onBig, onSmall } = await setUp(env());
      const add = (threadId: string, payload: object) => user.call(env().app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload });
      const fits = await add(onBig.threadId, { text: LONG, delayMinutes: 5, media: media(6) });
      assert.equal(fits.statusCode, 201, fits.body);
      const refused = await add(onSmall.threadId, { text: LONG, delayMinutes: 5, media: media(6) });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(paths(refused), ['media', 'text']);
      assert.deepEqual(paths(await add(onBig.threadId, { text: LONG, delayMinutes: 'soon' })), ['delayMinutes']);
      assert.deepEqual(paths(await add(onSmall.threadId, { text: LONG, delayMinutes: 'soon' })), ['delayMinutes', 'text']);
      const listed = (await user.call(env().app, { method: 'GET', url: `/api/v1/posts/${onSmall.threadId}/follow-ups` })).json();
      assert.equal(listed.followUps.length, 0, 'nothing was added on the 500-character server');
    });

    test("Create Post and import: the server's limits, each row to its own account's server", async () => {
      const { user, onBig, onSmall } = await setUp(env());
      const row = (providerId: string) => ({ providerId, posts: [{ text: LONG, media: media(6) }] });
      const created = await user.call(env().app, { method: 'POST', url: '/api/v1/posts', payload: row(onBig.providerId) });
      assert.equal(created.statusCode, 201, created.body);
      const refused = await user.call(env().app, { method: 'POST', url: '/api/v1/posts', payload: row(onSmall.providerId) });
      assert.deepEqual(paths(refused), ['posts.0.media', 'posts.0.text']);
      const imported = await user.call(env().app, { method: 'POST', url: '/api/v1/posts/import', payload: [row(onBig.providerId), row(onBig.providerId)] });
      assert.equal(imported.statusCode, 201, imported.body);
      const mixed = await user.call(env().app, { method: 'POST', url: '/api/v1/posts/import', payload: [row(onBig.providerId), row(onSmall.providerId)] });
      assert.equal(mixed.statusCode, 400, mixed.body);
      assert.deepEqual(paths(mixed), ['rows.1.posts.0.media', 'rows.1.posts.0.text']);
    });

    test("an upload over the server's own image size limit is refused at its url, on create and on follow-ups", async () => {
      const { user, onBig } = await setUp(env());
      const upload = await user.call(env().app, {
        method: 'POST',
        url: '/api/v1/media',
        headers: { 'content-type': 'image/png' },
        payload: await pngBytes(40, 30),
      });
      assert.equal(upload.statusCode, 201, upload.body);
      const { url, bytes: sizeBytes } = upload.json();
      const setImageLimit = async (bytes: number) => {
        const row = await env().ctx.db.selectFrom('providers').selectAll().where('id', '=', onBig.providerId).executeTakeFirstOrThrow();
        const limits = { ...row.network_limits!, imageSizeLimit: bytes };
        await env()
          .ctx.db.updateTable('providers')
          .set({ network_limits: JSON.stringify(limits) })
          .where('id', '=', onBig.providerId)
          .execute();
      };
      const create = () =>
        user.call(env().app, {
          method: 'POST',
          url: '/api/v1/posts',
          payload: { providerId: onBig.providerId, posts: [{ text: 'a photo', media: [{ url }] }] },
        });
      await setImageLimit(sizeBytes - 1);
      const refused = await create();
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(paths(refused), ['posts.0.media.0.url']);
      assert.match(refused.json().errors[0].message, new RegExp(`at most ${sizeBytes - 1} bytes`));
      const followUp = await user.call(env().app, {
        method: 'POST',
        url: `/api/v1/posts/${onBig.threadId}/follow-ups`,
        payload: { text: 'x', delayMinutes: 5, media: [{ url }] },
      });
      assert.deepEqual(paths(followUp), ['media.0.url']);
      await setImageLimit(sizeBytes);
      assert.equal((await create()).statusCode, 201);
    });
  },
  { config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
