/**
 * One reader per body holds the two paths of a request together (docs/architecture.md
 * "Validation"): the validation guard answers a body with shape faults with the content faults
 * its route's reader finds, and the writing path refuses a well-formed body with that reader's
 * faults. Per route: a well-formed body with a content fault answers it; the same body with a
 * shape fault added answers both, the content fault with the same path and message; nothing is
 * written. Then fast-check bodies for Create Post: the guard's content faults are the writing
 * path's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { FieldFault } from '../../src/errors/index.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser, rowCounts, type TestUser } from '../helpers/seeds.js';

interface Route {
  name: string;
  method: 'POST' | 'PUT' | 'PATCH';
  url: string;
  /** Well-formed, with content faults only. */
  body: Record<string, unknown> | unknown[];
  /** The same body with one shape fault added, and that fault's path. */
  withShapeFault: Record<string, unknown> | unknown[];
  shapePath: string;
  /** A public route, called without a key. */
  anonymous?: boolean;
}

async function faultsOf(app: FastifyInstance, user: TestUser, route: Route, body: unknown): Promise<FieldFault[]> {
  const request = { method: route.method, url: route.url, payload: body as object };
  const res = route.anonymous ? await app.inject(request) : await user.call(app, request);
  assert.equal(res.statusCode, 400, `${route.name}: ${res.body.slice(0, 500)}`);
  return res.json().errors;
}

const byPath = (a: FieldFault, b: FieldFault) => (a.path + a.message < b.path + b.message ? -1 : 1);

describeEachDb('the guard and the writing path find the same content faults', (env) => {
  test('per route: a content fault alone, and with a shape fault, is the same fault', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account, 'THREADS');
    const created = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: threads.id, posts: [{ text: 'base' }] } });
    assert.equal(created.statusCode, 201, created.body);
    const threadId = created.json().threadId as string;
    const postId = (await user.call(app, { method: 'GET', url: `/api/v1/posts/${threadId}` })).json().thread.posts[0].id as string;
    // Faults that need the database: an upload of no workspace, a quote of no post of this one.
    const notAnUpload = `${ctx.config.http.publicUrl.replace(/\/$/, '')}/media/01a00000-0000-7000-8000-000000000000.png`;
    const unknownPost = '01a00000-0000-7000-8000-000000000001';
    const createBody = { providerId: threads.id, posts: [{ text: '  ' }, { text: 'ok', quote: unknownPost, media: [{ url: notAnUpload }] }] };

    const routes: Route[] = [
      {
        name: 'Create Post',
        method: 'POST',
        url: '/api/v1/posts',
        body: createBody,
        withShapeFault: { ...createBody, quotesDisabled: 'no' },
        shapePath: 'quotesDisabled',
      },
      {
        name: 'Edit Entire Thread',
        method: 'PUT',
        url: `/api/v1/posts/${threadId}/edit`,
        body: {
          posts: [
            { id: postId, text: 'a'.repeat(501) },
            { text: 'ok', media: [{ url: notAnUpload }] },
          ],
        },
        withShapeFault: {
          posts: [
            { id: postId, text: 'a'.repeat(501) },
            { text: 'ok', media: [{ url: notAnUpload }] },
          ],
          quotesDisabled: 3,
        },
        shapePath: 'quotesDisabled',
      },
      {
        name: 'Edit Single Post',
        method: 'PATCH',
        url: `/api/v1/posts/${threadId}/posts/${postId}`,
        body: { content: ' ', media: [{ url: notAnUpload }] },
        withShapeFault: { content: ' ', media: [{ url: notAnUpload }], topic: 5 },
        shapePath: 'topic',
      },
      {
        name: 'Create Follow-up',
        method: 'POST',
        url: `/api/v1/posts/${threadId}/follow-ups`,
        body: { text: '', delayMinutes: 10, media: [{ url: notAnUpload }] },
        withShapeFault: { text: '', delayMinutes: 'soon', media: [{ url: notAnUpload }] },
        shapePath: 'delayMinutes',
      },
      {
        name: 'Import',
        method: 'POST',
        url: '/api/v1/posts/import',
        body: [createBody, { providerId: 'not-a-provider', posts: [{ text: 'ok' }] }],
        withShapeFault: [createBody, { providerId: 'not-a-provider', posts: [{ text: 'ok' }] }, { providerId: threads.id, posts: 5 }],
        shapePath: 'rows.2.posts',
      },
      {
        name: 'Create Webhook',
        method: 'POST',
        url: '/api/v1/webhooks',
        body: { url: 'https://hooks.example/skein', events: ['thread.published', 'thread.published'] },
        withShapeFault: { url: 'https://hooks.example/skein', events: ['thread.published', 'thread.published'], teamId: 5 },
        shapePath: 'teamId',
      },
      {
        name: 'Update Account',
        method: 'PATCH',
        url: '/api/v1/account',
        body: { timezone: 'Mars/Base' },
        withShapeFault: { timezone: 'Mars/Base', activeTeamId: 5 },
        shapePath: 'activeTeamId',
      },
      {
        name: 'Set Auto-plug',
        method: 'PUT',
        url: '/api/v1/auto-plug',
        // The text's length rules need no other field (its emptiness rule needs `enabled`).
        body: { enabled: true, text: 'x'.repeat(600), minLikes: 0 },
        withShapeFault: { enabled: 'yes', text: 'x'.repeat(600), minLikes: 0 },
        shapePath: 'enabled',
      },
      {
        name: 'Set Password',
        method: 'POST',
        url: '/api/v1/auth/password',
        body: { token: 'not a token', password: 'short' },
        withShapeFault: { token: 5, password: 'short' },
        shapePath: 'token',
        anonymous: true,
      },
    ];

    const before = await rowCounts(ctx);
    for (const route of routes) {
      const writing = (await faultsOf(app, user, route, route.body)).sort(byPath);
      assert.ok(writing.length > 0, route.name);
      const guard = await faultsOf(app, user, route, route.withShapeFault);
      const shape = guard.filter((f) => f.path === route.shapePath);
      assert.equal(shape.length, 1, `${route.name}: ${JSON.stringify(guard)}`);
      assert.deepEqual(
        guard.filter((f) => f.path !== route.shapePath).sort(byPath),
        writing,
        `${route.name}: the guard's content faults are the writing path's`,
      );
    }
    assert.deepEqual(await rowCounts(ctx), before);
  });

  test('Create Post, generated bodies: the guard answers the writing path content faults, plus the shape fault', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const threads = await createProvider(ctx, user.account, 'THREADS');
    const bluesky = await createProvider(ctx, user.account, 'BLUESKY');
    const text = fc.constantFrom('ok', '', '   ', 'a'.repeat(301), 'a'.repeat(501), 'spoiler here');
    const post = fc.record(
      {
        text,
        topic: fc.constantFrom('news', 'a.b', 'x'.repeat(60)),
        spoilerRanges: fc.constantFrom([{ offset: 0, length: 2 }], [{ offset: 40, length: 5 }]),
      },
      { requiredKeys: ['text'] },
    );
    const body = fc.record(
      {
        providerId: fc.constantFrom(threads.id, bluesky.id, 'not-a-provider'),
        posts: fc.array(post, { minLength: 1, maxLength: 3 }),
        replyControl: fc.constantFrom('everyone', 'mentioned'),
        tags: fc.constantFrom(['a'], ['  '], ['x'.repeat(51)]),
        scheduleAt: fc.constantFrom('2026-12-01T09:00:00', '2020-01-01T00:00:00', 'tomorrow'),
        autoRepost: fc.constantFrom({ enabled: true, delays: [] }, { enabled: true, delays: ['PT6H'] }),
      },
      { requiredKeys: ['providerId', 'posts'] },
    );
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const written = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: b });
        // Created (no content fault) or refused (404 for an unknown provider): nothing to compare.
        if (written.statusCode !== 400) return;
        const writing = (written.json().errors as FieldFault[]).sort(byPath);
        const guarded = await user.call(app, { method: 'POST', url: '/api/v1/posts', payload: { ...b, quotesDisabled: 'no' } });
        assert.equal(guarded.statusCode, 400, guarded.body);
        const guard = guarded.json().errors as FieldFault[];
        compared++;
        assert.deepEqual(guard.filter((f) => f.path !== 'quotesDisabled').sort(byPath), writing, JSON.stringify(b));
      }),
      { numRuns: 40, seed: 38 },
    );
    assert.ok(compared >= 10, `only ${compared} bodies had content faults`);
  });
});
