import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { FakeLinkedInApi, type FakeLinkedInOptions } from './linkedin-api.js';

/**
 * The fake is only useful if it refuses what LinkedIn refuses; these tests talk to it with raw
 * HTTP, so a lenient fake cannot hide behind a lenient client.
 */

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

const REST = { 'linkedin-version': '202609', 'x-restli-protocol-version': '2.0.0' };
const PAGE_SCOPES = ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social'];
/** The first bytes of a PNG: all the fake reads of an image (LinkedIn takes JPG, PNG and GIF). */
const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);

async function setup(t: TestContext, options: FakeLinkedInOptions = {}) {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  const fake = await FakeLinkedInApi.start({ clock, ...options });
  t.after(() => fake.close());
  const member = fake.createMember('Ada', PAGE_SCOPES);
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, token = member.accessToken): Promise<Answer> => {
    const init: RequestInit = { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, redirect: 'manual' };
    if (body instanceof URLSearchParams) {
      init.body = body.toString();
      (init.headers as Record<string, string>)['content-type'] = 'application/x-www-form-urlencoded';
    } else if (body instanceof Uint8Array) init.body = body as BodyInit;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(fake.url + path, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, headers: res.headers, body: parsed };
  };
  const post = (author: string, commentary: string, extra: Record<string, unknown> = {}, token?: string) =>
    call(
      'POST',
      '/rest/posts',
      { author, commentary, visibility: 'PUBLIC', distribution: { feedDistribution: 'MAIN_FEED' }, lifecycleState: 'PUBLISHED', ...extra },
      REST,
      token,
    );
  return { clock, fake, member, call, post };
}

const enc = encodeURIComponent;

describe('fake LinkedIn API strictness', () => {
  test('versions and protocol headers on /rest; none needed for /v2/userinfo', async (t) => {
    const { call } = await setup(t);
    assert.equal((await call('GET', '/v2/userinfo')).status, 200);
    assert.equal((await call('GET', '/rest/organizationAcls?q=roleAssignee', undefined, {})).status, 400);
    const retired = await call('GET', '/rest/organizationAcls?q=roleAssignee', undefined, { ...REST, 'linkedin-version': '202401' });
    assert.equal(retired.status, 426);
    assert.deepEqual(retired.body, { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 20240101 is not active' });
    assert.equal((await call('GET', '/rest/organizationAcls?q=roleAssignee', undefined, { 'linkedin-version': '202609' })).status, 400, 'protocol 2.0.0');
  });

  test('bearer tokens: empty, unknown, revoked', async (t) => {
    const { fake, member, call } = await setup(t);
    assert.equal((await call('GET', '/v2/userinfo', undefined, {}, '')).body.code, 'EMPTY_ACCESS_TOKEN');
    assert.equal((await call('GET', '/v2/userinfo', undefined, {}, 'nope')).body.serviceErrorCode, 65600);
    fake.revokeToken(member.accessToken);
    assert.equal((await call('GET', '/v2/userinfo')).body.serviceErrorCode, 65601);
  });

  test('OAuth: authorize approves at once, the code is single-use and tied to its redirect_uri; refresh returns the same refresh token', async (t) => {
    const { fake, member, call } = await setup(t);
    const app = fake.registerApp('https://skein.test/cb');
    fake.signIn(member.urn);
    const authorize = await call(
      'GET',
      `/oauth/v2/authorization?${new URLSearchParams({ response_type: 'code', client_id: app.clientId, redirect_uri: 'https://skein.test/cb', state: 's1', scope: 'openid profile w_member_social' })}`,
      undefined,
      {},
      '',
    );
    assert.equal(authorize.status, 302);
    const location = new URL(authorize.headers.get('location')!);
    assert.equal(location.searchParams.get('state'), 's1');
    const exchange = (redirect: string) =>
      call(
        'POST',
        '/oauth/v2/accessToken',
        new URLSearchParams({
          grant_type: 'authorization_code',
          code: location.searchParams.get('code')!,
          redirect_uri: redirect,
          client_id: app.clientId,
          client_secret: app.clientSecret,
        }),
        {},
        '',
      );
    assert.equal((await exchange('https://other.test/cb')).status, 400, 'another redirect_uri');
    const token = await exchange('https://skein.test/cb');
    assert.equal(token.status, 200);
    assert.equal(token.body.expires_in, 5_184_000);
    assert.equal((await exchange('https://skein.test/cb')).status, 400, 'the code is single-use');
    const refresh = await call(
      'POST',
      '/oauth/v2/accessToken',
      new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token.body.refresh_token, client_id: app.clientId, client_secret: app.clientSecret }),
      {},
      '',
    );
    assert.equal(refresh.body.refresh_token, token.body.refresh_token);
    assert.ok(refresh.body.refresh_token_expires_in <= token.body.refresh_token_expires_in);
    assert.equal((await call('GET', '/v2/userinfo', undefined, {}, refresh.body.access_token)).body.sub, member.urn.split(':').pop());
  });

  test('posts: 201 with x-restli-id and an empty body; blank, too long, unescaped (cut) and duplicate commentaries', async (t) => {
    const { fake, member, post, clock } = await setup(t, { commentaryChars: 20 });
    const created = await post(member.urn, 'Hello \\(world\\)');
    assert.equal(created.status, 201);
    assert.equal(created.body, null);
    const urn = created.headers.get('x-restli-id')!;
    assert.match(urn, /^urn:li:share:\d+$/);
    assert.equal(fake.postsBy(member.urn)[0]!.rendered.text, 'Hello (world)');
    assert.equal((await post(member.urn, '  ')).body.code, 'INVALID_VALUE_BLANK_FIELD');
    assert.equal((await post(member.urn, 'x'.repeat(21))).body.code, 'FIELD_LENGTH_TOO_LONG');
    assert.equal((await post(member.urn, 'Hi', { lifecycleState: 'DRAFT' })).body.code, 'INVALID_VALUE_FOR_FIELD');
    const duplicate = await post(member.urn, 'Hello \\(world\\)');
    assert.equal(duplicate.status, 422);
    assert.equal(duplicate.body.message, `com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${urn}`);
    assert.equal(duplicate.body.errorDetails.inputErrors[0].code, 'DUPLICATE_POST');
    clock.advance(10 * 60_000);
    const cut = await post(member.urn, 'Hello (world)');
    assert.equal(cut.status, 201, 'LinkedIn takes it');
    assert.equal(fake.postsBy(member.urn)[1]!.rendered.text, 'Hello ', '…and cuts it at the first unescaped reserved character');
    assert.equal((await post('urn:li:person:someoneelse', 'Hi')).status, 403);
  });

  test('keys are encoded whole; reading posts needs a read scope; edits need PARTIAL_UPDATE; a deleted post is gone', async (t) => {
    const { fake, member, call, post } = await setup(t);
    const page = fake.createOrganization('Acme', member.urn);
    const urn = (await post(page, 'Page post')).headers.get('x-restli-id')!;
    assert.equal((await call('GET', `/rest/posts/${urn}`, undefined, REST)).status, 404, 'an unencoded URN');
    assert.equal((await call('GET', `/rest/posts/${enc(urn)}`, undefined, REST)).body.commentary, 'Page post');
    const finder = await call('GET', `/rest/posts?author=${enc(page)}&q=author&sortBy=CREATED&count=10`, undefined, REST);
    assert.equal(finder.body.paging.total, 1);
    const self = fake.createMember('Bob');
    await post(self.urn, 'Mine', {}, self.accessToken);
    assert.equal(
      (await call('GET', `/rest/posts?author=${enc(self.urn)}&q=author`, undefined, REST, self.accessToken)).status,
      403,
      'r_member_social is closed',
    );
    assert.equal((await call('POST', `/rest/posts/${enc(urn)}`, { patch: { $set: { commentary: 'Edited' } } }, REST)).status, 400);
    assert.equal(
      (await call('POST', `/rest/posts/${enc(urn)}`, { patch: { $set: { commentary: 'Edited' } } }, { ...REST, 'x-restli-method': 'PARTIAL_UPDATE' })).status,
      204,
    );
    assert.equal((await call('GET', `/rest/posts/${enc(urn)}`, undefined, REST)).body.lifecycleStateInfo.isEditedByAuthor, true);
    assert.equal((await call('DELETE', `/rest/posts/${enc(urn)}`, undefined, REST)).status, 204);
    assert.equal((await call('GET', `/rest/posts/${enc(urn)}`, undefined, REST)).status, 404);
  });

  test('uploads: an image is WAITING_UPLOAD, then PROCESSING, then AVAILABLE; a post with it before then is refused', async (t) => {
    const { fake, member, call, post, clock } = await setup(t);
    const page = fake.createOrganization('Acme', member.urn);
    const init = await call('POST', '/rest/images?action=initializeUpload', { initializeUploadRequest: { owner: page } }, REST);
    const { uploadUrl, image } = init.body.value;
    const status = async () => (await call('GET', `/rest/images/${enc(image)}`, undefined, REST)).body.status;
    assert.equal(await status(), 'WAITING_UPLOAD');
    assert.equal((await post(page, 'With image', { content: { media: { id: image } } })).body.code, 'MEDIA_ASSET_WAITING_UPLOAD');
    assert.equal((await call('PUT', new URL(uploadUrl).pathname, new Uint8Array([1, 2, 3]), {}, '')).status, 401, 'an image PUT needs the token');
    assert.equal((await call('PUT', new URL(uploadUrl).pathname, PNG_SIGNATURE)).status, 201);
    assert.equal(await status(), 'PROCESSING');
    clock.advance(1_000);
    assert.equal(await status(), 'AVAILABLE');
    assert.equal((await post(page, 'With image', { content: { media: { id: image, altText: ' ' } } })).body.code, 'INVALID_VALUE_BLANK_FIELD');
    assert.equal((await post(page, 'With image', { content: { media: { id: image, altText: 'A cat' } } })).status, 201);
    const self = fake.createMember('Bob');
    const own = await call('POST', '/rest/images?action=initializeUpload', { initializeUploadRequest: { owner: self.urn } }, REST, self.accessToken);
    assert.equal(
      (await call('GET', `/rest/images/${enc(own.body.value.image)}`, undefined, REST, self.accessToken)).status,
      403,
      'w_member_social cannot read images',
    );
  });

  test('video: 4 MiB parts, each PUT answers an ETag, finalize wants them all in order', async (t) => {
    const { member, call } = await setup(t);
    const size = 9_000_000;
    const init = await call('POST', '/rest/videos?action=initializeUpload', { initializeUploadRequest: { owner: member.urn, fileSizeBytes: size } }, REST);
    const { video, uploadInstructions } = init.body.value;
    assert.deepEqual(
      uploadInstructions.map((p: { firstByte: number; lastByte: number }) => [p.firstByte, p.lastByte]),
      [
        [0, 4_194_303],
        [4_194_304, 8_388_607],
        [8_388_608, 8_999_999],
      ],
    );
    const etags: string[] = [];
    for (const part of uploadInstructions) {
      const url = new URL(part.uploadUrl);
      const put = await call('PUT', url.pathname + url.search, new Uint8Array(part.lastByte - part.firstByte + 1), {}, '');
      assert.equal(put.status, 200);
      etags.push(put.headers.get('etag')!);
    }
    const finalize = (ids: string[]) =>
      call('POST', '/rest/videos?action=finalizeUpload', { finalizeUploadRequest: { video, uploadToken: '', uploadedPartIds: ids } }, REST);
    assert.equal((await finalize([...etags].reverse())).status, 400);
    assert.equal((await finalize(etags)).status, 200);
  });

  test('comments: verbatim text, 1,250 characters, reading needs a read scope, closed comments refuse more', async (t) => {
    const { fake, member, call, post } = await setup(t);
    const urn = (await post(member.urn, 'Root')).headers.get('x-restli-id')!;
    const comment = (text: string) => call('POST', `/rest/socialActions/${enc(urn)}/comments`, { actor: member.urn, object: urn, message: { text } }, REST);
    const made = await comment('Part 2 (raw) \\o/');
    assert.equal(made.status, 201);
    assert.match(made.body.commentUrn, /^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/);
    assert.equal(made.headers.get('x-restli-id'), made.body.id);
    assert.equal(fake.commentsOn(urn)[0]!.text, 'Part 2 (raw) \\o/');
    assert.equal((await comment('x'.repeat(1251))).body.code, 'FIELD_LENGTH_TOO_LONG');
    const self = fake.createMember('Bob');
    const mine = (await post(self.urn, 'Mine', {}, self.accessToken)).headers.get('x-restli-id')!;
    const read = await call('GET', `/rest/socialActions/${enc(mine)}/comments`, undefined, REST, self.accessToken);
    assert.equal(read.status, 403);
    assert.equal(read.body.message, 'Not enough permissions to access: socialActionsV2.GET_ALL.20230401');
    assert.equal(
      (
        await call(
          'POST',
          `/rest/socialMetadata/${enc(urn)}?actor=${enc(member.urn)}`,
          { patch: { $set: { commentsState: 'CLOSED' } } },
          { ...REST, 'x-restli-method': 'PARTIAL_UPDATE' },
        )
      ).status,
      204,
    );
    assert.equal((await comment('late')).status, 403);
  });

  test('rate limits: the member daily budget on POST /rest/posts, 429 without Retry-After, reset at 00:00 UTC', async (t) => {
    const { member, post, clock } = await setup(t, { postsPerDay: { member: 2 } });
    assert.equal((await post(member.urn, 'one')).status, 201);
    assert.equal((await post(member.urn, 'two')).status, 201);
    const over = await post(member.urn, 'three');
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('retry-after'), null);
    assert.deepEqual(over.body, { status: 429, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle limit for calls to this resource is reached.' });
    clock.set('2026-03-03T00:00:00Z');
    assert.equal((await post(member.urn, 'three')).status, 201);
  });

  test('introspection, reactions and reshares', async (t) => {
    const { fake, member, call, post } = await setup(t);
    const app = fake.registerApp('https://skein.test/cb');
    const introspect = (token: string, secret = app.clientSecret) =>
      call('POST', '/oauth/v2/introspectToken', new URLSearchParams({ client_id: app.clientId, client_secret: secret, token }), {}, '');
    assert.deepEqual((await introspect(member.accessToken)).body, { active: false }, "another app's token");
    assert.equal((await introspect(member.accessToken, 'wrong')).status, 401);
    const fan = fake.createMember('Fan', ['openid', 'w_member_social', 'w_member_social_feed']);
    const urn = (await post(member.urn, 'Like me')).headers.get('x-restli-id')!;
    const react = (type: string, token = fan.accessToken) =>
      call('POST', `/rest/reactions?actor=${enc(fan.urn)}`, { root: urn, reactionType: type }, REST, token);
    assert.equal((await react('MAYBE')).status, 400);
    assert.equal((await react('LIKE')).status, 201);
    assert.equal((await react('LIKE')).status, 201);
    assert.equal(fake.posts[0]!.counts.likes, 1, 'one reaction per actor');
    assert.equal(
      (await call('POST', `/rest/reactions?actor=${enc(member.urn)}`, { root: urn, reactionType: 'LIKE' }, REST)).status,
      403,
      'w_member_social_feed',
    );
    const closed = (await post(member.urn, 'Mine only', { isReshareDisabledByAuthor: true })).headers.get('x-restli-id')!;
    assert.equal((await post(fan.urn, '', { reshareContext: { parent: closed } }, fan.accessToken)).status, 400);
    assert.equal((await post(fan.urn, '', { reshareContext: { parent: urn } }, fan.accessToken)).status, 201, 'a reshare takes an empty commentary');
    assert.equal(fake.posts.find((p) => p.urn === urn)!.counts.reshares, 1);
  });

  test('faults: a create carried out whose connection is cut; page ACLs list the pages the member administers', async (t) => {
    const { fake, member, call, post } = await setup(t);
    fake.failNext('posts.create', { kind: 'dropResponse' });
    await assert.rejects(post(member.urn, 'lost'));
    assert.equal(fake.postsBy(member.urn).length, 1, 'carried out');
    const page = fake.createOrganization('Acme', member.urn);
    fake.createOrganization('Other', 'urn:li:person:someoneelse');
    const acls = await call('GET', '/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED', undefined, REST);
    assert.deepEqual(
      acls.body.elements.map((e: { organization: string }) => e.organization),
      [page],
    );
  });
});
