import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createTeamWith, createUser } from '../helpers/seeds.js';

describeEachDb('tags', (env) => {
  test('set thread tags replaces, creates, matches case-insensitively, keeps the first spelling', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const id = (await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'x' }] } })).json().threadId;
    const first = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: ['Launch', ' launch ', 'beta', 'Zeta'] } });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().threadId, id);
    assert.deepEqual(
      first.json().tags.map((t: { name: string }) => t.name),
      ['beta', 'Launch', 'Zeta'],
    );
    for (const tag of first.json().tags) {
      assert.deepEqual(Object.keys(tag).sort(), ['color', 'id', 'name']);
      assert.match(tag.color, /^#[0-9A-F]{6}$/);
    }
    const second = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: ['LAUNCH', 'new'] } });
    assert.deepEqual(
      second.json().tags.map((t: { name: string }) => t.name),
      ['Launch', 'new'],
    );
    const launchId = first.json().tags.find((t: { name: string }) => t.name === 'Launch').id;
    assert.equal(second.json().tags.find((t: { name: string }) => t.name === 'Launch').id, launchId);
    const got = await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}/tags` });
    assert.deepEqual(got.json(), second.json());

    const all = await user.call(app, { method: 'GET', url: '/api/v1/tags' });
    assert.equal(all.statusCode, 200);
    const tags = all.json().tags;
    assert.deepEqual(
      tags.map((t: { name: string }) => t.name),
      ['beta', 'Launch', 'new', 'Zeta'],
    );
    assert.deepEqual(Object.keys(tags[0]).sort(), ['color', 'createdAt', 'createdBy', 'id', 'name', 'teamId', 'updatedAt']);
    assert.equal(tags[0].teamId, null);
    assert.equal(tags[0].createdBy, user.account.id);

    const cleared = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: [] } });
    assert.deepEqual(cleared.json().tags, []);
  });

  test('tag names: trimmed, 1–50 characters, at most 50 per thread', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const id = (await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'x' }] } })).json().threadId;
    const blank = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: ['ok', '   '] } });
    assert.equal(blank.statusCode, 400);
    assert.equal(blank.json().errors[0].path, 'tagNames.1');
    const long = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: ['x'.repeat(51)] } });
    assert.equal(long.statusCode, 400);
    const many = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: Array.from({ length: 51 }, (_, i) => `t${i}`) } });
    assert.equal(many.statusCode, 400);
    const notStrings = await user.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: [1] } });
    assert.equal(notStrings.statusCode, 400);
    assert.equal(notStrings.json().errors[0].path, 'tagNames.0');
    assert.deepEqual((await user.call(app, { method: 'GET', url: '/api/v1/tags' })).json().tags, []);
  });

  test('team threads share tags; personal and team scopes are separate', async () => {
    const { app, ctx } = env();
    const owner = await createUser(ctx);
    const member = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account, [member.account]);
    const provider = await createProvider(ctx, owner.account, 'THREADS', team.id);
    const id = (
      await owner.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, teamId: team.id, posts: [{ text: 'x' }] } })
    ).json().threadId;
    await owner.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: ['Shared'] } });
    const memberView = await member.call(app, { method: 'GET', url: `/api/v1/tags?teamId=${team.id}` });
    assert.deepEqual(
      memberView.json().tags.map((t: { name: string; teamId: string }) => [t.name, t.teamId]),
      [['Shared', team.id]],
    );
    const memberSets = await member.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/tags`, payload: { tagNames: ['shared', 'Second'] } });
    assert.equal(memberSets.statusCode, 200);
    assert.deepEqual((await owner.call(app, { method: 'GET', url: '/api/v1/tags?teamId=personal' })).json().tags, []);
    assert.equal((await owner.call(app, { method: 'GET', url: `/api/v1/tags?teamId=${team.id}` })).json().tags.length, 2);
  });
});
