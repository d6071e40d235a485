import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { describeEachDb } from '../helpers/context.js';
import { type LocalAccount, type LocalNetwork, startPds } from '../helpers/fakes/bluesky-pds.js';
import { createUser, rowCounts } from '../helpers/seeds.js';

/**
 * Connect Bluesky against a real local PDS, through the context's own network clients (no fake
 * connector): the PDS an account's DID document names is held to the address policy before it
 * is stored. The PDS listens on 127.0.0.1, which is BLUESKY_SERVICE_URL here (the operator's
 * configuration, trusted); its DID documents, returned with each login as Bluesky's entryway
 * returns them, name http://localhost:<port>, which is not.
 */

let pds: LocalNetwork<TestNetworkNoAppView>;
let carol: LocalAccount;

before(async () => {
  pds = await startPds({ didDocWithSession: true });
  carol = await pds.createAccount('carol');
});
after(async () => {
  await pds?.close();
});

describeEachDb(
  'Connect Bluesky, private addresses not allowed: a DID document naming a loopback PDS is refused',
  (env) => {
    test('400 at identifier, no provider stored, no address in the message', async () => {
      const { app, ctx } = env();
      assert.equal(ctx.config.media.allowPrivate, false);
      const user = await createUser(ctx);
      const before = await rowCounts(ctx);
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: carol.handle, appPassword: carol.appPassword },
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        ['identifier'],
      );
      assert.match(res.json().errors[0].message, /not at a public address/);
      assert.doesNotMatch(res.body, /127\.0\.0\.1|::1/);
      assert.deepEqual(await rowCounts(ctx), before);
    });
  },
  { config: (c) => ({ ...c, bluesky: { ...c.bluesky, serviceUrl: pds.url }, media: { allowPrivate: false } }) },
);

describeEachDb(
  'Connect Bluesky, private addresses allowed (tests): the same account connects',
  (env) => {
    test('201, the PDS of the DID document stored', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/providers/bluesky',
        payload: { identifier: carol.handle, appPassword: carol.appPassword },
      });
      assert.equal(res.statusCode, 201, res.body);
      const row = await ctx.db.selectFrom('providers').select('service_url').where('id', '=', res.json().id).executeTakeFirstOrThrow();
      assert.match(row.service_url ?? '', /^http:\/\/localhost:\d+$/);
    });
  },
  { config: (c) => ({ ...c, bluesky: { ...c.bluesky, serviceUrl: pds.url }, media: { allowPrivate: true } }) },
);
