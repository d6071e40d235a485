/**
 * Crash test on the fake X API, on PostgreSQL and on the embedded database
 * (test/helpers/reply-chain-crash.ts): processes publishing 4-post threads are killed with SIGKILL
 * before or after X takes a `POST /2/tweets`. X takes no idempotency key, so every post must
 * still be on X exactly once, each a reply to the one before (a lost answer is found among the
 * account's recent posts, from its attempt marker). Each thread's first post carries an image
 * (downloaded from a local media server, uploaded to X once). X_API_URL points at the proxy.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { MastodonProxy } from '../helpers/fakes/proxies.js';
import { FakeXApi } from '../helpers/fakes/x-api.js';
import { type MediaServer, startMediaServer } from '../helpers/media-server.js';
import { copiesOf, replyChainCrashTests, replyChainOf } from '../helpers/reply-chain-crash.js';
import { createUser } from '../helpers/seeds.js';

const KILLS = 8;

let fake: FakeXApi;
let proxy: MastodonProxy;
let cdn: MediaServer;
let userId = '';

before(async () => {
  // A public client: the workers get X_CLIENT_ID and no secret.
  fake = await FakeXApi.start({ clientSecret: null });
  // The Mastodon proxy forwards any JSON API: X's too.
  proxy = await MastodonProxy.start(fake.url);
  cdn = await startMediaServer();
});

after(async () => {
  await cdn?.close();
  await proxy?.close();
  await fake?.close();
});

replyChainCrashTests({
  label: 'X',
  write: 'post',
  kills: KILLS,
  posts: 4,
  proxy: () => proxy,
  site: () => ({ env: { SKEIN_ALLOW_PRIVATE_MEDIA: '1', X_API_URL: proxy.url, X_CLIENT_ID: fake.clientId } }),
  // Its access token good for the run (two hours).
  connect: (site) =>
    site.withDb(async (ctx) => {
      const user = await createUser(ctx);
      const username = `crasher_${site.kind}`;
      const account = fake.createAccount(username);
      userId = account.userId;
      const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
        kind: 'X',
        providerUserId: account.userId,
        username,
        accessToken: account.accessToken,
        refreshToken: account.refreshToken,
        tokenExpiresAt: new Date(Date.now() + 2 * 3_600_000),
      });
      return { key: user.key, providerId: provider.id };
    }),
  writtenText: (req) => (req.method === 'POST' && req.path === '/2/tweets' ? String(req.body?.text) : null),
  postsOf: (texts, i, site) =>
    texts.map((text, j) => ({
      text,
      ...(j === 0 ? { media: [{ url: `${cdn.base}/photo-${site.kind}-${i}.jpg`, altText: `photo of ${text}` }] } : {}),
    })),
  outOf: (texts) => texts.filter((t) => fake.postsBy(userId).some((s) => s.text === t)).length,
  check(texts) {
    const { problems, found } = replyChainOf(texts, fake.postsBy(userId), 'post');
    if (found.length === 0) return problems;
    const media = found[0]!.mediaIds.map((id) => fake.media.get(id));
    if (media.length !== 1 || media[0]?.altText !== `photo of ${texts[0]}`) problems.push(`post 0 carries ${media.length} images, not its one photo`);
    return problems;
  },
  settle(allTexts) {
    const onX = fake.postsBy(userId).map((s) => s.text);
    const { duplicates, missing } = copiesOf(allTexts, onX);
    assert.equal(duplicates, 0);
    assert.equal(missing, 0);
    assert.equal(onX.length, allTexts.length, 'nothing else was posted');
    assert.equal([...fake.media.values()].filter((m) => m.ownerId === userId).length, KILLS, 'each image uploaded once');
    return `${allTexts.length} posts, ${duplicates} duplicates, ${missing} missing`;
  },
});
