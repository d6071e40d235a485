/**
 * Bulk import, the JSON form: Create Post bodies, each checked by Create Post's own rules, all
 * saved in one transaction or none; every fault of every row in one 400; dryRun; Idempotency-Key;
 * the queue's distinct slots; the round trips of a 1,000-thread import.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDb } from '../helpers/context.js';
import { pngBytes } from '../helpers/media-files.js';
import { RoundTripCounter } from '../helpers/round-trips.js';
import { createProvider, createTeamWith, createUser, rowCounts, threadTagNames, type UserWithProvider, userWithProvider } from '../helpers/seeds.js';

const counter = new RoundTripCounter();

function importJson(f: UserWithProvider, rows: unknown, query = '', headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return f.user.call(f.app, { method: 'POST', url: `/api/v1/posts/import${query}`, payload: rows as object, headers });
}

function paths(res: LightMyRequestResponse): string[] {
  return res
    .json()
    .errors.map((e: { path: string }) => e.path)
    .sort();
}

async function getThread(f: UserWithProvider, threadId: string) {
  const res = await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().thread;
}

async function addSlot(f: UserWithProvider, dayOfWeek: number, time: string) {
  const res = await f.user.call(f.app, { method: 'POST', url: '/api/v1/time-slots', payload: { providerId: f.providerId, dayOfWeek, time } });
  assert.equal(res.statusCode, 201, res.body);
}

describeEachDb(
  'import (JSON)',
  (env) => {
    test('every Create Post field: tags, media (an upload too), options, drafts, topics, auto-repost; queue rows get distinct free slots', async () => {
      const f = await userWithProvider(env);
      await addSlot(f, 1, '09:00'); // Mondays; the clock is Sunday 2026-11-22 12:00 UTC
      const upload = await f.user.call(f.app, { method: 'POST', url: '/api/v1/media', payload: await pngBytes(), headers: { 'content-type': 'image/png' } });
      assert.equal(upload.statusCode, 201, upload.body);
      const uploadUrl: string = upload.json().url;
      const bluesky = await createProvider(f.ctx, f.user.account, 'BLUESKY');
      const rows = [
        {
          providerId: f.providerId,
          scheduleAt: '2026-12-01T10:00:00Z',
          tags: ['Launch', 'beta'],
          autoRepost: { enabled: true, delays: ['24'] },
          replyControl: 'followers',
          posts: [
            { text: 'first', topic: 'news', media: [{ url: 'https://img.example/a.png', altText: 'an a' }, { url: 'https://img.example/b.png' }] },
            { text: 'second', spoilerRanges: [{ offset: 0, length: 3 }] },
          ],
        },
        { providerId: f.providerId, posts: [{ text: 'a draft' }], tags: ['launch'] },
        { providerId: f.providerId, queue: true, posts: [{ text: 'queued 1' }] },
        { providerId: f.providerId, queue: true, posts: [{ text: 'queued 2' }] },
        // An upload's URL (on this server's private address, which only Threads refuses).
        { providerId: bluesky.id, scheduleAt: '2026-12-02T10:00:00Z', posts: [{ text: 'with an upload', media: [{ url: uploadUrl, altText: 'up' }] }] },
      ];
      const res = await importJson(f, rows);
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.equal(body.created, 5);
      assert.deepEqual(
        body.threads.map((t: { row: number; status: string; scheduledAt: string | null }) => [t.row, t.status, t.scheduledAt]),
        [
          [0, 'scheduled', '2026-12-01T10:00:00.000Z'],
          [1, 'draft', null],
          [2, 'scheduled', '2026-11-23T09:00:00.000Z'],
          [3, 'scheduled', '2026-11-30T09:00:00.000Z'],
          [4, 'scheduled', '2026-12-02T10:00:00.000Z'],
        ],
      );
      const uploaded = await getThread(f, body.threads[4].threadId);
      assert.deepEqual(
        uploaded.posts[0].postMedia.map((m: { url: string; altText: string | null }) => [m.url, m.altText]),
        [[uploadUrl, 'up']],
      );
      const first = await getThread(f, body.threads[0].threadId);
      assert.deepEqual(
        first.posts.map((p: { content: string; topic: string | null }) => [p.content, p.topic]),
        [
          ['first', 'news'],
          ['second', null],
        ],
      );
      assert.deepEqual(
        first.posts[0].postMedia.map((m: { url: string; altText: string | null }) => [m.url, m.altText]),
        [
          ['https://img.example/a.png', 'an a'],
          ['https://img.example/b.png', null],
        ],
      );
      assert.deepEqual(first.posts[1].spoilerRanges, [{ offset: 0, length: 3 }]);
      assert.deepEqual(first.posts[0].autoRepostDelay, ['24']);
      assert.equal(first.replyControl, 'followers');
      assert.deepEqual(await threadTagNames(f, body.threads[0].threadId), ['beta', 'Launch']);
      // Matched case-insensitively with the tag the first row created, in the same statement.
      assert.deepEqual(await threadTagNames(f, body.threads[1].threadId), ['Launch']);
      // A third queue thread through Create Post takes the slot after the imported ones.
      const next = await f.user.call(f.app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: f.providerId, queue: true, posts: [{ text: 'q3' }] },
      });
      assert.equal(next.json().scheduledAt, '2026-12-07T09:00:00.000Z');
    });

    test('every fault of every row in one 400, shape and content faults together, paths naming the row; nothing created', async () => {
      const f = await userWithProvider(env);
      const other = await createProvider(f.ctx, (await createUser(f.ctx)).account);
      const before = await rowCounts(f.ctx);
      const ok = { providerId: f.providerId, posts: [{ text: 'fine' }] };
      const res = await importJson(f, [
        ok,
        { providerId: f.providerId, posts: [{ text: 42 }, { text: '   ' }] },
        { providerId: f.providerId, scheduleAt: '2026-13-01T00:00:00', posts: [{ text: 'x'.repeat(501) }], tags: [' '] },
        ok,
        { providerId: other.id, posts: [{ text: 'not my account' }] },
        { providerId: f.providerId, posts: [{ text: 'ok', media: [{ url: `${f.ctx.config.http.publicUrl}/media/nosuchupload.png` }] }] },
      ]);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.deepEqual(paths(res), [
        'rows.1.posts.0.text',
        'rows.1.posts.1.text',
        'rows.2.posts.0.text',
        'rows.2.scheduleAt',
        'rows.2.tags.0',
        'rows.4.providerId',
        'rows.5.posts.0.media.0.url', // not an upload of this workspace
        'rows.5.posts.0.media.0.url', // and on a private address, which Threads cannot fetch
      ]);
      // Without the shape fault, the same content faults come from the import itself.
      const content = await importJson(f, [
        ok,
        { providerId: f.providerId, posts: [{ text: '   ' }] },
        { providerId: f.providerId, scheduleAt: '2020-01-01T00:00:00Z', posts: [{ text: 'late' }] },
        { providerId: other.id, posts: [{ text: 'not my account' }] },
        // An account not found, and the faults that need no network besides.
        { providerId: other.id, scheduleAt: '2020-01-01T00:00:00Z', posts: [{ text: '  ' }], repeat: { every: 0, unit: 'day' } },
      ]);
      assert.equal(content.statusCode, 400, content.body);
      assert.equal(content.json().code, 'VALIDATION_FAILED');
      assert.deepEqual(paths(content), [
        'rows.1.posts.0.text',
        'rows.2.scheduleAt',
        'rows.3.providerId',
        'rows.4.posts.0.text',
        'rows.4.providerId',
        'rows.4.repeat.every',
        'rows.4.scheduleAt',
      ]);
      assert.deepEqual(await rowCounts(f.ctx), before);
    });

    test('the import as a whole: an empty array, more than 1,000 threads, not an array', async () => {
      const f = await userWithProvider(env);
      const before = await rowCounts(f.ctx);
      const row = { providerId: f.providerId, posts: [{ text: 'x' }] };
      for (const [rows, path] of [
        [[], 'rows'],
        [Array.from({ length: 1001 }, () => row), 'rows'],
        [row, 'rows'],
      ] as const) {
        const res = await importJson(f, rows);
        assert.equal(res.statusCode, 400, res.body);
        assert.ok(paths(res).includes(path), res.body);
      }
      assert.deepEqual(await rowCounts(f.ctx), before);
    });

    test('dryRun=true answers the same without creating, and claims no queue slot', async () => {
      const f = await userWithProvider(env);
      await addSlot(f, 1, '09:00');
      const before = await rowCounts(f.ctx);
      const rows = [
        { providerId: f.providerId, queue: true, posts: [{ text: 'q1' }], tags: ['new tag'] },
        { providerId: f.providerId, queue: true, posts: [{ text: 'q2' }] },
      ];
      const dry = await importJson(f, rows, '?dryRun=true', { 'idempotency-key': 'dry-key' });
      assert.equal(dry.statusCode, 200, dry.body);
      assert.deepEqual(dry.json(), {
        created: 2,
        threads: [
          { row: 0, threadId: null, status: 'scheduled', scheduledAt: '2026-11-23T09:00:00.000Z' },
          { row: 1, threadId: null, status: 'scheduled', scheduledAt: '2026-11-30T09:00:00.000Z' },
        ],
      });
      assert.deepEqual(await rowCounts(f.ctx), before);
      // A dry run with faults answers them as the import would.
      const faulty = await importJson(f, [{ providerId: f.providerId, posts: [{ text: '' }] }], '?dryRun=true');
      assert.equal(faulty.statusCode, 400);
      assert.deepEqual(paths(faulty), ['rows.0.posts.0.text']);
      const real = await importJson(f, rows, '', { 'idempotency-key': 'dry-key' });
      assert.equal(real.statusCode, 201, real.body);
      assert.deepEqual(
        real.json().threads.map((t: { scheduledAt: string }) => t.scheduledAt),
        dry.json().threads.map((t: { scheduledAt: string }) => t.scheduledAt),
      );
    });

    test('Idempotency-Key: the same import again answers the first answer and creates nothing; another body with the key is 409', async () => {
      const f = await userWithProvider(env);
      const rows = [{ providerId: f.providerId, scheduleAt: '2026-12-01T10:00:00Z', posts: [{ text: 'once' }] }];
      const first = await importJson(f, rows, '', { 'idempotency-key': 'import-1' });
      assert.equal(first.statusCode, 201, first.body);
      const counts = await rowCounts(f.ctx);
      const again = await importJson(f, rows, '', { 'idempotency-key': 'import-1' });
      assert.equal(again.statusCode, 201, again.body);
      assert.deepEqual(again.json(), first.json());
      assert.deepEqual(await rowCounts(f.ctx), counts);
      const other = await importJson(f, [{ ...rows[0], posts: [{ text: 'twice' }] }], '', { 'idempotency-key': 'import-1' });
      assert.equal(other.statusCode, 409, other.body);
      assert.equal(other.json().code, 'IDEMPOTENCY_KEY_REUSED');
      // Concurrent first requests with one key: one import.
      const both = await Promise.all([1, 2].map(() => importJson(f, rows, '', { 'idempotency-key': 'import-2' })));
      assert.deepEqual(
        both.map((r) => r.statusCode),
        [201, 201],
      );
      assert.deepEqual(both[0]!.json(), both[1]!.json());
      assert.equal((await rowCounts(f.ctx)).threads, counts.threads! + 1);
    });

    test('a team import: teamId applies to every row that names none', async () => {
      const f = await userWithProvider(env);
      const team = await createTeamWith(f.ctx, f.user.account);
      const teamProvider = await createProvider(f.ctx, f.user.account, 'THREADS', team.id);
      const res = await importJson(f, [{ providerId: teamProvider.id, posts: [{ text: 'team' }], tags: ['t'] }], `?teamId=${team.id}`);
      assert.equal(res.statusCode, 201, res.body);
      const personal = await importJson(f, [{ providerId: teamProvider.id, posts: [{ text: 'team' }] }]);
      assert.equal(personal.statusCode, 400);
      assert.deepEqual(paths(personal), ['rows.0.providerId']);
      const notMine = await importJson(f, [{ providerId: teamProvider.id, posts: [{ text: 'team' }] }], '?teamId=01900000-0000-7000-8000-000000000000');
      assert.equal(notMine.statusCode, 404, notMine.body);
    });

    test('1,000 threads: a statement per table, not per thread', async () => {
      const f = await userWithProvider(env);
      await addSlot(f, 2, '08:00');
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        providerId: f.providerId,
        ...(i % 20 === 0 ? { queue: true } : { scheduleAt: `2026-12-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z` }),
        tags: [`tag ${i % 7}`],
        posts: [
          { text: `thread ${i}`, media: [{ url: `https://img.example/${i}.png`, altText: 'alt' }], spoilerRanges: [{ offset: 0, length: 6 }] },
          { text: 'reply' },
        ],
      }));
      const before = await rowCounts(f.ctx);
      let res: LightMyRequestResponse | undefined;
      const measured = await counter.measure(async () => {
        res = await importJson(f, rows);
      });
      assert.equal(res!.statusCode, 201, res!.body.slice(0, 500));
      assert.equal(res!.json().created, 1000);
      const queued = res!
        .json()
        .threads.filter((_: unknown, i: number) => i % 20 === 0)
        .map((t: { scheduledAt: string }) => t.scheduledAt);
      assert.equal(new Set(queued).size, 50);
      assert.ok(measured.count <= 20, `a 1,000-thread import took ${measured.count} round trips:\n${measured.statements.join('\n').slice(0, 3000)}`);
      const counts = await rowCounts(f.ctx);
      assert.equal(counts.posts! - before.posts!, 2000);
      assert.equal(counts.media! - before.media!, 1000);
      assert.equal(counts.thread_tags! - before.thread_tags!, 1000);
    });
  },
  { countRoundTrips: counter },
);
