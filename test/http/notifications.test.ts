import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createUser } from '../helpers/seeds.js';

const DEFAULT_KINDS = {
  THREAD_FAILED: 'immediate',
  FOLLOW_UP_FAILED: 'immediate',
  PROVIDER_EXPIRED: 'immediate',
  PROVIDER_REVOKED: 'off',
  APPROVAL_REQUESTED: 'immediate',
  THREAD_REJECTED: 'immediate',
  THREAD_APPROVED: 'off',
  COMMENT_MENTION: 'immediate',
};

describeEachDb('email notifications: the settings API, email off (no SKEIN_SMTP_URL)', (env) => {
  test('GET answers the defaults and says email is off; PATCH changes only what it names and is kept per user', async () => {
    const { ctx, app } = env();
    const user = await createUser(ctx, { timezone: 'Europe/Paris' });
    const other = await createUser(ctx);
    const got = await user.call(app, { method: 'GET', url: '/api/v1/account/notifications' });
    assert.equal(got.statusCode, 200, got.body);
    assert.deepEqual(got.json(), {
      email: { enabled: false, from: null, to: user.account.email },
      kinds: DEFAULT_KINDS,
      digest: false,
      digestAt: '08:00',
      timezone: 'Europe/Paris',
    });
    const changed = await user.call(app, {
      method: 'PATCH',
      url: '/api/v1/account/notifications',
      payload: { kinds: { THREAD_FAILED: 'daily', PROVIDER_REVOKED: 'immediate' }, digest: true },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(changed.json().kinds, { ...DEFAULT_KINDS, THREAD_FAILED: 'daily', PROVIDER_REVOKED: 'immediate' });
    assert.equal(changed.json().digest, true);
    const again = await user.call(app, { method: 'PATCH', url: '/api/v1/account/notifications', payload: { kinds: { FOLLOW_UP_FAILED: 'off' } } });
    assert.deepEqual(again.json().kinds, { ...DEFAULT_KINDS, THREAD_FAILED: 'daily', FOLLOW_UP_FAILED: 'off', PROVIDER_REVOKED: 'immediate' });
    const team = await user.call(app, {
      method: 'PATCH',
      url: '/api/v1/account/notifications',
      payload: { kinds: { APPROVAL_REQUESTED: 'daily', THREAD_APPROVED: 'immediate', COMMENT_MENTION: 'off' } },
    });
    assert.equal(team.statusCode, 200, team.body);
    assert.deepEqual(team.json().kinds, {
      ...again.json().kinds,
      APPROVAL_REQUESTED: 'daily',
      THREAD_APPROVED: 'immediate',
      COMMENT_MENTION: 'off',
    });
    assert.equal(again.json().digest, true, 'unchanged when not given');
    assert.deepEqual((await user.call(app, { method: 'GET', url: '/api/v1/account/notifications' })).json().kinds, team.json().kinds);
    assert.deepEqual((await other.call(app, { method: 'GET', url: '/api/v1/account/notifications' })).json().kinds, DEFAULT_KINDS, "another user's own");
  });

  test('bad input: one 400 naming every field, nothing changed', async () => {
    const { ctx, app } = env();
    const user = await createUser(ctx);
    const res = await user.call(app, {
      method: 'PATCH',
      url: '/api/v1/account/notifications',
      payload: { kinds: { THREAD_FAILED: 'weekly', FOLLOW_UP_FAILED: 'off', COMMENT_MENTION: 'sometimes' }, digest: 'yes' },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    const body = res.json();
    assert.equal(body.code, 'VALIDATION_FAILED');
    const paths = [...new Set(body.errors.map((e: { path: string }) => e.path))].sort();
    assert.deepEqual(paths, ['digest', 'kinds.COMMENT_MENTION', 'kinds.THREAD_FAILED']);
    assert.deepEqual((await user.call(app, { method: 'GET', url: '/api/v1/account/notifications' })).json().kinds, DEFAULT_KINDS);
    const unknown = await user.call(app, { method: 'PATCH', url: '/api/v1/account/notifications', payload: { kinds: { POST_PUBLISHED: 'immediate' } } });
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/account/notifications' })).statusCode, 401);
  });
});
