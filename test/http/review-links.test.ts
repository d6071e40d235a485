import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { InjectOptions } from 'fastify';
import type { Config } from '../../src/config/config.js';
import { setTeamMember } from '../../src/services/accounts/members.js';
import { createTestEnv, describeEachDb, type TestEnv } from '../helpers/context.js';
import { forEachStore } from '../helpers/rate-limit-stores.js';
import { createProvider, createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A team with an admin, an editor, a writer and a viewer, two accounts, and a webhook that hears the review's events. */
export async function reviewTeam(env: TestEnv) {
  const { ctx, app } = env;
  const owner = await createUser(ctx);
  const team = await createTeamWith(ctx, owner.account);
  const members = {} as Record<'admin' | 'editor' | 'writer' | 'viewer', TestUser>;
  for (const role of ['admin', 'editor', 'writer', 'viewer'] as const) {
    members[role] = await createUser(ctx);
    await setTeamMember(ctx, team.id, members[role].account, role);
  }
  const providers = [await createProvider(ctx, owner.account, 'THREADS', team.id), await createProvider(ctx, owner.account, 'BLUESKY', team.id)];
  const hook = await owner.call(app, {
    method: 'POST',
    url: '/api/v1/webhooks',
    payload: { url: 'https://hooks.example/r', events: ['thread.approved', 'thread.rejected', 'comment.created'], teamId: team.id },
  });
  assert.equal(hook.statusCode, 201, hook.body);
  return { owner, team, members, providers };
}

type Team = Awaited<ReturnType<typeof reviewTeam>>;

describeEachDb('review links', (env) => {
  const at = (hours: number) => new Date(env().clock.now().getTime() + hours * HOUR).toISOString();
  const linkBody = (f: Team, extra: Record<string, unknown> = {}) => ({
    teamId: f.team.id,
    from: at(0),
    to: at(7 * 24),
    canApprove: true,
    expiresAt: at(14 * 24),
    ...extra,
  });
  const create = (who: TestUser, payload: unknown) =>
    who.call(env().app, { method: 'POST', url: '/api/v1/review-links', payload: payload as InjectOptions['payload'] });
  const linkCount = async () =>
    Number(
      (
        await env()
          .ctx.db.selectFrom('review_links')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
  const page = (token: string) => env().app.inject({ method: 'GET', url: `/api/v1/review/${token}` });
  const writerThread = async (f: Team, hours: number, text = 'for the client', providerIndex = 0) => {
    const res = await f.members.writer.call(env().app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: f.providers[providerIndex]!.id, teamId: f.team.id, scheduleAt: at(hours), posts: [{ text }, { text: `${text}, part two` }] },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().threadId as string;
  };

  test('an admin creates, lists and revokes a link; its url holds 256 random bits stored only as their SHA-256; a revoked link is 404 at once', async () => {
    const f = await reviewTeam(env());
    const created = await create(f.members.admin, linkBody(f, { providerIds: [f.providers[0]!.id] }));
    assert.equal(created.statusCode, 201, created.body);
    const link = created.json();
    assert.match(link.url, /^http:\/\/[^/]+\/review\/[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(tokenOf(link.url), 'base64url').length, 32);
    assert.deepEqual(
      { teamId: link.teamId, providerIds: link.providerIds, canApprove: link.canApprove, expired: link.expired },
      { teamId: f.team.id, providerIds: [f.providers[0]!.id], canApprove: true, expired: false },
    );
    const token = tokenOf(link.url);
    const row = await env().ctx.db.selectFrom('review_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    assert.equal(row.token_hash, createHash('sha256').update(token).digest('hex'));
    assert.ok(!JSON.stringify(row).includes(token), 'the stored row holds no plaintext token');

    const listed = await f.members.admin.call(env().app, { method: 'GET', url: `/api/v1/review-links?teamId=${f.team.id}` });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(
      listed.json().reviewLinks.map((l: { id: string }) => l.id),
      [link.id],
    );
    assert.ok(!listed.body.includes(token), 'a list never shows the token');
    assert.equal(listed.json().reviewLinks[0].url, undefined);

    assert.equal((await page(token)).statusCode, 200);
    const revoked = await f.members.admin.call(env().app, { method: 'DELETE', url: `/api/v1/review-links/${link.id}` });
    assert.equal(revoked.statusCode, 200, revoked.body);
    const gone = await page(token);
    assert.equal(gone.statusCode, 404, gone.body);
    assert.ok(!gone.body.includes(f.team.name), 'nothing shown');
    assert.equal(gone.headers['cache-control'], 'no-store');
    assert.equal(gone.headers['referrer-policy'], 'no-referrer');
    assert.equal((await f.members.admin.call(env().app, { method: 'DELETE', url: `/api/v1/review-links/${link.id}` })).statusCode, 404);
  });

  test("bad input is a 400 naming the field, and nothing is written: over 30 days, a past expiry, from >= to, another team's account", async () => {
    const f = await reviewTeam(env());
    const other = await reviewTeam(env());
    const before = await linkCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ expiresAt: at(30 * 24 + 1) }, 'expiresAt'],
      [{ expiresAt: at(-1) }, 'expiresAt'],
      [{ from: at(5), to: at(5) }, 'to'],
      [{ from: at(6), to: at(5) }, 'to'],
      [{ providerIds: [f.providers[0]!.id, other.providers[0]!.id] }, 'providerIds.1'],
      [{ providerIds: [] }, 'providerIds'],
      [{ from: 'tomorrow' }, 'from'],
      [{ canApprove: 'yes' }, 'canApprove'],
    ];
    for (const [change, path] of cases) {
      const res = await create(f.members.admin, linkBody(f, change));
      assert.equal(res.statusCode, 400, `${JSON.stringify(change)}: ${res.body}`);
      assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
      assert.ok(
        res.json().errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(change)} names ${path}: ${res.body}`,
      );
    }
    assert.equal((await create(f.members.admin, linkBody(f, { expiresAt: at(30 * 24) }))).statusCode, 201, 'exactly 30 days is allowed');
    assert.equal(await linkCount(), before + 1);
  });

  test('a team the caller is not in is not found; writer, editor and viewer are refused 403 naming admin; nothing is written', async () => {
    const f = await reviewTeam(env());
    const stranger = await createUser(env().ctx);
    const before = await linkCount();
    const outside = await create(stranger, linkBody(f));
    assert.equal(outside.statusCode, 404, outside.body);
    for (const role of ['writer', 'editor', 'viewer'] as const) {
      const res = await create(f.members[role], linkBody(f));
      assert.equal(res.statusCode, 403, `${role}: ${res.body}`);
      assert.equal(res.json().code, 'FORBIDDEN');
      assert.equal(res.json().neededRole, 'admin');
      const list = await f.members[role].call(env().app, { method: 'GET', url: `/api/v1/review-links?teamId=${f.team.id}` });
      assert.equal(list.statusCode, 403, list.body);
    }
    assert.equal(await linkCount(), before);
    const made = (await create(f.owner, linkBody(f))).json();
    const byEditor = await f.members.editor.call(env().app, { method: 'DELETE', url: `/api/v1/review-links/${made.id}` });
    assert.equal(byEditor.statusCode, 403, byEditor.body);
    const byStranger = await stranger.call(env().app, { method: 'DELETE', url: `/api/v1/review-links/${made.id}` });
    assert.equal(byStranger.statusCode, 404, byStranger.body);
    assert.equal((await page(tokenOf(made.url))).statusCode, 200, 'still open');
  });

  test('the page shows the range and accounts only; a reviewer approves, rejects and comments under their name, with the events; 409 when not pending; 404 outside', async () => {
    const f = await reviewTeam(env());
    const { app, ctx } = env();
    const first = await writerThread(f, 2, 'first');
    const second = await writerThread(f, 3, 'second');
    const otherAccount = await writerThread(f, 4, 'on bluesky', 1);
    const outside = await writerThread(f, 24 * 8, 'next week');
    const link = (await create(f.members.admin, linkBody(f, { providerIds: [f.providers[0]!.id] }))).json();
    const token = tokenOf(link.url);
    const shown = await page(token);
    assert.equal(shown.statusCode, 200, shown.body);
    const body = shown.json();
    assert.equal(body.team, f.team.name);
    assert.equal(body.canApprove, true);
    assert.deepEqual(
      body.threads.map((t: { threadId: string }) => t.threadId),
      [first, second],
    );
    assert.deepEqual(
      body.threads[0].posts.map((p: { text: string }) => p.text),
      ['first', 'first, part two'],
    );
    assert.equal(body.threads[0].account.network, 'THREADS');
    assert.equal(body.threads[0].approval.state, 'PENDING');

    const post = (path: string, payload: unknown) =>
      app.inject({ method: 'POST', url: `/api/v1/review/${token}/threads/${path}`, payload: payload as InjectOptions['payload'] });
    const rejected = await post(`${first}/reject`, { name: 'Dana Client', note: 'not this week' });
    assert.equal(rejected.statusCode, 200, rejected.body);
    assert.deepEqual(rejected.json().thread.approval, { state: 'REJECTED', by: 'Dana Client', at: ctx.clock.now().toISOString(), note: 'not this week' });
    const commented = await post(`${first}/comments`, { name: 'Dana Client', text: 'tone it down', postId: body.threads[0].posts[1].id });
    assert.equal(commented.statusCode, 201, commented.body);
    assert.equal(commented.json().author, 'Dana Client');
    const approved = await post(`${second}/approve`, { name: 'Dana Client' });
    assert.equal(approved.statusCode, 200, approved.body);
    assert.equal(approved.json().thread.approval.by, 'Dana Client');

    const again = await post(`${second}/approve`, { name: 'Dana Client' });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().code, 'NOT_PENDING');
    for (const id of [outside, otherAccount, 'no-such-thread']) {
      const res = await post(`${id}/approve`, { name: 'Dana Client' });
      assert.equal(res.statusCode, 404, `${id}: ${res.body}`);
      assert.equal((await post(`${id}/comments`, { name: 'Dana Client', text: 'hi' })).statusCode, 404);
    }
    const noName = await post(`${outside}/comments`, { name: '  ', text: 'hi' });
    assert.equal(noName.statusCode, 400, noName.body);
    assert.deepEqual(
      noName.json().errors.map((e: { path: string }) => e.path),
      ['name'],
    );
    const longName = await post(`${first}/comments`, { name: 'x'.repeat(101), text: 'hi' });
    assert.equal(longName.statusCode, 400, longName.body);

    // The team sees the same: the editor's thread view and comments, and the webhook's events.
    const inTeam = (await f.members.editor.call(app, { method: 'GET', url: `/api/v1/posts/${first}` })).json().thread;
    assert.equal(inTeam.approval.state, 'REJECTED');
    assert.equal(inTeam.approval.by, 'Dana Client');
    const comments = (await f.members.viewer.call(app, { method: 'GET', url: `/api/v1/posts/${first}/comments` })).json().comments;
    assert.deepEqual(
      comments.map((c: { author: string; text: string }) => [c.author, c.text]),
      [['Dana Client', 'tone it down']],
    );
    const events = await ctx.db
      .selectFrom('webhook_events')
      .select(['type', 'data'])
      .where('team_id', '=', f.team.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => e.type),
      ['thread.rejected', 'comment.created', 'thread.approved'],
    );
    const reread = (await page(token)).json();
    assert.equal(reread.threads[0].comments[0].text, 'tone it down');
    assert.equal(reread.threads[1].approval.state, 'APPROVED');
  });

  test('a link without canApprove shows and refuses 403; an expired link is 404 with nothing shown', async () => {
    const f = await reviewTeam(env());
    const { app, clock } = env();
    const id = await writerThread(f, 2);
    const link = (await create(f.members.admin, linkBody(f, { canApprove: false, expiresAt: at(48) }))).json();
    const token = tokenOf(link.url);
    const shown = await page(token);
    assert.equal(shown.json().canApprove, false);
    assert.equal(shown.json().threads.length, 1);
    for (const path of [`${id}/approve`, `${id}/reject`, `${id}/comments`]) {
      const res = await app.inject({ method: 'POST', url: `/api/v1/review/${token}/threads/${path}`, payload: { name: 'Dana', text: 'hi' } });
      assert.equal(res.statusCode, 403, `${path}: ${res.body}`);
      assert.equal(res.json().code, 'FORBIDDEN');
    }
    const thread = (await f.members.editor.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).json().thread;
    assert.equal(thread.approval.state, 'PENDING', 'nothing changed');

    clock.advance(48 * HOUR);
    const expired = await page(token);
    assert.equal(expired.statusCode, 404, expired.body);
    assert.ok(!expired.body.includes(f.team.name));
    const listed = (await f.members.admin.call(app, { method: 'GET', url: `/api/v1/review-links?teamId=${f.team.id}` })).json().reviewLinks;
    assert.equal(listed.find((l: { id: string }) => l.id === link.id).expired, true);
    assert.equal((await page('not-a-token')).statusCode, 404);
  });
});

test("the review page's requests are limited per client address on the project's limiter (shared through Redis): 429 with Retry-After", async (t) => {
  await forEachStore(t, async ({ store, sibling }) => {
    const limited = { config: (c: Config) => ({ ...c, review: { ...c.review, perIp: 3 } }) };
    const one = await createTestEnv('pglite', { ...limited, rateLimits: store });
    const two = await createTestEnv('pglite', { ...limited, rateLimits: sibling() });
    try {
      const f = await reviewTeam(one);
      const day = (n: number) => new Date(one.clock.now().getTime() + n * DAY).toISOString();
      const made = await f.owner.call(one.app, {
        method: 'POST',
        url: '/api/v1/review-links',
        payload: { teamId: f.team.id, from: day(0), to: day(1), canApprove: true, expiresAt: day(1) },
      });
      const url = `/api/v1/review/${new URL(made.json().url).pathname.split('/').at(-1)}`;
      const from = (env: TestEnv, remoteAddress: string, path = url) => env.app.inject({ method: 'GET', url: path, remoteAddress });
      for (let i = 0; i < 2; i++) assert.equal((await from(one, '203.0.113.5')).statusCode, 200);
      // A guess at another instance counts toward the same address's allowance.
      assert.equal((await from(two, '203.0.113.5', '/api/v1/review/guess')).statusCode, 404);
      const refused = await from(one, '203.0.113.5');
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(refused.json().code, 'RATE_LIMITED');
      assert.match(refused.headers['content-type'] as string, /application\/problem\+json/);
      assert.ok(Number(refused.headers['retry-after']) >= 1, String(refused.headers['retry-after']));
      assert.equal((await from(two, '203.0.113.5')).statusCode, 429, 'refused at the other instance too');
      assert.equal((await from(one, '203.0.113.6')).statusCode, 200, 'another address is not limited');
      one.clock.advance(61_000);
      assert.equal((await from(one, '203.0.113.5')).statusCode, 200, 'allowed again once the window has passed');
    } finally {
      await one.close();
      await two.close();
    }
  });
});
