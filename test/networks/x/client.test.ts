import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { PublishError } from '../../../src/networks/platform.js';
import { pkcePair, X_SCOPES, XClient } from '../../../src/networks/x/client.js';
import { FakeXApi, type FakeXOptions } from '../../helpers/fakes/x-api.js';

const REDIRECT = 'http://skein.test/api/v1/providers/x/callback';

async function setup(t: TestContext, options: FakeXOptions = {}) {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const fake = await FakeXApi.start({ clock, ...options });
  t.after(() => fake.close());
  const client = new XClient({
    apiUrl: fake.url,
    authorizeUrl: fake.authorizeUrl,
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    now: () => clock.now().getTime(),
  });
  /** The browser's part: the person approves, X redirects back with a code. */
  const approve = async (url: string) => {
    const res = await fetch(url, { redirect: 'manual' });
    return new URL(res.headers.get('location')!);
  };
  return { clock, fake, client, approve };
}

describe('XClient against the fake X API', () => {
  for (const secret of ['a confidential client (Basic)', 'a public client (client_id only)']) {
    test(`OAuth 2.0 with PKCE as ${secret}: authorize, exchange, refresh (rotated), revoke, the account`, async (t) => {
      const { fake, client, clock, approve } = await setup(t, secret.startsWith('a public') ? { clientSecret: null } : {});
      fake.signIn('XDevelopers');
      const { verifier, challenge } = pkcePair();
      const url = client.authorizeUrl({ redirectUri: REDIRECT, state: 'st4te', codeChallenge: challenge });
      assert.equal(new URL(url).searchParams.get('scope'), X_SCOPES.join(' '));
      const back = await approve(url);
      assert.equal(back.searchParams.get('state'), 'st4te');
      const tokens = await client.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT, codeVerifier: verifier });
      assert.equal(tokens.expiresAt.getTime(), clock.now().getTime() + 7200_000);
      assert.ok(tokens.refreshToken);
      const me = await client.me(tokens.accessToken);
      assert.deepEqual([me.username, me.subscriptionType, me.followersCount], ['XDevelopers', 'None', 0]);
      const rotated = await client.refresh(tokens.refreshToken);
      assert.notEqual(rotated.refreshToken, tokens.refreshToken);
      await assert.rejects(client.refresh(tokens.refreshToken), (err: unknown) => {
        assert.ok(err instanceof PublishError);
        assert.deepEqual([err.kind, err.code], ['auth', 'X_GRANT_INVALID']);
        assert.match(err.message, /Value passed for the token was invalid/);
        return true;
      });
      await client.revoke(rotated.accessToken, 'access_token');
      await assert.rejects(client.me(rotated.accessToken), (err: unknown) => err instanceof PublishError && err.code === 'X_TOKEN_INVALID');
    });
  }

  test('no answer: a write may have happened (outcomeUnknown), a read did not; the monthly cap is permanent', async (t) => {
    const { fake, clock } = await setup(t);
    // A short deadline: the call that hangs is given up on, not waited out.
    const client = new XClient({
      apiUrl: fake.url,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      now: () => clock.now().getTime(),
      timeoutMs: 300,
    });
    const { accessToken } = fake.createAccount('tester');
    const post = { text: 'hi', inReplyToId: null, mediaIds: [], quoteId: null, poll: null, replySettings: null };
    fake.failNext('tweets.create', { kind: 'hang' });
    await assert.rejects(client.createPost(accessToken, post), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.deepEqual([err.kind, err.code, err.options.outcomeUnknown], ['transient', 'X_NETWORK', true]);
      return true;
    });
    fake.failNext('users.me', { kind: 'http503' });
    await assert.rejects(
      client.me(accessToken),
      (err: unknown) => err instanceof PublishError && err.code === 'X_SERVER_ERROR' && err.options.outcomeUnknown === false,
    );
    fake.setUsageCapped(true);
    await assert.rejects(client.createPost(accessToken, post), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.deepEqual([err.kind, err.code], ['permanent', 'X_USAGE_CAPPED']);
      assert.match(err.message, /Monthly product cap/);
      return true;
    });
  });

  test("a 429 learnt, then a token refresh: the next post still waits for the reset (holds are the user's, not the token's)", async (t) => {
    const { fake, client, clock } = await setup(t, { windowLimits: { 'tweets.create': 1 } });
    const account = fake.createAccount('busy');
    const post = { text: 'one', inReplyToId: null, mediaIds: [], quoteId: null, poll: null, replySettings: null };
    // Another app of the user's spends the window: Skein meets X's 429 and learns its reset.
    const other = new XClient({ apiUrl: fake.url, clientId: fake.clientId, clientSecret: fake.clientSecret, now: () => clock.now().getTime() });
    await other.createPost(account.accessToken, post);
    const auth = { token: account.accessToken, userId: account.userId };
    await assert.rejects(client.createPost(auth, { ...post, text: 'two' }), (err: unknown) => err instanceof PublishError && err.code === 'X_RATE_LIMITED');
    const sent = fake.callsTo('tweets.create').length;
    const rotated = await client.refresh(account.refreshToken!);
    await assert.rejects(client.createPost({ token: rotated.accessToken, userId: account.userId }, { ...post, text: 'two' }), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.equal(err.code, 'X_RATE_LIMITED');
      assert.ok((err.options.retryAfterMs ?? 0) > 0, 'told to wait for the reset');
      return true;
    });
    assert.equal(fake.callsTo('tweets.create').length, sent, 'nothing sent before the reset, whatever the token');
    clock.advance(15 * 60_000 + 1_000);
    assert.ok((await client.createPost({ token: rotated.accessToken, userId: account.userId }, { ...post, text: 'two' })).id);
  });

  test('a Premium account says so in subscription_type; a token without a needed scope is an auth fault', async (t) => {
    const { fake, client } = await setup(t);
    const premium = fake.createAccount('big', { subscription: 'Premium', followers: 12 });
    assert.deepEqual(await client.me(premium.accessToken).then((m) => [m.subscriptionType, m.followersCount]), ['Premium', 12]);
    const readOnly = fake.createAccount('reader', { scopes: ['tweet.read', 'users.read'] });
    await assert.rejects(
      client.createPost(readOnly.accessToken, { text: 'hi', inReplyToId: null, mediaIds: [], quoteId: null, poll: null, replySettings: null }),
      (err: unknown) => err instanceof PublishError && err.kind === 'auth' && err.code === 'X_FORBIDDEN',
    );
  });
});
