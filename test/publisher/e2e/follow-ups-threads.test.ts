import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { personalWorkspace } from '../../../src/lib/workspace.js';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { addProvider } from '../../../src/services/providers/providers.js';
import { describeEachDb } from '../../helpers/context.js';
import { FakeGraphApi } from '../../helpers/fakes/threads-graph-api.js';
import { type MediaServer, startMediaServer } from '../../helpers/media-server.js';
import { createUser } from '../../helpers/seeds.js';

// One clock for Skein and for "Meta".
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let fake: FakeGraphApi;
/** The reply's image, on a local server: Skein checks it and "Meta" downloads it. */
let cdn: MediaServer;

before(async () => {
  fake = await FakeGraphApi.start({ clock, processingMs: { TEXT: 0, IMAGE: 0, CAROUSEL: 0, VIDEO: 0 } });
  cdn = await startMediaServer();
});
after(async () => {
  await fake.close();
  await cdn.close();
});

describeEachDb(
  'follow-up replies on the strict fake Threads Graph API (over HTTP)',
  (env) => {
    test("the reply's reply_to_id is the last post's media id; published once, even when Meta's answer is lost", async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const username = `followup${Math.floor(Math.random() * 1e6)}`;
      const { userId, accessToken } = fake.createAccount(username);
      const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
        kind: 'THREADS',
        providerUserId: userId,
        username,
        accessToken,
      });
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: new Date(clock.now().getTime() + 60_000).toISOString(),
          posts: [{ text: 'first' }, { text: 'second' }, { text: 'last' }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId = created.json().threadId;
      const added = await user.call(app, {
        method: 'POST',
        url: `/api/v1/posts/${threadId}/follow-ups`,
        payload: { text: 'Did you like it? 🙂', delayMinutes: 15, media: [{ url: `${cdn.base}/cat.jpg`, altText: 'a cat' }] },
      });
      assert.equal(added.statusCode, 201, added.body);
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-follow-up');
      clock.advance(60_000);
      await loop.runOnce();
      const mine = () => fake.published.filter((p) => p.ownerId === userId);
      assert.equal(mine().length, 3);
      const [first, , last] = mine();

      // At dueAt Meta publishes the reply, and the connection is cut before the answer arrives.
      const [pending] = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}/follow-ups` })).json().followUps;
      assert.equal(pending.dueAt, new Date(last!.publishedAt + 15 * 60_000).toISOString());
      clock.set(pending.dueAt);
      fake.failNext('threads_publish', { kind: 'dropResponse' });
      await loop.runOnce();
      assert.equal(mine().length, 4, 'the reply is out');
      const row = await ctx.db.selectFrom('follow_ups').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'PENDING', 'the outcome was unknown: tried again later');
      assert.ok(row.network_container_id, 'the container is saved');
      clock.set(row.run_at!);
      await loop.runOnce();

      const replies = mine().filter((p) => p.text === 'Did you like it? 🙂');
      assert.equal(replies.length, 1, 'published once');
      const reply = replies[0]!;
      assert.equal(reply.replyToId, last!.id, "reply_to_id: the last post's media id");
      assert.equal(reply.rootId, first!.id);
      assert.equal(reply.mediaType, 'IMAGE');
      assert.equal(reply.media[0]?.url, `${cdn.base}/cat.jpg`);
      assert.equal(fake.duplicatePublishAttempts, 0, 'no container was sent to threads_publish twice');
      const [shown] = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}/follow-ups` })).json().followUps;
      assert.equal(shown.status, 'PUBLISHED');
      assert.equal(shown.permaLink, `https://www.threads.net/@${username}/post/${reply.shortcode}`);
      await loop.runOnce();
      assert.equal(mine().length, 4);
    });
  },
  // The media server is on loopback.
  { config: (c) => ({ ...c, threads: { ...c.threads, apiUrl: fake.url }, media: { allowPrivate: true } }), clock },
);
