/**
 * Threads video in carousels and in follow-up replies, waited for in the queue as a single video
 * post is (threads-video.test.ts): the carousel's item containers are saved on the post (the
 * compare-and-set under the lease), the row is handed back while a video item is processed, and
 * the next claim, by a restarted worker (new platforms, nothing kept in memory), resumes on the
 * same items: no second container. ERROR fails the post with Meta's message; the 10 minutes
 * count from the items' saving, across the carousel container too.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { describeEachDb, type TestEnv } from '../../helpers/context.js';
import { containersMade, firstPost, followUpRow, threadRow, threadsVideoAccount, threadsVideoBench } from '../../helpers/threads-video.js';

const bench = threadsVideoBench();
const { clock } = bench;

describeEachDb(
  'Threads video in carousels and follow-up replies: the wait happens in the queue',
  (env) => {
    let serial = 0;
    const account = () => threadsVideoAccount(env, bench, `carousel${serial++}`);
    const creates = (type: string) => containersMade(bench.fake, type);
    /** A worker as a fresh process makes it: its own platforms, nothing remembered from before. */
    const worker = (ctx: TestEnv['ctx'], name: string) => new PublisherLoop(ctx, createPlatforms(ctx), name);
    const moveTo = (at: Date) => clock.advance(Math.max(0, at.getTime() - clock.now().getTime()));
    const itemsOf = (containerId: string | null) => {
      assert.ok(containerId?.startsWith('items:'), `the items are saved as the post's container: ${containerId}`);
      return (containerId as string).slice('items:'.length).split(',');
    };

    test('a carousel with a video: items saved, the worker free meanwhile, a restarted worker resumes on the same items', async () => {
      const { ctx } = env();
      const a = await account();
      const [videosBefore, imagesBefore, carouselsBefore] = [creates('VIDEO'), creates('IMAGE'), creates('CAROUSEL')];
      const threadId = await a.schedule([
        {
          text: 'a photo and a clip',
          media: [
            { url: a.imageUrl, altText: 'a photo' },
            { url: a.videoUrl, altText: 'a clip' },
          ],
        },
        { text: 'after it' },
      ]);

      await worker(ctx, 'carousel-a').runOnce();
      const waiting = await threadRow(ctx, threadId);
      assert.deepEqual([waiting.status, waiting.locked_by], ['READY', null], 'handed back, no lease held');
      const saved = await firstPost(ctx, threadId);
      const items = itemsOf(saved.network_container_id);
      assert.equal(items.length, 2);
      assert.equal(bench.fake.containerStatus(items[1]!), 'IN_PROGRESS');
      assert.deepEqual([creates('IMAGE') - imagesBefore, creates('VIDEO') - videosBefore, creates('CAROUSEL') - carouselsBefore], [1, 1, 0]);
      assert.deepEqual(a.onNetwork(), []);

      // Each claim by a new worker, as after restarts: the same items are looked at again.
      const steps: number[] = [];
      for (const name of ['carousel-b', 'carousel-c', 'carousel-d', 'carousel-e']) {
        const due = (await threadRow(ctx, threadId)).next_attempt_at!;
        steps.push(due.getTime() - clock.now().getTime());
        moveTo(due);
        await worker(ctx, name).runOnce();
        if ((await threadRow(ctx, threadId)).status === 'PUBLISHED') break;
      }
      assert.deepEqual(steps, [5_000, 5_000, 10_000, 20_000]);
      const thread = await a.get(threadId);
      assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));
      assert.deepEqual(
        [creates('IMAGE') - imagesBefore, creates('VIDEO') - videosBefore, creates('CAROUSEL') - carouselsBefore],
        [1, 1, 1],
        'one container per item and one carousel, across claims and restarts',
      );
      const published = a.onNetwork();
      const post = await firstPost(ctx, threadId);
      assert.deepEqual(
        published.map((p) => [p.text, p.mediaType]),
        [
          ['a photo and a clip', 'CAROUSEL_ALBUM'],
          ['after it', 'TEXT_POST'],
        ],
      );
      const carousel = bench.fake
        .callsTo('threads.create')
        .filter((r) => r.params.media_type === 'CAROUSEL' && r.params.text === 'a photo and a clip')
        .at(-1)!;
      assert.deepEqual(String(carousel.params.children).split(','), items, 'the carousel is made of the saved items');
      assert.equal(published[0]!.containerId, post.network_container_id);
      assert.equal(published[1]!.replyToId, published[0]!.id);
      assert.equal(post.network_post_id, published[0]!.id);
      assert.equal((await threadRow(ctx, threadId)).attempts, 1, 'the looks in between are not attempts');
    });

    test("a carousel item in ERROR fails the post with Meta's message; no new items, nothing published", async () => {
      const { ctx } = env();
      const a = await account();
      const videosBefore = creates('VIDEO');
      const threadId = await a.schedule([{ text: 'a broken clip', media: [{ url: a.imageUrl }, { url: a.videoUrl }] }]);
      await worker(ctx, 'carousel-error-a').runOnce();
      const items = itemsOf((await firstPost(ctx, threadId)).network_container_id);
      bench.fake.failContainer(items[1]!, 'FAILED_PROCESSING_VIDEO');
      moveTo((await threadRow(ctx, threadId)).next_attempt_at!);
      await worker(ctx, 'carousel-error-b').runOnce();
      const thread = await a.get(threadId);
      assert.equal(thread.status, 'FAILED');
      assert.equal(thread.posts[0].error.code, 'THREADS_MEDIA_FAILED');
      assert.match(thread.posts[0].error.message, /FAILED_PROCESSING_VIDEO/);
      assert.equal(creates('VIDEO'), videosBefore + 1);
      assert.deepEqual(a.onNetwork(), []);
      assert.equal((await firstPost(ctx, threadId)).network_container_id, null, 'the dead items are dropped: the post can be edited');
    });

    test('items still processing 10 minutes after they were saved fail the post with THREADS_CONTAINER_NOT_READY', async () => {
      const { ctx } = env();
      const a = await account();
      const threadId = await a.schedule([{ text: 'a slow clip', media: [{ url: a.imageUrl }, { url: a.videoUrl }] }]);
      await worker(ctx, 'carousel-slow').runOnce();
      const post = await firstPost(ctx, threadId);
      await ctx.db
        .updateTable('posts')
        .set({ network_container_at: new Date(clock.now().getTime() + 5_000 - 10 * 60_000) })
        .where('id', '=', post.id)
        .execute();
      moveTo((await threadRow(ctx, threadId)).next_attempt_at!);
      await worker(ctx, 'carousel-slow').runOnce();
      const thread = await a.get(threadId);
      assert.equal(thread.status, 'FAILED');
      assert.equal(thread.posts[0].error.code, 'THREADS_CONTAINER_NOT_READY');
      assert.deepEqual(a.onNetwork(), []);
      assert.equal((await firstPost(ctx, threadId)).network_container_id, post.network_container_id, 'kept: a retry looks at the same items');
    });

    test("the carousel container keeps the items' saving time: one 10-minute wait in all", async () => {
      const { ctx } = env();
      const a = await account();
      const threadId = await a.schedule([{ text: 'items then carousel', media: [{ url: a.imageUrl }, { url: a.videoUrl }] }]);
      await worker(ctx, 'carousel-total').runOnce();
      const itemsSavedAt = (await firstPost(ctx, threadId)).network_container_at!;
      // The video is done by the next look: the carousel container is made, saved over the items, published.
      moveTo(new Date(clock.now().getTime() + 30_000));
      await worker(ctx, 'carousel-total').runOnce();
      const post = await firstPost(ctx, threadId);
      assert.equal((await a.get(threadId)).status, 'PUBLISHED');
      assert.ok(post.network_container_id && !post.network_container_id.startsWith('items:'), 'the carousel container replaced the items');
      assert.equal(post.network_container_at?.getTime(), itemsSavedAt.getTime(), 'the wait began when the items were saved');
    });

    test('a follow-up reply with a video waits in its queue and resumes on the same container after a restart', async () => {
      const { ctx } = env();
      const a = await account();
      const videosBefore = creates('VIDEO');
      const threadId = await a.schedule([{ text: 'the thread' }]);
      await worker(ctx, 'reply-a').runOnce();
      assert.equal((await a.get(threadId)).status, 'PUBLISHED');
      const id = await a.followUp(threadId, { text: 'the clip, later', media: [{ url: a.videoUrl, altText: 'a clip' }], delayMinutes: 5 });
      moveTo((await followUpRow(ctx, id)).run_at!);

      await worker(ctx, 'reply-a').runOnce();
      const waiting = await followUpRow(ctx, id);
      assert.deepEqual([waiting.status, waiting.locked_by], ['PENDING', null], 'handed back, no lease held');
      assert.ok(waiting.network_container_id);
      assert.equal(waiting.run_at!.getTime() - clock.now().getTime(), 5_000);
      assert.equal(creates('VIDEO'), videosBefore + 1);

      for (const name of ['reply-b', 'reply-c', 'reply-d', 'reply-e']) {
        moveTo((await followUpRow(ctx, id)).run_at!);
        await worker(ctx, name).runOnce();
        if ((await followUpRow(ctx, id)).status === 'PUBLISHED') break;
      }
      const done = await followUpRow(ctx, id);
      assert.equal(done.status, 'PUBLISHED', String(done.error_message));
      assert.equal(creates('VIDEO'), videosBefore + 1, 'one container, resumed across restarts');
      const reply = a.onNetwork().find((p) => p.text === 'the clip, later')!;
      assert.equal(reply.mediaType, 'VIDEO');
      assert.equal(reply.containerId, waiting.network_container_id);
      assert.equal(done.attempts, 1, 'the looks in between are not attempts');
    });
  },
  bench.options,
);
