/**
 * GET /api/v1/attention: each kind appears when its cause does and leaves when it is gone, in
 * the caller's workspace only, newest first, in one statement (two for a team). The failures are
 * real: the publisher runs against the in-memory platform with queued faults.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { PublishError } from '../../src/networks/platform.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { describeEachDb } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { RoundTripCounter, untilKeyCached } from '../helpers/round-trips.js';
import { createProvider, createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';

const counter = new RoundTripCounter();
const MINUTE = 60_000;

interface Item {
  kind: string;
  at: string;
  providerId: string;
  threadId?: string;
  followUpId?: string;
  error?: { code: string; message: string };
}

describeEachDb(
  'attention: what needs the user',
  (env) => {
    const fake = new FakePlatform();
    const loop = () => new PublisherLoop(env().ctx, { THREADS: fake }, 'w-attention');
    /** Moves the clock past every thread scheduled so far by `thread()` and runs the publisher once. */
    const publishDue = async () => {
      env().clock.advance(11 * MINUTE);
      await loop().runOnce();
    };
    async function thread(user: TestUser, providerId: string, options: { inMs?: number; teamId?: string; media?: string } = {}) {
      const at = new Date(env().clock.now().getTime() + (options.inMs ?? 10 * MINUTE)).toISOString();
      const post = options.media ? { text: 'with a picture', media: [{ url: options.media, altText: 'a picture' }] } : { text: 'first' };
      const res = await user.call(env().app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId, scheduleAt: at, posts: [post, { text: 'second' }], ...(options.teamId ? { teamId: options.teamId } : {}) },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().threadId as string;
    }
    async function attention(user: TestUser, teamId?: string): Promise<Item[]> {
      const res = await user.call(env().app, { method: 'GET', url: `/api/v1/attention${teamId ? `?teamId=${teamId}` : ''}` });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.count, body.items.length);
      return body.items;
    }
    const kinds = (items: Item[]) => items.map((i) => `${i.kind} ${i.followUpId ?? i.threadId ?? i.providerId}`);

    test('a new user has nothing that needs them', async () => {
      const user = await createUser(env().ctx);
      assert.deepEqual(await attention(user), []);
      await createProvider(env().ctx, user.account);
      assert.deepEqual(await attention(user), []);
    });

    test("THREAD_FAILED with its failed post's error; it leaves when the thread is retried, or deleted", async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const first = await thread(user, provider.id);
      fake.faults.push(new PublishError('permanent', 'INVALID_MEDIA', 'The image is not accepted.'));
      await publishDue();
      const failedAt = ctx.clock.now().toISOString();
      const second = await thread(user, provider.id);
      fake.faults.push(new PublishError('permanent', 'MEDIA_UNREACHABLE', 'Threads cannot fetch https://cdn.example/a.jpg: it answered HTTP 404.'));
      await publishDue();
      const items = await attention(user);
      assert.deepEqual(items, [
        {
          kind: 'THREAD_FAILED',
          at: ctx.clock.now().toISOString(),
          providerId: provider.id,
          threadId: second,
          // Named by its first post's text (a snippet of at most 100 characters), in the same statement.
          threadText: 'first',
          error: { code: 'MEDIA_UNREACHABLE', message: 'Threads cannot fetch https://cdn.example/a.jpg: it answered HTTP 404.' },
        },
        {
          kind: 'THREAD_FAILED',
          at: failedAt,
          providerId: provider.id,
          threadId: first,
          threadText: 'first',
          error: { code: 'INVALID_MEDIA', message: 'The image is not accepted.' },
        },
      ]);

      const retry = await user.call(app, { method: 'POST', url: `/api/v1/posts/${first}/retry` });
      assert.equal(retry.statusCode, 200, retry.body);
      assert.deepEqual(kinds(await attention(user)), [`THREAD_FAILED ${second}`]);
      await loop().runOnce();
      assert.equal((await user.call(app, { method: 'GET', url: `/api/v1/posts/${first}` })).json().thread.status, 'PUBLISHED');
      assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${second}` })).statusCode, 200);
      assert.deepEqual(await attention(user), []);
    });

    test('a thread that fails before any post keeps its error in last_error: shown all the same', async () => {
      const { ctx } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const id = await thread(user, provider.id);
      // A thread whose network is not configured fails on its first unpublished post; one with
      // every post gone from FAILED (as an import could leave it) still shows last_error.
      await ctx.db.updateTable('threads').set({ status: 'FAILED', last_error: 'QUOTE_NOT_FOUND: The quoted post is gone.' }).where('id', '=', id).execute();
      const [item] = await attention(user);
      assert.deepEqual(item?.error, { code: 'QUOTE_NOT_FOUND', message: 'The quoted post is gone.' });
      await ctx.db.deleteFrom('threads').where('id', '=', id).execute();
    });

    test('FOLLOW_UP_FAILED with the error stored on it; it leaves when the follow-up is retried or deleted', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const id = await thread(user, provider.id);
      const res = await user.call(app, { method: 'POST', url: `/api/v1/posts/${id}/follow-ups`, payload: { text: 'one more thing', delayMinutes: 5 } });
      assert.equal(res.statusCode, 201, res.body);
      const followUpId = res.json().id as string;
      await publishDue();
      fake.faults.push(new PublishError('permanent', 'REPLY_REFUSED', 'Replies to this post are limited.'));
      await publishDue();
      assert.deepEqual(await attention(user), [
        {
          kind: 'FOLLOW_UP_FAILED',
          at: ctx.clock.now().toISOString(),
          providerId: provider.id,
          threadId: id,
          followUpId,
          threadText: 'first',
          error: { code: 'REPLY_REFUSED', message: 'Replies to this post are limited.' },
        },
      ]);
      // Retried: it leaves the list; failed again: back; deleted: gone.
      assert.equal((await user.call(app, { method: 'POST', url: `/api/v1/posts/${id}/follow-ups/${followUpId}/retry` })).statusCode, 200);
      assert.deepEqual(await attention(user), []);
      fake.faults.push(new PublishError('permanent', 'REPLY_REFUSED', 'Replies to this post are limited.'));
      await publishDue();
      assert.deepEqual(
        (await attention(user)).map((i) => i.kind),
        ['FOLLOW_UP_FAILED'],
      );
      assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${id}/follow-ups/${followUpId}` })).statusCode, 200);
      assert.deepEqual(await attention(user), []);
    });

    test('PROVIDER_EXPIRED and PROVIDER_REVOKED, with the threads due within 24 h on them; a reconnect ends them', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const other = await createProvider(ctx, user.account);
      // The network refuses the token: the thread fails and the account is EXPIRED.
      const refused = await thread(user, provider.id);
      fake.faults.push(new PublishError('auth', 'TOKEN_EXPIRED', 'The token expired.'));
      await publishDue();
      const expiredAt = ctx.clock.now().toISOString();
      const soon = await thread(user, provider.id, { inMs: 23 * 3_600_000 });
      const later = await thread(user, provider.id, { inMs: 25 * 3_600_000 });
      const soonAt = new Date(ctx.clock.now().getTime() + 23 * 3_600_000).toISOString();
      // Another account disconnected, with a thread due in an hour.
      const onOther = await thread(user, other.id, { inMs: 3_600_000 });
      env().clock.advance(MINUTE);
      assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/providers/${other.id}` })).statusCode, 200);
      const revokedAt = ctx.clock.now().toISOString();
      const items = await attention(user);
      assert.deepEqual(
        items.map(({ kind, at, providerId, threadId }) => ({ kind, at, providerId, threadId })),
        [
          { kind: 'PROVIDER_NOT_ACTIVE_FOR_DUE', at: soonAt, providerId: provider.id, threadId: soon },
          { kind: 'PROVIDER_NOT_ACTIVE_FOR_DUE', at: new Date(Date.parse(expiredAt) + 3_600_000).toISOString(), providerId: other.id, threadId: onOther },
          { kind: 'PROVIDER_REVOKED', at: revokedAt, providerId: other.id, threadId: undefined },
          { kind: 'PROVIDER_EXPIRED', at: expiredAt, providerId: provider.id, threadId: undefined },
          { kind: 'THREAD_FAILED', at: expiredAt, providerId: provider.id, threadId: refused },
        ],
      );
      assert.ok(!items.some((i) => i.threadId === later), 'a thread due in 25 h is not yet due');
      assert.deepEqual(items[4]!.error, { code: 'TOKEN_EXPIRED', message: 'The token expired.' });
      assert.ok(!('error' in items[0]!) && !('error' in items[2]!));

      // Reconnecting the expired account: it and its due thread leave; the failed thread stays until retried.
      const reconnect = (p: typeof provider) =>
        addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
          kind: 'THREADS',
          providerUserId: p.provider_user_id,
          username: p.username,
          accessToken: 'a new token',
        });
      await reconnect(provider);
      assert.deepEqual(kinds(await attention(user)), [`PROVIDER_NOT_ACTIVE_FOR_DUE ${onOther}`, `PROVIDER_REVOKED ${other.id}`, `THREAD_FAILED ${refused}`]);
      await reconnect(other);
      assert.deepEqual(kinds(await attention(user)), [`THREAD_FAILED ${refused}`]);
      for (const id of [refused, soon, later, onOther]) await user.call(app, { method: 'DELETE', url: `/api/v1/posts/${id}` });
      assert.deepEqual(await attention(user), []);
    });

    test("only the caller's workspace: another account sees nothing; teamId picks the team, a stranger's team is 404", async () => {
      const { ctx } = env();
      const owner = await createUser(ctx);
      const member = await createUser(ctx);
      const stranger = await createUser(ctx);
      const team = await createTeamWith(ctx, owner.account, [member.account]);
      const personal = await createProvider(ctx, owner.account);
      const shared = await createProvider(ctx, owner.account, 'THREADS', team.id);
      const mine = await thread(owner, personal.id);
      const ours = await thread(owner, shared.id, { teamId: team.id });
      fake.faults.push(new PublishError('permanent', 'INVALID_MEDIA', 'bad image'), new PublishError('permanent', 'INVALID_MEDIA', 'bad image'));
      await publishDue();
      assert.deepEqual(kinds(await attention(owner)), [`THREAD_FAILED ${mine}`]);
      assert.deepEqual(kinds(await attention(owner, 'personal')), [`THREAD_FAILED ${mine}`]);
      assert.deepEqual(kinds(await attention(owner, team.id)), [`THREAD_FAILED ${ours}`]);
      assert.deepEqual(kinds(await attention(member, team.id)), [`THREAD_FAILED ${ours}`]);
      assert.deepEqual(await attention(member), [], "the member's own workspace");
      assert.deepEqual(await attention(stranger), []);
      const refused = await stranger.call(env().app, { method: 'GET', url: `/api/v1/attention?teamId=${team.id}` });
      assert.equal(refused.statusCode, 404);
      assert.equal(refused.json().code, 'NOT_FOUND');
      for (const id of [mine, ours]) await owner.call(env().app, { method: 'DELETE', url: `/api/v1/posts/${id}${id === ours ? `?teamId=${team.id}` : ''}` });
    });

    test('one round trip (two for a team: its membership), however many items', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const team = await createTeamWith(ctx, user.account);
      const provider = await createProvider(ctx, user.account);
      for (let i = 0; i < 3; i++) await thread(user, provider.id);
      fake.faults.push(...[1, 2, 3].map(() => new PublishError('permanent', 'INVALID_MEDIA', 'bad image')));
      await publishDue();
      const get = (teamId?: string) => user.call(app, { method: 'GET', url: `/api/v1/attention${teamId ? `?teamId=${teamId}` : ''}` });
      await untilKeyCached(ctx, user.key, get);
      let count = 0;
      const personal = await counter.measure(async () => {
        count = (await get()).json().count;
      });
      assert.equal(count, 3);
      assert.equal(personal.count, 1, personal.statements.join('\n'));
      const inTeam = await counter.measure(async () => assert.equal((await get(team.id)).statusCode, 200));
      assert.equal(inTeam.count, 2, inTeam.statements.join('\n'));
    });
  },
  { countRoundTrips: counter },
);
