/**
 * One X client per process (src/networks/clients.ts): a rate-limit hold learnt while connecting
 * is known to publishing, which then waits without asking X.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { PublishError } from '../../../src/networks/platform.js';
import { describeEachDb } from '../../helpers/context.js';
import { FakeXApi } from '../../helpers/fakes/x-api.js';

const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let fake: FakeXApi;

before(async () => {
  // One users/me a window: the connect's read spends it.
  fake = await FakeXApi.start({ clock, clientSecret: null, windowLimits: { 'users.me': 1 } });
});
after(async () => {
  await fake.close();
});

describeEachDb(
  'the X client is built once per process',
  (env) => {
    test("a hold learnt by the connect's read of the account holds for publishing's reads too", async () => {
      const { ctx } = env();
      const clients = await ctx.network();
      const account = fake.createAccount(`once${Math.floor(Math.random() * 1e6)}`, { followers: 3 });
      assert.equal((await clients.x.me(account.accessToken)).id, account.userId);
      const asked = fake.callsTo('users.me').length;
      const platform = clients.platforms.X!;
      await assert.rejects(
        platform.fetchFollowers({
          providerId: 'p',
          providerUserId: account.userId,
          username: 'u',
          accessToken: account.accessToken,
          refreshToken: null,
          tokenExpiresAt: null,
          serviceUrl: null,
        }),
        (err: unknown) => err instanceof PublishError && err.code === 'X_RATE_LIMITED',
      );
      assert.equal(fake.callsTo('users.me').length, asked, 'publishing waited without asking X: it knew the hold');
      clock.advance(15 * 60_000 + 1_000);
    });
  },
  { clock, config: (c) => ({ ...c, x: { apiUrl: fake.url, clientId: fake.clientId } }) },
);
