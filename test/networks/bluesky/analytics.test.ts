/**
 * fetchAnalytics needs the AppView (app.bsky.feed.getPosts), so this file boots the full
 * TestNetwork on the machine's PostgreSQL and Redis. It is slow: keep it on its own.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetwork } from '@atproto/dev-env';
import { BlueskyPlatform } from '../../../src/networks/bluesky/platform.js';
import { PublishError } from '../../../src/networks/platform.js';
import { emptyProgress, MemorySessions, newPost, platformAccount, progressLog } from '../../helpers/bluesky.js';
import { type LocalAccount, type LocalNetwork, startFullNetwork } from '../../helpers/fakes/bluesky-pds.js';

let net: LocalNetwork<TestNetwork>;
let alice: LocalAccount;
let bob: LocalAccount;

before(async () => {
  net = await startFullNetwork();
  [alice, bob] = [await net.createAccount('alice'), await net.createAccount('bob')];
});

after(async () => {
  await net?.close();
});

test('fetchAnalytics reads likes, reposts, replies and quotes from the AppView', async () => {
  const platform = new BlueskyPlatform({ sessions: new MemorySessions(), allowPrivateMedia: false, defaultServiceUrl: net.url });
  const account = platformAccount(alice, net.url);
  const log = progressLog();
  const ref = await platform.publishPost({
    account,
    post: newPost('count me'),
    replyTo: null,
    progress: emptyProgress(),
    onProgress: log.onProgress,
    confirmLease: async () => {},
  });
  const subject = { uri: ref.networkPostId, cid: ref.cid! };

  await bob.agent.like(subject.uri, subject.cid);
  await bob.agent.repost(subject.uri, subject.cid);
  await platform.repost(account, ref);
  await bob.agent.post({ text: 'a reply', reply: { root: subject, parent: subject } });
  await bob.agent.post({ text: 'a quote', embed: { $type: 'app.bsky.embed.record', record: subject } });
  await net.network.processAll();

  const analytics = await platform.fetchAnalytics(account, ref);
  assert.deepEqual(analytics, { views: null, likes: 1, replies: 1, reposts: 2, quotes: 1, shares: null });
});

test('a post missing from the AppView: transient while its record exists (not indexed yet), permanent once it is gone', async () => {
  const platform = new BlueskyPlatform({ sessions: new MemorySessions(), allowPrivateMedia: false, defaultServiceUrl: net.url });
  const account = platformAccount(alice, net.url);
  const isError = (kind: string, code: string) => (err: unknown) => err instanceof PublishError && err.kind === kind && err.code === code;

  // A record the PDS holds but the AppView does not show as a post: what "not indexed yet" looks like.
  await alice.agent.com.atproto.repo.putRecord({
    repo: alice.did,
    collection: 'app.bsky.actor.profile',
    rkey: 'self',
    record: { $type: 'app.bsky.actor.profile', displayName: 'Alice' },
  });
  const unindexed = { networkPostId: `at://${alice.did}/app.bsky.actor.profile/self`, cid: null, permalink: null };
  await assert.rejects(platform.fetchAnalytics(account, unindexed), isError('transient', 'POST_NOT_FOUND'));

  const log = progressLog();
  const ref = await platform.publishPost({
    account,
    post: newPost('deleted later'),
    replyTo: null,
    progress: emptyProgress(),
    onProgress: log.onProgress,
    confirmLease: async () => {},
  });
  await net.network.processAll();
  assert.equal((await platform.fetchAnalytics(account, ref)).likes, 0);
  await alice.agent.deletePost(ref.networkPostId);
  await net.network.processAll();
  await assert.rejects(platform.fetchAnalytics(account, ref), isError('permanent', 'POST_DELETED'));

  const never = { networkPostId: `at://${alice.did}/app.bsky.feed.post/3jzfcijpj2z2a`, cid: null, permalink: null };
  await assert.rejects(platform.fetchAnalytics(account, never), isError('permanent', 'POST_DELETED'));
});
