import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { describeEachDb, type TestEnv } from '../../helpers/context.js';
import { containersMade, firstPost, threadRow, threadsVideoAccount, threadsVideoBench } from '../../helpers/threads-video.js';

const bench = threadsVideoBench();
const { clock } = bench;

describeEachDb(
  'Threads video: the wait happens in the queue, not in a worker',
  (env) => {
    let serial = 0;
    const videoAccount = () => threadsVideoAccount(env, bench, `video${serial++}`);
    const videoContainers = () => containersMade(bench.fake, 'VIDEO');
    /** Moves the clock to the moment the thread is due again. */
    const toDue = async (ctx: TestEnv['ctx'], threadId: string) => {
      const due = (await threadRow(ctx, threadId)).next_attempt_at!;
      const step = due.getTime() - clock.now().getTime();
      clock.advance(step);
      return step;
    };

    test('published only once FINISHED; the worker is free meanwhile; another worker resumes on the same container', async () => {
      const { ctx } = env();
      const account = await videoAccount();
      const containersBefore = videoContainers();
      const videoThread = await account.schedule([{ text: 'a video', media: [{ url: account.videoUrl, altText: 'a clip' }] }, { text: 'after it' }]);
      const workerA = new PublisherLoop(ctx, createPlatforms(ctx), 'video-a');
      const workerB = new PublisherLoop(ctx, createPlatforms(ctx), 'video-b');

      await workerA.runOnce();
      const waiting = await threadRow(ctx, videoThread);
      assert.deepEqual([waiting.status, waiting.locked_by], ['READY', null], 'handed back, no lease held');
      const saved = await firstPost(ctx, videoThread);
      assert.ok(saved.network_container_id);
      assert.equal(bench.fake.containerStatus(saved.network_container_id), 'IN_PROGRESS');
      assert.equal(videoContainers(), containersBefore + 1);
      assert.deepEqual(account.onNetwork(), []);

      // Another thread falls due while the video is processed: the same worker publishes it.
      const textThread = await account.schedule([{ text: 'meanwhile' }]);
      await workerA.runOnce();
      assert.equal((await account.get(textThread)).status, 'PUBLISHED');
      assert.equal((await account.get(videoThread)).status, 'READY');

      // Each look comes after as long again as the container has waited, by whichever worker.
      const steps: number[] = [];
      for (const worker of [workerB, workerA, workerB, workerA]) {
        steps.push(await toDue(ctx, videoThread));
        await worker.runOnce();
      }
      assert.deepEqual(steps, [5_000, 5_000, 10_000, 20_000]);
      const thread = await account.get(videoThread);
      assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));
      assert.equal(videoContainers(), containersBefore + 1, 'one container, resumed across claims and workers');
      const published = account.onNetwork();
      assert.deepEqual(
        published.map((p) => [p.text, p.mediaType]),
        [
          ['meanwhile', 'TEXT_POST'],
          ['a video', 'VIDEO'],
          ['after it', 'TEXT_POST'],
        ],
      );
      assert.equal(published[1]!.containerId, saved.network_container_id);
      assert.equal(published[2]!.replyToId, published[1]!.id);
      assert.equal((await threadRow(ctx, videoThread)).attempts, 1, 'the looks in between are not attempts');
    });

    test("ERROR fails the post with Meta's message; nothing is published and no second container is made", async () => {
      const { ctx } = env();
      const account = await videoAccount();
      const containersBefore = videoContainers();
      const threadId = await account.schedule([{ text: 'a broken video', media: [{ url: account.videoUrl }] }]);
      const worker = new PublisherLoop(ctx, createPlatforms(ctx), 'video-error');
      await worker.runOnce();
      const containerId = (await firstPost(ctx, threadId)).network_container_id!;
      bench.fake.failContainer(containerId, 'FAILED_PROCESSING_VIDEO');
      await toDue(ctx, threadId);
      await worker.runOnce();
      const thread = await account.get(threadId);
      assert.equal(thread.status, 'FAILED');
      assert.equal(thread.posts[0].error.code, 'THREADS_MEDIA_FAILED');
      assert.match(thread.posts[0].error.message, /FAILED_PROCESSING_VIDEO/);
      assert.equal(videoContainers(), containersBefore + 1);
      assert.deepEqual(account.onNetwork(), []);
    });

    test('a container still processing 10 minutes after it was saved fails the post with THREADS_CONTAINER_NOT_READY', async () => {
      const { ctx } = env();
      const account = await videoAccount();
      const threadId = await account.schedule([{ text: 'a slow video', media: [{ url: account.videoUrl }] }]);
      const worker = new PublisherLoop(ctx, createPlatforms(ctx), 'video-slow');
      await worker.runOnce();
      const post = await firstPost(ctx, threadId);
      // As if the container had been saved 10 minutes before its next look (the fake's is still processing).
      await ctx.db
        .updateTable('posts')
        .set({ network_container_at: new Date(clock.now().getTime() + 5_000 - 10 * 60_000) })
        .where('id', '=', post.id)
        .execute();
      await toDue(ctx, threadId);
      assert.equal(bench.fake.containerStatus(post.network_container_id!), 'IN_PROGRESS');
      await worker.runOnce();
      const thread = await account.get(threadId);
      assert.equal(thread.status, 'FAILED');
      assert.equal(thread.posts[0].error.code, 'THREADS_CONTAINER_NOT_READY');
      assert.deepEqual(account.onNetwork(), []);
      assert.equal((await firstPost(ctx, threadId)).network_container_id, post.network_container_id, 'kept: a retry looks at it again');
    });
  },
  bench.options,
);
