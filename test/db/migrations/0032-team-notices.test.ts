import assert from 'node:assert/strict';
import { test } from 'node:test';
import { down, up } from '../../../src/db/migrations/0032-team-notices.js';
import { setTeamMember } from '../../../src/services/accounts/members.js';
import { describeEachDb } from '../../helpers/context.js';
import { createProvider, createTeamWith, createUser } from '../../helpers/seeds.js';

describeEachDb('migration 0032: team notices over rows written before it', (env) => {
  test('a waiting or decided thread is its first request, asked by its author; saved choices keep theirs and get the defaults for the new kinds', async () => {
    const { app, ctx, clock } = env();
    const owner = await createUser(ctx);
    const writer = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account);
    await setTeamMember(ctx, team.id, writer.account, 'writer');
    const provider = await createProvider(ctx, owner.account, 'THREADS', team.id);
    const scheduleAt = new Date(clock.now().getTime() + 3_600_000).toISOString();
    const create = async (who: typeof owner) => {
      const res = await who.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, teamId: team.id, scheduleAt, posts: [{ text: 'x' }] },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().threadId as string;
    };
    const pending = await create(writer);
    const byOwner = await create(owner);
    const saved = await owner.call(app, { method: 'PATCH', url: '/api/v1/account/notifications', payload: { kinds: { THREAD_FAILED: 'daily' } } });
    assert.equal(saved.statusCode, 200, saved.body);

    // As the rows were before 0032.
    await down(ctx.db);
    await up(ctx.db);

    const rows = await ctx.db.selectFrom('threads').select(['id', 'approval_round', 'approval_asked_by']).where('id', 'in', [pending, byOwner]).execute();
    const byId = Object.fromEntries(rows.map((r) => [r.id, [r.approval_round, r.approval_asked_by]]));
    assert.deepEqual(byId[pending], [1, writer.account.id]);
    assert.deepEqual(byId[byOwner], [0, null]);
    const kinds = (await owner.call(app, { method: 'GET', url: '/api/v1/account/notifications' })).json().kinds;
    assert.deepEqual(kinds, {
      THREAD_FAILED: 'daily',
      FOLLOW_UP_FAILED: 'immediate',
      PROVIDER_EXPIRED: 'immediate',
      PROVIDER_REVOKED: 'off',
      APPROVAL_REQUESTED: 'immediate',
      THREAD_REJECTED: 'immediate',
      THREAD_APPROVED: 'off',
      COMMENT_MENTION: 'immediate',
    });
  });
});
