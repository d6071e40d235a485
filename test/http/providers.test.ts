import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BlueskyConnector } from '../../src/networks/clients.js';
import { NETWORKS } from '../../src/networks/index.js';
import { describeEachDb } from '../helpers/context.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { createProvider, createUser, rowCounts } from '../helpers/seeds.js';

const logins: Array<{ service: string; identifier: string; appPassword: string }> = [];
const fakeBlueskyLogin: BlueskyConnector = async (input) => {
  logins.push(input);
  return {
    did: 'did:plc:fakeconnect',
    handle: input.identifier,
    pdsUrl: 'https://pds.example.com',
    session: { did: 'did:plc:fakeconnect', handle: input.identifier, accessJwt: 'a', refreshJwt: 'r', active: true },
  };
};

describeEachDb(
  "connecting a Bluesky account through the context's network clients",
  (env) => {
    test('the connect service logs in with the Bluesky client of the context; a reconnect updates the same provider', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const loginsBefore = logins.length;
      const connect = (appPassword: string) =>
        user.call(app, { method: 'POST', url: '/api/v1/providers/bluesky', payload: { identifier: 'someone.test', appPassword } });
      const first = await connect('aaaa-bbbb-cccc-dddd');
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(first.json().providerUserId, 'did:plc:fakeconnect');
      assert.deepEqual(logins.at(-1), { service: ctx.config.bluesky.serviceUrl, identifier: 'someone.test', appPassword: 'aaaa-bbbb-cccc-dddd' });
      const again = await connect('eeee-ffff-gggg-hhhh');
      assert.equal(again.statusCode, 201, again.body);
      assert.equal(again.json().id, first.json().id);
      assert.equal(logins.length, loginsBefore + 2, 'one login per connect, both through the fake');
    });
  },
  { network: { connectBluesky: fakeBlueskyLogin } },
);

describeEachDb('connecting a Bluesky account', (env) => {
  test('a service URL on a private, loopback or link-local address is refused before anything is sent there', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const before = await rowCounts(ctx);
    for (const service of ['http://127.0.0.1:9', 'http://localhost:9', 'http://169.254.169.254', 'http://10.0.0.1', 'http://[::1]:9', 'https://192.168.1.1']) {
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: 'someone.test', appPassword: 'aaaa-bbbb-cccc-dddd', service },
      });
      assert.equal(res.statusCode, 400, `${service}: ${res.body}`);
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        ['service'],
        service,
      );
    }
    assert.deepEqual(await rowCounts(ctx), before);
  });

  test('creating a thread for a disconnected provider is refused at once; an EXPIRED one is accepted (it can be reconnected)', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account, 'BLUESKY');
    const create = () =>
      user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: '2030-01-01T10:00:00Z', posts: [{ text: 'hello' }] },
      });
    await ctx.db.updateTable('providers').set({ status: 'EXPIRED' }).where('id', '=', provider.id).execute();
    assert.equal((await create()).statusCode, 201);
    const disconnected = await user.call(app, { method: 'DELETE', url: `/api/v1/providers/${provider.id}` });
    assert.equal(disconnected.statusCode, 200, disconnected.body);
    const before = await rowCounts(ctx);
    const refused = await create();
    assert.equal(refused.statusCode, 400, refused.body);
    assert.deepEqual(
      refused.json().errors.map((e: { path: string }) => e.path),
      ['providerId'],
    );
    assert.match(refused.json().detail, /disconnected/);
    assert.deepEqual(await rowCounts(ctx), before);
  });
});

// A Mastodon server that allows more than Mastodon's defaults (500 characters, 4 media).
let roomy: FakeMastodonApi;
before(async () => {
  roomy = await FakeMastodonApi.start({ maxCharacters: 1000, maxMediaAttachments: 6 });
});
after(async () => {
  await roomy.close();
});

describeEachDb(
  'each provider carries its own limits, in GET /api/v1/networks\' shape (decisions.md "Networks in one place")',
  (env) => {
    test("Threads and Bluesky answer their network's limits; a Mastodon account its server's over Mastodon's defaults", async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const threads = await createProvider(ctx, user.account, 'THREADS');
      const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
      const { accessToken } = roomy.createAccount('hana');
      const connected = await user.call(app, { method: 'POST', url: '/api/v1/providers/mastodon', payload: { instance: roomy.url, accessToken } });
      assert.equal(connected.statusCode, 201, connected.body);
      const mastodonLimits = { ...NETWORKS.MASTODON.limits, textPerPost: 1000, mediaPerPost: 6, imagesPerPost: 6 };
      assert.deepEqual(connected.json().limits, mastodonLimits, 'the connect answer carries them too');
      assert.equal(connected.json().charactersReservedPerUrl, 23);

      const list = await user.call(app, { method: 'GET', url: '/api/v1/providers' });
      assert.equal(list.statusCode, 200, list.body);
      const byId = new Map(list.json().providers.map((p: { id: string }) => [p.id, p]));
      const answered = (id: string) => byId.get(id) as { limits: unknown; charactersReservedPerUrl: unknown };
      assert.deepEqual(answered(threads.id).limits, NETWORKS.THREADS.limits);
      assert.deepEqual(answered(bluesky.id).limits, NETWORKS.BLUESKY.limits);
      assert.equal(answered(threads.id).charactersReservedPerUrl, null);
      assert.equal(answered(bluesky.id).charactersReservedPerUrl, null);
      const mastodon = answered(connected.json().id);
      assert.deepEqual(mastodon.limits, mastodonLimits);
      assert.deepEqual(Object.keys(mastodon.limits as object).sort(), Object.keys(NETWORKS.MASTODON.limits).sort(), 'exactly the registry shape');

      // The same shape as GET /api/v1/networks answers for each network.
      const networks = (await user.call(app, { method: 'GET', url: '/api/v1/networks' })).json().networks as Array<{ kind: string; limits: unknown }>;
      assert.deepEqual(answered(threads.id).limits, networks.find((n) => n.kind === 'THREADS')!.limits);
      assert.deepEqual(answered(bluesky.id).limits, networks.find((n) => n.kind === 'BLUESKY')!.limits);

      // Disconnect answers the provider with its limits as well.
      const gone = await user.call(app, { method: 'DELETE', url: `/api/v1/providers/${bluesky.id}` });
      assert.equal(gone.statusCode, 200, gone.body);
      assert.deepEqual(gone.json().limits, NETWORKS.BLUESKY.limits);
    });
  },
  { config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
