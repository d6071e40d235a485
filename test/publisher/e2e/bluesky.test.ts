import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { startFileServer } from '../../helpers/bluesky.js';
import { describeEachDb } from '../../helpers/context.js';
import { type LocalAccount, type LocalNetwork, startPds } from '../../helpers/fakes/bluesky-pds.js';
import { pngImage } from '../../helpers/images.js';
import { phonePhoto } from '../../helpers/photos.js';
import { createUser } from '../../helpers/seeds.js';

let pds: LocalNetwork<TestNetworkNoAppView>;
let files: Awaited<ReturnType<typeof startFileServer>>;
let accountSeq = 0;

before(async () => {
  pds = await startPds();
  // A phone photo of over 3 MB (4032×3024, with GPS): scaled down to fit Bluesky, never refused.
  files = await startFileServer({
    '/cat.jpg': { type: 'image/jpeg', body: await phonePhoto({ width: 4032, height: 3024 }) },
    '/cat.png': { type: 'image/png', body: pngImage(40, 20) },
  });
});
after(async () => {
  await files?.close();
  await pds?.close();
});

async function listPosts(account: LocalAccount) {
  const res = await account.agent.com.atproto.repo.listRecords({ repo: account.did, collection: 'app.bsky.feed.post', limit: 100 });
  const records = res.data.records.map((r) => ({ uri: r.uri, cid: r.cid, value: r.value as Record<string, any> }));
  // listRecords orders by record key, not by time: follow the reply chain instead.
  const chain = records.filter((r) => !r.value.reply);
  for (let next = chain[0]; next; ) {
    next = records.find((r) => r.value.reply?.parent.uri === next!.uri);
    if (next) chain.push(next);
  }
  assert.equal(chain.length, records.length, 'every record is part of one reply chain');
  return chain;
}

describeEachDb(
  'Bluesky end to end on a real local PDS',
  (env) => {
    test('connect with an app password, then a scheduled thread with an image is published once, in order', async () => {
      const { app, ctx, clock } = env();
      const user = await createUser(ctx);
      const bsky = await pds.createAccount(`skeine2e${accountSeq++}${Math.floor(Math.random() * 1000)}`);

      const wrong = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: bsky.handle, appPassword: 'aaaa-bbbb-cccc-dddd', service: pds.url },
      });
      assert.equal(wrong.statusCode, 400, wrong.body);
      assert.equal(wrong.json().errors[0].path, 'appPassword');

      const connected = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: bsky.handle, appPassword: bsky.appPassword, service: pds.url },
      });
      assert.equal(connected.statusCode, 201, connected.body);
      const provider = connected.json();
      assert.equal(provider.provider, 'BLUESKY');
      assert.equal(provider.providerUserId, bsky.did);
      assert.equal(provider.username, bsky.handle);
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', provider.id).executeTakeFirstOrThrow();
      // Encrypted: an envelope that opens to the session, holding none of its tokens. (Not "no
      // `eyJ` in it": base64url ciphertext of a session's length holds those three characters by
      // chance about once in a hundred.)
      assert.match(row.session_enc ?? '', /^v1\./, 'the session is stored in an encryption envelope');
      const session = JSON.parse(ctx.secrets.decrypt(row.session_enc!)) as { did: string; accessJwt: string; refreshJwt: string };
      assert.equal(session.did, bsky.did);
      assert.ok(!row.session_enc!.includes(session.accessJwt) && !row.session_enc!.includes(session.refreshJwt), 'the session is stored encrypted');
      assert.ok(!row.access_token_enc!.includes(bsky.appPassword));

      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          scheduleAt: new Date(clock.now().getTime() + 30_000).toISOString(),
          posts: [
            {
              text: 'Hello from Skein 🧵 #skein https://example.com',
              media: [{ url: `${files.base}/cat.jpg`, altText: 'a small cat' }],
              spoilerRanges: [{ offset: 0, length: 5 }],
            },
            { text: 'second' },
            { text: 'third' },
          ],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e');
      // Only the follower count of the account just connected is due (decisions.md), not the thread yet.
      assert.equal(await loop.runOnce(), 1);
      clock.advance(30_000);
      assert.equal(await loop.runOnce(), 1);
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${created.json().threadId}` })).json();
      assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));

      const records = await listPosts(bsky);
      assert.deepEqual(
        records.map((r) => r.value.text),
        ['Hello from Skein 🧵 #skein https://example.com', 'second', 'third'],
      );
      const [first, second, third] = records;
      assert.equal(first!.value.reply, undefined);
      assert.deepEqual(second!.value.reply, { root: { uri: first!.uri, cid: first!.cid }, parent: { uri: first!.uri, cid: first!.cid } });
      assert.deepEqual(third!.value.reply, { root: { uri: first!.uri, cid: first!.cid }, parent: { uri: second!.uri, cid: second!.cid } });
      assert.equal(first!.value.embed.images[0].alt, 'a small cat');
      assert.deepEqual(first!.value.embed.images[0].aspectRatio, { width: 2000, height: 1500 });
      const features = first!.value.facets.map((f: { features: Array<{ $type: string }> }) => f.features[0]!.$type).sort();
      assert.deepEqual(features, ['app.bsky.richtext.facet#link', 'app.bsky.richtext.facet#tag']);
      thread.posts.forEach((post: { permaLink: string }, i: number) => {
        const rkey = records[i]!.uri.split('/').pop();
        assert.equal(post.permaLink, `https://bsky.app/profile/${bsky.did}/post/${rkey}`);
      });

      // Run again, and even force the thread due again: the deterministic record keys keep it at three.
      assert.equal(await loop.runOnce(), 0);
      await ctx.db.updateTable('posts').set({ status: 'READY', network_post_id: null, network_cid: null }).where('thread_id', '=', thread.threadId).execute();
      await ctx.db.updateTable('threads').set({ status: 'READY' }).where('id', '=', thread.threadId).execute();
      assert.equal(await loop.runOnce(), 1);
      assert.equal((await listPosts(bsky)).length, 3);
    });

    test('network options: a threadgate on the root, a postgate on every post, langs, quotes of a Skein post and of a bsky.app URL', async () => {
      const { app, ctx, clock } = env();
      const user = await createUser(ctx);
      const bsky = await pds.createAccount(`skeinopt${accountSeq++}${Math.floor(Math.random() * 1000)}`);
      const connected = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: bsky.handle, appPassword: bsky.appPassword, service: pds.url },
      });
      assert.equal(connected.statusCode, 201, connected.body);
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e');
      const publishNow = async (payload: object) => {
        const created = await user.call(app, {
          method: 'POST',
          url: '/api/v1/posts',
          payload: { providerId: connected.json().id, scheduleAt: clock.now().toISOString(), ...payload },
        });
        assert.equal(created.statusCode, 201, created.body);
        await loop.runOnce();
        const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${created.json().threadId}` })).json();
        assert.equal(thread.status, 'PUBLISHED', JSON.stringify(thread.posts.map((p: { error: unknown }) => p.error)));
        return thread;
      };
      const read = async (collection: string, rkey: string) => {
        try {
          const res = await bsky.agent.com.atproto.repo.getRecord({ repo: bsky.did, collection, rkey });
          return { uri: res.data.uri, cid: res.data.cid!, value: res.data.value as Record<string, any> };
        } catch {
          return null;
        }
      };
      const rkeyOf = (permaLink: string) => permaLink.split('/').pop()!;

      const quotedPost = (await publishNow({ posts: [{ text: 'to be quoted' }] })).posts[0];
      const quoted = (await read('app.bsky.feed.post', rkeyOf(quotedPost.permaLink)))!;
      const thread = await publishNow({
        replyControl: 'mentioned',
        quotesDisabled: true,
        posts: [
          { text: 'quoting by Skein id', langs: ['en', 'pt-BR'], quote: quotedPost.id },
          {
            text: 'quoting by URL',
            media: [{ url: `${files.base}/cat.png`, altText: 'cat' }],
            quote: `https://bsky.app/profile/${bsky.handle}/post/${rkeyOf(quotedPost.permaLink)}`,
          },
        ],
      });
      const [rootKey, replyKey] = thread.posts.map((p: { permaLink: string }) => rkeyOf(p.permaLink));
      const root = (await read('app.bsky.feed.post', rootKey))!;
      const reply = (await read('app.bsky.feed.post', replyKey))!;
      const strong = { uri: quoted.uri, cid: quoted.cid };
      assert.deepEqual(root.value.langs, ['en', 'pt-BR']);
      assert.deepEqual(root.value.embed, { $type: 'app.bsky.embed.record', record: strong });
      assert.equal(reply.value.langs, undefined);
      assert.equal(reply.value.embed.$type, 'app.bsky.embed.recordWithMedia');
      assert.deepEqual(reply.value.embed.record.record, strong);
      assert.equal(reply.value.embed.media.images[0].alt, 'cat');

      const gate = await read('app.bsky.feed.threadgate', rootKey);
      assert.equal(gate?.value.post, root.uri);
      assert.deepEqual(gate?.value.allow, [{ $type: 'app.bsky.feed.threadgate#mentionRule' }]);
      assert.equal(await read('app.bsky.feed.threadgate', replyKey), null, 'the threadgate is on the root only');
      for (const [key, post] of [
        [rootKey, root],
        [replyKey, reply],
      ] as const) {
        const postgate = await read('app.bsky.feed.postgate', key);
        assert.equal(postgate?.value.post, post.uri);
        assert.deepEqual(postgate?.value.embeddingRules, [{ $type: 'app.bsky.feed.postgate#disableRule' }]);
      }
      assert.equal(await read('app.bsky.feed.postgate', rkeyOf(quotedPost.permaLink)), null, 'a thread without the options gets no gate');
      assert.equal(await read('app.bsky.feed.threadgate', rkeyOf(quotedPost.permaLink)), null);
    });
  },
  { config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
