import assert from 'node:assert/strict';
import { after, before, describe, type TestContext, test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.js';
import { type MediaServer, startMediaServer } from '../media-server.js';
import { FakeGraphApi, type FakeGraphApiOptions } from './threads-graph-api.js';

/** Where the posts' media lives: the fake Graph API downloads it, as Meta does. */
let cdn: MediaServer;
before(async () => {
  cdn = await startMediaServer();
});
after(() => cdn.close());

/**
 * The fake is only useful if it refuses what Meta refuses; these tests talk to it with raw
 * HTTP, so a lenient fake cannot hide behind a lenient client.
 */

interface GraphAnswer {
  status: number;
  body: Record<string, any>;
}

async function setup(t: TestContext, options: FakeGraphApiOptions = {}) {
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  const fake = await FakeGraphApi.start({ clock, ...options });
  t.after(() => fake.close());
  const { accessToken, userId } = fake.createAccount('tester');
  const call = async (method: string, path: string, params: Record<string, string> = {}): Promise<GraphAnswer> => {
    const url = new URL(fake.url + path);
    const all = { access_token: accessToken, ...params };
    let init: RequestInit = { method };
    if (method === 'GET') for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
    else init = { method, body: new URLSearchParams(all) };
    const res = await fetch(url, init);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const create = (params: Record<string, string>) => call('POST', '/v1.0/me/threads', params);
  const publish = (id: string) => call('POST', '/v1.0/me/threads_publish', { creation_id: id });
  return { clock, fake, call, create, publish, userId, accessToken };
}

function assertGraphError(answer: GraphAnswer, code: number | string, message?: RegExp): void {
  assert.ok(answer.status >= 400, `expected an error, got ${answer.status} ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body.error?.code, code, JSON.stringify(answer.body));
  assert.equal(answer.body.error?.type, 'OAuthException');
  if (message) assert.match(answer.body.error.message, message);
}

describe('fake Graph API strictness', () => {
  test('unknown parameters and unknown fields are refused', async (t) => {
    const { create, call } = await setup(t);
    assertGraphError(await create({ media_type: 'TEXT', text: 'hi', spoiler: 'true' }), 100, /spoiler/);
    const ok = await create({ media_type: 'TEXT', text: 'hi' });
    assert.equal(ok.status, 200);
    assertGraphError(await call('GET', `/v1.0/${ok.body.id}`, { fields: 'id,status,media_id' }), 100, /nonexisting field \(media_id\)/);
    assertGraphError(await call('GET', '/v1/me'), 2500);
  });

  test('latencyMs delays every answer, so a benchmark can stand in for a network round trip', async (t) => {
    const { create, fake } = await setup(t, { latencyMs: 300 });
    const started = performance.now();
    const [a, b] = await Promise.all([create({ media_type: 'TEXT', text: 'one' }), create({ media_type: 'TEXT', text: 'two' })]);
    assert.ok(performance.now() - started >= 295, `answered after ${performance.now() - started} ms`);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.equal(fake.callsTo('threads.create').length, 2);
  });

  test('text is limited to 500 UTF-8 bytes, not 500 UTF-16 units', async (t) => {
    const { create } = await setup(t);
    const text = `${'x'.repeat(495)}’’’`;
    assert.equal(text.length, 498);
    assertGraphError(await create({ media_type: 'TEXT', text }), 100, /at most 500 characters/);
    assert.equal((await create({ media_type: 'TEXT', text: 'x'.repeat(500) })).status, 200);
  });

  test('field combinations follow media_type', async (t) => {
    const { create } = await setup(t);
    assertGraphError(await create({ media_type: 'TEXT' }), 100, /text is required/);
    assertGraphError(await create({ media_type: 'TEXT', text: 'hi', alt_text: 'no' }), 100, /alt_text/);
    assertGraphError(await create({ media_type: 'TEXT', text: 'hi', is_spoiler_media: 'true' }), 100, /is_spoiler_media/);
    assertGraphError(await create({ media_type: 'IMAGE', text: 'hi' }), 100, /image_url is required/);
    assertGraphError(await create({ media_type: 'IMAGE', image_url: `${cdn.base}/x.jpg`, is_spoiler_media: 'yes' }), 100, /boolean/);
    assertGraphError(await create({ media_type: 'IMAGE', image_url: `${cdn.base}/x.jpg`, link_attachment: 'https://b.example' }), 100, /link_attachment/);
    assertGraphError(await create({ media_type: 'TEXT', text: 'hi', topic_tag: 'a.b' }), 100, /topic_tag/);
  });

  test('spoiler entities are a JSON array of at most 10 in-range entries', async (t) => {
    const { create } = await setup(t);
    const entities = (list: object[]) => JSON.stringify(list);
    assertGraphError(await create({ media_type: 'TEXT', text: 'hidden', text_entities: '{}' }), 100, /JSON array/);
    assertGraphError(
      await create({ media_type: 'TEXT', text: 'hidden', text_entities: entities([{ entity_type: 'SPOILER', offset: 2, length: 5 }]) }),
      100,
      /outside the text/,
    );
    const eleven = Array.from({ length: 11 }, (_, i) => ({ entity_type: 'SPOILER', offset: i, length: 1 }));
    assertGraphError(await create({ media_type: 'TEXT', text: 'x'.repeat(20), text_entities: entities(eleven) }), 100, /at most 10/);
    // UTF-16 by default: the emoji is two units, so offset 2 is right after it.
    assert.equal(
      (await create({ media_type: 'TEXT', text: '😀 secret', text_entities: entities([{ entity_type: 'SPOILER', offset: 3, length: 6 }]) })).status,
      200,
    );
  });

  test("carousels need 2 to 20 children that are this user's carousel items", async (t) => {
    const { create, fake } = await setup(t);
    const item = async () => (await create({ media_type: 'IMAGE', image_url: `${cdn.base}/x.jpg`, is_carousel_item: 'true' })).body.id as string;
    const one = await item();
    assertGraphError(await create({ media_type: 'CAROUSEL', children: one }), 100, /between 2 and 20/);
    const many = await Promise.all(Array.from({ length: 21 }, item));
    assertGraphError(await create({ media_type: 'CAROUSEL', children: many.join(',') }), 100, /between 2 and 20/);
    const plain = (await create({ media_type: 'IMAGE', image_url: `${cdn.base}/y.jpg` })).body.id as string;
    assertGraphError(await create({ media_type: 'CAROUSEL', children: `${one},${plain}` }), 100, /is_carousel_item/);
    const someoneElse = fake.createAccount('other');
    const theirs = await fetch(`${fake.url}/v1.0/me/threads`, {
      method: 'POST',
      body: new URLSearchParams({ access_token: someoneElse.accessToken, media_type: 'IMAGE', image_url: `${cdn.base}/z.jpg`, is_carousel_item: 'true' }),
    });
    const theirId = ((await theirs.json()) as { id: string }).id;
    assertGraphError(await create({ media_type: 'CAROUSEL', children: `${one},${theirId}` }), 100, /not a media container of this user/);
    assert.equal((await create({ media_type: 'CAROUSEL', children: many.slice(0, 20).join(',') })).status, 200);
  });

  test('reply_to_id must be a published media id, not a container id', async (t) => {
    const { create, publish } = await setup(t);
    const container = (await create({ media_type: 'TEXT', text: 'root' })).body.id as string;
    assertGraphError(await create({ media_type: 'TEXT', text: 'reply', reply_to_id: container }), 100, /reply_to_id/);
    const media = (await publish(container)).body.id as string;
    assert.equal((await create({ media_type: 'TEXT', text: 'reply', reply_to_id: media })).status, 200);
  });

  test('media is downloaded as Meta does: a URL that cannot be fetched, or bytes that are not an image (a video), make the container ERROR', async (t) => {
    const { create, call, clock } = await setup(t, { processingMs: { IMAGE: 1_000, VIDEO: 1_000 } });
    const state = async (params: Record<string, string>) => {
      const id = (await create(params)).body.id as string;
      clock.advance(1_000);
      const body = (await call('GET', `/v1.0/${id}`, { fields: 'status,error_message' })).body;
      return [body.status, body.error_message ?? null];
    };
    assert.deepEqual(await state({ media_type: 'IMAGE', image_url: `${cdn.base}/fine.jpg` }), ['FINISHED', null]);
    assert.deepEqual(await state({ media_type: 'VIDEO', video_url: `${cdn.base}/fine.mp4` }), ['FINISHED', null]);
    assert.deepEqual(await state({ media_type: 'IMAGE', image_url: `${cdn.base}/missing.jpg` }), ['ERROR', 'FAILED_DOWNLOADING_IMAGE']);
    assert.deepEqual(await state({ media_type: 'VIDEO', video_url: `${cdn.base}/broken.mp4` }), ['ERROR', 'FAILED_DOWNLOADING_VIDEO']);
    assert.deepEqual(await state({ media_type: 'IMAGE', image_url: `${cdn.base}/page.html` }), ['ERROR', 'FAILED_PROCESSING_IMAGE']);
    assert.deepEqual(await state({ media_type: 'VIDEO', video_url: `${cdn.base}/still.jpg` }), ['ERROR', 'FAILED_PROCESSING_VIDEO']);
    assert.deepEqual(await state({ media_type: 'IMAGE', image_url: 'http://nowhere.invalid/x.jpg' }), ['ERROR', 'FAILED_DOWNLOADING_IMAGE']);
  });

  test("reply_control takes only Meta's values, a poll only on text and well-formed, quote_post_id only a published media id", async (t) => {
    const { create, publish, fake } = await setup(t);
    assertGraphError(await create({ media_type: 'TEXT', text: 'hi', reply_control: 'following' }), 100, /reply_control/);
    const poll = JSON.stringify({ option_a: 'yes', option_b: 'no' });
    assertGraphError(await create({ media_type: 'IMAGE', image_url: 'https://img.example/a.png', poll_attachment: poll }), 100, /poll_attachment/);
    for (const bad of ['{"option_a":"only"}', '{"option_a":"a","option_c":"c"}', '{"option_a":"a","option_b":"b","option_e":"e"}', '["a","b"]', 'nope']) {
      assertGraphError(await create({ media_type: 'TEXT', text: 'vote', poll_attachment: bad }), 100, /poll_attachment/);
    }
    assertGraphError(await create({ media_type: 'TEXT', text: 'vote', poll_attachment: JSON.stringify({ option_a: 'a', option_b: 'b'.repeat(26) }) }), 100);
    assertGraphError(await create({ media_type: 'TEXT', text: 'quote', quote_post_id: '999999' }), 100, /quote_post_id/);

    const quoted = (await publish((await create({ media_type: 'TEXT', text: 'quoted' })).body.id)).body.id as string;
    const container = await create({ media_type: 'TEXT', text: 'vote', reply_control: 'mentioned_only', quote_post_id: quoted, poll_attachment: poll });
    assert.equal(container.status, 200, JSON.stringify(container.body));
    await publish(container.body.id);
    const post = fake.published.at(-1)!;
    assert.deepEqual(
      { replyControl: post.replyControl, poll: post.poll, quotePostId: post.quotePostId },
      { replyControl: 'mentioned_only', poll: ['yes', 'no'], quotePostId: quoted },
    );
  });

  test('containers go IN_PROGRESS → FINISHED → PUBLISHED, expire after 24 h, and publish once', async (t) => {
    const { create, publish, call, clock, fake } = await setup(t, { processingMs: { IMAGE: 5_000 } });
    const id = (await create({ media_type: 'IMAGE', image_url: `${cdn.base}/x.jpg` })).body.id as string;
    const status = async () => (await call('GET', `/v1.0/${id}`, { fields: 'status' })).body.status;
    assert.equal(await status(), 'IN_PROGRESS');
    const early = await publish(id);
    assertGraphError(early, 24);
    assert.equal(early.body.error.error_subcode, 4279009);
    clock.advance(5_000);
    assert.equal(await status(), 'FINISHED');
    assert.equal((await publish(id)).status, 200);
    assert.equal(await status(), 'PUBLISHED');
    assertGraphError(await publish(id), 100, /already been published/);
    assert.equal(fake.published.length, 1);
    assert.equal(fake.duplicatePublishAttempts, 1);
    const stale = (await create({ media_type: 'TEXT', text: 'late' })).body.id as string;
    clock.advance(24 * 3_600_000);
    assert.equal((await call('GET', `/v1.0/${stale}`, { fields: 'status' })).body.status, 'EXPIRED');
    assertGraphError(await publish(stale), 100, /EXPIRED/);
  });

  test('the post quota is enforced at publish time over a rolling 24 h', async (t) => {
    const { create, publish, call, clock } = await setup(t, { postQuota: 2 });
    for (const text of ['a', 'b']) assert.equal((await publish((await create({ media_type: 'TEXT', text })).body.id)).status, 200);
    const third = (await create({ media_type: 'TEXT', text: 'c' })).body.id as string;
    assertGraphError(await publish(third), 4, /limit/);
    const limit = await call('GET', '/v1.0/me/threads_publishing_limit', { fields: 'quota_usage,config' });
    assert.deepEqual(limit.body, { data: [{ quota_usage: 2, config: { quota_total: 2, quota_duration: 86400 } }] });
    clock.advance(24 * 3_600_000);
    assert.equal((await publish((await create({ media_type: 'TEXT', text: 'd' })).body.id)).status, 200);
  });

  test('tokens: missing, unknown and expired ones are refused with Graph codes', async (t) => {
    const { fake, call, clock } = await setup(t);
    const noToken = await fetch(`${fake.url}/v1.0/me`);
    assert.equal(((await noToken.json()) as any).error.code, 104);
    const bad = await fetch(`${fake.url}/v1.0/me?access_token=nope`);
    assert.equal(((await bad.json()) as any).error.code, 190);
    clock.advance(61 * 24 * 3_600_000);
    const expired = await call('GET', '/v1.0/me');
    assertGraphError(expired, 190, /expired/);
    assert.equal(expired.body.error.error_subcode, 463);
  });

  test('the Bearer header works as well as the access_token parameter', async (t) => {
    const { fake, accessToken, userId } = await setup(t);
    const res = await fetch(`${fake.url}/v1.0/me?fields=id,username`, { headers: { authorization: `Bearer ${accessToken}` } });
    assert.deepEqual(await res.json(), { id: userId, username: 'tester' });
  });

  test('the code exchange writes user_id as a bare number beyond MAX_SAFE_INTEGER', async (t) => {
    const { fake } = await setup(t);
    const { code, userId } = fake.authorize({ redirectUri: 'https://app.example/cb' });
    const params = { client_id: fake.appId, client_secret: fake.appSecret, grant_type: 'authorization_code', redirect_uri: 'https://app.example/cb', code };
    const text = await (await fetch(`${fake.url}/oauth/access_token`, { method: 'POST', body: new URLSearchParams(params) })).text();
    assert.match(text, new RegExp(`"user_id":${userId}}$`));
    assert.ok(BigInt(userId) > BigInt(Number.MAX_SAFE_INTEGER));
    const again = await fetch(`${fake.url}/oauth/access_token`, { method: 'POST', body: new URLSearchParams(params) });
    assert.deepEqual(await again.json(), { error_type: 'OAuthException', code: 400, error_message: 'Matching code was not found or was already used' });
  });

  test('/me/threads lists top-level posts and /me/replies lists replies, newest first', async (t) => {
    const { create, publish, call } = await setup(t);
    const root = (await publish((await create({ media_type: 'TEXT', text: 'root' })).body.id)).body.id as string;
    const reply = (await publish((await create({ media_type: 'TEXT', text: 'reply', reply_to_id: root })).body.id)).body.id as string;
    const second = (await publish((await create({ media_type: 'TEXT', text: 'second' })).body.id)).body.id as string;
    const threads = await call('GET', '/v1.0/me/threads', { fields: 'id,text,media_type' });
    assert.deepEqual(threads.body.data, [
      { id: second, text: 'second', media_type: 'TEXT_POST' },
      { id: root, text: 'root', media_type: 'TEXT_POST' },
    ]);
    const replies = await call('GET', '/v1.0/me/replies', { fields: 'id,replied_to,root_post' });
    assert.deepEqual(replies.body.data, [{ id: reply, replied_to: { id: root }, root_post: { id: root } }]);
    assertGraphError(await call('GET', '/v1.0/me/threads', { limit: '101' }), 100, /limit/);
  });
});
