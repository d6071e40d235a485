import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { pngBytes } from '../media-files.js';
import { FakeMastodonApi, type FakeMastodonOptions } from './mastodon-api.js';

/**
 * The fake is only useful if it refuses what Mastodon refuses; these tests talk to it with raw
 * HTTP, so a lenient fake cannot hide behind a lenient client.
 */

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function setup(t: TestContext, options: FakeMastodonOptions = {}) {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  const fake = await FakeMastodonApi.start({ clock, ...options });
  t.after(() => fake.close());
  const { accountId, accessToken } = fake.createAccount('tester');
  const call = async (method: string, path: string, body?: Record<string, unknown> | FormData, headers: Record<string, string> = {}): Promise<Answer> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${accessToken}`, ...headers }, redirect: 'manual' };
    if (body instanceof FormData) init.body = body;
    else if (body) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(fake.url + path, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  return { clock, fake, call, accountId, accessToken };
}

describe('fake Mastodon API strictness', () => {
  test('apps, the authorization code flow with PKCE S256, and revocation', async (t) => {
    const { fake } = await setup(t);
    const post = (path: string, body: Record<string, string>) =>
      fetch(fake.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const app = (await (
      await post('/api/v1/apps', { client_name: 'Skein', redirect_uris: 'http://skein.test/cb', scopes: 'read write:statuses write:media' })
    ).json()) as any;
    assert.ok(app.client_id && app.client_secret);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    fake.signIn('alice');
    const authorize = (scope: string) =>
      fetch(
        `${fake.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: 'http://skein.test/cb', scope, state: 's1', code_challenge: challenge, code_challenge_method: 'S256' })}`,
        { redirect: 'manual' },
      );
    assert.equal((await authorize('read write:statuses admin:write')).status, 400, 'a scope beyond the registered ones');
    const redirect = await authorize('read write:statuses write:media');
    assert.equal(redirect.status, 302);
    const location = new URL(redirect.headers.get('location')!);
    assert.equal(location.searchParams.get('state'), 's1');
    const code = location.searchParams.get('code')!;
    const exchange = (over: Record<string, string>) =>
      post('/oauth/token', {
        grant_type: 'authorization_code',
        code,
        client_id: app.client_id,
        client_secret: app.client_secret,
        redirect_uri: 'http://skein.test/cb',
        code_verifier: verifier,
        ...over,
      });
    assert.equal((await exchange({ code_verifier: 'wrong' })).status, 400, 'a verifier that does not match the challenge');
    assert.equal((await exchange({ redirect_uri: 'http://skein.test/other' })).status, 400);
    const token = (await (await exchange({})).json()) as any;
    assert.equal(token.token_type, 'Bearer');
    assert.equal((await exchange({})).status, 400, 'a code is used once');
    const me = await fetch(`${fake.url}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${token.access_token}` } });
    assert.equal(((await me.json()) as any).username, 'alice');
    assert.equal((await post('/oauth/revoke', { client_id: app.client_id, client_secret: app.client_secret, token: token.access_token })).status, 200);
    const after = await fetch(`${fake.url}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${token.access_token}` } });
    assert.equal(after.status, 401);
  });

  test('each fake server has its own limits; text is counted in graphemes with links as 23', async (t) => {
    const big = await setup(t, { maxCharacters: 1000 });
    const small = await setup(t, { maxCharacters: 500, maxMediaAttachments: 2 });
    assert.equal((await big.call('GET', '/api/v2/instance')).body.configuration.statuses.max_characters, 1000);
    const instance = (await small.call('GET', '/api/v2/instance')).body.configuration.statuses;
    assert.deepEqual(instance, { max_characters: 500, max_media_attachments: 2, characters_reserved_per_url: 23 });
    const sixHundred = 'é'.repeat(600);
    assert.equal((await big.call('POST', '/api/v1/statuses', { status: sixHundred })).status, 200);
    assert.equal((await small.call('POST', '/api/v1/statuses', { status: sixHundred })).status, 422);
    // 477 characters and one very long link (23) is exactly 500.
    const withLink = `${'a'.repeat(476)} https://example.com/${'x'.repeat(300)}`;
    assert.equal((await small.call('POST', '/api/v1/statuses', { status: withLink })).status, 200);
    assert.equal((await small.call('POST', '/api/v1/statuses', { status: `b${withLink}` })).status, 422);
    // The content warning counts too.
    assert.equal((await small.call('POST', '/api/v1/statuses', { status: 'a'.repeat(490), spoiler_text: 'x'.repeat(11) })).status, 422);
    assert.equal((await small.call('POST', '/api/v1/statuses', { status: 'hi', visibility: 'everyone' })).status, 422);
    assert.equal((await small.call('POST', '/api/v1/statuses', { status: 'hi', colour: 'red' })).status, 400);
  });

  test('an Idempotency-Key answers the same status for an hour, then is forgotten', async (t) => {
    const { call, clock, fake, accountId } = await setup(t);
    const first = await call('POST', '/api/v1/statuses', { status: 'once' }, { 'idempotency-key': 'k1' });
    const again = await call('POST', '/api/v1/statuses', { status: 'once' }, { 'idempotency-key': 'k1' });
    assert.equal(again.body.id, first.body.id);
    assert.equal(fake.postsBy(accountId).length, 1);
    clock.advance(3_600_001);
    const later = await call('POST', '/api/v1/statuses', { status: 'once' }, { 'idempotency-key': 'k1' });
    assert.notEqual(later.body.id, first.body.id);
    assert.equal(fake.postsBy(accountId).length, 2);
  });

  test('media is processed asynchronously: 202, then 206 until ready, and cannot be attached before', async (t) => {
    const { call, clock } = await setup(t, { processingMs: { image: 5_000 } });
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(await pngBytes())], { type: 'image/png' }), 'a.png');
    form.set('description', 'a red square');
    const upload = await call('POST', '/api/v2/media', form);
    assert.equal(upload.status, 202);
    assert.equal(upload.body.url, null);
    assert.equal((await call('GET', `/api/v1/media/${upload.body.id}`)).status, 206);
    assert.equal((await call('POST', '/api/v1/statuses', { status: 'pic', media_ids: [upload.body.id] })).status, 422);
    clock.advance(5_000);
    const ready = await call('GET', `/api/v1/media/${upload.body.id}`);
    assert.equal(ready.status, 200);
    assert.equal(ready.body.description, 'a red square');
    const status = await call('POST', '/api/v1/statuses', { status: 'pic', media_ids: [upload.body.id], sensitive: true, language: 'en' });
    assert.equal(status.status, 200);
    assert.equal(status.body.media_attachments.length, 1);
    assert.equal((await call('POST', '/api/v1/statuses', { status: 'again', media_ids: [upload.body.id] })).status, 422, 'attached once only');
    const junk = new FormData();
    junk.set('file', new Blob([new TextEncoder().encode('not an image')], { type: 'image/png' }), 'x.png');
    assert.equal((await call('POST', '/api/v2/media', junk)).status, 422);
  });

  test('rate limits: headers with an ISO reset, 429 past the limit; a revoked token is 401', async (t) => {
    const { call, clock, fake, accessToken } = await setup(t, { rateLimits: { calls: 3 } });
    const first = await call('GET', '/api/v1/accounts/verify_credentials');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '2');
    assert.match(first.headers.get('x-ratelimit-reset')!, /^2026-03-02T09:05:00\.000000Z$/);
    await call('GET', '/api/v1/accounts/verify_credentials');
    await call('GET', '/api/v1/accounts/verify_credentials');
    const limited = await call('GET', '/api/v1/accounts/verify_credentials');
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { error: 'Too many requests' });
    clock.advance(5 * 60_000);
    assert.equal((await call('GET', '/api/v1/accounts/verify_credentials')).status, 200);
    fake.revokeToken(accessToken);
    assert.equal((await call('GET', '/api/v1/accounts/verify_credentials')).status, 401);
  });

  test('a dropped answer still creates the status; the account listing shows it, newest first', async (t) => {
    const { call, fake, accountId } = await setup(t);
    fake.failNext('statuses.create', { kind: 'dropResponse' });
    await assert.rejects(call('POST', '/api/v1/statuses', { status: 'lost answer' }));
    await call('POST', '/api/v1/statuses', { status: 'second' });
    const listed = await call('GET', `/api/v1/accounts/${accountId}/statuses?limit=1`);
    assert.deepEqual(
      listed.body.map((s: any) => s.content),
      ['<p>second</p>'],
    );
    const page2 = await call('GET', `/api/v1/accounts/${accountId}/statuses?max_id=${listed.body[0].id}`);
    assert.deepEqual(
      page2.body.map((s: any) => s.content),
      ['<p>lost answer</p>'],
    );
    const reblog = await call('POST', `/api/v1/statuses/${page2.body[0].id}/reblog`);
    const again = await call('POST', `/api/v1/statuses/${page2.body[0].id}/reblog`);
    assert.equal(again.body.id, reblog.body.id, 'a second boost answers the first');
    assert.equal(fake.reblogsBy(accountId).length, 1);
    assert.equal((await call('GET', `/api/v1/statuses/${page2.body[0].id}`)).body.reblogs_count, 1);
  });
});
