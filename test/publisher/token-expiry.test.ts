import assert from 'node:assert/strict';
import { test } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { refreshExpiringTokens } from '../../src/publisher/token-refresh.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { describeEachDb } from '../helpers/context.js';
import { createUser, type TestUser } from '../helpers/seeds.js';

const DAY = 86_400_000;

/**
 * PROVIDER_EXPIRING (decisions.md "LinkedIn"): a token that cannot be refreshed is in attention
 * from its network's notice period (LinkedIn: 7 days) before it runs out, its users are emailed
 * once, and at the expiry the account is EXPIRED. The hourly token sweep writes the email.
 */
describeEachDb('a LinkedIn token without a refresh token: PROVIDER_EXPIRING, one email, then EXPIRED', (env) => {
  const attention = async (user: TestUser) => {
    const res = await user.call(env().app, { method: 'GET', url: '/api/v1/attention' });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().items as { kind: string; providerId: string; at: string }[];
  };
  const emails = (user: TestUser) =>
    env().ctx.db.selectFrom('email_notifications').selectAll().where('account_id', '=', user.account.id).where('kind', '=', 'PROVIDER_EXPIRING').execute();
  const connect = (user: TestUser, kind: 'LINKEDIN' | 'BLUESKY', expiresAt: Date, refreshToken: string | null = null) =>
    addProvider(env().ctx, user.account.id, personalWorkspace(user.account.id), {
      kind,
      providerUserId: `urn:li:person:${Math.random().toString(36).slice(2)}`,
      username: 'Ada Lovelace',
      accessToken: `token-${Math.random().toString(36).slice(2)}`,
      refreshToken,
      tokenExpiresAt: expiresAt,
    });

  test('8 days before: nothing; 7 days: attention and one email; again: no second email; at expiry: EXPIRED', async () => {
    const { ctx, clock } = env();
    const user = await createUser(ctx);
    const expiresAt = new Date(clock.now().getTime() + 8 * DAY);
    const lapsing = await connect(user, 'LINKEDIN', expiresAt);
    // Renewable: LinkedIn gave a refresh token (the sweep has no app to use it with, so it stays as it is).
    await connect(user, 'LINKEDIN', expiresAt, 'refresh-token');
    // A network without an expiry notice in the registry is never warned about.
    await connect(user, 'BLUESKY', expiresAt);
    const sweep = () => refreshExpiringTokens(ctx);

    await sweep();
    assert.deepEqual(await attention(user), [], '8 days before: nothing');
    assert.equal((await emails(user)).length, 0);

    clock.advance(DAY);
    await sweep();
    assert.deepEqual(await attention(user), [{ kind: 'PROVIDER_EXPIRING', providerId: lapsing.id, at: expiresAt.toISOString() }]);
    const [email, ...more] = await emails(user);
    assert.equal(more.length, 0, 'one email');
    assert.equal(email!.status, 'PENDING', 'at once: the user keeps the default for expiries');
    assert.equal(email!.data.providerId, lapsing.id);
    assert.equal(new Date(String(email!.data.expiresAt)).getTime(), expiresAt.getTime());

    clock.advance(3_600_000);
    await sweep();
    clock.advance(3 * DAY);
    await sweep();
    assert.equal((await emails(user)).length, 1, 'no second email for the same token');
    assert.deepEqual(
      (await attention(user)).map((item) => item.kind),
      ['PROVIDER_EXPIRING'],
    );

    clock.set(expiresAt);
    await sweep();
    const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', lapsing.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'EXPIRED');
    const items = await attention(user);
    assert.ok(items.some((item) => item.kind === 'PROVIDER_EXPIRED' && item.providerId === lapsing.id));
    assert.ok(!items.some((item) => item.kind === 'PROVIDER_EXPIRING'), 'no longer expiring: expired');
  });

  test('a reconnect (a new token) leaves the attention, and its own expiry is warned about in its turn; a user who turned expiry emails off gets none', async () => {
    const { ctx, clock } = env();
    const user = await createUser(ctx);
    const off = await user.call(env().app, { method: 'PATCH', url: '/api/v1/account/notifications', payload: { kinds: { PROVIDER_EXPIRED: 'off' } } });
    assert.equal(off.statusCode, 200, off.body);
    const quiet = await createUser(ctx);
    const first = new Date(clock.now().getTime() + 2 * DAY);
    const provider = await connect(user, 'LINKEDIN', first);
    await connect(quiet, 'LINKEDIN', first);
    await refreshExpiringTokens(ctx);
    assert.equal((await emails(user)).length, 0, 'expiry emails off');
    assert.deepEqual(
      (await attention(user)).map((item) => item.kind),
      ['PROVIDER_EXPIRING'],
      'in attention all the same',
    );

    const second = new Date(clock.now().getTime() + 60 * DAY);
    await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
      kind: 'LINKEDIN',
      providerUserId: provider.provider_user_id,
      username: provider.username,
      accessToken: 'a-new-token',
      tokenExpiresAt: second,
    });
    assert.deepEqual(await attention(user), [], 'reconnected');
    const quietEmails = await emails(quiet);
    assert.equal(quietEmails.length, 1);

    clock.set(new Date(second.getTime() - 7 * DAY));
    await refreshExpiringTokens(ctx);
    assert.deepEqual(
      (await attention(user)).map((item) => [item.kind, item.at]),
      [['PROVIDER_EXPIRING', second.toISOString()]],
    );
  });
});
