import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { jpegBytes, pngBytes } from '../media-files.js';
import { FakeXApi, type FakeXOptions } from './x-api.js';

/**
 * The fake is only useful if it refuses what X refuses; these tests talk to it with raw HTTP, so
 * a lenient fake cannot hide behind a lenient client.
 */

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

const REDIRECT = 'http://skein.test/api/v1/providers/x/callback';

async function setup(t: TestContext, options: FakeXOptions = {}) {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  const fake = await FakeXApi.start({ clock, ...options });
  t.after(() => fake.close());
  const { userId, accessToken, refreshToken } = fake.createAccount('tester');
  const read = async (res: Response): Promise<Answer> => {
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  const call = async (method: string, path: string, body?: Record<string, unknown> | FormData, token = accessToken): Promise<Answer> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` }, redirect: 'manual' };
    if (body instanceof FormData) init.body = body;
    else if (body) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    return read(await fetch(fake.url + path, init));
  };
  const basic = `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`;
  const token = async (form: Record<string, string>, authorization: string | null = basic) =>
    read(
      await fetch(`${fake.url}/2/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
        body: new URLSearchParams(form),
      }),
    );
  return { clock, fake, call, token, read, userId, accessToken, refreshToken: refreshToken! };
}

describe('fake X API strictness', () => {
  test('OAuth 2.0 with PKCE: exact redirect, deny, single-use 30-second codes, the verifier, client authentication', async (t) => {
    const { fake, clock, token } = await setup(t);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = (redirectUri = REDIRECT) =>
      fetch(
        `${fake.authorizeUrl}?${new URLSearchParams({ response_type: 'code', client_id: fake.clientId, redirect_uri: redirectUri, scope: 'tweet.read users.read offline.access', state: 'st4te', code_challenge: challenge, code_challenge_method: 'S256' })}`,
        { redirect: 'manual' },
      );
    assert.equal((await authorize('http://skein.test/other')).status, 400, 'redirect URIs match exactly');
    fake.denyNextAuthorization();
    const denied = new URL((await authorize()).headers.get('location')!);
    assert.deepEqual([denied.searchParams.get('error'), denied.searchParams.get('state')], ['access_denied', 'st4te']);
    fake.signIn('alice');
    const codeOf = async () => new URL((await authorize()).headers.get('location')!).searchParams.get('code')!;
    const exchange = (code: string, v = verifier, authorization?: string | null) =>
      token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v, client_id: fake.clientId }, authorization);
    const code = await codeOf();
    assert.equal((await exchange(code, 'wrong-verifier')).body.error_description, 'Value passed for the authorization code was invalid.');
    const noSecret = await exchange(code, verifier, null);
    assert.deepEqual([noSecret.status, noSecret.body.error], [401, 'unauthorized_client']);
    const granted = await exchange(code);
    assert.equal(granted.status, 200);
    assert.equal(granted.body.expires_in, 7200);
    assert.ok(granted.body.access_token && granted.body.refresh_token);
    assert.equal((await exchange(code)).status, 400, 'a code works once');
    const stale = await codeOf();
    clock.advance(31_000);
    assert.equal((await exchange(stale)).status, 400, 'a code lasts 30 seconds');
  });

  test('tokens: two hours; refresh rotates (the old refresh token dies at once); revoke; scopes; app-only tokens', async (t) => {
    const { fake, clock, call, token, refreshToken, accessToken } = await setup(t);
    assert.equal((await call('GET', '/2/users/me')).status, 200);
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: fake.clientId });
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.refresh_token, refreshToken);
    const reused = await token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: fake.clientId });
    assert.deepEqual(reused.body, { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' });
    clock.advance(7200_000);
    const expired = await call('GET', '/2/users/me', undefined, accessToken);
    assert.deepEqual([expired.status, expired.body.title], [401, 'Unauthorized']);
    const revoke = await fetch(`${fake.url}/2/oauth2/revoke`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token: rotated.body.access_token, token_type_hint: 'access_token' }),
    });
    assert.deepEqual(await revoke.json(), { revoked: true });
    assert.equal((await call('GET', '/2/users/me', undefined, rotated.body.access_token)).status, 401);
    const readOnly = fake.createAccount('reader', { scopes: ['tweet.read', 'users.read'] });
    const upload = await call(
      'POST',
      '/2/media/upload/initialize',
      { media_type: 'video/mp4', total_bytes: 10, media_category: 'tweet_video' },
      readOnly.accessToken,
    );
    assert.deepEqual([upload.status, upload.body.detail], [403, 'Forbidden'], 'media.write is needed');
    const appOnly = await call('POST', '/2/tweets', { text: 'hi' }, fake.createAppToken());
    assert.deepEqual([appOnly.status, appOnly.body.title], [403, 'Unsupported Authentication']);
  });

  test("creating posts: the weighted count (280; a Premium account's 25,000), empty and unknown fields, exclusive fields, enums, polls", async (t) => {
    const { fake, call } = await setup(t);
    const url = 'https://example.com/a/very/long/path';
    const tooLong = await call('POST', '/2/tweets', { text: `${'x'.repeat(257)} ${url}` });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.body.errors[0].message, /Your Tweet text is too long/);
    assert.equal((await call('POST', '/2/tweets', { text: `${'x'.repeat(256)} ${url}` })).status, 201);
    assert.equal((await call('POST', '/2/tweets', { text: '日'.repeat(141) })).status, 400, 'CJK counts 2');
    const premium = fake.createAccount('premium', { subscription: 'Premium' });
    assert.equal((await call('POST', '/2/tweets', { text: '日'.repeat(12_500) }, premium.accessToken)).status, 201);
    assert.equal((await call('POST', '/2/tweets', { text: '  ' })).status, 400);
    assert.equal((await call('POST', '/2/tweets', { text: 'a', language: 'en' })).status, 400, 'additionalProperties: false');
    const both = await call('POST', '/2/tweets', { text: 'b', poll: { options: ['a', 'b'], duration_minutes: 60 }, quote_tweet_id: '1' });
    assert.match(both.body.errors[0].message, /You can only provide one of poll or quote_tweet_id/);
    assert.equal((await call('POST', '/2/tweets', { text: 'c', reply_settings: 'nobody' })).status, 400);
    assert.equal((await call('POST', '/2/tweets', { text: 'd', poll: { options: ['only'], duration_minutes: 60 } })).status, 400);
    assert.equal((await call('POST', '/2/tweets', { text: 'e', poll: { options: ['a', 'b'], duration_minutes: 4 } })).status, 400);
    assert.equal((await call('POST', '/2/tweets', { text: 'f', poll: { options: ['a', 'b'], duration_minutes: 1440 } })).status, 201);
  });

  test('duplicates, deleted parents, self-serve rules (replies only where summoned, no quotes, one cashtag)', async (t) => {
    const { fake, call, userId } = await setup(t, { selfServe: true });
    const first = await call('POST', '/2/tweets', { text: 'Hello  there' });
    const dup = await call('POST', '/2/tweets', { text: 'hello there' });
    assert.deepEqual([dup.status, dup.body.detail], [403, 'You are not allowed to create a Tweet with duplicate content.']);
    fake.deleteTweet(first.body.data.id);
    const orphan = await call('POST', '/2/tweets', { text: 'reply', reply: { in_reply_to_tweet_id: first.body.data.id } });
    assert.deepEqual([orphan.status, orphan.body.detail], [403, 'You attempted to reply to a Tweet that is deleted or not visible to you.']);
    const stranger = fake.createAccount('stranger');
    const theirs = fake.postAs(stranger.userId, 'a post not mentioning anyone');
    const unsummoned = await call('POST', '/2/tweets', { text: 'hi', reply: { in_reply_to_tweet_id: theirs.id } });
    assert.equal(unsummoned.body.title, 'Authorization Error');
    const summoning = fake.postAs(stranger.userId, 'what do you think @tester?');
    assert.equal((await call('POST', '/2/tweets', { text: 'I agree', reply: { in_reply_to_tweet_id: summoning.id } })).status, 201);
    assert.equal((await call('POST', '/2/tweets', { text: 'q', quote_tweet_id: theirs.id })).status, 403, 'no quotes for self-serve apps');
    assert.match((await call('POST', '/2/tweets', { text: '$AAA and $BBB' })).body.detail, /one cashtag/);
    assert.equal(fake.postsBy(userId).length, 1);
  });

  test('media: images at once; video and GIF chunked, processed over time; unready, foreign or mixed ids are invalid', async (t) => {
    const { fake, clock, call } = await setup(t, { processingMs: { video: 10_000 } });
    const form = new FormData();
    form.set('media', new Blob([new Uint8Array(await pngBytes())], { type: 'image/png' }), 'a.png');
    form.set('media_category', 'tweet_image');
    const image = await call('POST', '/2/media/upload', form);
    assert.equal(image.status, 200);
    assert.equal(image.body.data.processing_info, undefined, 'an image is ready');
    assert.match(image.body.data.media_key, /^3_/);
    const start = await call('POST', '/2/media/upload/initialize', { media_type: 'video/mp4', total_bytes: 10, media_category: 'tweet_video' });
    const id = start.body.data.id;
    const chunk = (index: number, bytes: number) => {
      const f = new FormData();
      f.set('segment_index', String(index));
      f.set('media', new Blob([new Uint8Array(bytes)]), 'chunk');
      return call('POST', `/2/media/upload/${id}/append`, f);
    };
    await chunk(0, 6);
    assert.match((await call('POST', `/2/media/upload/${id}/finalize`)).body.errors[0].message, /size mismatch/);
    await chunk(1, 4);
    const done = await call('POST', `/2/media/upload/${id}/finalize`);
    assert.equal(done.body.data.processing_info.state, 'pending');
    const post = () => call('POST', '/2/tweets', { text: 'clip', media: { media_ids: [id] } });
    assert.equal((await post()).body.errors[0].message, 'Your media IDs are invalid.', 'not processed yet');
    clock.advance(5_000);
    const status = await call('GET', `/2/media/upload?command=STATUS&media_id=${id}`);
    assert.equal(status.body.data.processing_info.state, 'in_progress');
    assert.ok(status.body.data.processing_info.check_after_secs >= 1);
    clock.advance(5_000);
    assert.equal((await call('GET', `/2/media/upload?command=STATUS&media_id=${id}`)).body.data.processing_info.state, 'succeeded');
    const mixed = await call('POST', '/2/tweets', { text: 'both', media: { media_ids: [id, image.body.data.id] } });
    assert.equal(mixed.status, 400, '1 video goes alone');
    assert.equal((await post()).status, 201);
    const other = fake.createAccount('other');
    assert.equal((await call('POST', '/2/tweets', { text: 'theirs', media: { media_ids: [image.body.data.id] } }, other.accessToken)).status, 400);
    const gif = await call('POST', '/2/media/upload/initialize', { media_type: 'image/gif', total_bytes: 16_000_000, media_category: 'tweet_gif' });
    assert.equal(gif.status, 400, 'a GIF is at most 15 MB');
    const alt = await call('POST', '/2/media/metadata', { id: image.body.data.id, metadata: { alt_text: { text: 'x'.repeat(1001) } } });
    assert.equal(alt.status, 400, 'alt text is at most 1,000 characters');
    const jpegForm = new FormData();
    jpegForm.set('media', new Blob([new Uint8Array(await jpegBytes())]), 'b.jpg');
    assert.equal((await call('POST', '/2/media/upload', jpegForm)).status, 200, 'the kind is read from the bytes');
  });

  test('reading back: only the fields asked for, t.co links, escapes, notes, timelines and partial errors', async (t) => {
    const { fake, call, userId } = await setup(t, { problemHost: 'api.twitter.com' });
    const premium = fake.createAccount('long', { subscription: 'Premium' });
    const long = await call('POST', '/2/tweets', { text: `${'word '.repeat(100)}end` }, premium.accessToken);
    const created = await call('POST', '/2/tweets', { text: 'see https://example.com/x & <b>' });
    const id = created.body.data.id;
    const plain = await call('GET', `/2/tweets?ids=${id}`);
    assert.deepEqual(Object.keys(plain.body.data[0]).sort(), ['edit_history_tweet_ids', 'id', 'text']);
    assert.match(plain.body.data[0].text, /^see https:\/\/t\.co\/\w{10} &amp; &lt;b&gt;$/);
    const withNote = await call('GET', `/2/tweets?ids=${long.body.data.id}&tweet.fields=note_tweet`);
    assert.ok(withNote.body.data[0].note_tweet.text.endsWith('end'));
    fake.deleteTweet(id);
    const partial = await call('GET', `/2/tweets?ids=${id}`);
    assert.equal(partial.status, 200);
    assert.equal(partial.body.errors[0].type, 'https://api.twitter.com/2/problems/resource-not-found');
    for (let i = 0; i < 7; i++) await call('POST', '/2/tweets', { text: `post ${i}` });
    assert.equal((await call('GET', `/2/users/${userId}/tweets?max_results=4`)).status, 400);
    const page1 = await call('GET', `/2/users/${userId}/tweets?max_results=5&tweet.fields=created_at`);
    assert.equal(page1.body.meta.result_count, 5);
    assert.equal(page1.body.data[0].text, 'post 6', 'newest first');
    const page2 = await call('GET', `/2/users/${userId}/tweets?max_results=5&pagination_token=${page1.body.meta.next_token}`);
    assert.deepEqual(
      page2.body.data.map((p: { text: string }) => p.text),
      ['post 1', 'post 0'],
    );
  });

  test('rate limits: x-rate-limit-* on every answer, 429 once used up; the 24-hour cap with its own headers; 402 when credits are spent', async (t) => {
    const { fake, clock, call } = await setup(t, { windowLimits: { 'users.me': 2 }, userDailyPosts: 1 });
    const me = await call('GET', '/2/users/me');
    assert.equal(me.headers.get('x-rate-limit-limit'), '2');
    assert.equal(me.headers.get('x-rate-limit-remaining'), '1');
    assert.equal(Number(me.headers.get('x-rate-limit-reset')), Math.ceil((clock.now().getTime() + 15 * 60_000) / 1000));
    await call('GET', '/2/users/me');
    const limited = await call('GET', '/2/users/me');
    assert.deepEqual([limited.status, limited.body.title, limited.headers.get('x-rate-limit-remaining')], [429, 'Too Many Requests', '0']);
    clock.advance(15 * 60_000);
    assert.equal((await call('GET', '/2/users/me')).status, 200);
    const posted = await call('POST', '/2/tweets', { text: 'one' });
    assert.equal(posted.headers.get('x-user-limit-24hour-remaining'), '0');
    const capped = await call('POST', '/2/tweets', { text: 'two' });
    assert.equal(capped.status, 429);
    assert.equal(capped.headers.get('x-user-limit-24hour-remaining'), '0');
    fake.setCreditsExhausted(true);
    const broke = await call('GET', '/2/users/me');
    assert.deepEqual([broke.status, broke.body.type], [402, 'https://api.x.com/2/problems/credits-depleted']);
  });

  test('a lost answer still made the post; a blind resend meets the duplicate refusal', async (t) => {
    const { fake, call, userId } = await setup(t);
    fake.failNext('tweets.create', { kind: 'dropResponse' });
    await assert.rejects(call('POST', '/2/tweets', { text: 'lost' }));
    assert.equal(fake.postsBy(userId).length, 1);
    assert.equal((await call('POST', '/2/tweets', { text: 'lost' })).status, 403);
    fake.failNext('tweets.create', { kind: 'http503' });
    assert.equal((await call('POST', '/2/tweets', { text: 'not made' })).status, 503);
    assert.equal(fake.postsBy(userId).length, 1, 'a 503 before the post is made leaves nothing');
  });
});
