/**
 * Crash test on the fake Mastodon server, on PostgreSQL and on the embedded database
 * (test/helpers/reply-chain-crash.ts): processes publishing 4-post threads are killed with SIGKILL
 * before or after the server takes a status; every status must be on the server exactly once,
 * each a reply to the one before. Each thread's first status carries an image (downloaded from a
 * local media server, uploaded to the server once, waited on while it is processed) and every
 * status a content warning and a language. The provider's server URL points at the proxy.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { MastodonProxy } from '../helpers/fakes/proxies.js';
import { type MediaServer, startMediaServer } from '../helpers/media-server.js';
import { copiesOf, replyChainCrashTests, replyChainOf } from '../helpers/reply-chain-crash.js';
import { createUser } from '../helpers/seeds.js';

const KILLS = 10;

let fake: FakeMastodonApi;
let proxy: MastodonProxy;
let cdn: MediaServer;
let accountId = '';

before(async () => {
  fake = await FakeMastodonApi.start();
  proxy = await MastodonProxy.start(fake.url);
  cdn = await startMediaServer();
});

after(async () => {
  await cdn?.close();
  await proxy?.close();
  await fake?.close();
});

replyChainCrashTests({
  label: 'Mastodon',
  write: 'status',
  kills: KILLS,
  posts: 4,
  proxy: () => proxy,
  site: () => ({ env: { SKEIN_ALLOW_PRIVATE_MEDIA: '1' } }),
  connect: (site) =>
    site.withDb(async (ctx) => {
      const user = await createUser(ctx);
      const account = fake.createAccount(`crasher_${site.kind}`);
      accountId = account.accountId;
      const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
        kind: 'MASTODON',
        providerUserId: account.accountId,
        username: `crasher_${site.kind}@${fake.domain}`,
        accessToken: account.accessToken,
        serviceUrl: proxy.url,
      });
      return { key: user.key, providerId: provider.id };
    }),
  writtenText: (req) => (req.method === 'POST' && req.path === '/api/v1/statuses' ? String(req.body?.status) : null),
  postsOf: (texts, i, site) =>
    texts.map((text, j) => ({
      text,
      langs: ['en'],
      contentWarning: `cw ${i}`,
      ...(j === 0 ? { media: [{ url: `${cdn.base}/photo-${site.kind}-${i}.jpg`, altText: `photo of ${text}` }] } : {}),
    })),
  outOf: (texts) => texts.filter((t) => fake.postsBy(accountId).some((s) => s.text === t)).length,
  check(texts) {
    const { problems, found } = replyChainOf(texts, fake.postsBy(accountId), 'status');
    if (found.length === 0) return problems;
    found.forEach((status, i) => {
      if (status.language !== 'en' || !status.spoilerText.startsWith('cw ')) problems.push(`status ${i} lost its language or content warning`);
    });
    const media = found[0]!.mediaIds.map((id) => fake.media.get(id));
    if (media.length !== 1 || media[0]?.description !== `photo of ${texts[0]}`) problems.push(`status 0 carries ${media.length} images, not its one photo`);
    return problems;
  },
  settle(allTexts) {
    const onServer = fake.postsBy(accountId).map((s) => s.text);
    const { duplicates, missing } = copiesOf(allTexts, onServer);
    assert.equal(duplicates, 0);
    assert.equal(missing, 0);
    assert.equal(onServer.length, allTexts.length, 'nothing else was posted');
    assert.equal([...fake.media.values()].filter((m) => m.accountId === accountId).length, KILLS, 'each image uploaded once');
    return `${allTexts.length} statuses, ${duplicates} duplicates, ${missing} missing`;
  },
});
