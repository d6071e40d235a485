import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { PublishError } from '../../../src/networks/platform.js';
import { retryAfterMs, ThreadsClient, type ThreadsClientOptions } from '../../../src/networks/threads/client.js';
import { FakeGraphApi, type FakeGraphApiOptions } from '../../helpers/fakes/threads-graph-api.js';
import { type MediaServer, startMediaServer } from '../../helpers/media-server.js';

/** Where the posts' media lives: the fake Graph API downloads it, as Meta does. */
let cdn: MediaServer;
before(async () => {
  cdn = await startMediaServer();
});
after(() => cdn.close());

const REDIRECT_URI = 'https://skein.example/api/v1/providers/threads/callback';
const DAY = 24 * 3_600_000;

async function setup(t: TestContext, options: FakeGraphApiOptions = {}, clientOptions: Partial<ThreadsClientOptions> = {}) {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  const fake = await FakeGraphApi.start({ clock, ...options });
  t.after(() => fake.close());
  const client = new ThreadsClient({
    apiUrl: fake.url,
    appId: fake.appId,
    appSecret: fake.appSecret,
    sleep: async (ms) => clock.advance(ms),
    timeoutMs: 1_000,
    now: () => clock.now().getTime(),
    ...clientOptions,
  });
  return { clock, fake, client };
}

function isPublishError(kind: PublishError['kind'], code?: string) {
  return (err: unknown) => {
    assert.ok(err instanceof PublishError, `expected a PublishError, got ${String(err)}`);
    assert.equal(err.kind, kind, err.message);
    if (code) assert.equal(err.code, code, err.message);
    return true;
  };
}

describe('ThreadsClient OAuth', () => {
  test('builds the authorization URL Meta expects', () => {
    const client = new ThreadsClient({ apiUrl: 'https://graph.threads.net', appId: '42', appSecret: 's' });
    const url = new URL(client.authorizeUrl({ redirectUri: REDIRECT_URI, state: 'st4te', scopes: ['threads_basic', 'threads_content_publish'] }));
    assert.equal(url.origin + url.pathname, 'https://threads.net/oauth/authorize');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      client_id: '42',
      redirect_uri: REDIRECT_URI,
      scope: 'threads_basic,threads_content_publish',
      response_type: 'code',
      state: 'st4te',
    });
    const custom = new ThreadsClient({ apiUrl: 'x', appId: '42', appSecret: 's', authorizeBaseUrl: 'https://threads.com/oauth/authorize' });
    assert.match(custom.authorizeUrl({ redirectUri: REDIRECT_URI, state: 's', scopes: ['threads_basic'] }), /^https:\/\/threads\.com\/oauth\/authorize\?/);
  });

  test('exchanges a code, reads the user id from /me, and never from the numeric user_id', async (t) => {
    const { fake, client } = await setup(t);
    const { code, userId } = fake.authorize({ username: 'ada', redirectUri: REDIRECT_URI });
    // What a naive client would have stored: JSON.parse rounds the 17-digit number.
    assert.notEqual(String(JSON.parse(`{"user_id":${userId}}`).user_id), userId, 'the fake id must be one JSON.parse corrupts');
    const short = await client.exchangeCode(`${code}#_`, REDIRECT_URI);
    const me = await client.getMe(short.accessToken);
    assert.deepEqual(me, { id: userId, username: 'ada' });
    const exchange = fake.callsTo('oauth.access_token')[0]!;
    assert.equal(exchange.params.code, code, 'the #_ suffix is stripped');
    assert.equal(exchange.params.grant_type, 'authorization_code');
  });

  test('a code works once; a reused code is an auth error in the flat OAuth shape', async (t) => {
    const { fake, client } = await setup(t);
    const { code } = fake.authorize({ redirectUri: REDIRECT_URI });
    await client.exchangeCode(code, REDIRECT_URI);
    await assert.rejects(
      client.exchangeCode(code, REDIRECT_URI),
      (err: PublishError) => isPublishError('auth', 'THREADS_OAUTH_FAILED')(err) && /already used/.test(err.message),
    );
  });

  test('a redirect URI that differs from the authorize call is refused', async (t) => {
    const { fake, client } = await setup(t);
    const { code } = fake.authorize({ redirectUri: REDIRECT_URI });
    await assert.rejects(client.exchangeCode(code, `${REDIRECT_URI}/`), isPublishError('auth', 'THREADS_OAUTH_FAILED'));
  });

  test('exchanges a short-lived token for a 60-day one', async (t) => {
    const { clock, fake, client } = await setup(t);
    const { code, userId } = fake.authorize({ redirectUri: REDIRECT_URI });
    const short = await client.exchangeCode(code, REDIRECT_URI);
    const long = await client.exchangeForLongLived(short.accessToken);
    assert.equal(long.expiresAt.getTime(), clock.now().getTime() + 60 * DAY);
    assert.notEqual(long.accessToken, short.accessToken);
    // The short token dies after an hour; the long one keeps working.
    clock.advance(2 * 3_600_000);
    await assert.rejects(client.getMe(short.accessToken), isPublishError('auth', 'THREADS_TOKEN_INVALID'));
    assert.equal((await client.getMe(long.accessToken)).id, userId);
  });

  test('refreshes a long-lived token once it is a day old', async (t) => {
    const { clock, fake, client } = await setup(t);
    const { accessToken } = fake.createAccount();
    await assert.rejects(client.refreshLongLived(accessToken), isPublishError('permanent', 'THREADS_INVALID_PARAMETER'));
    clock.advance(DAY + 1);
    const refreshed = await client.refreshLongLived(accessToken);
    assert.equal(refreshed.expiresAt.getTime(), clock.now().getTime() + 60 * DAY);
    assert.equal(fake.callsTo('refresh_access_token').at(-1)!.params.grant_type, 'th_refresh_token');
    clock.advance(59 * DAY);
    await assert.rejects(client.getMe(accessToken), isPublishError('auth'), 'the old token has expired');
    await client.getMe(refreshed.accessToken);
  });

  test('exchanging without an app secret fails before any request', async (t) => {
    const { fake } = await setup(t);
    const bare = new ThreadsClient({ apiUrl: fake.url, appId: fake.appId, appSecret: null });
    await assert.rejects(bare.exchangeCode('c', REDIRECT_URI), isPublishError('permanent', 'THREADS_NOT_CONFIGURED'));
    assert.equal(fake.requests.length, 0);
  });
});

describe('ThreadsClient errors', () => {
  test('an expired token (code 190) is an auth error, and the token is not in the message', async (t) => {
    const { clock, fake, client } = await setup(t);
    const { accessToken } = fake.createAccount();
    clock.advance(60 * DAY);
    await assert.rejects(client.forAccount(accessToken).createTextContainer('hi'), (err: PublishError) => {
      isPublishError('auth', 'THREADS_TOKEN_INVALID')(err);
      assert.match(err.message, /code 190\/463/);
      assert.ok(!err.message.includes(accessToken));
      return true;
    });
  });

  test('a revoked token is an auth error', async (t) => {
    const { fake, client } = await setup(t);
    const { accessToken } = fake.createAccount();
    fake.revokeToken(accessToken);
    await assert.rejects(client.forAccount(accessToken).getPublishingLimit(), isPublishError('auth', 'THREADS_TOKEN_INVALID'));
  });

  test('429 is transient, carries Retry-After, and says the request was not carried out', async (t) => {
    const { fake, client } = await setup(t);
    const api = client.forAccount(fake.createAccount().accessToken);
    fake.failNext('threads.create', { kind: 'http429', retryAfterSec: 120 });
    await assert.rejects(api.createTextContainer('hi'), (err: PublishError) => {
      isPublishError('transient', 'THREADS_RATE_LIMITED')(err);
      assert.equal(err.options.retryAfterMs, 120_000);
      assert.equal(err.options.outcomeUnknown, false);
      return true;
    });
    assert.ok(await api.createTextContainer('hi'), 'only the next call was refused');
  });

  test('a 5xx is transient with an unknown outcome', async (t) => {
    const { fake, client } = await setup(t);
    const api = client.forAccount(fake.createAccount().accessToken);
    const id = await api.createTextContainer('hi');
    fake.failNext('threads_publish', { kind: 'http500' });
    await assert.rejects(
      api.publish(id),
      (err: PublishError) => isPublishError('transient', 'THREADS_UNAVAILABLE')(err) && err.options.outcomeUnknown === true,
    );
  });

  test('Graph rate-limit codes in a 400 are transient', async (t) => {
    const { fake, client } = await setup(t);
    const api = client.forAccount(fake.createAccount().accessToken);
    for (const code of [4, 17, 32, 613]) {
      fake.failNext('threads.create', { kind: 'graphError', status: 400, error: { message: 'limit', type: 'OAuthException', code } });
      await assert.rejects(api.createTextContainer('hi'), isPublishError('transient', 'THREADS_RATE_LIMITED'));
    }
    fake.failNext('threads.create', {
      kind: 'graphError',
      status: 400,
      error: { message: 'something odd', type: 'OAuthException', code: 9999, is_transient: true },
    });
    await assert.rejects(api.createTextContainer('hi'), isPublishError('transient', 'THREADS_UNAVAILABLE'));
  });

  test('a request that gets no answer in time is transient with an unknown outcome', async (t) => {
    const { fake, client } = await setup(t, {}, { timeoutMs: 150 });
    const api = client.forAccount(fake.createAccount().accessToken);
    fake.failNext('threads.create', { kind: 'hang' });
    await assert.rejects(
      api.createTextContainer('hi'),
      (err: PublishError) => isPublishError('transient', 'THREADS_TIMEOUT')(err) && err.options.outcomeUnknown === true,
    );
  });

  test('a refused connection is transient, and known to have sent nothing', async () => {
    // A port that was just listened on and closed: nothing answers there.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const client = new ThreadsClient({ apiUrl: `http://127.0.0.1:${port}`, appId: null, appSecret: null, timeoutMs: 1_000 });
    await assert.rejects(
      client.forAccount('token').createTextContainer('hi'),
      (err: PublishError) =>
        isPublishError('transient', 'THREADS_UNAVAILABLE')(err) && err.options.outcomeUnknown === false && /could not connect/.test(err.message),
    );
  });

  test('a connection cut after Meta acted is transient with an unknown outcome', async (t) => {
    const { fake, client } = await setup(t);
    const api = client.forAccount(fake.createAccount().accessToken);
    fake.failNext('threads.create', { kind: 'dropResponse' });
    await assert.rejects(
      api.createTextContainer('hi'),
      (err: PublishError) => isPublishError('transient', 'THREADS_UNAVAILABLE')(err) && err.options.outcomeUnknown === true,
    );
  });

  test('a refused connection is transient and known not to have reached Meta', async (t) => {
    const { fake } = await setup(t);
    const url = fake.url;
    await fake.close();
    const client = new ThreadsClient({ apiUrl: url, appId: '1', appSecret: 's' });
    await assert.rejects(
      client.getMe('token'),
      (err: PublishError) => isPublishError('transient', 'THREADS_UNAVAILABLE')(err) && err.options.outcomeUnknown === false,
    );
  });

  test('text over 500 UTF-8 bytes is a permanent invalid parameter (code 100)', async (t) => {
    const { fake, client } = await setup(t);
    const api = client.forAccount(fake.createAccount().accessToken);
    await api.createTextContainer('é'.repeat(250)); // exactly 500 bytes
    await assert.rejects(
      api.createTextContainer(`${'é'.repeat(250)}x`),
      (err: PublishError) => isPublishError('permanent', 'THREADS_INVALID_PARAMETER')(err) && /at most 500 characters/.test(err.message),
    );
  });

  test('publishing a container that is still processing is code 24, reported as not ready', async (t) => {
    const { fake, client } = await setup(t, { processingMs: { IMAGE: 10_000 } });
    const api = client.forAccount(fake.createAccount().accessToken);
    const id = await api.createImageContainer(`${cdn.base}/a.jpg`);
    assert.equal((await api.getContainerStatus(id)).status, 'IN_PROGRESS');
    await assert.rejects(api.publish(id), isPublishError('transient', 'THREADS_CONTAINER_NOT_READY'));
  });

  test('a string error code from Threads stays readable', async (t) => {
    const { fake, client } = await setup(t);
    const api = client.forAccount(fake.createAccount().accessToken);
    const links = Array.from({ length: 6 }, (_, i) => `https://site${i}.example/`).join(' ');
    await assert.rejects(api.createTextContainer(links), isPublishError('permanent', 'THREADS_LINK_LIMIT_EXCEEDED'));
  });

  test('Retry-After accepts seconds and HTTP dates', () => {
    const now = Date.parse('2026-03-02T09:00:00Z');
    assert.equal(retryAfterMs('30', now), 30_000);
    assert.equal(retryAfterMs('Mon, 02 Mar 2026 09:01:00 GMT', now), 60_000);
    assert.equal(retryAfterMs('soon', now), undefined);
    assert.equal(retryAfterMs(null, now), undefined);
  });
});

describe('ThreadsClient containers and reads', () => {
  test('creates containers with the documented parameters', async (t) => {
    const { fake, client } = await setup(t);
    const api = client.forAccount(fake.createAccount().accessToken);
    const root = await api.publish(await api.createTextContainer('root'));
    await api.createTextContainer('Spoiler: yes', { replyToId: root, topicTag: 'Films', spoilers: [{ offset: 9, length: 3 }] });
    const item = await api.createCarouselItemContainer({ kind: 'IMAGE', url: `${cdn.base}/1.jpg`, altText: 'one' });
    const item2 = await api.createCarouselItemContainer({ kind: 'VIDEO', url: `${cdn.base}/2.mp4` });
    await api.createCarouselContainer([item, item2], { text: 'two', isSpoilerMedia: true, altText: 'ignored on carousels' });
    const sent = fake.callsTo('threads.create').map((r) => r.params);
    assert.deepEqual(sent[1], {
      media_type: 'TEXT',
      text: 'Spoiler: yes',
      reply_to_id: root,
      topic_tag: 'Films',
      text_entities: '[{"entity_type":"SPOILER","offset":9,"length":3}]',
    });
    assert.deepEqual(sent[2], { media_type: 'IMAGE', is_carousel_item: 'true', image_url: `${cdn.base}/1.jpg`, alt_text: 'one' });
    assert.deepEqual(sent[3], { media_type: 'VIDEO', is_carousel_item: 'true', video_url: `${cdn.base}/2.mp4` });
    assert.deepEqual(sent[4], { media_type: 'CAROUSEL', children: `${item},${item2}`, text: 'two', is_spoiler_media: 'true' });
  });

  test('reads container status with its error message', async (t) => {
    const { fake, client } = await setup(t);
    const api = client.forAccount(fake.createAccount().accessToken);
    fake.failNextContainer('FAILED_DOWNLOADING_VIDEO');
    const id = await api.createVideoContainer(`${cdn.base}/v.mp4`);
    assert.deepEqual(await api.getContainerStatus(id), { id, status: 'ERROR', errorMessage: 'FAILED_DOWNLOADING_VIDEO' });
  });

  test('reads the publishing quota', async (t) => {
    const { fake, client } = await setup(t, { postQuota: 5 });
    const api = client.forAccount(fake.createAccount().accessToken);
    await api.publish(await api.createTextContainer('one'));
    assert.deepEqual(await api.getPublishingLimit(), { quotaUsage: 1, quotaTotal: 5, quotaDurationSec: 86_400, replyQuotaUsage: 0, replyQuotaTotal: 1000 });
  });

  test("publishing past the quota is transient, with an hour's wait when Meta names none", async (t) => {
    const { fake, client } = await setup(t, { postQuota: 1 });
    const api = client.forAccount(fake.createAccount().accessToken);
    await api.publish(await api.createTextContainer('one'));
    const second = await api.createTextContainer('two');
    await assert.rejects(
      api.publish(second),
      (err: PublishError) =>
        isPublishError('transient', 'THREADS_QUOTA_EXHAUSTED')(err) && err.options.retryAfterMs === 3_600_000 && err.options.outcomeUnknown === false,
    );
  });

  test('insights are indexed by name and missing metrics are left out', async (t) => {
    const { fake, client } = await setup(t);
    const api = client.forAccount(fake.createAccount().accessToken);
    const id = await api.publish(await api.createTextContainer('one'));
    fake.setInsights(id, { likes: 5, replies: 2 });
    assert.deepEqual(await api.getInsights(id, ['replies', 'likes']), { replies: 2, likes: 5 });
    const repost = await api.repost(id);
    assert.deepEqual(await api.getInsights(repost), {}, 'a repost facade has no insights');
  });

  test("the follower count is the followers_count user insight's total_value; an answer without one is a bad response", async (t) => {
    const { fake, client } = await setup(t);
    const { userId, accessToken } = fake.createAccount();
    fake.setFollowers(userId, 1234);
    assert.equal(await client.forAccount(accessToken).getFollowersCount(), 1234);
    assert.deepEqual(fake.callsTo('threads_insights').at(-1)?.params, { metric: 'followers_count' });

    const answers = [
      { data: [] },
      { data: [{ name: 'followers_count', period: 'day', values: [{ value: 3 }] }] },
      { data: [{ name: 'followers_count', total_value: { value: -1 } }] },
    ];
    for (const answer of answers) {
      const odd = new ThreadsClient({ apiUrl: fake.url, appId: null, appSecret: null, fetch: async () => Response.json(answer) });
      await assert.rejects(odd.forAccount(accessToken).getFollowersCount(), isPublishError('transient', 'THREADS_BAD_RESPONSE'), JSON.stringify(answer));
    }
  });
});
