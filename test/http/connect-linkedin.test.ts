import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDb, type TestEnv } from '../helpers/context.js';
import { FakeLinkedInApi } from '../helpers/fakes/linkedin-api.js';
import { createUser, type TestUser } from '../helpers/seeds.js';
import { callbackAndConfirm } from '../helpers/web-browser.js';

const PUBLIC_URL = 'http://127.0.0.1:3999';
const CALLBACK = `${PUBLIC_URL}/api/v1/providers/linkedin/callback`;
const PAGE_SCOPES = ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social'];
const DAY_MS = 86_400_000;

const clock = new ManualClock('2026-11-22T12:00:00.000Z');
let fake: FakeLinkedInApi;
let linkedInApp: { clientId: string; clientSecret: string };

before(async () => {
  fake = await FakeLinkedInApi.start({ clock });
  linkedInApp = fake.registerApp(CALLBACK);
});
after(async () => {
  await fake.close();
});

/** Starts a sign-in with the user's key, approves it at the fake as `member`, confirms it in the browser. */
async function connectOAuth(env: TestEnv, user: TestUser, member: string) {
  fake.signIn(member);
  const started = await user.call(env.app, { method: 'GET', url: '/api/v1/providers/linkedin/connect' });
  assert.equal(started.statusCode, 200, started.body);
  const authorize = new URL(started.json().authorizeUrl);
  assert.equal(authorize.origin, fake.url);
  assert.equal(authorize.searchParams.get('redirect_uri'), CALLBACK);
  const res = await fetch(authorize, { redirect: 'manual' });
  assert.equal(res.status, 302, await res.text());
  const back = new URL(res.headers.get('location')!);
  assert.equal(back.pathname, '/api/v1/providers/linkedin/callback');
  return {
    scopes: authorize.searchParams.get('scope')!.split(' '),
    answer: await callbackAndConfirm(env.app, env.ctx, user.account, back.pathname + back.search),
  };
}

async function providersOf(env: TestEnv, user: TestUser): Promise<Array<{ id: string; providerUserId: string; username: string }>> {
  const list = await user.call(env.app, { method: 'GET', url: '/api/v1/providers' });
  assert.equal(list.statusCode, 200, list.body);
  return list.json().providers;
}

function pathsOf(res: { json(): { errors: Array<{ path: string }> } }): string[] {
  return res.json().errors.map((e) => e.path);
}

const configured = (organizations: boolean) => ({
  config: (c: import('../../src/config/config.js').Config) => ({
    ...c,
    linkedin: { apiUrl: fake.url, clientId: linkedInApp.clientId, organizations },
    http: { ...c.http, publicUrl: PUBLIC_URL },
  }),
  // Read when the environment is made, after the fake made the app.
  get linkedinClientSecret() {
    return linkedInApp.clientSecret;
  },
  clock,
});

describeEachDb(
  'Connect LinkedIn with the page scopes (LINKEDIN_ORGANIZATIONS=1): the member and every page it administers',
  (env) => {
    test('the sign-in offers the member and each administered page; each one picked becomes its own provider, with a 60-day token', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const { urn } = fake.createMember('Ada Lovelace', PAGE_SCOPES);
      const page = fake.createOrganization('Analytical Engines', urn);
      const unwanted = fake.createOrganization('Difference Engines', urn);
      fake.createOrganization('Not hers', fake.createMember('Other', PAGE_SCOPES).urn);
      const { scopes, answer } = await connectOAuth(env(), user, urn);
      assert.deepEqual(scopes, PAGE_SCOPES);
      assert.equal(answer.statusCode, 200, answer.body);
      const pick = answer.json();
      assert.deepEqual(pick.accounts, [
        { providerUserId: urn, username: 'Ada Lovelace' },
        { providerUserId: page, username: 'Analytical Engines' },
        { providerUserId: unwanted, username: 'Difference Engines' },
      ]);
      assert.equal(pick.network, 'LINKEDIN');
      assert.deepEqual(await providersOf(env(), user), [], 'nothing is added before the pick');
      const url = `/api/v1/providers/connect/picks/${pick.pickId}`;

      const shown = await user.call(app, { method: 'GET', url });
      assert.equal(shown.statusCode, 200, shown.body);
      assert.deepEqual(shown.json(), pick);
      const stranger = await createUser(ctx);
      assert.equal((await stranger.call(app, { method: 'GET', url })).statusCode, 404, "another account's pick is not told apart from none");
      assert.equal((await stranger.call(app, { method: 'POST', url, payload: { providerUserIds: [urn] } })).statusCode, 404);

      const bad = await user.call(app, { method: 'POST', url, payload: { providerUserIds: [urn, 'urn:li:organization:1', 'urn:li:person:nobody'] } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.deepEqual(pathsOf(bad), ['providerUserIds.1', 'providerUserIds.2']);
      const none = await user.call(app, { method: 'POST', url, payload: { providerUserIds: [] } });
      assert.equal(none.statusCode, 400, none.body);
      assert.deepEqual(await providersOf(env(), user), [], 'a refused pick adds nothing');

      const picked = await user.call(app, { method: 'POST', url, payload: { providerUserIds: [page, urn] } });
      assert.equal(picked.statusCode, 200, picked.body);
      assert.deepEqual(
        picked.json().providers.map((p: { providerUserId: string }) => p.providerUserId),
        [urn, page],
        'in the order offered',
      );
      const providers = await providersOf(env(), user);
      assert.deepEqual(
        providers.map((p) => [p.providerUserId, p.username]).sort(),
        [
          [urn, 'Ada Lovelace'],
          [page, 'Analytical Engines'],
        ].sort(),
      );
      const rows = await ctx.db.selectFrom('providers').selectAll().where('kind', '=', 'LINKEDIN').where('account_id', '=', user.account.id).execute();
      for (const row of rows) assert.equal(row.token_expires_at?.getTime(), clock.now().getTime() + 60 * DAY_MS);
      assert.equal((await user.call(app, { method: 'POST', url, payload: { providerUserIds: [unwanted] } })).statusCode, 404, 'a pick is used once');
      assert.equal((await user.call(app, { method: 'GET', url })).statusCode, 404);
    });

    test('a pick lasts 15 minutes', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const { urn } = fake.createMember('Late Picker', PAGE_SCOPES);
      fake.createOrganization('Late Page', urn);
      const { answer } = await connectOAuth(env(), user, urn);
      clock.advance(15 * 60_000 + 1);
      const res = await user.call(app, { method: 'POST', url: `/api/v1/providers/connect/picks/${answer.json().pickId}`, payload: { providerUserIds: [urn] } });
      assert.equal(res.statusCode, 404, res.body);
    });

    test('the token path: the member; a page it administers; a page it does not is 400 at organization; a refused token is 400 at accessToken', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const { urn, accessToken } = fake.createMember('Grace Hopper', PAGE_SCOPES);
      const page = fake.createOrganization('Compilers Inc', urn);
      const other = fake.createOrganization('Elsewhere', fake.createMember('Someone', PAGE_SCOPES).urn);
      const path = '/api/v1/providers/linkedin';

      const member = await user.call(app, { method: 'POST', url: path, payload: { accessToken } });
      assert.equal(member.statusCode, 201, member.body);
      assert.equal(member.json().providerUserId, urn);
      assert.equal(member.json().username, 'Grace Hopper');
      const again = await user.call(app, { method: 'POST', url: path, payload: { accessToken } });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().id, member.json().id, 'a reconnect keeps the provider');
      const row = await ctx.db.selectFrom('providers').selectAll().where('id', '=', member.json().id).executeTakeFirstOrThrow();
      assert.equal(row.token_expires_at?.getTime(), clock.now().getTime() + 60 * DAY_MS);

      const byId = await user.call(app, { method: 'POST', url: path, payload: { accessToken, organization: page.split(':').at(-1) } });
      assert.equal(byId.statusCode, 201, byId.body);
      assert.equal(byId.json().providerUserId, page);
      assert.equal(byId.json().username, 'Compilers Inc');

      const notHers = await user.call(app, { method: 'POST', url: path, payload: { accessToken, organization: other } });
      assert.equal(notHers.statusCode, 400, notHers.body);
      assert.deepEqual(pathsOf(notHers), ['organization']);

      const malformed = await user.call(app, { method: 'POST', url: path, payload: { accessToken: ' ', organization: 'acme' } });
      assert.equal(malformed.statusCode, 400, malformed.body);
      assert.deepEqual(pathsOf(malformed).sort(), ['accessToken', 'organization']);

      const revoked = fake.createMember('Revoked', PAGE_SCOPES).accessToken;
      fake.revokeToken(revoked);
      const refused = await user.call(app, { method: 'POST', url: path, payload: { accessToken: revoked } });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual(pathsOf(refused), ['accessToken']);
      assert.match(refused.json().errors[0].message, /LinkedIn refused/);
    });

    test("disconnect revokes the token at LinkedIn once no other account holds it (a page shares its member's); a failing revoke does not block the disconnect", async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const { urn } = fake.createMember('Leaving Member', PAGE_SCOPES);
      const page = fake.createOrganization('Leaving Page', urn);
      const { answer } = await connectOAuth(env(), user, urn);
      assert.equal(answer.statusCode, 200, answer.body);
      const picked = await user.call(app, {
        method: 'POST',
        url: `/api/v1/providers/connect/picks/${answer.json().pickId}`,
        payload: { providerUserIds: [urn, page] },
      });
      assert.equal(picked.statusCode, 200, picked.body);
      const providers = await providersOf(env(), user);
      const tokenOf = async (id: string) =>
        ctx.secrets.decrypt((await ctx.db.selectFrom('providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).access_token_enc!);
      const member = providers.find((p) => p.providerUserId === urn)!;
      const pageProvider = providers.find((p) => p.providerUserId === page)!;
      const token = await tokenOf(member.id);
      const revokesBefore = fake.callsTo('oauth.revoke').length;

      const pageGone = await user.call(app, { method: 'DELETE', url: `/api/v1/providers/${pageProvider.id}` });
      assert.equal(pageGone.statusCode, 200, pageGone.body);
      assert.equal(pageGone.json().status, 'REVOKED');
      assert.equal(fake.callsTo('oauth.revoke').length, revokesBefore, 'the member still posts with it');
      assert.equal(fake.isRevoked(token), false);

      const memberGone = await user.call(app, { method: 'DELETE', url: `/api/v1/providers/${member.id}` });
      assert.equal(memberGone.statusCode, 200, memberGone.body);
      assert.equal(memberGone.json().status, 'REVOKED');
      assert.equal(fake.isRevoked(token), true, 'the last holder gone: revoked at LinkedIn');
      const revoke = fake.callsTo('oauth.revoke').at(-1)!;
      const form = new URLSearchParams(String(revoke.body));
      assert.equal(form.get('client_id'), linkedInApp.clientId);
      assert.equal(form.get('client_secret'), linkedInApp.clientSecret);

      const other = fake.createMember('Unlucky Member', PAGE_SCOPES);
      const pasted = await user.call(app, { method: 'POST', url: '/api/v1/providers/linkedin', payload: { accessToken: other.accessToken } });
      assert.equal(pasted.statusCode, 201, pasted.body);
      fake.failNext('oauth.revoke', { kind: 'http500' });
      const attempts = fake.callsTo('oauth.revoke').length;
      const stillGone = await user.call(app, { method: 'DELETE', url: `/api/v1/providers/${pasted.json().id}` });
      assert.equal(stillGone.statusCode, 200, stillGone.body);
      assert.equal(stillGone.json().status, 'REVOKED', 'LinkedIn failing does not keep the account connected');
      assert.equal(fake.callsTo('oauth.revoke').length, attempts + 1, 'the revoke was tried');
    });

    test('a member-only token names no page it may post as: a page is 400 at organization', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const { urn, accessToken } = fake.createMember('Member Only');
      const page = fake.createOrganization('Her page', urn);
      const res = await user.call(app, { method: 'POST', url: '/api/v1/providers/linkedin', payload: { accessToken, organization: page } });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(pathsOf(res), ['organization']);
    });
  },
  configured(true),
);

describeEachDb(
  'Connect LinkedIn without the page scopes: the sign-in asks for the member scopes only',
  (env) => {
    test('the member alone, even when it administers a page', async () => {
      const { ctx } = env();
      const user = await createUser(ctx);
      const { urn } = fake.createMember('Member App');
      fake.createOrganization('Not asked for', urn);
      const { scopes, answer } = await connectOAuth(env(), user, urn);
      assert.deepEqual(scopes, ['openid', 'profile', 'w_member_social']);
      assert.equal(answer.statusCode, 200, answer.body);
      assert.deepEqual(
        (await providersOf(env(), user)).map((p) => p.providerUserId),
        [urn],
      );
    });
  },
  configured(false),
);

describeEachDb('Connect LinkedIn with no LinkedIn app configured', (env) => {
  test('the sign-in is 409 NETWORK_NOT_CONFIGURED naming LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET and the token path', async () => {
    const { ctx, app } = env();
    const user = await createUser(ctx);
    const res = await user.call(app, { method: 'GET', url: '/api/v1/providers/linkedin/connect' });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().code, 'NETWORK_NOT_CONFIGURED');
    assert.match(res.json().detail, /LINKEDIN_CLIENT_ID/);
    assert.match(res.json().detail, /LINKEDIN_CLIENT_SECRET/);
    assert.match(res.json().detail, /POST \/api\/v1\/providers\/linkedin/);
    assert.match(res.json().detail, /\/guide\/connect-linkedin/);
  });
});
