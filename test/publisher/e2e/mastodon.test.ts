import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { personalWorkspace } from '../../../src/lib/workspace.js';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { addProvider } from '../../../src/services/providers/providers.js';
import { describeEachDb, type TestEnv } from '../../helpers/context.js';
import { FakeMastodonApi } from '../../helpers/fakes/mastodon-api.js';
import { pngBytes } from '../../helpers/media-files.js';
import { createUser } from '../../helpers/seeds.js';

// One clock for Skein and for the Mastodon server: media processing and retries move with it.
const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let fake: FakeMastodonApi;

before(async () => {
  fake = await FakeMastodonApi.start({ clock, maxCharacters: 500, processingMs: { image: 3_000 } });
});
after(async () => {
  await fake.close();
});

async function connect(env: TestEnv, username: string) {
  const { ctx } = env;
  const user = await createUser(ctx);
  const account = fake.createAccount(username);
  const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
    kind: 'MASTODON',
    providerUserId: account.accountId,
    username: `${username}@${fake.domain}`,
    accessToken: account.accessToken,
    serviceUrl: fake.url,
    networkLimits: {
      maxCharacters: 500,
      maxMediaAttachments: 4,
      charactersReservedPerUrl: 23,
      imageSizeLimit: null,
      videoSizeLimit: null,
      descriptionLimit: null,
    },
  });
  return { user, provider, account, username };
}

async function threadRow(env: TestEnv, id: string) {
  return env.ctx.db.selectFrom('threads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describeEachDb(
  'Mastodon end to end against the strict fake server (over HTTP)',
  (env) => {
    test('a 3-post thread with an image, a content warning and a language is a reply chain, published once', async () => {
      const { app, ctx } = env();
      const { user, provider, account, username } = await connect(env(), `chain${Math.floor(Math.random() * 1e6)}`);
      const uploaded = await user.call(app, {
        method: 'POST',
        url: '/api/v1/media',
        headers: { 'content-type': 'image/png' },
        payload: await pngBytes(40, 30),
      });
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: clock.now().toISOString(),
          posts: [
            {
              text: 'One: the spoilers of the finale',
              contentWarning: 'finale spoilers',
              langs: ['en'],
              media: [{ url: uploaded.json().url, altText: 'the last scene' }],
              isSpoilerMedia: true,
            },
            { text: 'Two: <it> & "more" https://example.com/a/very/long/link', langs: ['en'] },
            { text: 'Três: fim', langs: ['pt-BR'] },
          ],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId = created.json().threadId;
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-mastodon');
      await loop.runOnce();
      // The image is still being processed: the thread is handed back, nothing is posted yet.
      assert.equal(fake.postsBy(account.accountId).length, 0);
      const waiting = await threadRow(env(), threadId);
      assert.equal(waiting.status, 'READY');
      assert.ok(waiting.next_attempt_at && waiting.next_attempt_at > clock.now());
      assert.equal(fake.callsTo('media.create').length >= 1, true);
      clock.set(waiting.next_attempt_at);
      await loop.runOnce();

      const statuses = fake.postsBy(account.accountId);
      assert.equal(statuses.length, 3, 'three statuses, once each');
      const [first, second, third] = statuses;
      assert.equal(first!.inReplyToId, null);
      assert.equal(second!.inReplyToId, first!.id);
      assert.equal(third!.inReplyToId, second!.id);
      assert.deepEqual(
        statuses.map((s) => [s.visibility, s.language, s.spoilerText, s.sensitive]),
        [
          ['public', 'en', 'finale spoilers', true],
          ['public', 'en', '', false],
          ['public', 'pt', '', false],
        ],
      );
      assert.equal(second!.text, 'Two: <it> & "more" https://example.com/a/very/long/link');
      assert.equal(first!.mediaIds.length, 1);
      assert.equal(fake.media.get(first!.mediaIds[0]!)!.description, 'the last scene');
      assert.equal(fake.media.size >= 1, true);
      const keys = fake.callsTo('statuses.create').map((r) => r.idempotencyKey);
      assert.ok(
        keys.every((k) => typeof k === 'string' && k.length > 0),
        'an Idempotency-Key on every status',
      );
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json();
      assert.equal(thread.status, 'PUBLISHED');
      assert.deepEqual(
        thread.posts.map((p: { permaLink: string }) => p.permaLink),
        statuses.map((s) => `${fake.url}/@${username}/${s.id}`),
      );
    });

    test('a lost answer is found among the account own statuses: nothing is sent twice', async () => {
      const { app, ctx } = env();
      const { user, provider, account, username } = await connect(env(), `lost${Math.floor(Math.random() * 1e6)}`);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: [{ text: 'alpha' }, { text: 'beta & <the "end">' }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId = created.json().threadId;
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-mastodon');
      const listedBefore = fake.callsTo('accounts.statuses').length;
      // The server posts the second status, then the connection is cut before its answer.
      fake.failNext('statuses.create', { kind: 'dropResponse' }, 1, 1);
      await loop.runOnce();
      const mine = () => fake.postsBy(account.accountId);
      assert.equal(mine().length, 2, 'beta is out though its answer was lost');
      const row = await threadRow(env(), threadId);
      assert.equal(row.status, 'READY', 'the outcome was unknown: tried again later');
      clock.set(row.next_attempt_at!);
      clock.advance(2 * 3_600_000); // past the server's hour of idempotency: only the lookup can save us
      await loop.runOnce();
      assert.equal(mine().length, 2, 'beta is not posted a second time');
      assert.ok(fake.callsTo('accounts.statuses').length > listedBefore, 'the account statuses were looked at');
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json();
      assert.equal(thread.status, 'PUBLISHED');
      assert.equal(thread.posts[1].permaLink, `${fake.url}/@${username}/${mine()[1]!.id}`);
      assert.equal(mine()[1]!.inReplyToId, mine()[0]!.id);
    });

    test("queued into the account's time slots, published at the slot; thread.published and post.published are written for the webhook", async () => {
      const { app, ctx } = env();
      const { user, provider, account, username } = await connect(env(), `slot${Math.floor(Math.random() * 1e6)}`);
      for (let day = 1; day <= 7; day++) {
        const slot = await user.call(app, {
          method: 'POST',
          url: '/api/v1/time-slots',
          payload: { providerId: provider.id, dayOfWeek: day, time: '06:00', timezone: 'UTC' },
        });
        assert.equal(slot.statusCode, 201, slot.body);
      }
      const hook = await user.call(app, {
        method: 'POST',
        url: '/api/v1/webhooks',
        payload: { url: `${fake.url}/hook`, events: ['thread.published', 'post.published'] },
      });
      assert.equal(hook.statusCode, 201, hook.body);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, queue: true, posts: [{ text: 'slot one' }, { text: 'slot two' }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const at = new Date(created.json().scheduledAt);
      assert.equal(at.toISOString().slice(11), '06:00:00.000Z', 'the next 06:00 slot');
      assert.ok(at > clock.now() && at.getTime() - clock.now().getTime() <= 86_400_000);
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-mastodon');
      await loop.runOnce();
      assert.equal(fake.postsBy(account.accountId).length, 0, 'nothing before the slot');
      clock.set(at);
      await loop.runOnce();
      const statuses = fake.postsBy(account.accountId);
      assert.deepEqual(
        statuses.map((s) => [s.text, s.inReplyToId]),
        [
          ['slot one', null],
          ['slot two', statuses[0]!.id],
        ],
      );
      const events = await ctx.db.selectFrom('webhook_events').selectAll().where('account_id', '=', user.account.id).execute();
      assert.deepEqual(events.map((e) => e.type).sort(), ['post.published', 'post.published', 'thread.published']);
      const links = events.filter((e) => e.type === 'post.published').map((e) => (e.data as { permaLink: string }).permaLink);
      assert.deepEqual(links.sort(), statuses.map((s) => `${fake.url}/@${username}/${s.id}`).sort());
    });

    test("a revoked token marks the provider EXPIRED (and provider.expired is written); the server's limits are the content rules", async () => {
      const { app, ctx } = env();
      const { user, provider, account } = await connect(env(), `gone${Math.floor(Math.random() * 1e6)}`);
      const tooLong = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          replyControl: 'followers',
          posts: [
            { text: `${'a'.repeat(470)} https://example.com/${'x'.repeat(100)}`, contentWarning: 'a content warning' },
            { text: 'ok', media: Array.from({ length: 5 }, () => ({ url: 'https://example.com/a.png' })) },
            { text: 'poll', poll: { options: ['a', 'b'] } },
            { text: 'quote', quote: '123' },
          ],
        },
      });
      assert.equal(tooLong.statusCode, 400, tooLong.body);
      assert.deepEqual(
        tooLong
          .json()
          .errors.map((e: { path: string }) => e.path)
          .sort(),
        ['posts.0.text', 'posts.1.media', 'posts.2.poll', 'posts.3.quote', 'replyControl'],
      );
      const fits = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, posts: [{ text: `${'a'.repeat(470)} https://example.com/${'x'.repeat(100)}` }] },
      });
      assert.equal(fits.statusCode, 201, `a link counts as 23: ${fits.body}`);

      const hook = await user.call(app, { method: 'POST', url: '/api/v1/webhooks', payload: { url: `${fake.url}/hook`, events: ['provider.expired'] } });
      assert.equal(hook.statusCode, 201, hook.body);
      fake.revokeToken(account.accessToken);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: clock.now().toISOString(), posts: [{ text: 'never out' }] },
      });
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-mastodon');
      await loop.runOnce();
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${created.json().threadId}` })).json();
      assert.equal(thread.status, 'FAILED');
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'EXPIRED');
      const events = await ctx.db
        .selectFrom('webhook_events')
        .select('type')
        .where('type', '=', 'provider.expired')
        .where('account_id', '=', user.account.id)
        .execute();
      assert.equal(events.length, 1);
    });
  },
  { clock, config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
