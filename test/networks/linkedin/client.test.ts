import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { LinkedInClient } from '../../../src/networks/linkedin/client.js';
import { PublishError } from '../../../src/networks/platform.js';
import { FakeLinkedInApi, type FakeLinkedInOptions } from '../../helpers/fakes/linkedin-api.js';

const REDIRECT = 'https://skein.test/api/v1/providers/linkedin/callback';

async function setup(t: TestContext, options: FakeLinkedInOptions = {}) {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z');
  const fake = await FakeLinkedInApi.start({ clock, ...options });
  t.after(() => fake.close());
  const client = new LinkedInClient({ apiUrl: fake.url, now: () => clock.now().getTime() });
  const app = fake.registerApp(REDIRECT);
  const { urn } = fake.createMember('Ada Lovelace');
  fake.signIn(urn);
  /** The browser's round trip: the authorize URL, approved at once, back with a code. */
  const connect = async (scopes: string[]) => {
    const res = await fetch(client.authorizeUrl({ clientId: app.clientId, redirectUri: REDIRECT, state: 'st', scopes }), { redirect: 'manual' });
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    return client.exchangeCode(app, { code, redirectUri: REDIRECT });
  };
  return { clock, fake, client, app, urn, connect };
}

describe('LinkedInClient against the fake LinkedIn API', () => {
  test('connect: the code exchanged for a 60-day token (and a refresh token), the member, the pages it administers', async (t) => {
    const { clock, fake, client, urn, connect } = await setup(t);
    const page = fake.createOrganization('Acme Corp', urn);
    const tokens = await connect(['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social']);
    assert.equal(tokens.expiresAt.getTime(), clock.now().getTime() + 5_184_000_000);
    assert.ok(tokens.refreshToken);
    assert.deepEqual(tokens.scopes, ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social']);
    assert.deepEqual(await client.member(tokens.accessToken), { urn, name: 'Ada Lovelace' });
    assert.deepEqual(await client.administeredOrganizations(tokens.accessToken), [{ urn: page, name: 'Acme Corp' }]);
  });

  test('refresh: a new access token, the same refresh token; a refused refresh is an auth fault', async (t) => {
    const { clock, client, app, connect } = await setup(t);
    const first = await connect(['openid', 'profile', 'w_member_social']);
    clock.advance(59 * 86_400_000);
    const second = await client.refresh(app, first.refreshToken!);
    assert.notEqual(second.accessToken, first.accessToken);
    assert.equal(second.refreshToken, first.refreshToken);
    assert.equal(second.refreshTokenExpiresAt!.getTime(), first.refreshTokenExpiresAt!.getTime(), 'its year counts from the first grant');
    await assert.rejects(client.refresh(app, 'not-a-refresh-token'), (err: unknown) => err instanceof PublishError && err.kind === 'auth');
  });

  test('an app without programmatic refresh gets no refresh token; a self-serve token may not list pages', async (t) => {
    const { client, connect } = await setup(t, { refreshTokens: false });
    const tokens = await connect(['openid', 'profile', 'w_member_social']);
    assert.equal(tokens.refreshToken, null);
    await assert.rejects(
      client.administeredOrganizations(tokens.accessToken),
      (err: unknown) => err instanceof PublishError && err.code === 'LINKEDIN_ACCESS_DENIED',
    );
  });

  test('a retired version is a permanent fault naming it; an expired token is an auth fault', async (t) => {
    const { clock, client, connect } = await setup(t, { activeVersions: ['202610'] });
    const tokens = await connect(['openid', 'profile', 'w_member_social']);
    await assert.rejects(client.postsByAuthor(tokens.accessToken, 'urn:li:person:x', 0, 10), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.equal(err.code, 'LINKEDIN_VERSION_RETIRED');
      assert.match(err.message, /Requested version 20260901 is not active/);
      return true;
    });
    clock.advance(61 * 86_400_000);
    await assert.rejects(
      client.member(tokens.accessToken),
      (err: unknown) => err instanceof PublishError && err.kind === 'auth' && /expired/.test(err.message),
    );
  });
});
