import assert from 'node:assert/strict';
import { test } from 'node:test';
import { up } from '../../../src/db/migrations/0019-media-type-backfill.js';
import { describeEachDb } from '../../helpers/context.js';
import { createProvider, createUser } from '../../helpers/seeds.js';

/** Media URLs and what `postMedia[].type` each must read after the backfill. */
const CASES: Array<[string, 'IMAGE' | 'VIDEO']> = [
  ['https://cdn.example/clip.mp4', 'VIDEO'],
  ['https://cdn.example/a/b/Clip.MOV', 'VIDEO'],
  ['https://cdn.example/clip.m4v?sig=abc.jpg', 'VIDEO'],
  ['https://cdn.example/clip.mp4#t=3', 'VIDEO'],
  ['https://cdn.example/photo.jpg', 'IMAGE'],
  ['https://cdn.example/photo.png?name=clip.mp4', 'IMAGE'],
  ['https://cdn.example/clip.mp4.jpg', 'IMAGE'],
  ['https://clip.mp4', 'IMAGE'],
];

describeEachDb('migration 0019: the media type of rows stored before media kinds existed', (env) => {
  test('items stored as IMAGE whose URL path ends in .mp4/.mov/.m4v become VIDEO; the rest stay; a second run changes nothing', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account, 'THREADS');
    const created = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, posts: CASES.map((_, n) => ({ text: `post ${n}` })) },
    });
    assert.equal(created.statusCode, 201, created.body);
    const threadId = created.json().threadId;
    // As rows written before media kinds existed: the column's default, whatever the URL.
    const posts = await ctx.db.selectFrom('posts').select('id').where('thread_id', '=', threadId).orderBy('post_order').execute();
    await ctx.db
      .insertInto('media')
      .values(CASES.map(([url], n) => ({ id: `m${n}-${threadId}`, post_id: posts[n]!.id, position: 0, url, alt_text: null, type: 'IMAGE' as const })))
      .execute();

    const types = async () => {
      const { thread } = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json();
      return thread.posts.map((post: { postMedia: Array<{ url: string; type: string }> }) => [post.postMedia[0]!.url, post.postMedia[0]!.type]);
    };
    assert.ok((await types()).every(([, type]: [string, string]) => type === 'IMAGE'));
    await up(ctx.db);
    assert.deepEqual(await types(), CASES);
    await up(ctx.db);
    assert.deepEqual(await types(), CASES);
  });
});
