/**
 * GET /api/v1/analytics/summary: the workspace's range at a glance (the home page's "Last 7
 * days"). Its figures are those the per-account analytics and List Posts give for the same data,
 * for every account at once, in one statement (two for a team).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context.js';
import type { PublishStatus } from '../../src/db/schema/index.js';
import { describeEachDb } from '../helpers/context.js';
import { RoundTripCounter, untilKeyCached } from '../helpers/round-trips.js';
import { createProvider, createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';

const counter = new RoundTripCounter();

interface SeedPost {
  id: string;
  publishedAt: string | null;
  views?: number | null;
  likes?: number | null;
  status?: PublishStatus;
  text?: string;
}

let seq = 0;
/** One thread with these posts, written as the publisher leaves them; its status from its posts unless given. */
async function seedThread(
  ctx: AppContext,
  accountId: string,
  providerId: string,
  posts: SeedPost[],
  options: { teamId?: string; status?: PublishStatus; scheduledAt?: string } = {},
): Promise<string> {
  const threadId = `thread-${++seq}-${posts[0]!.id}`;
  const now = new Date('2026-11-22T12:00:00.000Z');
  const status = options.status ?? (posts.every((p) => (p.status ?? 'PUBLISHED') === 'PUBLISHED') ? 'PUBLISHED' : 'READY');
  const last = posts[posts.length - 1]!.publishedAt;
  await ctx.db
    .insertInto('threads')
    .values({
      id: threadId,
      account_id: accountId,
      team_id: options.teamId ?? null,
      provider_id: providerId,
      status,
      scheduled_at: options.scheduledAt ?? posts[0]!.publishedAt ?? '2026-12-01T00:00:00.000Z',
      auto_repost_delay_hours: null,
      auto_plug_text: null,
      auto_plug_min_likes: null,
      next_attempt_at: null,
      locked_by: null,
      locked_until: null,
      last_error: status === 'FAILED' ? 'NETWORK_REFUSED: seeded' : null,
      published_at: status === 'PUBLISHED' ? last : null,
      created_at: now,
      updated_at: now,
    } as never)
    .execute();
  for (const [order, post] of posts.entries()) {
    const analytics =
      post.views === undefined && post.likes === undefined
        ? null
        : { views: post.views ?? null, likes: post.likes ?? null, replies: null, reposts: null, quotes: null, shares: null };
    await ctx.db
      .insertInto('posts')
      .values({
        id: post.id,
        thread_id: threadId,
        post_order: order,
        content: post.text ?? `post ${post.id}`,
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
        analytics: analytics ? JSON.stringify({ ...analytics, fetchedAt: '2026-11-22T11:00:00.000Z' }) : null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return threadId;
}

const RANGE = 'from=2026-11-15T12:00:00Z&to=2026-11-22T12:00:00Z';

async function summary(app: FastifyInstance, user: TestUser, query = RANGE) {
  return user.call(app, { method: 'GET', url: `/api/v1/analytics/summary?${query}` });
}

describeEachDb(
  'the workspace analytics summary',
  (env) => {
    test('published and failed counts and the top posts of every account: what List Posts and each account’s analytics give', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx, { timezone: 'Europe/Berlin' });
      const [a, b, c] = [await createProvider(ctx, user.account), await createProvider(ctx, user.account, 'BLUESKY'), await createProvider(ctx, user.account)];
      const id = user.account.id;
      const long = `  ${'word '.repeat(30)}end  `;
      await seedThread(ctx, id, a.id, [
        { id: 'a1', publishedAt: '2026-11-16T10:00:00.000Z', views: 500, likes: 3, text: long },
        { id: 'a2', publishedAt: '2026-11-16T10:00:02.000Z', views: 20, likes: 90 },
      ]);
      await seedThread(ctx, id, a.id, [{ id: 'a3', publishedAt: '2026-11-20T08:00:00.000Z', views: 40, likes: 1 }]);
      await seedThread(ctx, id, b.id, [{ id: 'b1', publishedAt: '2026-11-18T08:00:00.000Z', views: null, likes: 700, text: 'A Bluesky post' }]);
      await seedThread(ctx, id, b.id, [{ id: 'b2', publishedAt: '2026-11-21T08:00:00.000Z' }]);
      await seedThread(ctx, id, c.id, [{ id: 'c1', publishedAt: '2026-11-19T08:00:00.000Z', views: 900, likes: 2, text: 'The best one' }]);
      // A thread failed part-way: its published post counts among the posts, not the thread among the published.
      await seedThread(
        ctx,
        id,
        c.id,
        [
          { id: 'c2', publishedAt: '2026-11-21T09:00:00.000Z', views: 100, likes: 100 },
          { id: 'c3', publishedAt: null, status: 'FAILED' },
        ],
        { status: 'FAILED' },
      );
      await seedThread(ctx, id, a.id, [{ id: 'f1', publishedAt: null, status: 'FAILED' }], { status: 'FAILED', scheduledAt: '2026-11-17T08:00:00.000Z' });
      // Outside the range: published before it, failed after it, READY ahead.
      await seedThread(ctx, id, a.id, [{ id: 'x1', publishedAt: '2026-11-15T11:59:59.999Z', views: 99_999, likes: 9 }]);
      await seedThread(ctx, id, a.id, [{ id: 'x2', publishedAt: null, status: 'FAILED' }], { status: 'FAILED', scheduledAt: '2026-11-22T12:00:00.001Z' });
      await seedThread(ctx, id, a.id, [{ id: 'x3', publishedAt: null, status: 'READY' }], { scheduledAt: '2026-11-25T08:00:00.000Z' });
      // Another user's workspace.
      const other = await createUser(ctx);
      const theirs = await createProvider(ctx, other.account);
      await seedThread(ctx, other.account.id, theirs.id, [{ id: 'o1', publishedAt: '2026-11-19T08:00:00.000Z', views: 1_000_000, likes: 1 }]);
      await seedThread(ctx, other.account.id, theirs.id, [{ id: 'o2', publishedAt: null, status: 'FAILED' }], {
        status: 'FAILED',
        scheduledAt: '2026-11-19T08:00:00.000Z',
      });

      const res = await summary(app, user);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.from, '2026-11-15T12:00:00.000Z');
      assert.equal(body.to, '2026-11-22T12:00:00.000Z');
      assert.equal(body.published, 5);
      assert.equal(body.failed, 2);
      assert.deepEqual(
        body.topPosts.map((p: { postId: string }) => p.postId),
        ['c1', 'a1', 'c2', 'a3', 'a2'],
      );
      const [best, second] = body.topPosts;
      assert.deepEqual(best, {
        threadId: best.threadId,
        postId: 'c1',
        providerId: c.id,
        text: 'The best one',
        permaLink: 'https://example.test/p/c1',
        publishedAt: '2026-11-19T08:00:00.000Z',
        views: 900,
        likes: 2,
        replies: null,
        reposts: null,
        quotes: null,
        shares: null,
      });
      assert.equal(second.text, `${long.trim().slice(0, 99)}…`);
      assert.equal(second.text.length, 100);

      // The same figures from the per-account endpoint (every account's top posts, merged) ...
      const perAccount = [];
      for (const p of [a, b, c]) {
        const one = await user.call(app, { method: 'GET', url: `/api/v1/analytics?providerId=${p.id}&${RANGE}` });
        assert.equal(one.statusCode, 200, one.body);
        perAccount.push(...one.json().topPosts.map((t: object) => ({ ...t, providerId: p.id })));
      }
      const key = (t: { views: number | null; likes: number | null; postId: string }) => [t.views ?? -1, t.likes ?? -1, t.postId] as const;
      perAccount.sort((x, y) => key(y)[0] - key(x)[0] || key(y)[1] - key(x)[1] || (key(x)[2] < key(y)[2] ? -1 : 1));
      assert.deepEqual(
        body.topPosts.map(({ text: _text, ...rest }: { text: string }) => rest),
        perAccount.slice(0, 5),
      );
      // ... and from List Posts (the threads the home page read: published in the range, failed scheduled in it).
      const list = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2026-11-01T00:00:00Z&to=2026-11-30T00:00:00Z&limit=1000' });
      assert.equal(list.statusCode, 200, list.body);
      const threads = list.json().threads as Array<{ status: string; scheduledAt: string; posts: Array<{ publishedAt: string | null }> }>;
      const inRange = (at: string | null | undefined) => !!at && at >= body.from && at <= body.to;
      assert.equal(threads.filter((t) => t.status === 'PUBLISHED' && inRange(t.posts[t.posts.length - 1]?.publishedAt)).length, body.published);
      assert.equal(threads.filter((t) => t.status === 'FAILED' && inRange(t.scheduledAt)).length, body.failed);
    });

    test('a team’s summary counts the team’s accounts, the personal one its own; viewers read it, strangers get 404', async () => {
      const { app, ctx } = env();
      const owner = await createUser(ctx);
      const viewer = await createUser(ctx);
      const stranger = await createUser(ctx);
      const team = await createTeamWith(ctx, owner.account, [viewer.account], 'viewer');
      const teamProvider = await createProvider(ctx, owner.account, 'THREADS', team.id);
      const personal = await createProvider(ctx, owner.account);
      await seedThread(ctx, owner.account.id, teamProvider.id, [{ id: 't1', publishedAt: '2026-11-16T10:00:00.000Z', views: 10, likes: 1 }], {
        teamId: team.id,
      });
      await seedThread(ctx, owner.account.id, teamProvider.id, [{ id: 't2', publishedAt: null, status: 'FAILED' }], {
        teamId: team.id,
        status: 'FAILED',
        scheduledAt: '2026-11-17T08:00:00.000Z',
      });
      await seedThread(ctx, owner.account.id, personal.id, [{ id: 'p1', publishedAt: '2026-11-17T10:00:00.000Z', views: 20, likes: 1 }]);
      await seedThread(ctx, owner.account.id, personal.id, [{ id: 'p2', publishedAt: '2026-11-18T10:00:00.000Z', views: 5, likes: 1 }]);

      const teamSummary = await summary(app, owner, `${RANGE}&teamId=${team.id}`);
      assert.equal(teamSummary.statusCode, 200, teamSummary.body);
      assert.deepEqual(
        [teamSummary.json().published, teamSummary.json().failed, teamSummary.json().topPosts.map((p: { postId: string }) => p.postId)],
        [1, 1, ['t1']],
      );
      const own = (await summary(app, owner, `${RANGE}&teamId=personal`)).json();
      assert.deepEqual([own.published, own.failed, own.topPosts.map((p: { postId: string }) => p.postId)], [2, 0, ['p1', 'p2']]);
      // A viewer reads the team's (analytics are a read of the workspace).
      const asViewer = await summary(app, viewer, `${RANGE}&teamId=${team.id}`);
      assert.equal(asViewer.statusCode, 200, asViewer.body);
      assert.deepEqual(asViewer.json(), teamSummary.json());
      assert.equal((await summary(app, stranger, `${RANGE}&teamId=${team.id}`)).statusCode, 404);
      // The stranger's own workspace is empty.
      const empty = await summary(app, stranger);
      assert.deepEqual(empty.json(), { from: '2026-11-15T12:00:00.000Z', to: '2026-11-22T12:00:00.000Z', published: 0, failed: 0, topPosts: [] });
    });

    test('attention items name their thread by its first post (the home page reads no thread for it); account items have no text', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const long = `\n ${'é'.repeat(120)} `;
      const threadId = await seedThread(
        ctx,
        user.account.id,
        provider.id,
        [
          { id: 'n1', publishedAt: null, status: 'FAILED', text: long },
          { id: 'n2', publishedAt: null, status: 'READY', text: 'second' },
        ],
        { status: 'FAILED' },
      );
      await ctx.db.updateTable('providers').set({ status: 'EXPIRED' }).where('id', '=', provider.id).execute();
      const res = await user.call(app, { method: 'GET', url: '/api/v1/attention?limit=10' });
      assert.equal(res.statusCode, 200, res.body);
      const items = res.json().items as Array<{ kind: string; threadId?: string; threadText?: string }>;
      const failed = items.find((i) => i.kind === 'THREAD_FAILED');
      assert.equal(failed?.threadId, threadId);
      assert.equal(failed?.threadText, `${'é'.repeat(99)}…`);
      const expired = items.find((i) => i.kind === 'PROVIDER_EXPIRED');
      assert.ok(expired && !('threadText' in expired), JSON.stringify(items));
    });

    test('bad input is a 400 naming each field', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const paths = async (query: string) => {
        const res = await summary(app, user, query);
        assert.equal(res.statusCode, 400, res.body);
        assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
        return res
          .json()
          .errors.map((e: { path: string }) => e.path)
          .sort();
      };
      assert.deepEqual(await paths('to=2026-11-22T12:00:00Z'), ['from']);
      assert.deepEqual(await paths('from=yesterday&to=2026-13-01T00:00:00'), ['from', 'to']);
      assert.deepEqual(await paths('from=2026-11-22T12:00:00Z&to=2026-11-15T12:00:00Z'), ['from']);
      assert.deepEqual(await paths('from=2025-01-01T00:00:00Z&to=2026-11-15T12:00:00Z'), ['to']);
      assert.equal((await summary(app, user, `${RANGE}&teamId=no-such-team`)).statusCode, 404);
    });

    test('one statement for a personal workspace, two for a team (its membership), whatever the accounts and threads', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const team = await createTeamWith(ctx, user.account);
      for (let i = 0; i < 6; i++) {
        const p = await createProvider(ctx, user.account, 'THREADS', i % 2 ? team.id : null);
        await seedThread(ctx, user.account.id, p.id, [{ id: `r${i}`, publishedAt: '2026-11-16T10:00:00.000Z', views: i, likes: i }], {
          ...(i % 2 ? { teamId: team.id } : {}),
        });
      }
      await untilKeyCached(ctx, user.key, () => summary(app, user));
      const personal = await counter.measure(async () => assert.equal((await summary(app, user, `${RANGE}&teamId=personal`)).statusCode, 200));
      assert.equal(personal.count, 1, personal.statements.join('\n---\n'));
      const inTeam = await counter.measure(async () => assert.equal((await summary(app, user, `${RANGE}&teamId=${team.id}`)).statusCode, 200));
      assert.equal(inTeam.count, 2, inTeam.statements.join('\n---\n'));
    });
  },
  { countRoundTrips: counter },
);
