import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BlueskyConnector } from '../../src/platforms/index.js';
import { describeEachDb } from '../helpers/context.js';
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
