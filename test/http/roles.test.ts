import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectOptions } from 'fastify';
import type { Access } from '../../src/http/access.js';
import { ROLES, type Role, roleAtLeast } from '../../src/lib/roles.js';
import { setTeamMember } from '../../src/services/accounts/members.js';
import { describeEachDb, type TestEnv } from '../helpers/context.js';
import { pngBytes } from '../helpers/media-files.js';
import { createProvider, createTeamWith, createUser, rowCounts, type TestUser } from '../helpers/seeds.js';
import { multipartBody } from './media.test.js';

/** A team with one member of each role, and a bystander whose membership the member routes change. */
async function teamOfEveryRole(env: TestEnv) {
  const { ctx } = env;
  const owner = await createUser(ctx);
  const team = await createTeamWith(ctx, owner.account);
  const members = { owner } as Record<Role, TestUser>;
  for (const role of ROLES.filter((r) => r !== 'owner')) {
    members[role] = await createUser(ctx);
    await setTeamMember(ctx, team.id, members[role].account, role);
  }
  const bystander = await createUser(ctx);
  await setTeamMember(ctx, team.id, bystander.account, 'viewer');
  return { team, members, owner, bystander };
}

type Fixture = Awaited<ReturnType<typeof teamOfEveryRole>>;

/** The team's rows a route's path can name, made by the owner. */
const makers = {
  async provider(env: TestEnv, f: Fixture) {
    return { providerId: (await createProvider(env.ctx, f.owner.account, 'THREADS', f.team.id)).id };
  },
  async thread(env: TestEnv, f: Fixture, providerId: string) {
    const at = new Date(env.clock.now().getTime() + 3 * 86_400_000).toISOString();
    const created = await f.owner.call(env.app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId, teamId: f.team.id, scheduleAt: at, posts: [{ text: 'team thread' }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const threadId = created.json().threadId as string;
    const postId = (await f.owner.call(env.app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts[0].id as string;
    return { threadId, postId, at };
  },
  async webhook(env: TestEnv, f: Fixture) {
    const res = await f.owner.call(env.app, {
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: { url: 'https://hooks.example/in', events: ['post.published'], teamId: f.team.id },
    });
    assert.equal(res.statusCode, 201, res.body);
    return { webhookId: res.json().id as string };
  },
  async slot(env: TestEnv, f: Fixture, providerId: string) {
    const res = await f.owner.call(env.app, {
      method: 'POST',
      url: '/api/v1/time-slots',
      payload: { providerId, dayOfWeek: 1, time: '09:00', teamId: f.team.id },
    });
    assert.equal(res.statusCode, 201, res.body);
    return { slotId: res.json().id as string };
  },
  async media(env: TestEnv, f: Fixture) {
    const res = await f.owner.call(env.app, {
      method: 'POST',
      url: `/api/v1/media?teamId=${f.team.id}`,
      ...multipartBody(await pngBytes(4, 4), { type: 'image/png', filename: 'a.png' }),
    });
    assert.equal(res.statusCode, 201, res.body);
    return { mediaId: res.json().id as string };
  },
  async reviewLink(env: TestEnv, f: Fixture) {
    const now = env.clock.now().getTime();
    const res = await f.owner.call(env.app, {
      method: 'POST',
      url: '/api/v1/review-links',
      payload: reviewLinkBody(f, now),
    });
    assert.equal(res.statusCode, 201, res.body);
    return { reviewLinkId: res.json().id as string };
  },
};

function reviewLinkBody(f: Fixture, now: number) {
  const iso = (days: number) => new Date(now + days * 86_400_000).toISOString();
  return { teamId: f.team.id, from: iso(0), to: iso(7), canApprove: true, expiresAt: iso(7) };
}

async function teamRows(env: TestEnv, f: Fixture) {
  const { providerId } = await makers.provider(env, f);
  return {
    providerId,
    ...(await makers.thread(env, f, providerId)),
    ...(await makers.webhook(env, f)),
    ...(await makers.slot(env, f, providerId)),
    ...(await makers.media(env, f)),
    ...(await makers.reviewLink(env, f)),
  };
}

/** The rows after a deleting operation: what it deleted made again (a disconnected provider takes its threads and slots along). */
async function remade(env: TestEnv, f: Fixture, rows: Rows, url: string): Promise<Rows> {
  await setTeamMember(env.ctx, f.team.id, f.bystander.account, 'viewer');
  if (url.startsWith('/api/v1/providers/')) return teamRows(env, f).then((all) => ({ ...all, webhookId: rows.webhookId }));
  if (url.startsWith('/api/v1/posts/')) return { ...rows, ...(await makers.thread(env, f, rows.providerId)) };
  if (url.startsWith('/api/v1/webhooks/')) return { ...rows, ...(await makers.webhook(env, f)) };
  if (url.startsWith('/api/v1/time-slots/')) return { ...rows, ...(await makers.slot(env, f, rows.providerId)) };
  if (url.startsWith('/api/v1/media/')) return { ...rows, ...(await makers.media(env, f)) };
  if (url.startsWith('/api/v1/review-links/')) return { ...rows, ...(await makers.reviewLink(env, f)) };
  return rows;
}

type Rows = Awaited<ReturnType<typeof teamRows>>;

/** What `:id` names under each path. */
function idFor(url: string, f: Fixture, rows: Rows): string {
  if (url.startsWith('/api/v1/providers/')) return rows.providerId;
  if (url.startsWith('/api/v1/webhooks/')) return rows.webhookId;
  if (url.startsWith('/api/v1/media/')) return rows.mediaId;
  if (url.startsWith('/api/v1/time-slots/')) return rows.slotId;
  if (url.startsWith('/api/v1/teams/')) return f.team.id;
  if (url.startsWith('/api/v1/review-links/')) return rows.reviewLinkId;
  return 'no-such-id';
}

/** A request to the route, in the team's workspace; a body that makes the operation happen where it is simple to give one. */
function requestFor(method: string, url: string, f: Fixture, rows: Rows, now = Date.parse(rows.at) - 3 * 86_400_000): InjectOptions {
  const path = url
    .replace(':threadId', rows.threadId)
    .replace(':postId', rows.postId)
    .replace(':accountId', f.bystander.account.id)
    .replace(':network', 'threads')
    .replace(':id', idFor(url, f, rows));
  const bodies: Record<string, unknown> = {
    'POST /api/v1/posts': { providerId: rows.providerId, teamId: f.team.id, posts: [{ text: 'draft' }] },
    'PUT /api/v1/posts/:threadId/reschedule': { scheduleAt: new Date(Date.parse(rows.at) + 3_600_000).toISOString() },
    'PUT /api/v1/posts/:threadId/edit': { posts: [{ text: 'edited' }] },
    'PUT /api/v1/posts/:threadId/tags': { tagNames: ['launch'] },
    'POST /api/v1/teams/:id/members': { email: `new-${Math.random().toString(16).slice(2)}@example.test`, role: 'viewer' },
    'PATCH /api/v1/teams/:id/members/:accountId': { role: 'writer' },
    'POST /api/v1/posts/:threadId/comments': { text: 'looks good' },
    'POST /api/v1/review-links': reviewLinkBody(f, now),
  };
  const options: InjectOptions = { method: method as InjectOptions['method'], url: `${path}${path.includes('?') ? '&' : '?'}teamId=${f.team.id}` };
  if (['POST', 'PUT', 'PATCH'].includes(method))
    options.payload = (bodies[`${method} ${url}`] ?? { teamId: f.team.id, providerId: rows.providerId }) as InjectOptions['payload'];
  if (url.startsWith('/api/v1/posts/:threadId') && !['POST /api/v1/posts/:threadId/comments'].includes(`${method} ${url}`)) {
    // Thread routes read no teamId: the thread names the workspace.
    options.url = path;
  }
  return options;
}

describeEachDb('team roles on every route', (env) => {
  test('every keyed route has an access entry, and answers each role by it: allowed is never 403, refused is 403 naming the role, never a 5xx', async () => {
    const f = await teamOfEveryRole(env());
    const { app, ctx } = env();
    const routes = app.accessTable().filter((r) => r.method !== 'HEAD');
    assert.ok(routes.length > 50, `only ${routes.length} routes`);
    let refusedCount = 0;
    let rows = await teamRows(env(), f);
    for (const { method, url, access } of routes) {
      const before = await rowCounts(ctx);
      const needed = (access as Exclude<Access, 'account'>).role;
      for (const role of ROLES) {
        const allowed = access === 'account' || roleAtLeast(role, needed);
        if (allowed) continue;
        const res = await f.members[role].call(app, requestFor(method, url, f, rows));
        const where = `${method} ${url} as ${role}: ${res.statusCode} ${res.body}`;
        assert.equal(res.statusCode, 403, where);
        assert.equal(res.json().code, 'FORBIDDEN', where);
        assert.equal(res.json().neededRole, needed, where);
        assert.match(res.json().detail, new RegExp(needed), where);
        refusedCount++;
      }
      assert.deepEqual(await rowCounts(ctx), before, `${method} ${url}: a refused request wrote something`);
      for (const role of ROLES) {
        const allowed = access === 'account' || roleAtLeast(role, needed);
        if (!allowed) continue;
        const res = await f.members[role].call(app, requestFor(method, url, f, rows));
        const where = `${method} ${url} as ${role}: ${res.statusCode} ${res.body}`;
        assert.ok(res.statusCode < 500, where);
        assert.notEqual(res.statusCode === 403 ? res.json().code : null, 'FORBIDDEN', where);
        // A deleting operation leaves nothing for the next role: what it deleted is made again.
        if (method === 'DELETE') rows = await remade(env(), f, rows, url);
      }
    }
    assert.ok(refusedCount > 70, `only ${refusedCount} refusals`);
  });

  test('the operations the contract names answer their own status for the least role that may make them', async () => {
    const f = await teamOfEveryRole(env());
    const { app } = env();
    const rows = await teamRows(env(), f);
    const ok = async (who: TestUser, options: InjectOptions, status: number) => {
      const res = await who.call(app, options);
      assert.equal(res.statusCode, status, `${options.method} ${options.url}: ${res.body}`);
      return res;
    };
    await ok(f.members.viewer, { method: 'GET', url: `/api/v1/posts/${rows.threadId}` }, 200);
    await ok(f.members.viewer, { method: 'GET', url: `/api/v1/teams/${f.team.id}/members` }, 200);
    await ok(f.members.writer, { method: 'POST', url: '/api/v1/posts', payload: requestFor('POST', '/api/v1/posts', f, rows).payload }, 201);
    await ok(f.members.editor, requestFor('PUT', '/api/v1/posts/:threadId/reschedule', f, rows), 200);
    await ok(f.members.admin, requestFor('PATCH', '/api/v1/teams/:id/members/:accountId', f, rows), 200);
    await ok(f.members.admin, { method: 'DELETE', url: `/api/v1/providers/${rows.providerId}` }, 200);
    await ok(f.members.editor, { method: 'DELETE', url: `/api/v1/posts/${rows.threadId}` }, 200);
    await ok(f.members.admin, requestFor('POST', '/api/v1/review-links', f, rows), 201);
    await ok(f.members.admin, { method: 'GET', url: `/api/v1/review-links?teamId=${f.team.id}` }, 200);
    await ok(f.members.admin, { method: 'DELETE', url: `/api/v1/review-links/${rows.reviewLinkId}` }, 200);
  });

  test('members: an admin manages the roles below admin, only an owner gives admin or owner, the last owner stays, and nothing changes on a refusal', async () => {
    const f = await teamOfEveryRole(env());
    const { app } = env();
    const members = `/api/v1/teams/${f.team.id}/members`;
    const list = async () => (await f.members.viewer.call(app, { method: 'GET', url: members })).json().members as Array<{ accountId: string; role: Role }>;
    const roleOf = async (accountId: string) => (await list()).find((m) => m.accountId === accountId)?.role;

    const promote = await f.members.admin.call(app, { method: 'PATCH', url: `${members}/${f.members.editor.account.id}`, payload: { role: 'admin' } });
    assert.equal(promote.statusCode, 403, promote.body);
    assert.equal(promote.json().neededRole, 'owner');
    assert.equal(await roleOf(f.members.editor.account.id), 'editor');
    const demoteOwner = await f.members.admin.call(app, { method: 'PATCH', url: `${members}/${f.owner.account.id}`, payload: { role: 'viewer' } });
    assert.equal(demoteOwner.statusCode, 403, demoteOwner.body);
    assert.equal(await roleOf(f.owner.account.id), 'owner');

    const newcomer = await createUser(env().ctx);
    const added = await f.members.admin.call(app, { method: 'POST', url: members, payload: { email: newcomer.account.email, role: 'writer' } });
    assert.equal(added.statusCode, 201, added.body);
    const { createdAt, ...member } = added.json() as Record<string, string>;
    assert.deepEqual(member, { accountId: newcomer.account.id, email: newcomer.account.email, role: 'writer' });
    assert.equal(createdAt, env().clock.now().toISOString());
    const again = await f.members.admin.call(app, { method: 'POST', url: members, payload: { email: newcomer.account.email, role: 'viewer' } });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(await roleOf(newcomer.account.id), 'writer');

    const lastOwner = await f.owner.call(app, { method: 'PATCH', url: `${members}/${f.owner.account.id}`, payload: { role: 'admin' } });
    assert.equal(lastOwner.statusCode, 409, lastOwner.body);
    const transfer = await f.owner.call(app, { method: 'PATCH', url: `${members}/${f.members.admin.account.id}`, payload: { role: 'owner' } });
    assert.equal(transfer.statusCode, 200, transfer.body);
    const stepDown = await f.owner.call(app, { method: 'PATCH', url: `${members}/${f.owner.account.id}`, payload: { role: 'admin' } });
    assert.equal(stepDown.statusCode, 200, stepDown.body);

    const removed = await f.members.admin.call(app, { method: 'DELETE', url: `${members}/${newcomer.account.id}` });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal(await roleOf(newcomer.account.id), undefined);
    const outsider = await createUser(env().ctx);
    assert.equal((await outsider.call(app, { method: 'GET', url: members })).statusCode, 404);
    const bad = await f.members.admin.call(app, { method: 'POST', url: members, payload: { email: 'x@example.test', role: 'member' } });
    assert.equal(bad.statusCode, 400, bad.body);
  });

  test("a viewer of a team is still the owner of their personal workspace; an API key acts with its account's role", async () => {
    const f = await teamOfEveryRole(env());
    const { app, ctx } = env();
    const own = await createProvider(ctx, f.members.viewer.account);
    const personal = await f.members.viewer.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: own.id, teamId: 'personal', posts: [{ text: 'mine' }] },
    });
    assert.equal(personal.statusCode, 201, personal.body);
    const rows = await teamRows(env(), f);
    const inTeam = await f.members.viewer.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: rows.providerId, teamId: f.team.id, posts: [{ text: 'no' }] },
    });
    assert.equal(inTeam.statusCode, 403, inTeam.body);
    // Their active workspace the team: a request naming none acts there.
    await f.members.viewer.call(app, { method: 'PATCH', url: '/api/v1/account', payload: { activeTeamId: f.team.id } });
    const active = await f.members.viewer.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: rows.providerId, posts: [{ text: 'no' }] },
    });
    assert.equal(active.statusCode, 403, active.body);
  });
});
