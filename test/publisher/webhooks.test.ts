import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, before, test } from 'node:test';
import { PublishError } from '../../src/networks/platform.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { takeOverWorkOfDeadProcesses } from '../../src/publisher/runner.js';
import { WEBHOOK_RETRY_FOR_MS } from '../../src/publisher/webhooks.js';
import { markProviderExpired } from '../../src/repos/providers.js';
import { deliveryQueue } from '../../src/repos/webhook-deliveries.js';
import { insertPing } from '../../src/repos/webhook-outbox.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { type ReceivedWebhook, WebhookReceiver } from '../helpers/fakes/webhook-receiver.js';
import { createProvider, createUser, type TestUser } from '../helpers/seeds.js';

/** The receiver's check, as a user would write it (docs/api.md has the runnable one: webhook-docs.test.ts). */
function signatureValid(request: ReceivedWebhook, secret: string): boolean {
  const header = String(request.headers['skein-signature']);
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
  if (!t || !v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${request.rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

describeEachDb(
  'webhooks: outbox and delivery',
  (env) => {
    const receiver = new WebhookReceiver();
    before(() => receiver.start());
    after(() => receiver.stop());

    async function hook(user: TestUser, events: string[], url = receiver.url) {
      const res = await user.call(env().app, { method: 'POST', url: '/api/v1/webhooks', payload: { url, events } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as { id: string; secret: string };
    }
    async function scheduleThread(user: TestUser, providerId: string, texts = ['one']) {
      const scheduleAt = new Date(env().clock.now().getTime() + 10_000).toISOString();
      const res = await user.call(env().app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId, scheduleAt, posts: texts.map((text) => ({ text })) },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().threadId as string;
    }
    const eventsOf = (user: TestUser) =>
      env().ctx.db.selectFrom('webhook_events').selectAll().where('account_id', '=', user.account.id).orderBy('id').execute();
    /** Each test starts with an empty receiver and nothing left to send from the tests before. */
    const reset = async () => {
      await env().ctx.db.updateTable('webhook_deliveries').set({ status: 'DELIVERED' }).where('status', 'in', ['PENDING', 'SENDING']).execute();
      receiver.received.length = 0;
      receiver.answer = () => 200;
    };

    test('a published thread sends post.published then thread.published, signed, with the documented headers and body', async () => {
      const { ctx, clock } = env();
      await reset();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const { id: webhookId, secret } = await hook(user, ['post.published', 'thread.published', 'thread.failed']);
      const threadId = await scheduleThread(user, provider.id, ['one', 'two']);
      clock.advance(60_000);
      const fake = new FakePlatform();
      await new PublisherLoop(ctx, { THREADS: fake }, 'w1').runOnce();
      assert.equal(fake.published.length, 2);
      const types = receiver.received.map((r) => r.body.type);
      assert.deepEqual(types.sort(), ['post.published', 'post.published', 'thread.published']);
      const posts = await ctx.db.selectFrom('posts').selectAll().where('thread_id', '=', threadId).orderBy('post_order').execute();
      for (const r of receiver.received) {
        assert.ok(signatureValid(r, secret), 'the signature verifies with the secret shown at create');
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.headers['skein-event-id'], r.body.id);
        assert.equal(r.headers['skein-event-type'], r.body.type);
        assert.equal(String(r.headers['skein-signature']).split(',')[0], `t=${Math.floor(clock.now().getTime() / 1000)}`);
        assert.deepEqual(Object.keys(r.body), ['id', 'type', 'createdAt', 'data']);
        assert.equal(r.body.createdAt, clock.now().toISOString());
      }
      const published = receiver.received.filter((r) => r.body.type === 'post.published').map((r) => r.body.data);
      assert.deepEqual(
        published.sort((a, b) => String(a.postId).localeCompare(String(b.postId))),
        posts.map((p) => ({ threadId, providerId: provider.id, postId: p.id, permaLink: p.permalink, teamId: null })),
      );
      const thread = receiver.received.find((r) => r.body.type === 'thread.published')!;
      assert.deepEqual(thread.body.data, { threadId, providerId: provider.id, teamId: null });
      const deliveries = (await user.call(env().app, { method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries` })).json();
      assert.equal(deliveries.count, 3);
      assert.ok(
        deliveries.deliveries.every(
          (d: { status: string; attempt: number; responseStatus: number }) => d.status === 'DELIVERED' && d.attempt === 1 && d.responseStatus === 200,
        ),
      );
    });

    test('a receiver answering 500 three times then 200 gets the same event id four times; the deliveries list shows attempts 1-4', async () => {
      const { ctx, clock, app } = env();
      await reset();
      receiver.answer = (_r, n) => (n <= 3 ? 500 : 200);
      const user = await createUser(ctx);
      const { id: webhookId } = await hook(user, ['ping']);
      const { eventId } = (await user.call(app, { method: 'POST', url: `/api/v1/webhooks/${webhookId}/test` })).json();
      const loop = new PublisherLoop(ctx, {}, 'w1');
      const failedAt: number[] = [];
      for (let i = 0; i < 4; i++) {
        await loop.runOnce();
        assert.equal(receiver.received.length, i + 1, `attempt ${i + 1} is due`);
        failedAt.push(clock.now().getTime());
        await loop.runOnce();
        assert.equal(receiver.received.length, i + 1, 'the retry waits for its backoff');
        clock.advance(i === 0 ? 60_000 : 3600_000);
      }
      assert.deepEqual(
        receiver.received.map((r) => r.body.id),
        [eventId, eventId, eventId, eventId],
      );
      const { deliveries, count } = (await user.call(app, { method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries` })).json();
      assert.equal(count, 4);
      assert.deepEqual(
        deliveries.map((d: Record<string, unknown>) => [d.eventId, d.type, d.attempt, d.status, d.responseStatus]),
        [
          [eventId, 'ping', 4, 'DELIVERED', 200],
          [eventId, 'ping', 3, 'FAILED', 500],
          [eventId, 'ping', 2, 'FAILED', 500],
          [eventId, 'ping', 1, 'FAILED', 500],
        ],
      );
      assert.equal(deliveries[3].at, new Date(failedAt[0]!).toISOString());
      assert.equal(deliveries[3].error, 'answered HTTP 500');
    });

    test('a redirect is a failed attempt (not followed); a receiver that never answers 2xx is given up on after 24 h, the first retry within 60 s', async () => {
      const { ctx, clock, app } = env();
      await reset();
      receiver.answer = (_r, n) => (n === 1 ? { status: 302, location: 'http://127.0.0.1:9/elsewhere' } : 503);
      const user = await createUser(ctx);
      const { id: webhookId } = await hook(user, ['ping']);
      await user.call(app, { method: 'POST', url: `/api/v1/webhooks/${webhookId}/test` });
      const loop = new PublisherLoop(ctx, {}, 'w1');
      const start = clock.now().getTime();
      const attemptsAt: number[] = [];
      // Straight to each retry's due time: every attempt, without stepping through the hours between.
      for (let sent = 0; ; ) {
        await loop.runOnce();
        if (receiver.received.length > sent) attemptsAt.push(clock.now().getTime());
        sent = receiver.received.length;
        const next = await ctx.db
          .selectFrom('webhook_deliveries')
          .select('run_at')
          .where('webhook_id', '=', webhookId)
          .where('status', '=', 'PENDING')
          .executeTakeFirst();
        if (!next) break;
        clock.set(next.run_at);
      }
      const row = await ctx.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).executeTakeFirstOrThrow();
      assert.equal(row.status, 'FAILED');
      assert.ok(
        attemptsAt[1]! - attemptsAt[0]! <= 70_000,
        `first retry after ${(attemptsAt[1]! - attemptsAt[0]!) / 1000} s (60 s at most, plus the 10 s step)`,
      );
      assert.ok(attemptsAt.at(-1)! - start >= WEBHOOK_RETRY_FOR_MS, 'retried for at least 24 h');
      assert.equal(receiver.received.length, row.attempts, 'each attempt sent once, none after giving up');
      const { deliveries } = (await user.call(app, { method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries` })).json();
      assert.deepEqual([deliveries.at(-1).attempt, deliveries.at(-1).responseStatus, deliveries.at(-1).status], [1, 302, 'FAILED']);
      assert.equal(receiver.received[0]!.headers['skein-event-type'], 'ping');
      console.log(`# webhooks: gave up after ${row.attempts} attempts over ${((attemptsAt.at(-1)! - start) / 3600_000).toFixed(1)} h`);
    });

    test('a failing thread sends thread.failed with the error; a refused token sends provider.expired', async () => {
      const { ctx, clock } = env();
      await reset();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      await hook(user, ['thread.failed', 'provider.expired', 'post.published']);
      const failing = await scheduleThread(user, provider.id);
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.faults.push(new PublishError('permanent', 'TEXT_REFUSED', 'the network refused the text'));
      await new PublisherLoop(ctx, { THREADS: fake }, 'w1').runOnce();
      assert.deepEqual(
        receiver.received.map((r) => [r.body.type, r.body.data]),
        [
          [
            'thread.failed',
            { threadId: failing, providerId: provider.id, teamId: null, error: { code: 'TEXT_REFUSED', message: 'the network refused the text' } },
          ],
        ],
      );
      await reset();
      const expiring = await scheduleThread(user, provider.id);
      clock.advance(60_000);
      fake.faults.push(new PublishError('auth', 'TOKEN_EXPIRED', 'the token expired'));
      await new PublisherLoop(ctx, { THREADS: fake }, 'w1').runOnce();
      assert.deepEqual(receiver.received.map((r) => r.body.type).sort(), ['provider.expired', 'thread.failed']);
      assert.deepEqual(receiver.received.find((r) => r.body.type === 'provider.expired')!.body.data, { providerId: provider.id, teamId: null });
      assert.equal(receiver.received.find((r) => r.body.type === 'thread.failed')!.body.data.threadId, expiring);
    });

    test('follow-up replies send follow_up.published and follow_up.failed', async () => {
      const { ctx, clock, app } = env();
      await reset();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      await hook(user, ['follow_up.published', 'follow_up.failed']);
      const threadId = await scheduleThread(user, provider.id);
      const add = async (text: string) =>
        (await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: { text, delayMinutes: 5 } })).json().id as string;
      const good = await add('thanks');
      const bad = await add('refused');
      clock.advance(60_000);
      const fake = new FakePlatform();
      const loop = new PublisherLoop(ctx, { THREADS: fake }, 'w1');
      await loop.runOnce();
      assert.equal(receiver.received.length, 0, 'no subscription to thread events');
      clock.advance(6 * 60_000);
      fake.beforePublish = async (post) => {
        if (post.id === bad) throw new PublishError('permanent', 'REPLY_REFUSED', 'no');
      };
      await loop.runOnce();
      const byType = Object.fromEntries(receiver.received.map((r) => [r.body.type, r.body.data]));
      assert.deepEqual(byType['follow_up.published'], { followUpId: good, threadId, providerId: provider.id, teamId: null });
      assert.deepEqual(byType['follow_up.failed'], {
        followUpId: bad,
        threadId,
        providerId: provider.id,
        teamId: null,
        error: { code: 'REPLY_REFUSED', message: 'no' },
      });
    });

    test('outbox: an event exists iff its change committed; none is written when no webhook of the workspace wants its type', async () => {
      const { ctx, clock } = env();
      const user = await createUser(ctx);
      const other = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      await hook(other, ['provider.expired'], receiver.url);
      const tokenOf = async (id: string) =>
        (await ctx.db.selectFrom('providers').select('access_token_enc').where('id', '=', id).executeTakeFirstOrThrow()).access_token_enc;
      assert.equal(await markProviderExpired(ctx.db, provider.id, await tokenOf(provider.id), clock.now()), true);
      assert.equal((await eventsOf(user)).length, 0, "another account's webhook does not get this workspace's events");

      const watched = await createProvider(ctx, user.account);
      await hook(user, ['provider.expired']);
      const token = await tokenOf(watched.id);
      await assert.rejects(
        ctx.db.transaction().execute(async (trx) => {
          assert.equal(await markProviderExpired(trx, watched.id, token, clock.now()), true);
          assert.equal((await trx.selectFrom('webhook_events').select('id').where('account_id', '=', user.account.id).execute()).length, 1);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.equal((await eventsOf(user)).length, 0, 'rolled back with the change');
      assert.equal((await ctx.db.selectFrom('providers').select('status').where('id', '=', watched.id).executeTakeFirstOrThrow()).status, 'ACTIVE');
      assert.equal(await markProviderExpired(ctx.db, watched.id, await tokenOf(watched.id), clock.now()), true);
      assert.equal(await markProviderExpired(ctx.db, watched.id, await tokenOf(watched.id), clock.now()), false, 'no change the second time');
      const events = await eventsOf(user);
      assert.deepEqual(
        events.map((e) => [e.type, e.data]),
        [['provider.expired', { providerId: watched.id, teamId: null }]],
      );
      const deliveries = await ctx.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', events[0]!.id).execute();
      assert.equal(deliveries.length, 1);
    });

    test('a worker that died mid-delivery: its lease runs out (PostgreSQL) or is ended at the embedded start, and the event is sent again with the same id', async () => {
      const { ctx, clock, kind, app } = env();
      await reset();
      const user = await createUser(ctx);
      const { id: webhookId } = await hook(user, ['ping']);
      const { eventId } = (await user.call(app, { method: 'POST', url: `/api/v1/webhooks/${webhookId}/test` })).json();
      const now = clock.now();
      const { rows: claimed } = await deliveryQueue.claim(
        ctx.db,
        { workerId: 'dead', now, until: new Date(now.getTime() + ctx.config.publisher.leaseMs) },
        100,
      );
      assert.deepEqual(
        claimed.map((c) => c.event_id),
        [eventId],
      );
      const loop = new PublisherLoop(ctx, {}, 'w1');
      if (kind === 'pglite') {
        const ended = await takeOverWorkOfDeadProcesses(ctx);
        assert.equal(ended?.webhookDeliveries, 1);
      } else {
        assert.equal(await loop.runOnce(), 0, 'a live worker may hold it');
        clock.advance(ctx.config.publisher.leaseMs + 1);
      }
      assert.equal(await loop.runOnce(), 1);
      assert.deepEqual(
        receiver.received.map((r) => r.body.id),
        [eventId],
      );
      const { deliveries } = (await user.call(app, { method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries` })).json();
      assert.deepEqual(
        deliveries.map((d: { attempt: number; status: string }) => [d.attempt, d.status]),
        [[2, 'DELIVERED']],
      );
    });

    test('1,000 events, the receiver down for a while and back: every one delivered, none lost', async () => {
      const { ctx, clock } = env();
      await reset();
      const user = await createUser(ctx);
      const { id: webhookId } = await hook(user, ['ping']);
      const webhook = await ctx.db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).executeTakeFirstOrThrow();
      const ids = new Set<string>();
      for (let i = 0; i < 1000; i++) ids.add(await insertPing(ctx.db, webhook, clock.now()));
      await receiver.stop();
      const loop = new PublisherLoop(ctx, {}, 'w1');
      const start = clock.now().getTime();
      let rounds = 0;
      while (rounds < 5000) {
        rounds++;
        if (!receiver.running && clock.now().getTime() - start >= 20 * 60_000) await receiver.start();
        const claimed = await loop.runOnce();
        if (claimed === 0) {
          const pending = await ctx.db
            .selectFrom('webhook_deliveries')
            .select('status')
            .where('webhook_id', '=', webhookId)
            .where('status', '!=', 'DELIVERED')
            .execute();
          if (pending.length === 0) break;
          clock.advance(60_000);
        }
      }
      const received = receiver.uniqueIds();
      const lost = [...ids].filter((id) => !received.has(id)).length;
      const delivered = [...ids].filter((id) => received.has(id)).length;
      const attempts = Number(
        (
          await ctx.db
            .selectFrom('webhook_attempts')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('webhook_id', '=', webhookId)
            .executeTakeFirstOrThrow()
        ).n,
      );
      console.log(`# webhooks: events=${ids.size} attempts=${attempts} delivered=${delivered} requests=${receiver.received.length} lost=${lost}`);
      assert.equal(lost, 0);
      assert.equal(delivered, 1000);
      assert.equal(received.size, 1000, 'nothing else was sent');
      assert.ok(attempts > 1000, 'the receiver was down for the first attempts');
    });
  },
  { config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);

/** Where `rebind.example` points now: public when the webhook is made, loopback when it is sent. */
const dns = { address: '93.184.216.34' };
describeEachDb(
  'webhooks: the address is checked again at send time (DNS rebinding)',
  (env) => {
    const receiver = new WebhookReceiver();
    before(() => receiver.start());
    after(() => receiver.stop());

    test('a host that resolved public at create and resolves to loopback at send is refused: a failed attempt, nothing sent', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const port = new URL(receiver.url).port;
      dns.address = '93.184.216.34';
      const res = await user.call(app, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `http://rebind.example:${port}/hook`, events: ['ping'] } });
      assert.equal(res.statusCode, 201, res.body);
      const webhookId = res.json().id as string;
      dns.address = '127.0.0.1';
      await user.call(app, { method: 'POST', url: `/api/v1/webhooks/${webhookId}/test` });
      await new PublisherLoop(ctx, {}, 'w1').runOnce();
      assert.equal(receiver.received.length, 0, 'nothing reached the loopback receiver');
      const { deliveries } = (await user.call(app, { method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries` })).json();
      assert.equal(deliveries.length, 1);
      assert.deepEqual([deliveries[0].attempt, deliveries[0].status, deliveries[0].responseStatus], [1, 'FAILED', null]);
      assert.match(deliveries[0].error, /resolves to a private or reserved address, not a public one/);
      assert.doesNotMatch(deliveries[0].error, /127\.0\.0\.1/, 'the resolved address is never shown');
      const row = await ctx.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).executeTakeFirstOrThrow();
      assert.equal(row.status, 'PENDING', 'retried later, as any failed attempt (the name may point back)');
    });
  },
  { dnsLookup: async () => [{ address: dns.address, family: 4 }] },
);
