import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_JSON_DEPTH } from '../../src/http/plugins/json-body.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser, rowCounts } from '../helpers/seeds.js';

/** Inputs a client should never send, and that the server must still answer with a 4xx, not a 500. */
describeEachDb('hostile input is a 4xx, never a 500', (env) => {
  test('PATCH /api/v1/account with nothing to change answers the account unchanged', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const expected = { id: user.account.id, email: user.account.email, timezone: 'Europe/Berlin', activeTeamId: null };
    for (const payload of [{}, { timezone_extra: 'x' }, { unknown: { deep: [1, 2] } }]) {
      const res = await user.call(app, { method: 'PATCH', url: '/api/v1/account', payload });
      assert.equal(res.statusCode, 200, `${JSON.stringify(payload)}: ${res.body}`);
      assert.deepEqual(res.json(), expected);
    }
    // An empty body is no body: also nothing to change.
    const empty = await user.call(app, { method: 'PATCH', url: '/api/v1/account', headers: { 'content-type': 'application/json' }, payload: '' });
    assert.equal(empty.statusCode, 400, empty.body); // the body itself is required
    assert.equal(empty.json().code, 'VALIDATION_FAILED');
    const changed = await user.call(app, { method: 'PATCH', url: '/api/v1/account', payload: { timezone: 'Asia/Tokyo', extra: 1 } });
    assert.equal(changed.statusCode, 200);
    assert.equal(changed.json().timezone, 'Asia/Tokyo');
  });

  test('a body nested 20,000 levels deep: 400 naming where, on every endpoint with a body', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account, 'THREADS');
    const deepArray = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const deepObject = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const inValidBody = `{"providerId":"${threads.id}","posts":[{"text":"hi"}],"extra":${deepArray}}`;
    const before = await rowCounts(ctx);
    const cases: Array<[string, string, string, string]> = [
      ['POST', '/api/v1/posts', deepArray, ''],
      ['POST', '/api/v1/posts', deepObject, 'a'],
      ['POST', '/api/v1/posts', inValidBody, 'extra'],
      ['PATCH', '/api/v1/account', deepObject, 'a'],
      ['PUT', '/api/v1/auto-plug', deepArray, ''],
      ['POST', '/api/v1/keys', deepObject, 'a'],
    ];
    for (const [method, url, payload, prefix] of cases) {
      const res = await user.call(app, {
        method: method as 'POST',
        url,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'deep' },
        payload,
      });
      assert.equal(res.statusCode, 400, `${method} ${url}: ${res.body.slice(0, 300)}`);
      const problem = res.json();
      assert.equal(problem.code, 'VALIDATION_FAILED');
      assert.equal(problem.errors.length, 1);
      assert.match(problem.errors[0].message, new RegExp(`nested more than ${MAX_JSON_DEPTH} levels`));
      assert.ok(problem.errors[0].path.startsWith(prefix), problem.errors[0].path);
    }
    assert.deepEqual(await rowCounts(ctx), before);
  });

  test('nesting up to the bound is read as usual (unknown fields ignored, idempotency hash included)', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account, 'THREADS');
    // The body is level 1, `extra` level 2: MAX_JSON_DEPTH levels in all.
    const extra = `${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}`;
    const payload = `{"providerId":"${threads.id}","posts":[{"text":"hi"}],"extra":${extra}}`;
    const headers = { 'content-type': 'application/json', 'idempotency-key': 'at-the-bound' };
    const res = await user.call(app, { method: 'POST', url: '/api/v1/posts', headers, payload });
    assert.equal(res.statusCode, 201, res.body);
    const again = await user.call(app, { method: 'POST', url: '/api/v1/posts', headers, payload });
    assert.deepEqual(again.json(), res.json());
    const deeper = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      headers: { 'content-type': 'application/json' },
      payload: `{"providerId":"${threads.id}","posts":[{"text":"hi"}],"extra":[${extra}]}`,
    });
    assert.equal(deeper.statusCode, 400, deeper.body);
  });
});
