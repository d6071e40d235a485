import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../src/context.js';
import type { PublishStatus } from '../../src/db/schema/index.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';

type Counts = { views: number | null; likes: number | null; replies: number | null; reposts: number | null; quotes: number | null; shares: number | null };
const ZERO = { views: 0, likes: 0, replies: 0, reposts: 0, quotes: 0, shares: 0 };
const NULLS = { views: null, likes: null, replies: null, reposts: null, quotes: null, shares: null };

interface SeedPost {
  id: string;
  publishedAt: string | null;
  analytics: Counts | null;
  status?: PublishStatus;
}

let seq = 0;
/** One thread of `providerId` with these posts, written straight to the tables as the publisher leaves them. */
async function seedThread(
  ctx: AppContext,
  accountId: string,
  providerId: string,
  posts: SeedPost[],
  options: { teamId?: string; draft?: boolean; completedAt?: string } = {},
) {
  const threadId = `thread-${++seq}-${posts[0]!.id}`;
  const now = new Date('2026-11-22T12:00:00.000Z');
  const published = posts.every((p) => (p.status ?? 'PUBLISHED') === 'PUBLISHED');
  await ctx.db
    .insertInto('threads')
    .values({
      id: threadId,
      account_id: accountId,
      team_id: options.teamId ?? null,
      provider_id: providerId,
      status: published ? 'PUBLISHED' : 'READY',
      scheduled_at: options.draft ? null : (posts[0]!.publishedAt ?? '2026-12-01T00:00:00.000Z'),
      auto_repost_delay_hours: null,
      auto_plug_text: null,
      auto_plug_min_likes: null,
      next_attempt_at: null,
      locked_by: null,
      locked_until: null,
      last_error: null,
      published_at: published ? (options.completedAt ?? posts[0]!.publishedAt) : null,
      // As the publisher's completion sets it: the earliest post's time.
      first_published_at: published ? posts.map((p) => p.publishedAt!).sort()[0] : null,
      created_at: now,
      updated_at: now,
    } as never)
    .execute();
  for (const [order, post] of posts.entries()) {
    await ctx.db
      .insertInto('posts')
      .values({
        id: post.id,
        thread_id: threadId,
        post_order: order,
        content: `post ${post.id}`,
        topic: null,
        is_spoiler_media: false,
        status: post.status ?? 'PUBLISHED',
        network_container_id: null,
        network_post_id: post.publishedAt ? `net-${post.id}` : null,
        network_cid: null,
        permalink: post.publishedAt ? `https://example.test/p/${post.id}` : null,
        published_at: post.publishedAt ? new Date(post.publishedAt) : null,
        error_code: null,
        error_message: null,
        analytics: post.analytics ? JSON.stringify({ ...post.analytics, fetchedAt: '2026-11-22T11:00:00.000Z' }) : null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return threadId;
}

const c = (
  views: number | null,
  likes: number | null,
  replies: number | null,
  reposts: number | null,
  quotes: number | null,
  shares: number | null,
): Counts => ({
  views,
  likes,
  replies,
  reposts,
  quotes,
  shares,
});

async function analytics(app: FastifyInstance, user: TestUser, query: string) {
  return user.call(app, { method: 'GET', url: `/api/v1/analytics?${query}` });
}

describeEachDb('analytics over a range', (env) => {
  test('known snapshots: exact totals, every local day (zeros for quiet days), top posts; drafts, unpublished posts, other providers and the outside excluded', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const provider = await createProvider(ctx, user.account);
    const other = await createProvider(ctx, user.account);
    // Berlin is UTC+1 in November: local 2026-11-01 00:00 is 2026-10-31T23:00Z.
    const t1 = await seedThread(ctx, user.account.id, provider.id, [
      { id: 'a-post', publishedAt: '2026-11-01T10:00:00.000Z', analytics: c(100, 5, 1, 0, 0, 2) },
      { id: 'b-post', publishedAt: '2026-11-01T10:00:05.000Z', analytics: c(50, 10, 2, 1, 1, 0) },
    ]);
    const t2 = await seedThread(ctx, user.account.id, provider.id, [
      { id: 'e-post', publishedAt: '2026-10-31T23:00:00.000Z', analytics: c(50, 10, 0, 0, 3, 1) },
    ]);
    // Analytics not fetched yet: counted as a post, no metric.
    const t3 = await seedThread(ctx, user.account.id, provider.id, [{ id: 'd-post', publishedAt: '2026-11-03T12:00:00.000Z', analytics: null }]);
    // Local 2026-11-04 00:30.
    const t4 = await seedThread(ctx, user.account.id, provider.id, [
      { id: 'c-post', publishedAt: '2026-11-03T23:30:00.000Z', analytics: c(100, 7, 4, 2, 0, 5) },
    ]);
    // Excluded: a post just before the range, a draft, a thread whose second post failed, another provider's post.
    await seedThread(ctx, user.account.id, provider.id, [{ id: 'x-before', publishedAt: '2026-10-31T22:59:59.999Z', analytics: c(1000, 1000, 1, 1, 1, 1) }]);
    await seedThread(ctx, user.account.id, provider.id, [{ id: 'x-draft', publishedAt: null, analytics: null, status: 'READY' }], { draft: true });
    await seedThread(ctx, user.account.id, provider.id, [
      { id: 'f-post', publishedAt: '2026-11-02T09:00:00.000Z', analytics: c(1, 1, 1, 1, 1, 1) },
      { id: 'x-failed', publishedAt: null, analytics: null, status: 'FAILED' },
    ]);
    // Status is what counts: a post marked FAILED that carries a publish time (as an import could bring) is not counted.
    await seedThread(ctx, user.account.id, provider.id, [
      { id: 'x-marked-failed', publishedAt: '2026-11-02T10:00:00.000Z', analytics: c(7, 7, 7, 7, 7, 7), status: 'FAILED' },
    ]);
    await seedThread(ctx, user.account.id, other.id, [{ id: 'x-other', publishedAt: '2026-11-02T09:00:00.000Z', analytics: c(999, 999, 9, 9, 9, 9) }]);

    const res = await analytics(app, user, `providerId=${provider.id}&from=2026-11-01T00:00:00&to=2026-11-04T23:59:59`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['days', 'from', 'providerId', 'to', 'topPosts', 'totals']);
    assert.equal(body.providerId, provider.id);
    assert.equal(body.from, '2026-10-31T23:00:00.000Z');
    assert.equal(body.to, '2026-11-04T22:59:59.000Z');
    assert.deepEqual(body.totals, { posts: 6, views: 301, likes: 33, replies: 8, reposts: 4, quotes: 5, shares: 9 });
    assert.deepEqual(body.days, [
      { date: '2026-11-01', posts: 3, ...c(200, 25, 3, 1, 4, 3) },
      { date: '2026-11-02', posts: 1, ...c(1, 1, 1, 1, 1, 1) },
      { date: '2026-11-03', posts: 1, ...NULLS },
      { date: '2026-11-04', posts: 1, ...c(100, 7, 4, 2, 0, 5) },
    ]);
    const top = (threadId: string, postId: string, publishedAt: string, counts: Counts) => ({
      threadId,
      postId,
      permaLink: `https://example.test/p/${postId}`,
      publishedAt,
      ...counts,
    });
    // Views, then likes; b-post and e-post tie on both, so the post id decides; no analytics last.
    assert.deepEqual(body.topPosts, [
      top(t4, 'c-post', '2026-11-03T23:30:00.000Z', c(100, 7, 4, 2, 0, 5)),
      top(t1, 'a-post', '2026-11-01T10:00:00.000Z', c(100, 5, 1, 0, 0, 2)),
      top(t1, 'b-post', '2026-11-01T10:00:05.000Z', c(50, 10, 2, 1, 1, 0)),
      top(t2, 'e-post', '2026-10-31T23:00:00.000Z', c(50, 10, 0, 0, 3, 1)),
      top(body.topPosts[4].threadId, 'f-post', '2026-11-02T09:00:00.000Z', c(1, 1, 1, 1, 1, 1)),
      top(t3, 'd-post', '2026-11-03T12:00:00.000Z', NULLS),
    ]);

    // A quiet range: every day present with zeros, totals zero, no top posts.
    const quiet = await analytics(app, user, `providerId=${provider.id}&from=2026-11-10T00:00:00&to=2026-11-12T12:00:00`);
    assert.equal(quiet.statusCode, 200, quiet.body);
    assert.deepEqual(quiet.json().totals, { posts: 0, ...ZERO });
    assert.deepEqual(
      quiet.json().days,
      ['2026-11-10', '2026-11-11', '2026-11-12'].map((date) => ({ date, posts: 0, ...ZERO })),
    );
    assert.deepEqual(quiet.json().topPosts, []);
  });

  test('a thread completed days after the range (failed part-way, retried later) counts its posts of the range; so does one completed just after it', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    const late = await seedThread(
      ctx,
      user.account.id,
      provider.id,
      [
        { id: 'late-1', publishedAt: '2026-11-10T08:00:00.000Z', analytics: c(10, 1, 0, 0, 0, 0) },
        { id: 'late-2', publishedAt: '2026-11-25T08:00:00.000Z', analytics: c(20, 2, 0, 0, 0, 0) },
      ],
      { completedAt: '2026-11-25T08:00:00.000Z' },
    );
    const soon = await seedThread(
      ctx,
      user.account.id,
      provider.id,
      [
        { id: 'soon-1', publishedAt: '2026-11-11T23:59:50.000Z', analytics: c(5, 0, 0, 0, 0, 0) },
        { id: 'soon-2', publishedAt: '2026-11-12T00:00:10.000Z', analytics: c(50, 0, 0, 0, 0, 0) },
      ],
      { completedAt: '2026-11-12T00:00:10.000Z' },
    );
    // Completed long after the range, but all its posts after it too: nothing of it counts.
    await seedThread(ctx, user.account.id, provider.id, [{ id: 'x-after', publishedAt: '2026-11-20T08:00:00.000Z', analytics: c(99, 9, 0, 0, 0, 0) }]);

    const res = await analytics(app, user, `providerId=${provider.id}&from=2026-11-09T00:00:00Z&to=2026-11-11T23:59:59Z`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(body.totals, { posts: 2, ...c(15, 1, 0, 0, 0, 0) });
    assert.deepEqual(
      body.topPosts.map((p: { threadId: string; postId: string }) => [p.threadId, p.postId]),
      [
        [late, 'late-1'],
        [soon, 'soon-1'],
      ],
    );
    // The same range a page at a time (an end excluded: `before`) finds them too.
    const paged = await analytics(app, user, `providerId=${provider.id}&from=2026-11-09T00:00:00Z&to=2026-11-11T23:59:59Z&limit=2`);
    assert.equal(paged.statusCode, 200, paged.body);
    const rest = await analytics(
      app,
      user,
      `providerId=${provider.id}&from=2026-11-09T00:00:00Z&to=2026-11-11T23:59:59Z&limit=2&cursor=${paged.json().nextCursor}`,
    );
    assert.equal(rest.statusCode, 200, rest.body);
    assert.equal(paged.json().totals.posts + rest.json().totals.posts, 2);
  });

  test('at most ten top posts', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account);
    for (let i = 0; i < 12; i++) {
      await seedThread(ctx, user.account.id, provider.id, [
        { id: `t${String(i).padStart(2, '0')}`, publishedAt: `2026-11-05T${String(i).padStart(2, '0')}:00:00.000Z`, analytics: c(i, 0, 0, 0, 0, 0) },
      ]);
    }
    const res = await analytics(app, user, `providerId=${provider.id}&from=2026-11-05T00:00:00Z&to=2026-11-05T23:59:59Z`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().totals.posts, 12);
    assert.deepEqual(
      res.json().topPosts.map((p: { postId: string }) => p.postId),
      ['t11', 't10', 't09', 't08', 't07', 't06', 't05', 't04', 't03', 't02'],
    );
  });

  test('days follow the account’s zone across a DST change (Europe/Berlin 2026-10-25 has 25 hours)', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const provider = await createProvider(ctx, user.account);
    const seed = (id: string, publishedAt: string, likes: number) =>
      seedThread(ctx, user.account.id, provider.id, [{ id, publishedAt, analytics: c(1, likes, 0, 0, 0, 0) }]);
    await seed('p1', '2026-10-24T21:30:00.000Z', 1); // 23:30 CEST on the 24th
    await seed('p2', '2026-10-24T23:30:00.000Z', 10); // 01:30 CEST on the 25th
    await seed('p3', '2026-10-25T00:30:00.000Z', 100); // 02:30 CEST on the 25th (clocks go back at 01:00Z)
    await seed('p4', '2026-10-25T22:30:00.000Z', 1000); // 23:30 CET, still the 25th
    await seed('p5', '2026-10-25T23:00:00.000Z', 10000); // 00:00 CET on the 26th
    const res = await analytics(app, user, `providerId=${provider.id}&from=2026-10-24T00:00:00&to=2026-10-26T23:59:59`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().from, '2026-10-23T22:00:00.000Z');
    assert.equal(res.json().to, '2026-10-26T22:59:59.000Z');
    assert.deepEqual(
      res.json().days.map((d: { date: string; posts: number; likes: number }) => [d.date, d.posts, d.likes]),
      [
        ['2026-10-24', 1, 1],
        ['2026-10-25', 3, 1110],
        ['2026-10-26', 1, 10000],
      ],
    );
    assert.equal(res.json().totals.likes, 11111);

    // Bounds with offsets are instants; the days are still the account's.
    const offsets = await analytics(app, user, `providerId=${provider.id}&from=2026-10-25T01:00:00%2B02:00&to=2026-10-25T23:30:00Z`);
    assert.equal(offsets.statusCode, 200, offsets.body);
    assert.deepEqual(
      offsets.json().days.map((d: { date: string; posts: number; likes: number }) => [d.date, d.posts, d.likes]),
      [
        ['2026-10-25', 3, 1110],
        ['2026-10-26', 1, 10000],
      ],
    );
  });

  test('a metric the network lacks is null, not 0 (Bluesky: no views, no shares)', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx, { timezone: 'America/New_York' });
    const provider = await createProvider(ctx, user.account, 'BLUESKY');
    await seedThread(ctx, user.account.id, provider.id, [
      { id: 'bsky-1', publishedAt: '2026-11-02T15:00:00.000Z', analytics: c(null, 4, 1, 2, 0, null) },
      { id: 'bsky-2', publishedAt: '2026-11-02T15:00:01.000Z', analytics: c(null, 6, 0, 1, 1, null) },
    ]);
    await seedThread(ctx, user.account.id, provider.id, [{ id: 'bsky-3', publishedAt: '2026-11-04T03:00:00.000Z', analytics: c(null, 1, 0, 0, 0, null) }]);
    const res = await analytics(app, user, `providerId=${provider.id}&from=2026-11-01T00:00:00&to=2026-11-03T23:59:59`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(body.totals, { posts: 3, views: null, likes: 11, replies: 1, reposts: 3, quotes: 1, shares: null });
    assert.deepEqual(body.days, [
      { date: '2026-11-01', posts: 0, ...ZERO },
      { date: '2026-11-02', posts: 2, views: null, likes: 10, replies: 1, reposts: 3, quotes: 1, shares: null },
      // 2026-11-04T03:00Z is 22:00 on the 3rd in New York.
      { date: '2026-11-03', posts: 1, views: null, likes: 1, replies: 0, reposts: 0, quotes: 0, shares: null },
    ]);
    assert.deepEqual(
      body.topPosts.map((p: { postId: string; views: null; likes: number }) => [p.postId, p.views, p.likes]),
      [
        ['bsky-2', null, 6],
        ['bsky-1', null, 4],
        ['bsky-3', null, 1],
      ],
    );
  });

  test('workspaces: team members share a provider; another account’s provider is not found', async () => {
    const { app, ctx } = env();
    const owner = await createUser(ctx);
    const member = await createUser(ctx);
    const stranger = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account, [member.account]);
    const teamProvider = await createProvider(ctx, owner.account, 'THREADS', team.id);
    const personal = await createProvider(ctx, owner.account);
    await seedThread(ctx, owner.account.id, teamProvider.id, [{ id: 'team-post', publishedAt: '2026-11-05T10:00:00.000Z', analytics: c(3, 2, 1, 0, 0, 0) }], {
      teamId: team.id,
    });
    const range = 'from=2026-11-05T00:00:00&to=2026-11-05T23:59:59';
    const shared = await analytics(app, member, `providerId=${teamProvider.id}&teamId=${team.id}&${range}`);
    assert.equal(shared.statusCode, 200, shared.body);
    assert.equal(shared.json().totals.views, 3);
    for (const [user, query] of [
      [stranger, `providerId=${personal.id}&${range}`],
      [stranger, `providerId=${teamProvider.id}&${range}`],
      [member, `providerId=${personal.id}&${range}`],
      [owner, `providerId=no-such-provider&${range}`],
    ] as const) {
      const res = await analytics(app, user, query);
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    }
    // A team the caller is not in.
    assert.notEqual((await analytics(app, stranger, `providerId=${teamProvider.id}&teamId=${team.id}&${range}`)).statusCode, 200);
  });

  test('bad input: 400 naming the field', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const provider = await createProvider(ctx, user.account);
    const cases: [string, string][] = [
      ['from=2026-11-01T00:00:00&to=2026-11-02T00:00:00', 'providerId'],
      [`providerId=${provider.id}&to=2026-11-02T00:00:00`, 'from'],
      [`providerId=${provider.id}&from=2026-11-01T00:00:00`, 'to'],
      [`providerId=${provider.id}&from=yesterday&to=2026-11-02T00:00:00`, 'from'],
      [`providerId=${provider.id}&from=2026-11-01T00:00:00&to=2026-02-30T00:00:00`, 'to'],
      [`providerId=${provider.id}&from=2026-03-29T02:30:00&to=2026-04-01T00:00:00`, 'from'],
      [`providerId=${provider.id}&from=2026-11-02T00:00:00&to=2026-11-01T00:00:00`, 'from'],
      [`providerId=${provider.id}&from=2026-01-01T00:00:00&to=2027-01-03T00:00:00`, 'to'],
      [`providerId=${provider.id}&providerId=${provider.id}&from=2026-11-01T00:00:00&to=2026-11-02T00:00:00`, 'providerId'],
    ];
    for (const [query, path] of cases) {
      const res = await analytics(app, user, query);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.ok(
        res.json().errors.some((e: { path: string }) => e.path === path),
        `${query}: ${res.body}`,
      );
    }
    // Exactly 366 days is allowed.
    const year = await analytics(app, user, `providerId=${provider.id}&from=2026-01-01T00:00:00Z&to=2027-01-02T00:00:00Z`);
    assert.equal(year.statusCode, 200, year.body);
    assert.equal(year.json().days.length, 367);
  });

  test('the query (strings, providerId/from/to required), the answer and the problem answers are documented', async () => {
    const doc = (await env().app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const operation = doc.paths['/api/v1/analytics']?.get;
    assert.ok(operation, 'GET /api/v1/analytics is documented');
    const params = Object.fromEntries(
      operation.parameters.map((p: { name: string; required?: boolean; schema: { type: string } }) => [p.name, [p.required ?? false, p.schema.type]]),
    );
    assert.deepEqual(params, {
      providerId: [true, 'string'],
      from: [true, 'string'],
      to: [true, 'string'],
      teamId: [false, 'string'],
      limit: [false, 'string'],
      cursor: [false, 'string'],
    });
    const ok = operation.responses['200'].content['application/json'].schema;
    assert.deepEqual(Object.keys(ok.properties).sort(), ['days', 'from', 'nextCursor', 'providerId', 'to', 'topPosts', 'totals']);
    assert.deepEqual([...ok.required].sort(), ['days', 'from', 'providerId', 'to', 'topPosts', 'totals'], 'nextCursor only in a page');
    for (const status of ['400', '401', '404', '429']) assert.deepEqual(Object.keys(operation.responses[status].content), ['application/problem+json'], status);
  });

  test("pages of local days (limit, cursor): their days joined are the whole range's, each page its days' totals and top posts; a post in the last millisecond of a page's day counted; bad limit and cursor are 400s", async () => {
    const { app, ctx } = env();
    // Berlin: the clocks go back on 2026-10-25 (a 25-hour day), inside the range.
    const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
    const provider = await createProvider(ctx, user.account);
    const posts: Array<[string, string, Counts]> = [
      ['pg-1', '2026-10-23T21:59:59.9995Z', c(10, 1, 0, 0, 0, 0)], // local 23:59:59.9995 on the 23rd
      ['pg-2', '2026-10-23T22:00:00.000Z', c(20, 2, 0, 0, 0, 0)], // local midnight of the 24th
      ['pg-3', '2026-10-25T22:30:00.000Z', c(30, 3, 0, 0, 0, 0)], // local 23:30 on the 25th (UTC+1 by then)
      ['pg-4', '2026-10-27T08:00:00.000Z', c(40, 4, 0, 0, 0, 0)],
      ['pg-5', '2026-10-27T09:00:00.000Z', c(5, 5, 0, 0, 0, 0)],
    ];
    for (const [id, at, counts] of posts) await seedThread(ctx, user.account.id, provider.id, [{ id, publishedAt: at, analytics: counts }]);
    // A Date holds milliseconds: the half millisecond is written in SQL.
    await sql`UPDATE posts SET published_at = '2026-10-23T21:59:59.9995Z' WHERE id = 'pg-1'`.execute(ctx.db);
    const range = `providerId=${provider.id}&from=2026-10-22T12:00:00&to=2026-10-28T12:00:00`;
    const whole = (await analytics(app, user, range)).json();
    assert.equal(whole.days.length, 7);
    assert.equal('nextCursor' in whole, false);
    for (const limit of [1, 2, 3, 7, 8]) {
      const pages: Array<Record<string, any>> = [];
      let cursor: string | null = null;
      do {
        const res = await analytics(app, user, `${range}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.statusCode, 200, res.body);
        pages.push(res.json());
        cursor = res.json().nextCursor;
      } while (cursor !== null);
      assert.equal(pages.length, Math.ceil(7 / limit), `limit ${limit}`);
      assert.deepEqual(
        pages.flatMap((p) => p.days),
        whole.days,
        `limit ${limit}`,
      );
      assert.equal(pages[0]!.from, whole.from);
      assert.equal(pages.at(-1)!.to, whole.to);
      for (const p of pages) {
        assert.equal(
          p.totals.posts,
          p.days.reduce((n: number, d: { posts: number }) => n + d.posts, 0),
        );
        assert.equal(
          p.totals.views,
          p.days.reduce((n: number, d: { views: number }) => n + d.views, 0),
        );
      }
      assert.equal(
        pages.reduce((n, p) => n + p.totals.posts, 0),
        whole.totals.posts,
      );
      assert.deepEqual(pages.flatMap((p) => p.topPosts.map((t: { postId: string }) => t.postId)).sort(), ['pg-1', 'pg-2', 'pg-3', 'pg-4', 'pg-5']);
    }
    const day = (await analytics(app, user, `${range}&limit=2`)).json();
    // The first page holds the 22nd and 23rd: pg-1, at the 23rd's last half millisecond, is in it.
    assert.deepEqual(
      day.days.map((d: { date: string }) => d.date),
      ['2026-10-22', '2026-10-23'],
    );
    assert.equal(day.totals.posts, 1);
    assert.equal(day.to, '2026-10-23T21:59:59.999Z');
    for (const [query, path] of [
      [`${range}&limit=0`, 'limit'],
      [`${range}&limit=367x`, 'limit'],
      [`${range}&cursor=%24`, 'cursor'],
      [`providerId=${provider.id}&from=2026-10-22T12:00:00&to=2026-10-27T12:00:00&cursor=${day.nextCursor}`, 'cursor'],
    ] as const) {
      const res = await analytics(app, user, query);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        [path],
      );
    }
  });
});
