/** POST /mcp (Streamable HTTP, stateless), driven by the SDK's own client over app.inject, on both databases. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTeamMember } from '../../../src/services/accounts/members.js';
import { describeEachDb } from '../../helpers/context.js';
import { connectOverHttp, textOf } from '../../helpers/mcp.js';
import { toolScenarios } from '../../helpers/mcp-scenarios.js';
import { createProvider, createTeamWith, createUser, userWithProvider } from '../../helpers/seeds.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describeEachDb('MCP over Streamable HTTP', (env) => {
  toolScenarios(async () => {
    const f = await userWithProvider(env);
    return { ...f, client: await connectOverHttp(f.app, f.user.key) };
  });

  test('import_threads: a dry run names each row fault and creates nothing; then the import creates all, once', async () => {
    const f = await userWithProvider(env);
    const client = await connectOverHttp(f.app, f.user.key);
    const rows = [
      { providerId: f.providerId, scheduleAt: '2026-12-01T09:00:00', posts: [{ text: 'one' }] },
      { providerId: f.providerId, scheduleAt: '2026-12-02T09:00:00', posts: [{ text: 'x'.repeat(501) }] },
    ];
    const dry = await client.callTool({ name: 'import_threads', arguments: { rows, dryRun: true } });
    assert.equal(dry.isError, true, textOf(dry));
    assert.match(textOf(dry), /- rows\.1\.posts\.0\.text: /);
    rows[1]!.posts[0]!.text = 'two';
    const checked = await client.callTool({ name: 'import_threads', arguments: { rows, dryRun: true } });
    assert.equal(checked.isError, undefined, textOf(checked));
    const listed = async () => (await f.user.call(f.app, { method: 'GET', url: '/api/v1/posts?from=2026-11-30T00:00:00&to=2026-12-03T00:00:00' })).json().count;
    assert.equal(await listed(), 0);
    const first = await client.callTool({ name: 'import_threads', arguments: { rows } });
    assert.equal(first.isError, undefined, textOf(first));
    const again = await client.callTool({ name: 'import_threads', arguments: { rows } });
    assert.equal(textOf(again), textOf(first));
    assert.equal(await listed(), 2);
  });

  test("a key whose holder's team role is too low: a tool error naming the role needed, and nothing written", async () => {
    const { app, ctx, clock } = env();
    const owner = await createUser(ctx);
    const team = await createTeamWith(ctx, owner.account);
    const provider = await createProvider(ctx, owner.account, 'THREADS', team.id);
    const viewer = await createUser(ctx);
    await setTeamMember(ctx, team.id, viewer.account, 'viewer');
    const client = await connectOverHttp(app, viewer.key);
    const scheduleAt = new Date(clock.now().getTime() + 2 * 86_400_000).toISOString();
    const refused = await client.callTool({
      name: 'create_thread',
      arguments: { providerId: provider.id, teamId: team.id, scheduleAt, posts: [{ text: 'from a viewer' }] },
    });
    assert.equal(refused.isError, true, textOf(refused));
    assert.match(textOf(refused), /^FORBIDDEN: .*writer/);
    const listed = await owner.call(app, { method: 'GET', url: `/api/v1/posts/drafts?teamId=${team.id}` });
    const from = new Date(clock.now().getTime()).toISOString().slice(0, 19);
    const to = new Date(clock.now().getTime() + 3 * 86_400_000).toISOString().slice(0, 19);
    const scheduled = await owner.call(app, { method: 'GET', url: `/api/v1/posts?from=${from}&to=${to}&teamId=${team.id}` });
    assert.equal(scheduled.json().count, 0, scheduled.body);
    assert.equal(listed.statusCode, 200);
    const read = await client.callTool({ name: 'list_threads', arguments: { from, to, teamId: team.id } });
    assert.equal(read.isError, undefined, `a viewer reads: ${textOf(read)}`);
  });

  test('list_threads, get_attention and get_analytics take limit and cursor: pages as the routes give them, a bad cursor named', async () => {
    const f = await userWithProvider(env);
    const client = await connectOverHttp(f.app, f.user.key);
    const rows = ['09:00', '09:00', '10:00'].map((t, i) => ({ providerId: f.providerId, scheduleAt: `2026-12-01T${t}:00Z`, posts: [{ text: `t${i}` }] }));
    assert.equal((await f.user.call(f.app, { method: 'POST', url: '/api/v1/posts/import', payload: rows })).statusCode, 201);
    const range = { from: '2026-12-01T00:00:00Z', to: '2026-12-02T00:00:00Z' };
    const first = JSON.parse(textOf(await client.callTool({ name: 'list_threads', arguments: { ...range, limit: '2' } })));
    assert.equal(first.count, 2);
    const second = JSON.parse(textOf(await client.callTool({ name: 'list_threads', arguments: { ...range, limit: '2', cursor: first.nextCursor } })));
    assert.equal(second.count, 1);
    assert.equal(second.nextCursor, null);
    const bad = await client.callTool({ name: 'list_threads', arguments: { ...range, cursor: 'zz!' } });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /cursor/);
    const attention = JSON.parse(textOf(await client.callTool({ name: 'get_attention', arguments: { limit: '5' } })));
    assert.deepEqual(attention, { items: [], count: 0, nextCursor: null });
    const analytics = JSON.parse(
      textOf(
        await client.callTool({
          name: 'get_analytics',
          arguments: { providerId: f.providerId, from: '2026-11-01T00:00:00Z', to: '2026-11-03T00:00:00Z', limit: '2' },
        }),
      ),
    );
    assert.deepEqual(
      analytics.days.map((d: { date: string }) => d.date),
      ['2026-11-01', '2026-11-02'],
    );
    const rest = JSON.parse(
      textOf(
        await client.callTool({
          name: 'get_analytics',
          arguments: { providerId: f.providerId, from: '2026-11-01T00:00:00Z', to: '2026-11-03T00:00:00Z', limit: '2', cursor: analytics.nextCursor },
        }),
      ),
    );
    assert.deepEqual(
      rest.days.map((d: { date: string }) => d.date),
      ['2026-11-03'],
    );
    assert.equal(rest.nextCursor, null);
  });

  test('no key, a malformed key or a revoked key: 401 problem, before any MCP message is read', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    await assert.rejects(connectOverHttp(app, null), /401/);
    const missing = await app.inject({ method: 'POST', url: '/mcp', headers: MCP_HEADERS, payload: INITIALIZE });
    assert.equal(missing.statusCode, 401);
    assert.match(missing.headers['content-type'] as string, /problem\+json/);
    const keyId = (await user.call(app, { method: 'GET', url: '/api/v1/keys' })).json().keys[0].id;
    assert.equal((await user.call(app, { method: 'DELETE', url: `/api/v1/keys/${keyId}` })).statusCode, 200);
    await assert.rejects(connectOverHttp(app, user.key), /401/);
  });

  test('a session cookie does not open /mcp: only an API key does', async () => {
    const { app } = env();
    const res = await app.inject({ method: 'POST', url: '/mcp', headers: { ...MCP_HEADERS, cookie: 'skein_session=anything' }, payload: INITIALIZE });
    assert.equal(res.statusCode, 401);
  });

  test('stateless: no session id; GET and DELETE /mcp are 405 with Allow: POST', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const init = await user.call(app, { method: 'POST', url: '/mcp', headers: MCP_HEADERS, payload: INITIALIZE });
    assert.equal(init.statusCode, 200, init.body);
    assert.equal(init.headers['mcp-session-id'], undefined);
    assert.equal(init.json().result.serverInfo.name, 'skein');
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await user.call(app, { method, url: '/mcp', headers: { accept: 'text/event-stream' } });
      assert.equal(res.statusCode, 405);
      assert.equal(res.headers.allow, 'POST');
    }
  });

  test('a message that is not JSON-RPC, or not JSON at all, is a 400 problem, never a 5xx; an Accept without JSON is 406', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const send = (payload: unknown, headers: Record<string, string> = MCP_HEADERS) =>
      user.call(app, { method: 'POST', url: '/mcp', headers, payload: payload as string });
    for (const [payload, code] of [
      [{ hello: 'world' }, 'VALIDATION_FAILED'],
      ['{"jsonrpc":', 'VALIDATION_FAILED'],
      [{ jsonrpc: '2.0' }, 'MALFORMED_REQUEST'],
      [[INITIALIZE], 'VALIDATION_FAILED'],
    ] as const) {
      const res = await send(payload);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.headers['content-type'] as string, /problem\+json/);
      assert.equal(res.json().code, code, res.body);
    }
    const html = await send(INITIALIZE, { 'content-type': 'application/json', accept: 'text/html' });
    assert.equal(html.statusCode, 406, html.body);
    assert.equal(html.json().code, 'NOT_ACCEPTABLE');
    // A client that says nothing about Accept (curl) is answered: every answer is JSON.
    const curl = await send(INITIALIZE, { 'content-type': 'application/json' });
    assert.equal(curl.statusCode, 200, curl.body);
  });
});

describeEachDb(
  'MCP and the rate limits',
  (env) => {
    test('a tool call counts once toward the rate limits: its inner REST request is not counted again', async () => {
      const f = await userWithProvider(env);
      const call = (id: number) =>
        f.user.call(f.app, {
          method: 'POST',
          url: '/mcp',
          headers: MCP_HEADERS,
          payload: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_drafts', arguments: {} } },
        });
      const first = await call(1);
      const second = await call(2);
      assert.equal(second.statusCode, 200, second.body);
      assert.equal(second.json().result.isError, undefined, second.body);
      assert.equal(Number(first.headers['ratelimit-remaining']) - Number(second.headers['ratelimit-remaining']), 1);
    });
  },
  { realRateLimits: true },
);
