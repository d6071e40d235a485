import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTeamMember } from '../../src/services/accounts/members.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createTeamWith, createUser } from '../helpers/seeds.js';

describeEachDb('comments', (env) => {
  test('every member comments on a thread or one of its posts; a stranger cannot; faults change nothing; comment.created is sent', async () => {
    const { app, ctx, clock } = env();
    const owner = await createUser(ctx);
    const viewer = await createUser(ctx);
    const stranger = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account);
    await setTeamMember(ctx, team.id, viewer.account, 'viewer');
    const provider = await createProvider(ctx, owner.account, 'THREADS', team.id);
    await owner.call(app, {
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: { url: 'https://hooks.example/c', events: ['comment.created'], teamId: team.id },
    });
    const threadId = (
      await owner.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, teamId: team.id, posts: [{ text: 'a' }, { text: 'b' }] },
      })
    ).json().threadId;
    const postId = (await owner.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts[1].id;
    const url = `/api/v1/posts/${threadId}/comments`;

    const first = await viewer.call(app, { method: 'POST', url, payload: { text: `Love it @${owner.account.email}` } });
    assert.equal(first.statusCode, 201, first.body);
    assert.deepEqual(first.json(), {
      id: first.json().id,
      author: viewer.account.email,
      text: `Love it @${owner.account.email}`,
      postId: null,
      createdAt: clock.now().toISOString(),
    });
    const onPost = await owner.call(app, { method: 'POST', url, payload: { text: 'second post: shorter', postId } });
    assert.equal(onPost.statusCode, 201, onPost.body);

    for (const [payload, path] of [
      [{ text: 'x'.repeat(5_001) }, 'text'],
      [{ text: '   ' }, 'text'],
    ] as const) {
      const bad = await owner.call(app, { method: 'POST', url, payload });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().errors[0].path, path);
    }
    assert.equal((await owner.call(app, { method: 'POST', url, payload: { text: 'x', postId: 'no-such-post' } })).statusCode, 404);
    assert.equal((await stranger.call(app, { method: 'POST', url, payload: { text: 'hi' } })).statusCode, 404);
    assert.equal((await stranger.call(app, { method: 'GET', url })).statusCode, 404);

    const listed = (await viewer.call(app, { method: 'GET', url })).json().comments;
    assert.deepEqual(
      listed.map((c: { author: string; postId: string | null }) => [c.author, c.postId]),
      [
        [viewer.account.email, null],
        [owner.account.email, postId],
      ],
    );
    const events = await ctx.db.selectFrom('webhook_events').select('type').where('team_id', '=', team.id).execute();
    assert.deepEqual(
      events.map((e) => e.type),
      ['comment.created', 'comment.created'],
    );
  });
});
