import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { createPlatforms } from '../../../src/networks/clients.js';
import { PublisherLoop } from '../../../src/publisher/loop.js';
import { describeEachDb } from '../../helpers/context.js';
import { type LocalNetwork, startPds } from '../../helpers/fakes/bluesky-pds.js';
import { createUser } from '../../helpers/seeds.js';

let pds: LocalNetwork<TestNetworkNoAppView>;
let accountSeq = 0;

before(async () => {
  pds = await startPds();
});
after(async () => {
  await pds?.close();
});

describeEachDb(
  'follow-up replies on a real local Bluesky PDS',
  (env) => {
    test("a reply record whose root is the thread's first post and parent its last; written once, even when run again", async () => {
      const { app, ctx, clock } = env();
      const user = await createUser(ctx);
      const bsky = await pds.createAccount(`skeinfu${accountSeq++}${Math.floor(Math.random() * 1000)}`);
      const connected = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: bsky.handle, appPassword: bsky.appPassword, service: pds.url },
      });
      assert.equal(connected.statusCode, 201, connected.body);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: connected.json().id,
          scheduleAt: new Date(clock.now().getTime() + 30_000).toISOString(),
          posts: [{ text: 'first' }, { text: 'second' }, { text: 'last' }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const threadId = created.json().threadId;
      const added = await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: { text: 'Follow-up 🧵', delayMinutes: 5 } });
      assert.equal(added.statusCode, 201, added.body);
      const loop = new PublisherLoop(ctx, createPlatforms(ctx), 'e2e-follow-up');
      clock.advance(30_000);
      await loop.runOnce();
      clock.advance(5 * 60_000);
      await loop.runOnce();

      const records = async () => {
        const res = await bsky.agent.com.atproto.repo.listRecords({ repo: bsky.did, collection: 'app.bsky.feed.post', limit: 100 });
        return res.data.records.map((r) => ({ uri: r.uri, cid: r.cid, value: r.value as Record<string, any> }));
      };
      const all = await records();
      assert.equal(all.length, 4);
      const byText = (text: string) => all.find((r) => r.value.text === text)!;
      const [first, last, reply] = [byText('first'), byText('last'), byText('Follow-up 🧵')];
      assert.deepEqual(reply.value.reply, { root: { uri: first.uri, cid: first.cid }, parent: { uri: last.uri, cid: last.cid } });
      const [shown] = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}/follow-ups` })).json().followUps;
      assert.equal(shown.status, 'PUBLISHED');
      assert.equal(shown.permaLink, `https://bsky.app/profile/${bsky.did}/post/${reply.uri.split('/').pop()}`);

      // Forget that it was published and make it due again: the record key derived from the
      // follow-up's id keeps it at one reply.
      await ctx.db
        .updateTable('follow_ups')
        .set({ status: 'PENDING', network_post_id: null, network_cid: null, run_at: clock.now() })
        .where('id', '=', shown.id)
        .execute();
      await loop.runOnce();
      assert.equal((await records()).length, 4);
      assert.equal((await ctx.db.selectFrom('follow_ups').select('status').where('id', '=', shown.id).executeTakeFirstOrThrow()).status, 'PUBLISHED');
    });
  },
  { config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
