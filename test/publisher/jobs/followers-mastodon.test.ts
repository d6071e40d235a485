/**
 * The daily FOLLOWERS job of a MASTODON account also reads the server's limits again
 * (`/api/v2/instance`), against the strict fake Mastodon server over HTTP: a server that raised
 * its limit is counted with the new one from then on (the provider list and Create Post's rules);
 * a limits read that fails keeps the limits last read and the follower count.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AppContext } from '../../../src/context.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { describeEachDb } from '../../helpers/context.js';
import { FakeMastodonApi } from '../../helpers/fakes/mastodon-api.js';
import { createUser } from '../../helpers/seeds.js';

const START = '2026-11-22T12:00:00.000Z';
const DAY = 86_400_000;
const clock = new ManualClock(START);
let fake: FakeMastodonApi;
let seq = 0;

before(async () => {
  fake = await FakeMastodonApi.start({ maxCharacters: 500 });
});
after(() => fake.close());

function followersJob(ctx: AppContext, providerId: string) {
  return ctx.db.selectFrom('jobs').selectAll().where('provider_id', '=', providerId).where('kind', '=', 'FOLLOWERS').executeTakeFirstOrThrow();
}

describeEachDb(
  'daily re-read of a Mastodon server limits (with the follower count)',
  (env) => {
    test('the FOLLOWERS job reads the limits again: a raised limit is used from then on; a failed read keeps the last limits', async () => {
      const { ctx, app } = env();
      await ctx.db.deleteFrom('jobs').execute();
      clock.set(START);
      fake.setMaxCharacters(500);
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'w1');
      const user = await createUser(ctx);
      const { accessToken, accountId } = fake.createAccount(`limits${++seq}`);
      const connected = await user.call(app, { method: 'POST', url: '/api/v1/providers/mastodon', payload: { instance: fake.url, accessToken } });
      assert.equal(connected.statusCode, 201, connected.body);
      const providerId: string = connected.json().id;
      assert.equal(connected.json().limits.textPerPost, 500);
      const post = { providerId, posts: [{ text: 'x'.repeat(700) }] };
      assert.equal((await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: post })).statusCode, 400);

      // The server raises its limit; the next daily run reads it with the follower count.
      fake.setMaxCharacters(1000);
      fake.setFollowers(accountId, 12);
      assert.equal(await loop.runOnce(), 1);
      // The answer's limits (the registry's shape, the server's values over Mastodon's) and the link count.
      const limits = async () => {
        const provider = (await user.call(app, { method: 'GET', url: '/api/v1/providers' })).json().providers.find((p: { id: string }) => p.id === providerId);
        return {
          textPerPost: provider.limits.textPerPost,
          mediaPerPost: provider.limits.mediaPerPost,
          charactersReservedPerUrl: provider.charactersReservedPerUrl,
        };
      };
      assert.deepEqual(await limits(), { textPerPost: 1000, mediaPerPost: 4, charactersReservedPerUrl: 23 });
      const row = await ctx.db.selectFrom('providers').select('limits_read_at').where('id', '=', providerId).executeTakeFirstOrThrow();
      assert.equal(row.limits_read_at?.toISOString(), START);
      const created = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: post });
      assert.equal(created.statusCode, 201, created.body);
      const followers = await user.call(app, {
        method: 'GET',
        url: `/api/v1/providers/${providerId}/followers?from=2026-11-01T00:00:00&to=2026-12-31T00:00:00`,
      });
      assert.equal(followers.json().current.count, 12);

      // The next day the server answers no limits (its instance endpoint fails): the count is
      // still taken, the limits last read are kept.
      const job = await followersJob(ctx, providerId);
      assert.equal(job.status, 'PENDING');
      clock.set(new Date(job.run_at.getTime()));
      fake.setFollowers(accountId, 13);
      const reads = () => fake.requests.filter((r) => r.path === '/api/v2/instance').length;
      const readsBefore = reads();
      fake.failNext('instance', { kind: 'http503' });
      assert.equal(await loop.runOnce(), 1);
      assert.equal(reads(), readsBefore + 1, 'the failed read was the one asked');
      assert.deepEqual(await limits(), { textPerPost: 1000, mediaPerPost: 4, charactersReservedPerUrl: 23 });
      const again = await user.call(app, { method: 'GET', url: `/api/v1/providers/${providerId}/followers?from=2026-11-01T00:00:00&to=2026-12-31T00:00:00` });
      assert.equal(again.json().current.count, 13);
      assert.equal((await followersJob(ctx, providerId)).status, 'PENDING');
      assert.ok((await followersJob(ctx, providerId)).run_at.getTime() > clock.now().getTime() + DAY / 2, 'booked for the next day');
    });
  },
  { clock, config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
