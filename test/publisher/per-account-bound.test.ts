/**
 * SKEIN_PUBLISHER_PER_ACCOUNT: threads of one account in flight at once, across every worker;
 * and the publisher's tick (/readyz) after each post, so a long thread is not taken for a stall.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform, overlapFirstTwo } from '../helpers/fakes/platform.js';
import { createProvider, createUser } from '../helpers/seeds.js';

const PER_ACCOUNT = 2;

describeEachDb(
  'publisher: bound per account across workers',
  (env) => {
    const at = (seconds: number) => new Date(Date.parse('2026-11-22T12:00:00Z') + seconds * 1000).toISOString();

    async function schedule(user: Awaited<ReturnType<typeof createUser>>, providerId: string, when: string, texts: string[]): Promise<string> {
      const res = await user.call(env().app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId, scheduleAt: when, posts: texts.map((text) => ({ text })) },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().threadId;
    }

    test('three workers never have more than SKEIN_PUBLISHER_PER_ACCOUNT threads of one account in flight; a quiet account is not starved', async (t) => {
      const { ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const user = await createUser(ctx);
      const busy = await createProvider(ctx, user.account);
      const quiet = await createProvider(ctx, user.account);
      for (let n = 0; n < 12; n++) await schedule(user, busy.id, at(1 + n), [`busy #${n}`]);
      await schedule(user, quiet.id, at(30), ['quiet']);
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.delayMs = 20;
      // Whatever the machine's speed: the bound is reached (the first busy post waits on the
      // network until a second one of that account is there too), and the busy posts wait until
      // the quiet thread is on the network as well, so what the order below shows is where the
      // quiet thread was claimed, not how fast each post's database work went (each wait has a
      // guard of 30 s: a publisher that starves the quiet account fails the checks, not hangs).
      let quietArrived = () => {};
      const quietOut = new Promise<void>((resolve) => {
        quietArrived = resolve;
        setTimeout(resolve, 30_000).unref();
      });
      overlapFirstTwo(
        fake,
        async (post) => {
          if (post.text === 'quiet') quietArrived();
          else await quietOut;
        },
        (post) => post.text.startsWith('busy'),
      );
      const workers = ['w1', 'w2', 'w3'].map((id) => new PublisherLoop(ctx, { THREADS: fake }, id));
      const claimed = await Promise.all(workers.map((w) => w.runOnce()));
      assert.equal(
        claimed.reduce((a, b) => a + b, 0),
        13,
      );
      assert.equal(fake.maxInFlightPerAccount, PER_ACCOUNT, `at most ${PER_ACCOUNT} at once for one account, and the bound is used`);
      const order = fake.published.map((p) => p.text);
      assert.equal(new Set(order).size, 13, 'each thread published once');
      // The busy account holds its 2 places; the quiet one takes the next free slot of either worker.
      assert.ok(order.indexOf('quiet') <= PER_ACCOUNT, `the quiet account's thread went out as number ${order.indexOf('quiet') + 1}`);
    });

    test('the publisher ticks after each post published, not only after each thread', async (t) => {
      const { ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      await schedule(user, provider.id, at(1), ['one', 'two', 'three', 'four']);
      clock.advance(60_000);
      let ticks = 0;
      const tick = ctx.metrics.publisherTick.bind(ctx.metrics);
      ctx.metrics.publisherTick = () => {
        ticks++;
        tick();
      };
      t.after(() => {
        ctx.metrics.publisherTick = tick;
      });
      const seen: number[] = [];
      const fake = new FakePlatform();
      fake.beforePublish = async () => {
        seen.push(ticks);
      };
      await new PublisherLoop(ctx, { THREADS: fake }, 'ticking').runOnce();
      assert.equal(fake.published.length, 4);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! > seen[i - 1]!, `a tick between post ${i} and post ${i + 1}: ${seen.join(', ')}`);
    });
  },
  { config: (c) => ({ ...c, publisher: { ...c.publisher, concurrency: 4, perAccount: PER_ACCOUNT } }) },
);
