/**
 * The thread view cache against every table a thread's view is made of: a write to any of them,
 * by whatever code (here plain SQL, as a worker, an import or psql would write), is seen by the
 * next Get Thread and List Posts. On PGlite that is the database's own announcement (migration
 * 0021's triggers, heard in process); on PostgreSQL this process's commit empties the cache too.
 * Each read first comes from the cache (no round trip), so a missing trigger fails here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import { sql } from 'kysely';
import { ListedThread, Thread } from '../../src/http/schemas/threads.js';
import { describeEachDb } from '../helpers/context.js';
import { RoundTripCounter, untilKeyCached, untilThreadViewsListening } from '../helpers/round-trips.js';
import { createProvider, createTeamWith, createUser } from '../helpers/seeds.js';

const counter = new RoundTripCounter();

describeEachDb(
  'thread view cache',
  (env) => {
    test('a write to any table of the view is seen by the next Get Thread and List Posts', async () => {
      const { app, ctx } = env();
      const owner = await createUser(ctx);
      const member = await createUser(ctx);
      const team = await createTeamWith(ctx, owner.account, [member.account]);
      const provider = await createProvider(ctx, owner.account, 'THREADS', team.id);
      const created = await member.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: {
          providerId: provider.id,
          teamId: team.id,
          scheduleAt: '2030-05-06T09:00:00',
          tags: ['launch'],
          posts: [{ text: 'one', media: [{ url: 'https://img.example/1.png', altText: 'before' }] }, { text: 'two' }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { threadId } = created.json();
      const get = () => member.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
      const list = () =>
        member.call(app, { method: 'GET', url: `/api/v1/posts?teamId=${team.id}&from=2030-05-06T00:00:00&to=2030-05-06T23:59:59&include=tags` });
      // A page of the same range is kept as the whole range is, and dropped by the same changes.
      const page = () =>
        member.call(app, { method: 'GET', url: `/api/v1/posts?teamId=${team.id}&from=2030-05-06T00:00:00&to=2030-05-06T23:59:59&include=tags&limit=1` });
      await untilKeyCached(ctx, member.key, get);
      await untilThreadViewsListening(counter, get);
      await untilThreadViewsListening(counter, list);
      await untilThreadViewsListening(counter, page);

      /** `write` (SQL, outside any request), then the reads: each shows what `seen` checks. */
      const after = async (what: string, write: string, seen: (thread: any, listed: any) => void) => {
        await sql.raw(write.replaceAll(':thread', `'${threadId}'`)).execute(ctx.db);
        const [got, listedRes, pageRes] = [await get(), await list(), await page()];
        assert.equal(got.statusCode, 200, `${what}: ${got.body}`);
        assert.equal(listedRes.statusCode, 200, `${what}: ${listedRes.body}`);
        assert.equal(pageRes.statusCode, 200, `${what}: ${pageRes.body}`);
        const thread = got.json().thread;
        const listed = listedRes.json().threads[0];
        seen(thread, listed);
        seen(thread, pageRes.json().threads[0]);
        // Kept again: the next reads cost nothing (once this write's own NOTIFY, which on
        // PostgreSQL may come after the reads above, has been heard).
        await untilThreadViewsListening(counter, () => Promise.all([get(), list(), page()]));
      };
      await after('thread', `UPDATE threads SET reply_control = 'mentioned' WHERE id = :thread`, (t, l) => {
        assert.equal(t.replyControl, 'mentioned');
        assert.equal(l.replyControl, 'mentioned');
      });
      await after('post', `UPDATE posts SET content = 'one, edited' WHERE thread_id = :thread AND post_order = 0`, (t, l) => {
        assert.equal(t.posts[0].content, 'one, edited');
        assert.equal(l.posts[0].content, 'one, edited');
      });
      await after('publishing progress', `UPDATE posts SET permalink = 'https://threads.example/p/2' WHERE thread_id = :thread AND post_order = 1`, (t) => {
        assert.equal(t.posts[1].permaLink, 'https://threads.example/p/2');
      });
      await after('media', `UPDATE media SET alt_text = 'after' WHERE post_id IN (SELECT id FROM posts WHERE thread_id = :thread)`, (t, l) => {
        assert.equal(t.posts[0].postMedia[0].altText, 'after');
        assert.equal(l.posts[0].postMedia[0].altText, 'after');
      });
      await after(
        'spoiler ranges',
        `INSERT INTO spoiler_ranges (post_id, position, "offset", length) SELECT id, 0, 0, 3 FROM posts WHERE thread_id = :thread AND post_order = 1`,
        (t) => assert.deepEqual(t.posts[1].spoilerRanges, [{ offset: 0, length: 3 }]),
      );
      await after('tag renamed', `UPDATE tags SET name = 'relaunch' WHERE name = 'launch'`, (_t, l) => {
        assert.deepEqual(
          l.tags.map((tag: { name: string }) => tag.name),
          ['relaunch'],
        );
      });
      await after('tag unlinked', `DELETE FROM thread_tags WHERE thread_id = :thread`, (_t, l) => assert.deepEqual(l.tags, []));
      await after('provider', `UPDATE providers SET provider_user_id = 'moved' WHERE id = '${provider.id}'`, (t, l) => {
        assert.equal(t.providerUserId, 'moved');
        assert.equal(l.providerUserId, 'moved');
      });

      // A membership ended: the former member's kept answers are not served any more.
      await sql`DELETE FROM memberships WHERE account_id = ${member.account.id}`.execute(ctx.db);
      assert.equal((await get()).statusCode, 404);
      assert.equal((await list()).statusCode, 404);
      assert.equal((await page()).statusCode, 404);
      // The thread deleted: not found for its owner either.
      const ownerGet = () => owner.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
      assert.equal((await ownerGet()).statusCode, 200);
      await sql`DELETE FROM threads WHERE id = ${threadId}`.execute(ctx.db);
      assert.equal((await ownerGet()).statusCode, 404);
    });

    test('List Drafts is kept per reader and workspace, and a change to a draft, a new draft or a draft scheduled is seen by the next read', async () => {
      const { app, ctx } = env();
      const owner = await createUser(ctx);
      const member = await createUser(ctx);
      const team = await createTeamWith(ctx, owner.account, [member.account]);
      const provider = await createProvider(ctx, owner.account, 'THREADS', team.id);
      const personal = await createProvider(ctx, member.account, 'THREADS');
      const draft = async (who: typeof owner, providerId: string, text: string, teamId?: string) => {
        const res = await who.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId, ...(teamId ? { teamId } : {}), posts: [{ text }] } });
        assert.equal(res.statusCode, 201, res.body);
        return res.json().threadId as string;
      };
      const first = await draft(member, provider.id, 'team draft', team.id);
      await draft(member, personal.id, 'personal draft');
      const drafts = (who: typeof owner, teamId: string) => who.call(app, { method: 'GET', url: `/api/v1/posts/drafts?teamId=${teamId}` });
      const texts = async (who: typeof owner, teamId: string) => {
        const res = await drafts(who, teamId);
        assert.equal(res.statusCode, 200, res.body);
        return res.json().drafts.map((d: { posts: Array<{ content: string }> }) => d.posts[0]!.content);
      };
      await untilKeyCached(ctx, member.key, () => drafts(member, team.id));
      await untilThreadViewsListening(counter, () => drafts(member, team.id));
      await untilThreadViewsListening(counter, () => drafts(member, 'personal'));
      assert.deepEqual(await texts(member, team.id), ['team draft']);
      assert.deepEqual(await texts(member, 'personal'), ['personal draft']);
      assert.deepEqual(await texts(owner, team.id), ['team draft'], "the team's drafts for another member too");

      await sql`UPDATE posts SET content = 'team draft, edited' WHERE thread_id = ${first}`.execute(ctx.db);
      assert.deepEqual(await texts(member, team.id), ['team draft, edited']);
      await draft(owner, provider.id, 'second team draft', team.id);
      assert.deepEqual((await texts(member, team.id)).sort(), ['second team draft', 'team draft, edited']);
      await sql`UPDATE threads SET scheduled_at = '2030-05-06T09:00:00Z' WHERE id = ${first}`.execute(ctx.db);
      assert.deepEqual(await texts(member, team.id), ['second team draft']);
      await untilThreadViewsListening(counter, () => drafts(member, team.id));
      // A membership ended: the kept answer is not served to the former member.
      await sql`DELETE FROM memberships WHERE account_id = ${member.account.id}`.execute(ctx.db);
      assert.equal((await drafts(member, team.id)).statusCode, 404);
    });

    test("a kept answer is the bytes the route schema serialises, with the same headers, and its List Posts range is read in the reader's zone", async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account, 'THREADS');
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: '2030-05-06T09:00:00', posts: [{ text: 'déjà vu 🧵 "quoted" \\ back' }, { text: 'two' }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { threadId } = created.json();
      const get = () => user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
      const listUrl = '/api/v1/posts?from=2030-05-06T08:30:00&to=2030-05-06T09:30:00';
      const list = () => user.call(app, { method: 'GET', url: listUrl });
      const page = () => user.call(app, { method: 'GET', url: `${listUrl}&limit=5` });
      await untilKeyCached(ctx, user.key, get);
      await untilThreadViewsListening(counter, get);
      await untilThreadViewsListening(counter, list);
      await untilThreadViewsListening(counter, page);

      const serialise = {
        get: fastJson(Type.Object({ thread: Thread })),
        list: fastJson(Type.Object({ threads: Type.Array(ListedThread), count: Type.Integer() })),
        page: fastJson(Type.Object({ threads: Type.Array(ListedThread), count: Type.Integer(), nextCursor: Type.Union([Type.String(), Type.Null()]) })),
      };
      for (const [name, read] of [
        ['get', get],
        ['list', list],
        ['page', page],
      ] as const) {
        const [first, second] = [await read(), await read()];
        for (const res of [first, second]) {
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
          assert.equal(Number(res.headers['content-length']), res.rawPayload.length);
          assert.equal(res.body, serialise[name](res.json()), `${name}: the schema's serialisation`);
        }
        assert.ok(first.rawPayload.equals(second.rawPayload), `${name}: the same bytes twice`);
        if (name === 'get') assert.equal(second.headers.etag, first.headers.etag);
      }
      assert.equal((await get()).json().thread.posts[0].content, 'déjà vu 🧵 "quoted" \\ back');
      assert.equal((await list()).json().count, 1);
      const head = await user.call(app, { method: 'HEAD', url: listUrl });
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers['content-length'], (await list()).headers['content-length']);

      // The same range written in the account's new zone (UTC+9) names other instants: not the kept answer.
      const moved = await user.call(app, { method: 'PATCH', url: '/api/v1/account', payload: { timezone: 'Asia/Tokyo' } });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal((await list()).json().count, 0);
      // Reversed, the range is still refused, kept answers or not.
      const reversed = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2030-05-06T09:30:00&to=2030-05-06T08:30:00' });
      assert.equal(reversed.statusCode, 400, reversed.body);
    });
  },
  { countRoundTrips: counter },
);
