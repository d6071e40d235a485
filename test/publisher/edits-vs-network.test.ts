/**
 * Edits of a thread that an earlier attempt may already have put (partly) on the network. After
 * a transient failure the thread is READY again, but a saved Threads container holds the text it
 * was created with, and it may have been published with the answer lost. Such a post must not
 * be edited until the publisher has found out; a container the network reports dead is dropped,
 * and the post is editable again.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { createPlatforms } from '../../src/networks/clients.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { describeEachDb } from '../helpers/context.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { createUser } from '../helpers/seeds.js';

const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let fake: FakeGraphApi;
before(async () => {
  fake = await FakeGraphApi.start({ clock, processingMs: { TEXT: 0, IMAGE: 0 } });
});
after(() => fake.close());

describeEachDb(
  'edits of posts an earlier attempt may have published',
  (env) => {
    let serial = 0;
    async function scheduledThread(texts: string[]) {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const network = fake.createAccount(`edits${serial++}`);
      const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
        kind: 'THREADS',
        providerUserId: network.userId,
        username: 'edits',
        accessToken: network.accessToken,
      });
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: texts.map((text) => ({ text })) },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId: string = created.json().threadId;
      const get = async () => (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread;
      const postIds: string[] = (await get()).posts.map((p: { id: string }) => p.id);
      const patch = (postId: string, content: string) =>
        user.call(app, { method: 'PATCH', url: `/api/v1/posts/${threadId}/posts/${postId}`, payload: { content } });
      const putThread = (posts: unknown[]) => user.call(app, { method: 'PUT', url: `/api/v1/posts/${threadId}/edit`, payload: { posts } });
      const onNetwork = () => fake.published.filter((p) => p.ownerId === network.userId).map((p) => p.text);
      return { user, threadId, get, postIds, patch, putThread, onNetwork, loop: new PublisherLoop(ctx, createPlatforms(ctx), `edits-${serial}`) };
    }

    async function until(loop: PublisherLoop, get: () => Promise<{ status: string }>) {
      for (let i = 0; i < 20 && ['READY', 'PUBLISHING'].includes((await get()).status); i++) {
        clock.advance(31 * 60_000);
        await loop.runOnce();
      }
    }

    for (const fault of ['http500', 'dropResponse'] as const) {
      test(`publish ${fault === 'http500' ? 'answered 500' : 'answer lost'}: the edit is refused, and the post goes out once with the text the network has`, async () => {
        const t = await scheduledThread(['first text', 'second text']);
        fake.failNext('threads_publish', { kind: fault });
        await t.loop.runOnce();
        assert.equal((await t.get()).status, 'READY', 'a transient failure: retried later');

        const single = await t.patch(t.postIds[0]!, 'changed text');
        assert.equal(single.statusCode, 409, single.body);
        assert.equal(single.json().code, 'NOT_EDITABLE');
        assert.match(single.json().detail, /may already be on the network/);
        const whole = await t.putThread([
          { id: t.postIds[0], text: 'changed text' },
          { id: t.postIds[1], text: 'second text' },
        ]);
        assert.equal(whole.statusCode, 409, whole.body);
        assert.equal(whole.json().code, 'NOT_EDITABLE');
        const later = await t.patch(t.postIds[1]!, 'second, changed');
        assert.equal(later.statusCode, 200, 'a post no attempt has reached stays editable');

        await until(t.loop, t.get);
        const thread = await t.get();
        assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));
        assert.deepEqual(t.onNetwork(), ['first text', 'second, changed']);
        assert.deepEqual(
          thread.posts.map((p: { content: string }) => p.content),
          ['first text', 'second, changed'],
          'what Skein shows is what the network has',
        );
      });
    }

    test('a container that failed processing is dropped: after a retry the post can be edited and goes out with the new text', async () => {
      const t = await scheduledThread(['bad media text']);
      fake.failNextContainer('FAILED_PROCESSING_TEXT');
      await t.loop.runOnce();
      const failed = await t.get();
      assert.equal(failed.status, 'FAILED');
      assert.equal(failed.posts[0].error.code, 'THREADS_MEDIA_FAILED');
      const retried = await t.user.call(env().app, {
        method: 'POST',
        url: `/api/v1/posts/${t.threadId}/retry`,
        payload: { scheduleAt: new Date(clock.now().getTime() + 3_600_000).toISOString() },
      });
      assert.equal(retried.statusCode, 200, retried.body);
      const edit = await t.patch(t.postIds[0]!, 'fixed text');
      assert.equal(edit.statusCode, 200, edit.body);
      await until(t.loop, t.get);
      assert.equal((await t.get()).status, 'PUBLISHED');
      assert.deepEqual(t.onNetwork(), ['fixed text']);
    });
  },
  { clock, config: (c) => ({ ...c, threads: { ...c.threads, apiUrl: fake.url } }) },
);
