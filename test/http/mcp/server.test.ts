/** POST /mcp (Streamable HTTP, stateless), driven by the SDK's own client over app.inject, on both databases. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDb } from '../../helpers/context.js';
import { connectOverHttp } from '../../helpers/mcp.js';
import { toolScenarios } from '../../helpers/mcp-scenarios.js';
import { createUser, userWithProvider } from '../../helpers/seeds.js';

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

  test('a message that is not JSON-RPC, or not JSON at all, is a 4xx, never a 5xx', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const notRpc = await user.call(app, { method: 'POST', url: '/mcp', headers: MCP_HEADERS, payload: { hello: 'world' } });
    assert.equal(notRpc.statusCode, 400, notRpc.body);
    const notJson = await user.call(app, { method: 'POST', url: '/mcp', headers: MCP_HEADERS, payload: '{"jsonrpc":' });
    assert.equal(notJson.statusCode, 400, notJson.body);
    const noAccept = await user.call(app, { method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: INITIALIZE });
    assert.equal(noAccept.statusCode, 406, noAccept.body);
  });
});
