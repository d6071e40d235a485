import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { httpUrlOrNull } from '../../src/lib/http-url.js';
import { withHttpPermalinks } from '../../src/networks/clients.js';
import type { Platform, PublishedRef } from '../../src/networks/platform.js';
import { networkHref } from '../../web/src/network-links.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';

/** URLs Skein shows from a network are http(s) only (decisions.md "Security rules"). */
const HOSTILE = [
  'javascript:alert(document.cookie)',
  'JavaScript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:x',
  '//evil.example/x',
  'not a url',
];

describe('a network URL is http(s) or nothing', () => {
  test('the server keeps http(s) URLs and drops every other', () => {
    for (const url of HOSTILE) assert.equal(httpUrlOrNull(url), null, url);
    assert.equal(httpUrlOrNull('https://mastodon.example/@me/1'), 'https://mastodon.example/@me/1');
    assert.equal(httpUrlOrNull(null), null);
  });

  test("the web app's links take http(s) URLs only", () => {
    for (const url of HOSTILE) assert.equal(networkHref(url), null, url);
    assert.equal(networkHref('https://bsky.app/profile/a/post/b'), 'https://bsky.app/profile/a/post/b');
  });

  test('a hostile server’s permalink is not stored: publishPost and lookUpPermalink answer null for it', async () => {
    const stub = {
      kind: 'MASTODON',
      publishPost: async (): Promise<PublishedRef> => ({ networkPostId: '1', cid: null, permalink: 'javascript:alert(1)' }),
      lookUpPermalink: async () => 'javascript:alert(2)',
    } as unknown as Platform;
    const platform = withHttpPermalinks(stub);
    assert.equal((await platform.publishPost({} as never)).permalink, null);
    assert.equal(await platform.lookUpPermalink({} as never, {} as never), null);
  });
});

describeEachDb('a stored non-http(s) permalink is never served', (env) => {
  test('thread view and follow-up view answer null for it', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const provider = await createProvider(ctx, user.account, 'BLUESKY');
    const created = await user.call(app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: provider.id, scheduleAt: '2030-01-01T10:00:00.000Z', posts: [{ text: 'one' }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const threadId = created.json().threadId as string;
    const followUp = await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: { text: 'later', delayMinutes: 60 } });
    assert.equal(followUp.statusCode, 201, followUp.body);
    // As a hostile server's answer would have been stored before this rule.
    await ctx.db.updateTable('posts').set({ permalink: 'javascript:alert(document.cookie)' }).where('thread_id', '=', threadId).execute();
    await ctx.db.updateTable('follow_ups').set({ permalink: 'javascript:alert(1)' }).where('thread_id', '=', threadId).execute();
    const thread = await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
    assert.equal(thread.statusCode, 200, thread.body);
    assert.doesNotMatch(thread.body, /javascript:/i);
    assert.equal(thread.json().thread.posts[0].permaLink, null);
    const followUps = await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}/follow-ups` });
    assert.equal(followUps.statusCode, 200, followUps.body);
    assert.doesNotMatch(followUps.body, /javascript:/i);
  });
});
