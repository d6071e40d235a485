import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newId } from '../../src/lib/ids.js';
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

  test('List Posts with include=tags: each thread with its reduced tags sorted by name; without it the answer is as before', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const create = async (at: string) => {
      const res = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, scheduleAt: at, posts: [{ text: at }] } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().threadId as string;
    };
    const tagged = await create('2026-12-03T09:00:00');
    const untagged = await create('2026-12-03T10:00:00');
    const other = await create('2026-12-03T11:00:00');
    await user.call(app, { method: 'PUT', url: `/api/v1/posts/${tagged}/tags`, payload: { tagNames: ['zeta', 'Launch', 'beta'] } });
    await user.call(app, { method: 'PUT', url: `/api/v1/posts/${other}/tags`, payload: { tagNames: ['Beta'] } });
    const range = 'from=2026-12-03T00:00:00&to=2026-12-03T23:59:59';

    const plain = await user.call(app, { method: 'GET', url: `/api/v1/posts?${range}` });
    assert.equal(plain.statusCode, 200);
    for (const t of plain.json().threads) assert.equal('tags' in t, false, 'no tags without include');
    const withTags = await user.call(app, { method: 'GET', url: `/api/v1/posts?${range}&include=tags` });
    assert.equal(withTags.statusCode, 200, withTags.body);
    const body = withTags.json();
    assert.deepEqual(
      body.threads.map((t: { threadId: string }) => t.threadId),
      [tagged, untagged, other],
    );
    // The same threads as without include, each with the tags Get Thread Tags answers.
    assert.deepEqual(
      body.threads.map(({ tags: _t, ...rest }: { tags: unknown }) => rest),
      plain.json().threads,
    );
    assert.equal(body.count, 3);
    for (const t of body.threads) {
      const own = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${t.threadId}/tags` })).json().tags;
      assert.deepEqual(t.tags, own);
    }
    assert.deepEqual(
      body.threads[0].tags.map((t: { name: string }) => t.name),
      ['beta', 'Launch', 'zeta'],
    );
    for (const tag of body.threads[0].tags) assert.deepEqual(Object.keys(tag).sort(), ['color', 'id', 'name']);
    assert.deepEqual(body.threads[1].tags, []);
    // Tags are per scope: "Beta" on the other thread is the same tag as "beta".
    assert.equal(body.threads[2].tags[0].id, body.threads[0].tags[0].id);
    const filtered = await user.call(app, { method: 'GET', url: `/api/v1/posts?${range}&include=tags&providerId=${provider.id}` });
    assert.deepEqual(filtered.json(), body);
  });

  test('List Posts include: any value but tags is a 400 naming the field; the OpenAPI document shows it', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    for (const bad of ['TAGS', 'tags,posts', '', 'posts']) {
      const res = await user.call(app, {
        method: 'GET',
        url: `/api/v1/posts?from=2026-12-03T00:00:00&to=2026-12-03T23:59:59&include=${encodeURIComponent(bad)}`,
      });
      assert.equal(res.statusCode, 400, `include=${bad}: ${res.body}`);
      assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        ['include'],
      );
    }
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const op = doc.paths['/api/v1/posts'].get;
    const include = op.parameters.find((p: { name: string; in: string }) => p.name === 'include' && p.in === 'query');
    assert.ok(include, 'include is documented');
    assert.equal(include.required, false);
    assert.deepEqual(include.schema.enum ?? [include.schema.const], ['tags'], JSON.stringify(include));
    const thread = op.responses['200'].content['application/json'].schema.properties.threads.items;
    assert.deepEqual(Object.keys(thread.properties.tags.items.properties).sort(), ['color', 'id', 'name']);
    assert.ok(!thread.required.includes('tags'));
  });

  test('Set Thread Tags refused (not found, not a member, stale If-Match) creates no tag anywhere', async () => {
    const { app, ctx } = env();
    const owner = await createUser(ctx);
    const stranger = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account, []);
    const provider = await createProvider(ctx, owner.account, 'THREADS', team.id);
    const id = (
      await owner.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, teamId: team.id, posts: [{ text: 'x' }] } })
    ).json().threadId;
    const put = (who: typeof owner, threadId: string, headers: Record<string, string> = {}) =>
      who.call(app, { method: 'PUT', url: `/api/v1/posts/${threadId}/tags`, payload: { tagNames: ['Fresh', 'other'] }, headers });
    assert.equal((await put(stranger, id)).statusCode, 404);
    assert.equal((await put(owner, newId())).statusCode, 404);
    const stale = await put(owner, id, { 'if-match': '"0"' });
    assert.equal(stale.statusCode, 412, stale.body);
    const tagsOf = async (who: typeof owner, teamId: string) => (await who.call(app, { method: 'GET', url: `/api/v1/tags?teamId=${teamId}` })).json().tags;
    assert.deepEqual(await tagsOf(owner, team.id), []);
    assert.deepEqual(await tagsOf(owner, 'personal'), []);
    assert.deepEqual(await tagsOf(stranger, 'personal'), []);
    // The same request from a member succeeds, and creates them in the team's scope.
    const ok = await put(owner, id);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(
      (await tagsOf(owner, team.id)).map((t: { name: string; teamId: string }) => [t.name, t.teamId]),
      [
        ['Fresh', team.id],
        ['other', team.id],
      ],
    );
  });

  test('Set Thread Tags at once from many requests, new names in opposite orders: each answers 200 and the thread ends with one whole set', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const create = async () =>
      (await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [{ text: 'x' }] } })).json().threadId;
    const ids = [await create(), await create()];
    const sets = [
      ['n1', 'n2', 'n3'],
      ['n3', 'n2', 'n1', 'n4'],
      ['n4', 'n5'],
    ];
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        user.call(app, { method: 'PUT', url: `/api/v1/posts/${ids[i % 2]}/tags`, payload: { tagNames: sets[i % sets.length] } }),
      ),
    );
    for (const answer of answers) assert.equal(answer.statusCode, 200, answer.body);
    const wanted = sets.map((set) => [...set].sort().join(','));
    for (const id of ids) {
      const names = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${id}/tags` })).json().tags.map((t: { name: string }) => t.name);
      assert.ok(wanted.includes(names.join(',')), `${id} carries ${names.join(',')}`);
    }
    const all = (await user.call(app, { method: 'GET', url: '/api/v1/tags' })).json().tags.map((t: { name: string }) => t.name);
    assert.deepEqual(all, ['n1', 'n2', 'n3', 'n4', 'n5']);
  });
});
