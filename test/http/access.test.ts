import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createTeamWith, createUser } from '../helpers/seeds.js';

describeEachDb('workspaces and access', (env) => {
  test("every threadId endpoint answers 404 for another account's thread", async () => {
    const { app, ctx } = env();
    const owner = await createUser(ctx);
    const stranger = await createUser(ctx);
    const provider = await createProvider(ctx, owner.account);
    const id = (
      await owner.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: '2026-12-01T00:00:00Z', posts: [{ text: 'mine' }] },
      })
    ).json().threadId;
    const postId = (await owner.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread.posts[0].id;
    const calls = [
      { method: 'GET', url: `/api/v1/posts/${id}` },
      { method: 'DELETE', url: `/api/v1/posts/${id}` },
      { method: 'PATCH', url: `/api/v1/posts/${id}/posts/${postId}`, payload: { content: 'x' } },
      { method: 'PUT', url: `/api/v1/posts/${id}/edit`, payload: { posts: [{ text: 'x' }] } },
      { method: 'PUT', url: `/api/v1/posts/${id}/reschedule`, payload: { scheduleAt: '2026-12-02T00:00:00Z' } },
      { method: 'POST', url: `/api/v1/posts/${id}/retry` },
      { method: 'GET', url: `/api/v1/posts/${id}/tags` },
      { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: ['x'] } },
    ] as const;
    for (const call of calls) {
      const res = await stranger.call(app, call as never);
      assert.equal(res.statusCode, 404, `${call.method} ${call.url}: ${res.body}`);
      assert.equal(res.json().code, 'NOT_FOUND');
    }
    const still = (await owner.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread;
    assert.equal(still.posts[0].content, 'mine');
  });

  test('team members share team threads; non-members get 404 for the team', async () => {
    const { app, ctx } = env();
    const owner = await createUser(ctx);
    const member = await createUser(ctx);
    const outsider = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account, [member.account]);
    const provider = await createProvider(ctx, owner.account, 'BLUESKY', team.id);
    const created = await member.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, teamId: team.id, scheduleAt: '2026-12-01T00:00:00Z', posts: [{ text: 'team' }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().threadId;
    assert.equal((await owner.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).statusCode, 200);
    const list = await owner.call(app, { method: 'GET', url: `/api/v1/posts?from=2026-11-30T00:00:00Z&to=2026-12-02T00:00:00Z&teamId=${team.id}` });
    assert.equal(list.json().count, 1);
    const personal = await owner.call(app, { method: 'GET', url: '/api/v1/posts?from=2026-11-30T00:00:00Z&to=2026-12-02T00:00:00Z' });
    assert.equal(personal.json().count, 0);
    assert.equal((await outsider.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).statusCode, 404);
    for (const url of [
      `/api/v1/posts/drafts?teamId=${team.id}`,
      `/api/v1/tags?teamId=${team.id}`,
      `/api/v1/providers?teamId=${team.id}`,
      `/api/v1/auto-plug?teamId=${team.id}`,
    ]) {
      const res = await outsider.call(app, { method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
    }
    const providers = await member.call(app, { method: 'GET', url: `/api/v1/providers?teamId=${team.id}` });
    assert.equal(providers.json().count, 1);
  });

  test('active team: teamId omitted means the active workspace; personal selects the personal one', async () => {
    const { app, ctx } = env();
    const owner = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account);
    const teamProvider = await createProvider(ctx, owner.account, 'THREADS', team.id);
    const personalProvider = await createProvider(ctx, owner.account, 'THREADS');
    const patch = await owner.call(app, { method: 'PATCH', url: '/api/v1/account', payload: { activeTeamId: team.id } });
    assert.equal(patch.statusCode, 200, patch.body);
    assert.equal(patch.json().activeTeamId, team.id);
    const providers = (await owner.call(app, { method: 'GET', url: '/api/v1/providers' })).json();
    assert.deepEqual(
      providers.providers.map((p: { id: string }) => p.id),
      [teamProvider.id],
    );
    const personal = (await owner.call(app, { method: 'GET', url: '/api/v1/providers?teamId=personal' })).json();
    assert.deepEqual(
      personal.providers.map((p: { id: string }) => p.id),
      [personalProvider.id],
    );
    // A provider of another workspace: 404 for the provider.
    const wrong = await owner.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: personalProvider.id, posts: [{ text: 'x' }] } });
    assert.equal(wrong.statusCode, 404);
    const right = await owner.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: personalProvider.id, teamId: 'personal', posts: [{ text: 'x' }] },
    });
    assert.equal(right.statusCode, 201);
    const notMember = await owner.call(app, { method: 'PATCH', url: '/api/v1/account', payload: { activeTeamId: 'nope' } });
    assert.equal(notMember.statusCode, 404);
  });

  test('account: read and change time zone; scheduled instants do not move', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx, { timezone: 'Europe/Paris' });
    const provider = await createProvider(ctx, user.account);
    const account = await user.call(app, { method: 'GET', url: '/api/v1/account' });
    assert.deepEqual(account.json(), { id: user.account.id, email: user.account.email, timezone: 'Europe/Paris', activeTeamId: null });
    const id = (
      await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: '2026-12-01T10:00:00', posts: [{ text: 'x' }] },
      })
    ).json().threadId;
    const bad = await user.call(app, { method: 'PATCH', url: '/api/v1/account', payload: { timezone: 'Mars/Olympus' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().errors[0].path, 'timezone');
    const ok = await user.call(app, { method: 'PATCH', url: '/api/v1/account', payload: { timezone: 'Asia/Tokyo' } });
    assert.equal(ok.json().timezone, 'Asia/Tokyo');
    const thread = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread;
    assert.equal(thread.scheduledAt, '2026-12-01T09:00:00.000Z');
  });

  test('auto-plug: get default, set, applied at create', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    assert.deepEqual((await user.call(app, { method: 'GET', url: '/api/v1/auto-plug' })).json(), { enabled: false, text: '', minLikes: 10 });
    const bad = await user.call(app, { method: 'PUT', url: '/api/v1/auto-plug', payload: { enabled: true, text: '  ', minLikes: 0 } });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(
      bad
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
      ['minLikes', 'text'],
    );
    const set = await user.call(app, { method: 'PUT', url: '/api/v1/auto-plug', payload: { enabled: true, text: 'Follow me', minLikes: 5 } });
    assert.equal(set.statusCode, 200);
    assert.deepEqual((await user.call(app, { method: 'GET', url: '/api/v1/auto-plug' })).json(), { enabled: true, text: 'Follow me', minLikes: 5 });
    const created = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'x' }] } });
    assert.equal(created.json().autoPlugApplied, true);
  });
});
