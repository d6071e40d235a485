import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser, rowCounts } from '../helpers/seeds.js';

// Defects the fuzz suite (test/fuzz) found, each kept as a plain regression test.
describeEachDb('inputs the fuzz suite found', (env) => {
  test('a JSON body that is not UTF-8 is a 400 naming the body, and nothing is written; valid UTF-8 is accepted', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const body = (text: Buffer) => Buffer.concat([Buffer.from(`{"providerId":"${provider.id}","posts":[{"text":"`), text, Buffer.from('"}]}')]);
    const before = await rowCounts(ctx);
    // A stray byte, a truncated sequence, an encoded surrogate (CESU), an overlong '/'.
    for (const bytes of ['ff', 'e282', 'eda080', 'c0af']) {
      const res = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        headers: { 'content-type': 'application/json' },
        payload: body(Buffer.concat([Buffer.from('ok '), Buffer.from(bytes, 'hex')])),
      });
      assert.equal(res.statusCode, 400, `${bytes}: ${res.body}`);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.deepEqual(res.json().errors, [{ path: '', message: 'the body is not valid UTF-8' }], bytes);
    }
    assert.deepEqual(await rowCounts(ctx), before);
    const ok = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      headers: { 'content-type': 'application/json' },
      payload: body(Buffer.from('é 😀 ok')),
    });
    assert.equal(ok.statusCode, 201, ok.body);
    const thread = await user.call(app, { method: 'GET', url: `/api/v1/posts/${ok.json().threadId}` });
    assert.equal(thread.json().thread.posts[0].content, 'é 😀 ok');
  });

  // Found by the 100,000-request fuzz run on PostgreSQL (seed 20261126): a NUL in a path id with a
  // faulty body reached the edit rules' thread lookup, which PostgreSQL refused (500).
  test('a NUL in an id with a faulty body is a 400 naming it (edit routes, create)', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const cases = [
      { method: 'PATCH' as const, url: '/api/v1/posts/%00/posts/01970810-26e9-7d7c-80d7-1de2eab71f44' },
      { method: 'PUT' as const, url: '/api/v1/posts/%00/edit' },
    ];
    const create = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: 'p\u0000', posts: [{}] } });
    assert.equal(create.statusCode, 400, create.body);
    assert.ok(create.json().errors.some((e: { path: string }) => e.path === 'providerId'));
    for (const { method, url } of cases) {
      const res = await user.call(app, { method, url, payload: {} });
      assert.equal(res.statusCode, 400, `${method} ${url}: ${res.body}`);
      assert.ok(
        res.json().errors.some((e: { path: string }) => e.path === 'threadId'),
        res.body,
      );
    }
  });

  test('PATCH /account with an empty activeTeamId is a 404 like any unknown team, and changes nothing', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const res = await user.call(app, { method: 'PATCH', url: '/api/v1/account', payload: { timezone: 'Europe/Paris', activeTeamId: '' } });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal(res.json().code, 'NOT_FOUND');
    const account = await user.call(app, { method: 'GET', url: '/api/v1/account' });
    assert.deepEqual(account.json(), { id: user.account.id, email: user.account.email, timezone: 'UTC', activeTeamId: null });
  });
  // Found by the 100,000-request fuzz run on PostgreSQL (seed 20261126, path 37032): counting the
  // graphemes of a long text was quadratic in V8's segmenter, so a 300,000-character auto-plug
  // text held a core for about a minute and the request got no answer. These now answer at once.
  // The test's time limit is what catches the quadratic count coming back: far beyond what the
  // two requests take now (about 0.1 s here, a few seconds on a loaded machine), far below it.
  test('a very long text is refused with its faults, without counting it to the end', { timeout: 15_000 }, async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const before = await rowCounts(ctx);
    const plug = await user.call(app, {
      method: 'PUT',
      url: '/api/v1/auto-plug',
      payload: { enabled: '0000-00-00T00:00:00', text: 'x'.repeat(300_000), minLikes: -1863686978 },
    });
    assert.equal(plug.statusCode, 400, plug.body);
    assert.deepEqual(
      plug.json().errors.map((e: { path: string }) => e.path),
      ['enabled', 'text', 'text', 'minLikes'],
    );
    const post = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: bluesky.id, posts: [{ text: 'xy '.repeat(100_000) }] } });
    assert.equal(post.statusCode, 400, post.body);
    assert.deepEqual(
      post.json().errors.map((e: { message: string }) => e.message),
      ['is 300000 UTF-8 bytes; BLUESKY allows at most 3000', 'is more than 300 characters (graphemes); BLUESKY allows at most 300'],
    );
    assert.deepEqual(await rowCounts(ctx), before);
  });
});
