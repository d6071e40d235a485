/**
 * Bulk import, the CSV form: RFC 4180 quoting (csv-parse), UTF-8 with or without a BOM, CRLF, LF
 * or both; rows sharing `thread` form one thread; each thread goes through Create Post's rules;
 * faults name the CSV data row (from 0) and column; hostile files refused whole.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, rowCounts, threadTagNames, type UserWithProvider, userWithProvider } from '../helpers/seeds.js';

const HEADER = 'thread,providerId,scheduleAt,text,media,altText,topic,tags,autoRepostHours';

function importCsv(f: UserWithProvider, csv: string | Buffer, query = ''): Promise<LightMyRequestResponse> {
  return f.user.call(f.app, { method: 'POST', url: `/api/v1/posts/import${query}`, payload: csv, headers: { 'content-type': 'text/csv; charset=utf-8' } });
}

function faults(res: LightMyRequestResponse): Array<[string, string]> {
  return res.json().errors.map((e: { path: string; message: string }) => [e.path, e.message]);
}

function paths(res: LightMyRequestResponse): string[] {
  return faults(res)
    .map(([path]) => path)
    .sort();
}

async function getThread(f: UserWithProvider, threadId: string) {
  const res = await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${threadId}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().thread;
}

describeEachDb('import (CSV)', (env) => {
  test('a BOM, CRLF and LF mixed, quoted cells with commas, quotes and line breaks; rows sharing thread form one thread in file order', async () => {
    const f = await userWithProvider(env);
    const p = f.providerId;
    const csv =
      `\uFEFF${HEADER}\r\n` +
      `launch,${p},2026-12-01T09:00:00,"Hello, world ""quoted""",https://img.example/a.png https://img.example/b.png,first alt|second alt,news,"Launch, beta",24\r\n` +
      `solo,${p},,"a draft\non two lines",,,,,\n` +
      `launch,${p},,second post of launch,,,,,\r\n` +
      `,${p},queue,"=HYPERLINK(""https://evil.example"",""click"")",,,,,\n` +
      `launch,,,+third =1+1 @SUM(A1),,,,,\n`;
    await f.user.call(f.app, { method: 'POST', url: '/api/v1/time-slots', payload: { providerId: p, dayOfWeek: 1, time: '09:00' } });
    const res = await importCsv(f, csv);
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.equal(body.created, 3);
    assert.deepEqual(
      body.threads.map((t: { row: number; status: string; scheduledAt: string | null }) => [t.row, t.status, t.scheduledAt]),
      [
        [0, 'scheduled', '2026-12-01T09:00:00.000Z'],
        [1, 'draft', null],
        [3, 'scheduled', '2026-11-23T09:00:00.000Z'],
      ],
    );
    const launch = await getThread(f, body.threads[0].threadId);
    assert.deepEqual(
      launch.posts.map((post: { content: string }) => post.content),
      ['Hello, world "quoted"', 'second post of launch', '+third =1+1 @SUM(A1)'],
    );
    assert.equal(launch.posts[0].topic, 'news');
    assert.deepEqual(
      launch.posts[0].postMedia.map((m: { url: string; altText: string | null }) => [m.url, m.altText]),
      [
        ['https://img.example/a.png', 'first alt'],
        ['https://img.example/b.png', 'second alt'],
      ],
    );
    assert.deepEqual(launch.posts[0].autoRepostDelay, ['24']);
    assert.deepEqual(await threadTagNames(f, body.threads[0].threadId), ['beta', 'Launch']);
    const drafts = (await f.user.call(f.app, { method: 'GET', url: '/api/v1/posts/drafts' })).json().drafts;
    assert.deepEqual(
      drafts.map((d: { posts: Array<{ content: string }> }) => d.posts[0]!.content),
      ['a draft\non two lines'],
    );
    // A formula-looking cell is kept as the text it is, never evaluated.
    const formula = await getThread(f, body.threads[2].threadId);
    assert.equal(formula.posts[0].content, '=HYPERLINK("https://evil.example","click")');
  });

  test('faults name the CSV data row (from 0) and column, every row in one 400; nothing created', async () => {
    const f = await userWithProvider(env);
    const bluesky = await createProvider(f.ctx, f.user.account, 'BLUESKY');
    const p = f.providerId;
    const before = await rowCounts(f.ctx);
    const csv = [
      HEADER,
      `a,${p},2026-12-01T09:00:00,fine,,,,,`,
      `a,${bluesky.id},,second on another account,,,,,`,
      `b,${p},2026-13-01T09:00:00,${'x'.repeat(501)},ftp://img.example/a.png,alt|too many,,,`,
      `c,${p},,"   ",,,,,999`,
      `d,nosuchprovider,,text,,,,,`,
    ].join('\n');
    const res = await importCsv(f, csv);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'VALIDATION_FAILED');
    assert.deepEqual(paths(res), [
      'rows.1.providerId', // a thread label shared by rows of two accounts
      'rows.2.altText',
      'rows.2.media',
      'rows.2.scheduleAt',
      'rows.2.text',
      'rows.3.autoRepostHours',
      'rows.3.text',
      'rows.4.providerId',
    ]);
    assert.ok(
      faults(res).some(([path, message]) => path === 'rows.2.media' && message.startsWith('URL 1: ')),
      res.body,
    );
    // A thread of more than 25 rows: at its first row's thread cell.
    const long = [HEADER, ...Array.from({ length: 26 }, (_, i) => `long,${i === 0 ? p : ''},,post ${i},,,,,`)].join('\n');
    const tooLong = await importCsv(f, long);
    assert.equal(tooLong.statusCode, 400, tooLong.body);
    assert.deepEqual(paths(tooLong), ['rows.0.thread']);
    assert.deepEqual(await rowCounts(f.ctx), before);
  });

  test('hostile files: each a clear 400 (413 for a 50 MB body), nothing created', async () => {
    const f = await userWithProvider(env);
    const p = f.providerId;
    const before = await rowCounts(f.ctx);
    const cases: Array<[string, string | Buffer, string[]]> = [
      ['unbalanced quotes', `${HEADER}\na,${p},,"never closed,,,,,\nb,${p},,x,,,,,\n`, ['rows.0']],
      ['text after a closing quote', `${HEADER}\na,${p},,"closed"then more,,,,,\n`, ['rows.0']],
      ['a quote inside an unquoted cell', `${HEADER}\na,${p},,=HYPERLINK("x"),,,,,\n`, ['rows.0']],
      ['a row of 10,000 columns', `${HEADER}\na,${p},,text,,,,,${',x'.repeat(9_991)}\n`, ['rows.0']],
      ['a BOM in the middle', `${HEADER}\na,${p},,be\uFEFFfore,,,,,\n`, ['rows.0.text']],
      ['unknown columns', `thread,providerId,text,colour,=cmd|' /C calc'!A0\na,${p},x,red,y\n`, ['header']],
      ['no providerId column', 'thread,text\na,x\n', ['header']],
      ['an empty file', '', ['header']],
      ['a header only', `${HEADER}\n`, ['rows']],
      ['more than 1,000 threads', [HEADER, ...Array.from({ length: 1001 }, (_, i) => `t${i},${p},,x,,,,,`)].join('\n'), ['rows']],
      ['not UTF-8', Buffer.concat([Buffer.from(`${HEADER}\na,${p},,caf`), Buffer.from([0xe9]), Buffer.from(',,,,,\n')]), ['']],
      ['a NUL character', `${HEADER}\na,${p},,nul\u0000here,,,,,\n`, ['rows.0.text']],
    ];
    for (const [what, csv, expected] of cases) {
      const res = await importCsv(f, csv);
      assert.equal(res.statusCode, 400, `${what}: ${res.body.slice(0, 300)}`);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', what);
      assert.deepEqual([...new Set(paths(res))], expected, `${what}: ${res.body.slice(0, 300)}`);
    }
    const huge = await importCsv(f, Buffer.alloc(50 * 1024 * 1024, 'a'));
    assert.equal(huge.statusCode, 413, huge.body);
    assert.equal(huge.json().status, 413);
    assert.deepEqual(await rowCounts(f.ctx), before);
  });

  test('a dry run of a CSV answers its rows without creating', async () => {
    const f = await userWithProvider(env);
    const before = await rowCounts(f.ctx);
    const res = await importCsv(f, `${HEADER}\nx,${f.providerId},2026-12-03T08:00:00,one,,,,,\nx,,,two,,,,,\ny,${f.providerId},,three,,,,,\n`, '?dryRun=true');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      created: 2,
      threads: [
        { row: 0, threadId: null, status: 'scheduled', scheduledAt: '2026-12-03T08:00:00.000Z' },
        { row: 2, threadId: null, status: 'draft', scheduledAt: null },
      ],
    });
    assert.deepEqual(await rowCounts(f.ctx), before);
  });
  test('a repeat column: EVERY UNIT [until DATE] [count N] makes each thread the first of its series; later rows leave it empty', async () => {
    const f = await userWithProvider(env);
    const p = f.providerId;
    const csv = [
      `${HEADER},repeat`,
      `w,${p},2026-12-01T09:00:00,fortnightly,,,,,,2 weeks until 2027-06-30`,
      `w,,,its second post,,,,,,`,
      `m,${p},2026-12-31T09:00:00,monthly,,,,,,1 Month count 12`,
      `d,${p},2026-12-02T09:00:00,daily,,,,,,  1   day  `,
      `n,${p},2026-12-02T09:00:00,once,,,,,,`,
    ].join('\n');
    const res = await importCsv(f, csv);
    assert.equal(res.statusCode, 201, res.body);
    const threads = await Promise.all(res.json().threads.map((t: { threadId: string }) => getThread(f, t.threadId)));
    assert.deepEqual(
      threads.map((t) => [t.posts.length, t.repeat, t.series]),
      [
        [2, { every: 2, unit: 'week', until: '2027-06-30', count: null }, { id: threads[0].threadId, occurrence: 1 }],
        [1, { every: 1, unit: 'month', until: null, count: 12 }, { id: threads[1].threadId, occurrence: 1 }],
        [1, { every: 1, unit: 'day', until: null, count: null }, { id: threads[2].threadId, occurrence: 1 }],
        [1, null, null],
      ],
    );
  });

  test('repeat faults at rows.N.repeat, with every other fault in one 400 ({ every: 0 } as "0 days" included); nothing created', async () => {
    const f = await userWithProvider(env);
    const p = f.providerId;
    const before = await rowCounts(f.ctx);
    const at = '2026-12-01T09:00:00';
    const cells = [
      '0 days', // 0: every 0
      '366 days', // 1
      '1.5 weeks', // 2: not a whole number
      '2 fortnights', // 3: no such unit
      '1 week count 1', // 4
      '1 week count many', // 5
      '1 week until 2027-02-30', // 6: no such date
      '1 week until 2026-11-30', // 7: before the first occurrence
      'weekly', // 8: not the form
      '1 week every 2', // 9: an unknown word
      '1 week until 2027-01-01 until 2027-02-01', // 10: until twice
    ];
    const csv = [
      `${HEADER},repeat`,
      ...cells.map((cell, i) => `t${i},${p},${at},row ${i},,,,,,${cell}`),
      `draft,${p},,a draft,,,,,,1 week`, // 11: a draft cannot repeat
      `two,${p},${at},first,,,,,,1 week`, // 12
      `two,,,second,,,,,,2 weeks`, // 13: differs from the thread's first row
    ].join('\n');
    const res = await importCsv(f, csv);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'VALIDATION_FAILED');
    const found = faults(res);
    assert.deepEqual(
      found.map(([path]) => path).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1])),
      [...cells.map((_, i) => `rows.${i}.repeat`), 'rows.11.repeat', 'rows.13.repeat'],
    );
    const message = (row: number) => found.find(([path]) => path === `rows.${row}.repeat`)![1];
    assert.equal(message(0), 'every: must be a whole number from 1 to 365');
    assert.equal(message(1), 'every: must be a whole number from 1 to 365');
    assert.equal(message(2), 'every: must be a whole number from 1 to 365');
    assert.equal(message(3), 'unit: must be day, week or month');
    assert.equal(message(4), 'count: must be a whole number from 2 to 100');
    assert.equal(message(5), 'count: must be a whole number from 2 to 100');
    assert.equal(message(6), 'until: must be a real date, YYYY-MM-DD');
    assert.match(message(7), /^until: is before the first occurrence \(2026-12-01/);
    assert.match(message(8), /^reads as EVERY UNIT \[until YYYY-MM-DD\] \[count N\]/);
    assert.match(message(9), /"every" is not expected there/);
    assert.match(message(10), /"until" is not expected there/);
    assert.match(message(11), /draft cannot repeat/);
    assert.match(message(13), /differs from row 12/);
    assert.deepEqual(await rowCounts(f.ctx), before);
  });
});
