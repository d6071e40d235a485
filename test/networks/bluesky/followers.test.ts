/**
 * Follower counts on Bluesky come from the AppView (app.bsky.actor.getProfile), so this file
 * boots the full TestNetwork on the machine's PostgreSQL and Redis. It is slow: keep it on its own.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetwork } from '@atproto/dev-env';
import { BlueskyPlatform } from '../../../src/networks/bluesky/platform.js';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { MemorySessions, platformAccount } from '../../helpers/bluesky.js';
import { describeEachDb } from '../../helpers/context.js';
import { type LocalAccount, type LocalNetwork, startFullNetwork } from '../../helpers/fakes/bluesky-pds.js';
import { createUser } from '../../helpers/seeds.js';

let net: LocalNetwork<TestNetwork>;
let alice: LocalAccount;
let bob: LocalAccount;
let carol: LocalAccount;

before(async () => {
  net = await startFullNetwork();
  [alice, bob, carol] = [await net.createAccount('alice'), await net.createAccount('bob'), await net.createAccount('carol')];
  await bob.agent.follow(alice.did);
  await carol.agent.follow(alice.did);
  await alice.agent.follow(bob.did);
  await net.network.processAll();
});

after(async () => {
  await net?.close();
});

test("fetchFollowers reads the profile's followersCount from the AppView", async () => {
  const platform = new BlueskyPlatform({ sessions: new MemorySessions(), allowPrivateMedia: false, defaultServiceUrl: net.url });
  assert.equal(await platform.fetchFollowers(platformAccount(alice, net.url)), 2);
  assert.equal(await platform.fetchFollowers(platformAccount(bob, net.url)), 1);
  assert.equal(await platform.fetchFollowers(platformAccount(carol, net.url)), 0);
});

describeEachDb(
  'Bluesky follower counts through the API',
  (env) => {
    test('connecting an account fetches its count in the next round; GET followers shows it', async () => {
      const { app, ctx, clock } = env();
      const user = await createUser(ctx);
      const connected = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: alice.handle, appPassword: alice.appPassword, service: net.url },
      });
      assert.equal(connected.statusCode, 201, connected.body);
      const providerId = connected.json().id;
      assert.equal(await new PublisherLoop(ctx, createPlatforms(ctx), 'w1').runOnce(), 1);
      const res = await user.call(app, { method: 'GET', url: `/api/v1/providers/${providerId}/followers?from=2026-11-01T00:00:00&to=2026-11-30T00:00:00` });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        providerId,
        current: { count: 2, fetchedAt: clock.now().toISOString() },
        history: [{ date: clock.now().toISOString().slice(0, 10), count: 2 }],
      });
    });
  },
  { config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
