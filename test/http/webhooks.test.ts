import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';

/** Names the tests resolve (no real DNS): one public, one that points at loopback, one link-local. */
const NAMES: Record<string, string> = { 'hooks.example': '93.184.216.34', 'internal.example': '127.0.0.1', 'metadata.example': '169.254.169.254' };
const fakeLookup = async (host: string) => {
  const address = NAMES[host];
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};

describeEachDb(
  'webhooks: the API',
  (env) => {
    const create = (user: TestUser, payload: unknown) => user.call(env().app, { method: 'POST', url: '/api/v1/webhooks', payload: payload as object });

    test('create answers 201 with the secret once; list shows no secret; delete answers 200 and the webhook is gone', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const res = await create(user, { url: 'https://hooks.example/skein', events: ['thread.published', 'post.published'] });
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json();
      assert.deepEqual(Object.keys(created).sort(), ['createdAt', 'events', 'id', 'secret', 'url']);
      assert.match(created.secret, /^whsec_[A-Za-z0-9_-]{32,}$/);
      assert.deepEqual(created.events, ['thread.published', 'post.published']);
      assert.equal(created.createdAt, '2026-11-22T12:00:00.000Z');
      const row = await ctx.db.selectFrom('webhooks').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      assert.ok(!row.secret_enc.includes(created.secret), 'the secret is stored encrypted');
      assert.equal(ctx.secrets.decrypt(row.secret_enc), created.secret);

      const listed = (await user.call(app, { method: 'GET', url: '/api/v1/webhooks' })).json();
      assert.deepEqual(listed, {
        webhooks: [{ id: created.id, url: created.url, events: created.events, teamId: null, createdAt: created.createdAt }],
        count: 1,
      });
      assert.ok(!JSON.stringify(listed).includes('whsec_'));

      const deleted = await user.call(app, { method: 'DELETE', url: `/api/v1/webhooks/${created.id}` });
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.deepEqual(deleted.json(), { deleted: true, id: created.id });
      assert.equal((await user.call(app, { method: 'GET', url: '/api/v1/webhooks' })).json().count, 0);
      assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/webhooks/${created.id}` })).statusCode, 404);
    });

    test('validation: every fault in one 400, each at its path (events.1 for a duplicate, events.2 for an unknown type)', async () => {
      const { ctx } = env();
      const user = await createUser(ctx);
      const res = await create(user, { url: 'ftp://hooks.example/x', events: ['ping', 'ping', 'post.deleted'] });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      const body = res.json();
      assert.equal(body.code, 'VALIDATION_FAILED');
      const paths = body.errors.map((e: { path: string }) => e.path).sort();
      assert.deepEqual(paths, ['events.1', 'events.2', 'url']);
      for (const payload of [
        { url: 'https://hooks.example/x', events: [] },
        { url: 'https://hooks.example/x' },
        { events: ['ping'] },
        { url: 42, events: ['ping'] },
      ]) {
        const r = await create(user, payload);
        assert.equal(r.statusCode, 400, JSON.stringify(payload));
        assert.equal(r.json().code, 'VALIDATION_FAILED');
      }
      assert.deepEqual(
        (await create(user, { url: 'https://hooks.example/x', events: [] })).json().errors.map((e: { path: string }) => e.path),
        ['events'],
      );
      assert.equal((await ctx.db.selectFrom('webhooks').select('id').where('account_id', '=', user.account.id).execute()).length, 0);
    });

    test('SSRF: a URL whose host resolves to loopback or link-local, or a private literal, is refused at url; a name that does not resolve too', async () => {
      const { ctx } = env();
      const user = await createUser(ctx);
      for (const url of [
        'https://internal.example/hook',
        'http://metadata.example/',
        'http://127.0.0.1:8080/x',
        'http://[::1]/x',
        'http://10.1.2.3/',
        'https://nowhere.example/',
      ]) {
        const res = await create(user, { url, events: ['ping'] });
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.deepEqual(
          res.json().errors.map((e: { path: string }) => e.path),
          ['url'],
          url,
        );
        // The address a name resolved to is never echoed (only the host the user gave).
        if (!/\d+\.\d+\.\d+\.\d+|\[/.test(new URL(url).host)) assert.doesNotMatch(res.body, /127\.0\.0\.1|169\.254\.169\.254/, url);
      }
    });

    test('workspaces: teamId omitted = active workspace, personal, a team; a non-member team and another account’s webhook answer 404 like an unknown id', async () => {
      const { app, ctx } = env();
      const owner = await createUser(ctx);
      const member = await createUser(ctx);
      const stranger = await createUser(ctx);
      const team = await createTeamWith(ctx, owner.account, [member.account], 'admin');
      const teamHook = (await create(owner, { url: 'https://hooks.example/team', events: ['ping'], teamId: team.id })).json();
      const personal = (await create(owner, { url: 'https://hooks.example/me', events: ['ping'], teamId: 'personal' })).json();
      const list = async (user: TestUser, query = '') => (await user.call(app, { method: 'GET', url: `/api/v1/webhooks${query}` })).json();
      assert.deepEqual(
        (await list(member, `?teamId=${team.id}`)).webhooks.map((w: { id: string }) => w.id),
        [teamHook.id],
      );
      assert.equal((await list(member, `?teamId=${team.id}`)).webhooks[0].teamId, team.id);
      assert.deepEqual(
        (await list(owner)).webhooks.map((w: { id: string }) => w.id),
        [personal.id],
      );
      assert.equal((await list(member)).count, 0, "the member's personal workspace has none");
      const refused = await stranger.call(app, { method: 'GET', url: `/api/v1/webhooks?teamId=${team.id}` });
      assert.equal(refused.statusCode, 404);
      assert.equal((await create(stranger, { url: 'https://hooks.example/x', events: ['ping'], teamId: team.id })).statusCode, 404);
      const unknownId = '0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee';
      for (const [method, suffix] of [
        ['DELETE', ''],
        ['POST', '/test'],
        ['GET', '/deliveries'],
      ] as const) {
        const foreign = await stranger.call(app, { method, url: `/api/v1/webhooks/${personal.id}${suffix}`, ...(method === 'POST' ? { payload: {} } : {}) });
        const unknown = await stranger.call(app, { method, url: `/api/v1/webhooks/${unknownId}${suffix}`, ...(method === 'POST' ? { payload: {} } : {}) });
        assert.equal(foreign.statusCode, 404, `${method} ${suffix}`);
        assert.equal(unknown.statusCode, 404);
        assert.equal(foreign.json().detail.replace(personal.id, 'X'), unknown.json().detail.replace(unknownId, 'X'));
      }
      // A team member manages the team's webhook.
      assert.equal((await member.call(app, { method: 'GET', url: `/api/v1/webhooks/${teamHook.id}/deliveries` })).statusCode, 200);
      assert.equal((await member.call(app, { method: 'DELETE', url: `/api/v1/webhooks/${teamHook.id}` })).statusCode, 200);
    });

    test('test queues a ping (202 with its event id) for that webhook only; deliveries is empty until it is sent', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const hook = (await create(user, { url: 'https://hooks.example/a', events: ['thread.failed'] })).json();
      const other = (await create(user, { url: 'https://hooks.example/b', events: ['ping'] })).json();
      const res = await user.call(app, { method: 'POST', url: `/api/v1/webhooks/${hook.id}/test` });
      assert.equal(res.statusCode, 202, res.body);
      const { eventId, type } = res.json();
      assert.equal(type, 'ping');
      const event = await ctx.db.selectFrom('webhook_events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
      assert.deepEqual(event.data, { webhookId: hook.id, teamId: null });
      const deliveries = await ctx.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();
      assert.deepEqual(
        deliveries.map((d) => [d.webhook_id, d.status]),
        [[hook.id, 'PENDING']],
      );
      assert.notEqual(other.id, hook.id);
      const listed = await user.call(app, { method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries` });
      assert.deepEqual(listed.json(), { deliveries: [], count: 0 });
    });
  },
  { dnsLookup: fakeLookup },
);

describeEachDb(
  'webhooks: SKEIN_ALLOW_PRIVATE_MEDIA=1 lets a URL reach loopback (tests only)',
  (env) => {
    test('a loopback URL is accepted', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const res = await user.call(app, { method: 'POST', url: '/api/v1/webhooks', payload: { url: 'http://internal.example:8080/hook', events: ['ping'] } });
      assert.equal(res.statusCode, 201, res.body);
    });
  },
  { dnsLookup: fakeLookup, config: (c) => ({ ...c, media: { allowPrivate: true } }) },
);
