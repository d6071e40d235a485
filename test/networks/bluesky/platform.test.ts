import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AppBskyFeedPost } from '@atproto/api';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { BLUESKY_IMAGE_LIMITS, prepareImage } from '../../../src/media/images.js';
import { BlueskyPlatform, type BlueskyPlatformOptions, connectBluesky } from '../../../src/networks/bluesky/platform.js';
import { postRkey, repostRkey } from '../../../src/networks/bluesky/rkey.js';
import {
  type PlatformAccount,
  type PostProgress,
  type PostToPublish,
  PublishError,
  type PublishedRef,
  type ReplyTarget,
} from '../../../src/networks/platform.js';
import {
  CountingFetch,
  emptyProgress,
  expireAccessToken,
  MemorySessions,
  newPost,
  platformAccount,
  progressLog,
  startFileServer,
} from '../../helpers/bluesky.js';
import { type LocalAccount, type LocalNetwork, startPds } from '../../helpers/fakes/bluesky-pds.js';
import { pngImage, pngWithMetadata } from '../../helpers/images.js';
import { jpegHeaderText, phonePhoto } from '../../helpers/photos.js';

const POST = 'app.bsky.feed.post';
const REPOST = 'app.bsky.feed.repost';

let pds: LocalNetwork<TestNetworkNoAppView>;
let alice: LocalAccount;
let bob: LocalAccount;
let files: Awaited<ReturnType<typeof startFileServer>>;
/** What Bluesky gets for pngImage(6, 4): the same pixels, re-encoded without metadata. */
let wideReady: Uint8Array;

before(async () => {
  pds = await startPds();
  [alice, bob] = [await pds.createAccount('alice'), await pds.createAccount('bob')];
  files = await startFileServer({
    '/wide.png': { type: 'image/png', body: pngImage(6, 4) },
    '/tall.png': { type: 'image/png', body: pngImage(3, 9) },
    '/phone.png': { type: 'image/png', body: pngWithMetadata(6, 4) },
    // A 4032×3024 phone photo held sideways (EXIF orientation 6), with GPS, over 3 MB.
    '/phone.jpg': { type: 'image/jpeg', body: await phonePhoto({ width: 4032, height: 3024, orientation: 6 }) },
  });
  wideReady = (await prepareImage(pngImage(6, 4), BLUESKY_IMAGE_LIMITS)).bytes;
});

after(async () => {
  await files?.close();
  await pds?.close();
});

/** A platform with its own session store and call counter, signed in as nobody yet. */
function makePlatform(overrides: Partial<BlueskyPlatformOptions> = {}) {
  const sessions = new MemorySessions();
  const counter = new CountingFetch();
  const platform = new BlueskyPlatform({ sessions, allowPrivateMedia: true, fetch: counter.fetch, ...overrides });
  return { platform, sessions, counter };
}

function publish(
  platform: BlueskyPlatform,
  account: PlatformAccount,
  post: PostToPublish,
  replyTo: ReplyTarget | null = null,
  progress: PostProgress = emptyProgress(),
) {
  const log = progressLog();
  return platform
    .publishPost({ account, post, replyTo, progress, onProgress: log.onProgress, confirmLease: async () => {} })
    .then((ref) => ({ ref, progress: log.saved }));
}

async function readPost(uri: string): Promise<{ cid: string; value: AppBskyFeedPost.Record }> {
  const [repo, collection, rkey] = uri.slice('at://'.length).split('/') as [string, string, string];
  const res = await alice.agent.com.atproto.repo.getRecord({ repo, collection, rkey });
  return { cid: res.data.cid!, value: res.data.value as AppBskyFeedPost.Record };
}

async function listRecords(account: LocalAccount, collection: string) {
  const res = await account.agent.com.atproto.repo.listRecords({ repo: account.did, collection, limit: 100 });
  return res.data.records;
}

async function rejection(promise: Promise<unknown>): Promise<PublishError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof PublishError, `expected a PublishError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('connect', () => {
  test('logs in once and the saved session publishes without another login', async () => {
    const counter = new CountingFetch();
    const connected = await connectBluesky({ service: pds.url, identifier: `@${alice.handle}`, appPassword: alice.appPassword, fetch: counter.fetch });
    assert.equal(counter.logins, 1);
    assert.equal(connected.did, alice.did);
    assert.equal(connected.handle, alice.handle);
    assert.match(connected.pdsUrl, /^http:\/\/(localhost|127\.0\.0\.1):\d+$/);

    const { platform, sessions, counter: publishCounter } = makePlatform();
    const account = { ...platformAccount(alice, connected.pdsUrl, 'prov-connected') };
    await sessions.save(account.providerId, connected.session);
    const { ref } = await publish(platform, account, newPost('posted with the connect session'));
    assert.match(ref.networkPostId, new RegExp(`^at://${alice.did}/${POST}/`));
    assert.equal(publishCounter.logins, 0);
  });

  test('a wrong app password is an auth error', async () => {
    const err = await rejection(connectBluesky({ service: pds.url, identifier: alice.handle, appPassword: 'aaaa-bbbb-cccc-dddd' }));
    assert.equal(err.kind, 'auth');
    assert.equal(err.code, 'AUTH_FAILED');
    assert.doesNotMatch(err.message, /aaaa-bbbb/);
  });
});

describe('publishPost', () => {
  test('a 3-post thread with reply refs, keyed by the post ids', async () => {
    const { platform } = makePlatform();
    const account = platformAccount(alice, pds.url);
    const posts = [newPost('thread 1/3'), newPost('thread 2/3'), newPost('thread 3/3')];
    const first = await publish(platform, account, posts[0]!);
    const second = await publish(platform, account, posts[1]!, { root: first.ref, parent: first.ref });
    const third = await publish(platform, account, posts[2]!, { root: first.ref, parent: second.ref });

    for (const [i, { ref, progress }] of [first, second, third].entries()) {
      const rkey = postRkey(posts[i]!.id);
      assert.equal(ref.networkPostId, `at://${alice.did}/${POST}/${rkey}`);
      assert.equal(ref.permalink, `https://bsky.app/profile/${alice.did}/post/${rkey}`);
      assert.deepEqual(progress, [
        { containerId: rkey, networkPostId: null, cid: null },
        { containerId: rkey, networkPostId: ref.networkPostId, cid: ref.cid },
      ]);
    }
    const strong = (r: PublishedRef) => ({ uri: r.networkPostId, cid: r.cid });
    const records = new Map((await listRecords(alice, POST)).map((r) => [r.uri, r]));
    const [one, two, three] = [first, second, third].map((p) => records.get(p.ref.networkPostId)!);
    assert.equal(one!.cid, first.ref.cid);
    assert.equal((one!.value as AppBskyFeedPost.Record).reply, undefined);
    assert.deepEqual((two!.value as AppBskyFeedPost.Record).reply, { root: strong(first.ref), parent: strong(first.ref) });
    assert.deepEqual((three!.value as AppBskyFeedPost.Record).reply, { root: strong(first.ref), parent: strong(second.ref) });
    assert.equal((three!.value as AppBskyFeedPost.Record).text, 'thread 3/3');
  });

  test('facets for a link, a hashtag and a mention, with byte offsets after emoji', async () => {
    const { platform } = makePlatform();
    const text = `👋🏽 hi @${bob.handle} and @ghost.test, 🇯🇵 see https://example.com/skein?x=1 #scheduling`;
    // No link card: the test stays off the internet (link-card.test.ts covers cards).
    const { ref } = await publish(platform, platformAccount(alice, pds.url), { ...newPost(text), linkPreview: false });
    const { value } = await readPost(ref.networkPostId);
    const bytes = Buffer.from(value.text, 'utf8');
    const slices = (value.facets ?? []).map((f) => [bytes.subarray(f.index.byteStart, f.index.byteEnd).toString('utf8'), f.features[0]]);
    assert.deepEqual(slices, [
      [`@${bob.handle}`, { $type: 'app.bsky.richtext.facet#mention', did: bob.did }],
      ['https://example.com/skein?x=1', { $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/skein?x=1' }],
      ['#scheduling', { $type: 'app.bsky.richtext.facet#tag', tag: 'scheduling' }],
    ]);
    // 👋🏽 is 8 bytes: "@" of the mention starts at 8 + 4 = 12.
    assert.equal(value.facets![0]!.index.byteStart, 12);
  });

  test('an image post: blobs uploaded, alt text and aspect ratio set', async () => {
    const { platform } = makePlatform();
    const post = newPost('two pictures', [
      { url: `${files.base}/wide.png`, altText: 'a wide gradient' },
      { url: `${files.base}/tall.png`, altText: null },
    ]);
    const { ref } = await publish(platform, platformAccount(alice, pds.url), post);
    const { value } = await readPost(ref.networkPostId);
    const embed = value.embed as {
      $type: string;
      images: { alt: string; aspectRatio?: unknown; image: { ref: { $link: string } | { toString(): string }; mimeType: string; size: number } }[];
    };
    assert.equal(embed.$type, 'app.bsky.embed.images');
    assert.deepEqual(
      embed.images.map((i) => [i.alt, i.aspectRatio, i.image.mimeType, i.image.size]),
      [
        ['a wide gradient', { width: 6, height: 4 }, 'image/png', wideReady.length],
        ['', { width: 3, height: 9 }, 'image/png', (await prepareImage(pngImage(3, 9), BLUESKY_IMAGE_LIMITS)).bytes.length],
      ],
    );
    const cid = String('$link' in embed.images[0]!.image.ref ? embed.images[0]!.image.ref.$link : embed.images[0]!.image.ref);
    const blob = await alice.agent.com.atproto.sync.getBlob({ did: alice.did, cid });
    assert.deepEqual(Buffer.from(blob.data), Buffer.from(wideReady));
  });

  test('an image carrying GPS and XMP metadata is published without it (the blob on the PDS is the bare image)', async () => {
    const { platform } = makePlatform();
    const { ref } = await publish(platform, platformAccount(alice, pds.url), newPost('from my phone', [{ url: `${files.base}/phone.png`, altText: null }]));
    const { value } = await readPost(ref.networkPostId);
    const image = (value.embed as { images: { image: { ref: { $link: string } | { toString(): string } } }[] }).images[0]!.image;
    const cid = String('$link' in image.ref ? image.ref.$link : image.ref);
    const blob = Buffer.from((await alice.agent.com.atproto.sync.getBlob({ did: alice.did, cid })).data);
    assert.doesNotMatch(blob.toString('latin1'), /GPS|xmpmeta|taken at home/);
    assert.ok(blob.equals(wideReady));
  });

  test('a 3 MB sideways phone photo is published upright, under 1,000,000 bytes and 2000 px, without its GPS, with its aspect ratio', async () => {
    const { platform } = makePlatform();
    const post = newPost('from my phone, sideways', [{ url: `${files.base}/phone.jpg`, altText: 'a phone photo' }]);
    const { ref } = await publish(platform, platformAccount(alice, pds.url), post);
    const { value } = await readPost(ref.networkPostId);
    const image = (
      value.embed as { images: { aspectRatio: unknown; image: { mimeType: string; size: number; ref: { $link: string } | { toString(): string } } }[] }
    ).images[0]!;
    assert.deepEqual(image.aspectRatio, { width: 1500, height: 2000 });
    assert.equal(image.image.mimeType, 'image/jpeg');
    assert.ok(image.image.size <= 1_000_000, `${image.image.size} bytes`);
    const cid = String('$link' in image.image.ref ? image.image.ref.$link : image.image.ref);
    const blob = Buffer.from((await alice.agent.com.atproto.sync.getBlob({ did: alice.did, cid })).data);
    assert.doesNotMatch(jpegHeaderText(blob), /Skein Phone|GPS|xmpmeta|Exif/);
  });

  test('a private media URL is refused when private media is not allowed, and nothing is posted', async () => {
    // The PDS on loopback is the operator's BLUESKY_SERVICE_URL (trusted); the media URL is not.
    const { platform } = makePlatform({ allowPrivateMedia: false, defaultServiceUrl: pds.url });
    const post = newPost('should not appear', [{ url: `${files.base}/wide.png`, altText: null }]);
    const err = await rejection(publish(platform, platformAccount(alice, pds.url), post));
    assert.equal(err.kind, 'permanent');
    assert.equal(err.code, 'INVALID_MEDIA');
    const keys = (await listRecords(alice, POST)).map((r) => r.uri.split('/').pop());
    assert.ok(!keys.includes(postRkey(post.id)));
  });

  test('publishing the same post again returns the same record; the PDS holds one', async () => {
    const { platform } = makePlatform();
    const account = platformAccount(alice, pds.url);
    const post = newPost('exactly once');
    const first = await publish(platform, account, post);
    const again = await publish(platform, account, post); // no saved progress: put fails with InvalidSwap
    const confirmed = await publish(platform, account, post, null, first.progress.at(-1)); // saved progress: read back
    assert.deepEqual(again.ref, first.ref);
    assert.deepEqual(confirmed.ref, first.ref);
    assert.deepEqual(again.progress, first.progress);
    const matching = (await listRecords(alice, POST)).filter((r) => r.uri.endsWith(`/${postRkey(post.id)}`));
    assert.equal(matching.length, 1);
  });

  test('an image post repeated after a lost answer is found, not re-uploaded', async () => {
    const { platform, counter } = makePlatform();
    const account = platformAccount(alice, pds.url);
    const post = newPost('picture once', [{ url: `${files.base}/wide.png`, altText: 'wide' }]);
    counter.loseNextResponse('com.atproto.repo.putRecord');
    const lost = await rejection(publish(platform, account, post));
    assert.equal(lost.kind, 'transient');
    assert.equal(lost.options.outcomeUnknown, true);
    const uploads = counter.count('com.atproto.repo.uploadBlob');
    const retried = await publish(platform, account, post);
    assert.equal(counter.count('com.atproto.repo.uploadBlob'), uploads);
    assert.equal(retried.ref.networkPostId, `at://${alice.did}/${POST}/${postRkey(post.id)}`);
    assert.equal((await readPost(retried.ref.networkPostId)).cid, retried.ref.cid);
  });

  test('a text post whose answer was lost is confirmed on retry, never doubled', async () => {
    const { platform, counter } = makePlatform();
    const account = platformAccount(alice, pds.url);
    const post = newPost('lost answer');
    counter.loseNextResponse('com.atproto.repo.putRecord');
    assert.equal((await rejection(publish(platform, account, post))).options.outcomeUnknown, true);
    const retried = await publish(platform, account, post);
    const matching = (await listRecords(alice, POST)).filter((r) => r.uri === retried.ref.networkPostId);
    assert.equal(matching.length, 1);
  });

  test('a different record under the same key is a conflict, not a success', async () => {
    const { platform } = makePlatform();
    const account = platformAccount(alice, pds.url);
    const post = newPost('original text');
    await publish(platform, account, post);
    const err = await rejection(publish(platform, account, { ...post, text: 'other text' }));
    assert.equal(err.kind, 'permanent');
    assert.equal(err.code, 'RKEY_CONFLICT');
  });

  test('the record key is saved as pending before the write; a refusal that wrote nothing clears it', async () => {
    const { platform } = makePlatform();
    const post = newPost('é'.repeat(301));
    const log = progressLog();
    const err = await rejection(
      platform.publishPost({
        account: platformAccount(alice, pds.url),
        post,
        replyTo: null,
        progress: emptyProgress(),
        onProgress: log.onProgress,
        confirmLease: async () => {},
      }),
    );
    assert.equal(err.code, 'REJECTED');
    assert.deepEqual(log.saved, [{ containerId: postRkey(post.id), networkPostId: null, cid: null }, emptyProgress()]);
  });

  test('an answer lost after the write keeps the pending key, so the post is not editable until confirmed', async () => {
    const { platform, counter } = makePlatform();
    const post = newPost('pending until confirmed');
    const log = progressLog();
    counter.loseNextResponse('com.atproto.repo.putRecord');
    const err = await rejection(
      platform.publishPost({
        account: platformAccount(alice, pds.url),
        post,
        replyTo: null,
        progress: emptyProgress(),
        onProgress: log.onProgress,
        confirmLease: async () => {},
      }),
    );
    assert.equal(err.options.outcomeUnknown, true);
    assert.deepEqual(log.saved, [{ containerId: postRkey(post.id), networkPostId: null, cid: null }]);
  });

  test('a pending record key whose write never reached the PDS: the retry writes the record', async () => {
    const { platform } = makePlatform();
    const post = newPost('pending, never written');
    const pending = { containerId: postRkey(post.id), networkPostId: null, cid: null };
    const { ref, progress } = await publish(platform, platformAccount(alice, pds.url), post, null, pending);
    assert.equal(ref.networkPostId, `at://${alice.did}/${POST}/${postRkey(post.id)}`);
    assert.equal((await readPost(ref.networkPostId)).value.text, 'pending, never written');
    assert.deepEqual(progress.at(-1), { containerId: postRkey(post.id), networkPostId: ref.networkPostId, cid: ref.cid });
  });

  test("a run stopped after the root was written and before its gates: the retry writes each gate once, at the root's key", async () => {
    let stopBeforeGate = true;
    const writes: string[] = [];
    const fetchStoppingAtGate: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname === '/xrpc/com.atproto.repo.putRecord') {
        const { collection } = (await request.clone().json()) as { collection: string };
        if (collection !== POST && stopBeforeGate) {
          stopBeforeGate = false;
          throw new TypeError('fetch failed (test: the worker died before the gate)');
        }
        writes.push(collection);
      }
      return globalThis.fetch(request);
    };
    const { platform } = makePlatform({ fetch: fetchStoppingAtGate });
    const account = platformAccount(bob, pds.url);
    const post: PostToPublish = {
      ...newPost('gated root'),
      options: { replyControl: 'nobody', quotesDisabled: true, quote: null, poll: null, langs: [] },
    };
    const rkey = postRkey(post.id);
    const log = progressLog();
    const input = { account, post, replyTo: null, onProgress: log.onProgress, confirmLease: async () => {} };
    const err = await rejection(platform.publishPost({ ...input, progress: emptyProgress() }));
    assert.equal(err.kind, 'transient');
    assert.deepEqual(log.saved, [{ containerId: rkey, networkPostId: null, cid: null }], 'not published yet: the post is pending');

    const ref = await platform.publishPost({ ...input, progress: log.saved.at(-1)! });
    assert.deepEqual(writes, [POST, 'app.bsky.feed.threadgate', 'app.bsky.feed.postgate'], 'the post is found, not written again');
    const gate = (await bob.agent.com.atproto.repo.getRecord({ repo: bob.did, collection: 'app.bsky.feed.threadgate', rkey })).data.value as Record<
      string,
      unknown
    >;
    assert.deepEqual(gate.allow, []);
    assert.equal(gate.post, ref.networkPostId);
    assert.equal((await listRecords(bob, 'app.bsky.feed.threadgate')).filter((r) => r.uri.endsWith(rkey)).length, 1);
    assert.equal((await listRecords(bob, 'app.bsky.feed.postgate')).filter((r) => r.uri.endsWith(rkey)).length, 1);

    // Once more, as after a lost answer: the same records, rewritten in place.
    await platform.publishPost({ ...input, progress: log.saved.at(-1)! });
    assert.equal((await listRecords(bob, 'app.bsky.feed.threadgate')).filter((r) => r.uri.endsWith(rkey)).length, 1);
    assert.equal((await listRecords(bob, POST)).filter((r) => r.uri.endsWith(rkey)).length, 1);
  });

  test('text over 300 graphemes is refused by the PDS as permanent', async () => {
    const { platform } = makePlatform();
    const err = await rejection(publish(platform, platformAccount(alice, pds.url), newPost('é'.repeat(301))));
    assert.equal(err.kind, 'permanent');
    assert.equal(err.code, 'REJECTED');
    assert.match(err.message, /grapheme/);
  });
});

describe('repost', () => {
  test('reposting twice leaves one repost record', async () => {
    const { platform } = makePlatform();
    const account = platformAccount(alice, pds.url);
    const { ref } = await publish(platform, account, newPost('worth repeating'));
    await platform.repost(account, ref);
    await platform.repost(account, ref);
    const reposts = (await listRecords(alice, REPOST)).filter((r) => (r.value as { subject: { uri: string } }).subject.uri === ref.networkPostId);
    assert.equal(reposts.length, 1);
    assert.equal(reposts[0]!.uri, `at://${alice.did}/${REPOST}/${repostRkey(ref.networkPostId)}`);
    assert.deepEqual((reposts[0]!.value as { subject: unknown }).subject, { uri: ref.networkPostId, cid: ref.cid });
  });

  test('a post whose CID Skein lost is looked up', async () => {
    const { platform } = makePlatform();
    const account = platformAccount(alice, pds.url);
    const { ref } = await publish(platform, account, newPost('cid looked up'));
    await platform.repost(account, { ...ref, cid: null });
    const reposts = (await listRecords(alice, REPOST)).filter((r) => (r.value as { subject: { uri: string } }).subject.uri === ref.networkPostId);
    assert.deepEqual((reposts[0]!.value as { subject: unknown }).subject, { uri: ref.networkPostId, cid: ref.cid });
  });
});

describe('sessions', () => {
  test('one login, then reuse: in this process and in the next', async () => {
    const { platform, sessions, counter } = makePlatform();
    const account = platformAccount(bob, pds.url);
    await publish(platform, account, newPost('first of the day'));
    assert.equal(counter.logins, 1);
    await publish(platform, account, newPost('second of the day'));
    await platform.repost(account, (await publish(platform, account, newPost('third'))).ref);
    assert.equal(counter.logins, 1);
    assert.equal(sessions.saves, 1);

    const restarted = makePlatform();
    restarted.sessions.sessions.set(account.providerId, sessions.sessions.get(account.providerId)!);
    await publish(restarted.platform, account, newPost('after a restart'));
    assert.equal(restarted.counter.logins, 0);
  });

  test('an expired access token is refreshed, not replaced by a login', async () => {
    const { platform, sessions, counter } = makePlatform();
    const account = platformAccount(bob, pds.url, 'prov-expired');
    const connected = await connectBluesky({ service: pds.url, identifier: bob.handle, appPassword: bob.appPassword });
    const stale = { ...connected.session, accessJwt: expireAccessToken(connected.session.accessJwt) };
    sessions.sessions.set(account.providerId, stale);
    await publish(platform, account, newPost('after a refresh'));
    assert.equal(counter.logins, 0);
    assert.equal(counter.count('com.atproto.server.refreshSession'), 1);
    const saved = sessions.sessions.get(account.providerId)!;
    assert.notEqual(saved.refreshJwt, stale.refreshJwt); // the rotated refresh token was saved
    assert.notEqual(saved.accessJwt, stale.accessJwt);
  });

  test('when the refresh token is refused too, logs in once with the app password', async () => {
    const { platform, sessions, counter } = makePlatform();
    const account = platformAccount(bob, pds.url, 'prov-revoked');
    const connected = await connectBluesky({ service: pds.url, identifier: bob.handle, appPassword: bob.appPassword });
    sessions.sessions.set(account.providerId, { ...connected.session, accessJwt: expireAccessToken(connected.session.accessJwt), refreshJwt: 'revoked' });
    await publish(platform, account, newPost('after a new login'));
    assert.equal(counter.logins, 1);
    assert.notEqual(sessions.sessions.get(account.providerId)!.refreshJwt, 'revoked');
  });

  test('a refused session and a wrong app password end in an auth error', async () => {
    const { platform, sessions } = makePlatform();
    const account = { ...platformAccount(bob, pds.url, 'prov-dead'), accessToken: 'wxyz-wxyz-wxyz-wxyz' };
    const connected = await connectBluesky({ service: pds.url, identifier: bob.handle, appPassword: bob.appPassword });
    sessions.sessions.set(account.providerId, { ...connected.session, accessJwt: expireAccessToken(connected.session.accessJwt), refreshJwt: 'revoked' });
    const err = await rejection(publish(platform, account, newPost('never')));
    assert.equal(err.kind, 'auth');
  });
});

describe('the address policy (private addresses not allowed, the guarded fetch, BLUESKY_SERVICE_URL trusted)', () => {
  /** A PDS whose logins answer with the DID document, as Bluesky's entryway does. */
  let entryway: LocalNetwork<TestNetworkNoAppView>;
  let dave: LocalAccount;
  before(async () => {
    entryway = await startPds({ didDocWithSession: true });
    dave = await entryway.createAccount('dave');
  });
  after(async () => {
    await entryway?.close();
  });

  /** The production set-up: no fetch of the test's own, so every call goes through the guarded fetch. */
  function guardedPlatform(serviceUrl = pds.url) {
    return new BlueskyPlatform({ sessions: new MemorySessions(), allowPrivateMedia: false, defaultServiceUrl: serviceUrl });
  }
  const NO_ADDRESS = /127\.0\.0\.1|::1|\blocalhost\b/;

  test('the PDS that the DID document names, on loopback, is refused: nothing is posted, and no address is shown', async () => {
    // entryway.url (127.0.0.1) is the operator's BLUESKY_SERVICE_URL, so the login goes there;
    // the login's answer carries dave's DID document, which names http://localhost:<port> as
    // his PDS, where the agent then goes.
    const before = (await listRecords(dave, POST)).length;
    const err = await rejection(publish(guardedPlatform(entryway.url), platformAccount(dave, entryway.url, 'prov-policy-1'), newPost('must not be posted')));
    assert.equal(err.kind, 'auth');
    assert.equal(err.code, 'AUTH_FAILED');
    assert.match(err.message, /not at a public address/);
    assert.doesNotMatch(err.message, NO_ADDRESS);
    assert.equal((await listRecords(dave, POST)).length, before);
  });

  test('a stored PDS URL on loopback: no agent is made for it', async () => {
    const before = (await listRecords(alice, POST)).length;
    const stored = alice.agent.pdsUrl!.href.replace(/\/$/, '');
    const err = await rejection(publish(guardedPlatform(), platformAccount(alice, stored, 'prov-policy-2'), newPost('must not be posted either')));
    assert.equal(err.kind, 'auth');
    assert.match(err.message, /not at a public address/);
    assert.equal((await listRecords(alice, POST)).length, before);
  });

  test("one resolver for everything the platform fetches: a media host is resolved by the platform's lookup", async () => {
    const names: string[] = [];
    const lookup = async (hostname: string) => {
      names.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const platform = new BlueskyPlatform({ sessions: new MemorySessions(), allowPrivateMedia: true, defaultServiceUrl: pds.url, lookup });
    const media = `${files.base.replace('127.0.0.1', 'media.skein-test')}/wide.png`;
    const { ref } = await publish(
      platform,
      platformAccount(alice, pds.url, 'prov-policy-4'),
      newPost('resolved by the platform', [{ url: media, altText: null }]),
    );
    assert.match(ref.networkPostId, new RegExp(`^at://${alice.did}/${POST}/`));
    assert.ok(names.includes('media.skein-test'), names.join(', '));
  });

  test('with private addresses allowed (tests), the guarded fetch carries a whole publish: login, blob upload, record', async () => {
    const platform = new BlueskyPlatform({ sessions: new MemorySessions(), allowPrivateMedia: true, defaultServiceUrl: pds.url });
    const { ref } = await publish(
      platform,
      platformAccount(alice, pds.url, 'prov-policy-3'),
      newPost('through the guarded fetch', [{ url: `${files.base}/wide.png`, altText: null }]),
    );
    assert.match(ref.networkPostId, new RegExp(`^at://${alice.did}/${POST}/`));
    const { value } = await readPost(ref.networkPostId);
    assert.equal(value.text, 'through the guarded fetch');
    assert.equal((value.embed as { images: unknown[] }).images.length, 1);
  });
});
