/**
 * Round trips to the database per request: counted at the driver, so a request that starts
 * making more fails here. BEGIN and COMMIT count; authentication counts (a key's first use
 * reads it, later uses are served from the key cache).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../helpers/context.js';
import { RoundTripCounter, untilKeyCached, untilThreadViewsListening } from '../helpers/round-trips.js';
import { createProvider, createTeamWith, createUser } from '../helpers/seeds.js';

const counter = new RoundTripCounter();

function post(i: number) {
  return {
    text: `post ${i} spoiler`,
    media: [{ url: `https://img.example/${i}.png`, altText: `alt ${i}` }],
    spoilerRanges: [{ offset: 0, length: 4 }],
    isSpoilerMedia: true,
  };
}

describeEachDb(
  'round trips per request',
  (env) => {
    test('GET thread: one round trip from the database, none from the thread view cache; a write here is seen at the next read (personal and team thread)', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: '2026-12-01T09:00:00', posts: [post(0), post(1), post(2)] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { threadId } = created.json();
      const get = () => user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
      const first = await get();
      assert.equal(first.statusCode, 200);
      await untilKeyCached(ctx, user.key, get);
      await untilThreadViewsListening(counter, get);
      // Dropped as a write would drop it: this read goes to the database.
      ctx.threadViews.changedHere();
      let res: Awaited<ReturnType<typeof get>> | undefined;
      const measured = await counter.measure(async () => {
        res = await get();
      });
      assert.equal(res!.statusCode, 200);
      assert.deepEqual(res!.json(), first.json());
      const thread = res!.json().thread;
      assert.equal(thread.posts.length, 3);
      assert.deepEqual(
        thread.posts[1].postMedia.map((m: { url: string; altText: string }) => [m.url, m.altText]),
        [['https://img.example/1.png', 'alt 1']],
      );
      assert.deepEqual(thread.posts[2].spoilerRanges, [{ offset: 0, length: 4 }]);
      assert.equal(measured.count, 1, `GET thread took ${measured.count} round trips:\n${measured.statements.join('\n')}`);
      let cachedRes: Awaited<ReturnType<typeof get>> | undefined;
      const cached = await counter.measure(async () => {
        cachedRes = await get();
      });
      assert.equal(cached.count, 0, cached.statements.join('\n'));
      assert.deepEqual(cachedRes!.json(), first.json());
      assert.equal(cachedRes!.headers.etag, first.headers.etag);

      // An edit through this instance: the next read shows it and its new ETag, before any NOTIFY is heard.
      const postId = thread.posts[0].id;
      const edited = await user.call(app, { method: 'PATCH', url: `/api/v1/posts/${threadId}/posts/${postId}`, payload: { content: 'edited here' } });
      assert.equal(edited.statusCode, 200, edited.body);
      const after = await get();
      assert.equal(after.json().thread.posts[0].content, 'edited here');
      assert.notEqual(after.headers.etag, first.headers.etag);

      // A team thread, read by a member: the membership check is in the same statement.
      const member = await createUser(ctx);
      const team = await createTeamWith(ctx, user.account, [member.account]);
      const teamProvider = await createProvider(ctx, user.account, 'THREADS', team.id);
      const teamThread = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: teamProvider.id, teamId: team.id, posts: [post(0)] },
      });
      assert.equal(teamThread.statusCode, 201, teamThread.body);
      const getTeam = () => member.call(app, { method: 'GET', url: `/api/v1/posts/${teamThread.json().threadId}` });
      assert.equal((await getTeam()).statusCode, 200);
      await untilKeyCached(ctx, member.key, getTeam);
      ctx.threadViews.changedHere();
      const team2 = await counter.measure(async () => assert.equal((await getTeam()).statusCode, 200));
      assert.equal(team2.count, 1, `GET team thread took ${team2.count} round trips:\n${team2.statements.join('\n')}`);
      // Kept per reader: another account's read is its own access check, not the member's answer.
      const outsider = await createUser(ctx);
      assert.equal((await outsider.call(app, { method: 'GET', url: `/api/v1/posts/${teamThread.json().threadId}` })).statusCode, 404);
    });

    test('Create: one read, then one statement (data-modifying CTEs, no transaction); as many round trips for 5 posts as for 1', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      // Drafts: a scheduled thread also sends a NOTIFY after the response (the publisher's wake-up).
      const create = (n: number) =>
        user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: Array.from({ length: n }, (_, i) => post(i)) } });
      await untilKeyCached(ctx, user.key, () => user.call(app, { method: 'GET', url: '/api/v1/keys' }));
      const one = await counter.measure(async () => assert.equal((await create(1)).statusCode, 201));
      const five = await counter.measure(async () => assert.equal((await create(5)).statusCode, 201));
      assert.equal(five.count, one.count, `1 post: ${one.statements.join('\n')}\n5 posts: ${five.statements.join('\n')}`);
      // The read, then the thread with its posts, media and spoiler ranges in one statement: no transaction.
      assert.equal(one.count, 2, `Create took ${one.count} round trips:\n${one.statements.join('\n')}`);
      assert.deepEqual(
        five.statements.map((s) => s.trim().split(/\s/)[0]!.toLowerCase()),
        ['select', 'with'],
        five.statements.join('\n'),
      );
      for (const table of ['threads', 'posts', 'media', 'spoiler_ranges']) assert.match(five.statements[1]!, new RegExp(`insert into "${table}"`));
      const posts = await user.call(app, { method: 'GET', url: '/api/v1/posts/drafts' });
      const newest = posts.json().drafts[0];
      assert.equal(newest.posts.length, 5);
      assert.deepEqual(
        newest.posts.map((p: { postMedia: Array<{ url: string }>; spoilerRanges: unknown[] }) => [p.postMedia[0]!.url, p.spoilerRanges.length]),
        [0, 1, 2, 3, 4].map((i) => [`https://img.example/${i}.png`, 1]),
      );
      // In a team workspace the membership check is part of that one read; the role check adds one lookup.
      const member = await createUser(ctx);
      const team = await createTeamWith(ctx, user.account, [member.account]);
      const teamProvider = await createProvider(ctx, user.account, 'THREADS', team.id);
      await untilKeyCached(ctx, member.key, () => member.call(app, { method: 'GET', url: '/api/v1/keys' }));
      const inTeam = await counter.measure(async () => {
        const res = await member.call(app, {
          method: 'POST',
          url: '/api/v1/posts',
          payload: { providerId: teamProvider.id, teamId: team.id, posts: [post(0)] },
        });
        assert.equal(res.statusCode, 201, res.body);
      });
      // The role check (plugins/access.ts) reads the member's role in the team first: one lookup by primary key.
      assert.equal(inTeam.count, one.count + 1, inTeam.statements.join('\n'));
      const outsider = await createUser(ctx);
      const refused = await outsider.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: teamProvider.id, teamId: team.id, posts: [post(0)] },
      });
      assert.equal(refused.statusCode, 404, refused.body);
      const got = await user.call(app, { method: 'GET', url: '/api/v1/posts?from=2000-01-01T00:00:00&to=2000-01-02T00:00:00' });
      assert.equal(got.statusCode, 200);
    });

    test('Create with tags: the tags cost two round trips (create the missing, link) and a transaction; none without', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const create = (tags?: string[]) =>
        user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [post(0)], ...(tags ? { tags } : {}) } });
      await untilKeyCached(ctx, user.key, () => user.call(app, { method: 'GET', url: '/api/v1/keys' }));
      const plain = await counter.measure(async () => assert.equal((await create()).statusCode, 201));
      const empty = await counter.measure(async () => assert.equal((await create([])).statusCode, 201));
      const tagged = await counter.measure(async () => assert.equal((await create(['a', 'B', 'c'])).statusCode, 201));
      assert.equal(plain.count, 2, plain.statements.join('\n'));
      assert.equal(empty.count, plain.count, empty.statements.join('\n'));
      // Tags need a transaction (BEGIN, COMMIT) around the thread's statement and their two.
      assert.equal(tagged.count, plain.count + 4, tagged.statements.join('\n'));
      assert.equal(tagged.statements.filter((s) => /^begin/i.test(s)).length, 1);
      assert.deepEqual(
        tagged.statements.filter((s) => /^delete/i.test(s)),
        [],
      );
    });

    test('Set Thread Tags: five round trips (the role check, the locked read with the missing tags, the links with the version bump and the answer), with or without tags', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const created = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [post(0)] } });
      const threadId = created.json().threadId as string;
      const setTags = (tagNames: string[]) => user.call(app, { method: 'PUT', url: `/api/v1/posts/${threadId}/tags`, payload: { tagNames } });
      await untilKeyCached(ctx, user.key, () => user.call(app, { method: 'GET', url: '/api/v1/keys' }));
      for (const [names, expected] of [
        [
          ['b', 'A'],
          ['A', 'b'],
        ],
        // An existing tag keeps its spelling.
        [
          ['a', 'c'],
          ['A', 'c'],
        ],
        [[], []],
      ] as const) {
        const before = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).headers.etag;
        const set = await counter.measure(async () => {
          const res = await setTags([...names]);
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(
            res.json().tags.map((t: { name: string }) => t.name),
            expected,
          );
        });
        // Four, and the role check's lookup of the thread's team and the caller's role there (plugins/access.ts).
        assert.equal(set.count, 5, set.statements.join('\n'));
        const read = await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}/tags` });
        assert.deepEqual(
          read.json().tags.map((t: { name: string }) => t.name),
          expected,
        );
        assert.notEqual((await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).headers.etag, before, 'the version is bumped');
      }
    });

    test('Edit Entire Thread: If-Match costs no round trip; tags and a new time ride in the same transaction', async () => {
      const { app, ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const created = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: provider.id, posts: [post(0), post(1)] } });
      const threadId = created.json().threadId as string;
      const read = () => user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
      await untilKeyCached(ctx, user.key, read);
      const ids = (await read()).json().thread.posts.map((p: { id: string }) => p.id);
      const edit = (extra: object, headers: Record<string, string> = {}) =>
        user.call(app, {
          method: 'PUT',
          url: `/api/v1/posts/${threadId}/edit`,
          payload: { posts: ids.map((id: string) => ({ id, text: 'x' })), ...extra },
          headers,
        });
      const plain = await counter.measure(async () => assert.equal((await edit({})).statusCode, 200));
      const etag = (await read()).headers.etag as string;
      const conditional = await counter.measure(async () => assert.equal((await edit({}, { 'if-match': etag })).statusCode, 200));
      assert.equal(conditional.count, plain.count, `${plain.statements.join('\n')}\n---\n${conditional.statements.join('\n')}`);
      const whole = await counter.measure(async () => assert.equal((await edit({ tags: ['a', 'b'], scheduleAt: '2026-12-01T09:00:00Z' })).statusCode, 200));
      // The tags: create the missing, unlink the others, link; the time rides on the version bump.
      assert.equal(whole.count, plain.count + 3, whole.statements.join('\n'));
      assert.equal(whole.statements.filter((s) => /^begin/i.test(s)).length, 1);
      assert.equal(whole.statements.filter((s) => /^commit/i.test(s)).length, 1);
    });
  },
  { countRoundTrips: counter },
);
