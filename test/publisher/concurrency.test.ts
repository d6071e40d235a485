import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform, overlapFirstTwo } from '../helpers/fakes/platform.js';
import { createProvider, createUser } from '../helpers/seeds.js';

const CONCURRENCY = 4;

describeEachDb(
  'publisher concurrency',
  (env) => {
    /** A user with `count` Threads accounts. */
    async function accounts(count: number) {
      const { ctx } = env();
      const user = await createUser(ctx);
      const providers = [];
      for (let i = 0; i < count; i++) providers.push(await createProvider(ctx, user.account));
      return { user, providers };
    }

    async function schedule(user: Awaited<ReturnType<typeof createUser>>, providerId: string, at: string, texts: string[]): Promise<string> {
      const { app } = env();
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId, scheduleAt: at, posts: texts.map((text) => ({ text })) },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().threadId;
    }

    async function threadRows(ids: string[]) {
      return env().ctx.db.selectFrom('threads').selectAll().where('id', 'in', ids).execute();
    }

    /** Seconds after 12:00:00 as an ISO time (the test clock starts at 12:00:00). */
    const at = (seconds: number) => new Date(Date.parse('2026-11-22T12:00:00Z') + seconds * 1000).toISOString();

    test('threads of different accounts are published at once, one per account, each account in schedule order', async (t) => {
      const { ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const { user, providers } = await accounts(CONCURRENCY);
      // Three threads per account, interleaved in time; each of two posts.
      const byProvider = new Map<string, string[]>(providers.map((p) => [p.provider_user_id, []]));
      for (let round = 0; round < 3; round++) {
        for (const [i, p] of providers.entries()) {
          await schedule(user, p.id, at(10 + round * 10 + i), [`${p.provider_user_id} #${round} a`, `${p.provider_user_id} #${round} b`]);
          byProvider.get(p.provider_user_id)!.push(`${p.provider_user_id} #${round} a`, `${p.provider_user_id} #${round} b`);
        }
      }
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.delayMs = 20;
      const loop = new PublisherLoop(ctx, { THREADS: fake }, 'parallel');
      overlapFirstTwo(fake);
      assert.equal(await loop.runOnce(), 3 * CONCURRENCY);
      assert.ok(fake.maxInFlight >= 2, `network calls overlapped (at most ${fake.maxInFlight} at once)`);
      assert.ok(fake.maxInFlight <= CONCURRENCY, `never more than SKEIN_PUBLISHER_CONCURRENCY (${fake.maxInFlight})`);
      assert.equal(fake.maxInFlightPerAccount, 1, 'never two calls at once for one account');
      for (const [account, texts] of byProvider) {
        const mine = fake.published.filter((p) => p.account === account);
        assert.deepEqual(
          mine.map((p) => p.text),
          texts,
          'each account: its threads in schedule order, each thread post by post',
        );
        for (let i = 1; i < mine.length; i += 2) assert.equal(mine[i]!.replyTo, mine[i - 1]!.networkPostId);
      }
      assert.equal(await loop.runOnce(), 0, 'nothing left');
    });

    test("one account's backlog does not hold up another account's thread beyond one claim", async (t) => {
      const { ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      // CONCURRENCY busy accounts with a backlog scheduled first, then one thread of a quiet account.
      const { user, providers } = await accounts(CONCURRENCY + 1);
      const quiet = providers.pop()!;
      for (let n = 0; n < 6; n++) for (const [i, p] of providers.entries()) await schedule(user, p.id, at(1 + n * 5 + i), [`busy ${i} #${n}`]);
      const quietThread = await schedule(user, quiet.id, at(50), ['quiet']);
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.delayMs = 10;
      // One slot frees at a time, whatever the machine's speed: of the first claim's threads, one
      // goes out and the others wait on the network until the next claim's first thread is there
      // (or a guard of 30 s passes). With all of them let go at once, the next claim got several
      // slots, and where the quiet thread fell among them depended on timing.
      let firstOut = false;
      let releaseFirstClaim = () => {};
      const nextClaimSeen = new Promise<void>((resolve) => {
        releaseFirstClaim = resolve;
        setTimeout(resolve, 30_000).unref();
      });
      fake.beforePublish = async (post) => {
        if (!post.text.endsWith(' #0')) return releaseFirstClaim();
        if (!firstOut) firstOut = true;
        else await nextClaimSeen;
      };
      const loop = new PublisherLoop(ctx, { THREADS: fake }, 'fair');
      assert.equal(await loop.runOnce(), 6 * CONCURRENCY + 1);
      const order = fake.published.map((p) => p.text);
      // The first claim fills every slot with the busy accounts' first threads; the next free
      // slot goes to the quiet account, not to a busy account's second thread.
      assert.ok(order.indexOf('quiet') <= CONCURRENCY, `the quiet account's thread went out as number ${order.indexOf('quiet') + 1} of ${order.length}`);
      assert.equal((await threadRows([quietThread]))[0]!.status, 'PUBLISHED');
      for (const [i] of providers.entries()) {
        assert.deepEqual(
          order.filter((text) => text.startsWith(`busy ${i} `)),
          [0, 1, 2, 3, 4, 5].map((n) => `busy ${i} #${n}`),
          'each busy account in schedule order',
        );
      }
    });

    test('stopping with several threads in flight: the posts in flight go out, the rest is handed back, nothing is published twice', async (t) => {
      const { ctx, clock } = env();
      t.after(() => clock.set('2026-11-22T12:00:00.000Z'));
      const { user, providers } = await accounts(CONCURRENCY);
      const ids: string[] = [];
      for (const [i, p] of providers.entries()) ids.push(await schedule(user, p.id, at(10 + i), [`t${i} 1`, `t${i} 2`, `t${i} 3`]));
      // A backlog that must not be claimed once stopping.
      for (const [i, p] of providers.entries()) ids.push(await schedule(user, p.id, at(30 + i), [`later ${i}`]));
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.delayMs = 20;
      const loop = new PublisherLoop(ctx, { THREADS: fake }, 'stopping');
      let stopped: Promise<void> | null = null;
      overlapFirstTwo(fake, async (post) => {
        if (post.text.endsWith(' 2')) stopped ??= loop.stop();
      });
      loop.start();
      while (!stopped) await new Promise((resolve) => setTimeout(resolve, 5));
      await stopped;
      fake.beforePublish = null;
      assert.ok(fake.maxInFlight >= 2, 'several threads were in flight');
      const rows = await threadRows(ids);
      assert.ok(
        rows.every((r) => r.locked_by === null && r.locked_until === null),
        'no lease left behind',
      );
      assert.ok(
        rows.every((r) => r.status === 'READY' || r.status === 'PUBLISHED'),
        rows.map((r) => r.status).join(),
      );
      assert.ok(
        rows.some((r) => r.status === 'READY'),
        'something was handed back',
      );
      const posts = await ctx.db.selectFrom('posts').select(['status', 'thread_id']).where('thread_id', 'in', ids).execute();
      assert.ok(
        posts.every((p) => p.status === 'READY' || p.status === 'PUBLISHED'),
        'no post left PUBLISHING',
      );
      const next = new PublisherLoop(ctx, { THREADS: fake }, 'next');
      await next.runOnce();
      assert.ok((await threadRows(ids)).every((r) => r.status === 'PUBLISHED'));
      const texts = fake.published.filter((p) => p.text.startsWith('t') || p.text.startsWith('later')).map((p) => p.text);
      assert.equal(new Set(texts).size, texts.length, 'each post published once');
      assert.equal(texts.length, 4 * CONCURRENCY);
      const calls = fake.calls.length;
      assert.equal(new Set(fake.calls).size, calls, 'no post was even attempted twice');
    });
  },
  { config: (c) => ({ ...c, publisher: { ...c.publisher, concurrency: CONCURRENCY, perAccount: 1 } }) },
);
