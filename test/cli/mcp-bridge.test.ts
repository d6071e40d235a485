/**
 * `skein mcp`, started exactly as docs/agents.md's stdio set-up says (its JSON read from the doc),
 * against a running Skein (the test's app listening on a port), driven by the SDK's own client.
 * Needs dist/ (npm run build), as every test of the `skein` binary.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describeEachDb } from '../helpers/context.js';
import { connect } from '../helpers/mcp.js';
import { toolScenarios } from '../helpers/mcp-scenarios.js';
import { createUser, userWithProvider } from '../helpers/seeds.js';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'skein.js');

interface StdioSetUp {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The doc's first client configuration that launches a command. */
function documentedSetUp(): StdioSetUp {
  const doc = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');
  for (const [, block] of doc.matchAll(/```json\n([\s\S]*?)```/g)) {
    const server = JSON.parse(block!).mcpServers?.skein;
    if (server?.command) return server as StdioSetUp;
  }
  throw new Error('docs/agents.md has no stdio set-up');
}

const SET_UP = documentedSetUp();

test('the documented stdio set-up names SKEIN_URL and SKEIN_API_KEY and runs skein mcp', () => {
  assert.deepEqual(Object.keys(SET_UP.env).sort(), ['SKEIN_API_KEY', 'SKEIN_URL']);
  assert.ok(SET_UP.args.includes('mcp'));
  // Never npx: it would install this folder as a package and run its build (a new dist/ under the
  // running server, and under the other tests), or fetch a registry package of that name.
  assert.deepEqual([SET_UP.command, ...SET_UP.args], ['node', '/path/to/skein/bin/skein.js', 'mcp']);
});

test('without SKEIN_URL or SKEIN_API_KEY it says which is missing and exits 1', () => {
  for (const [missing, env] of [
    ['SKEIN_URL', { SKEIN_API_KEY: 'skein_x' }],
    ['SKEIN_API_KEY', { SKEIN_URL: 'http://127.0.0.1:9' }],
  ] as const) {
    const res = spawnSync(process.execPath, [BIN, 'mcp'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(res.status, 1, res.stderr);
    assert.match(res.stderr, new RegExp(`${missing} is not set`));
  }
});

describeEachDb('skein mcp (stdio) against a running Skein', (env) => {
  let url = '';
  const clients: Client[] = [];
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  /** A client of `skein mcp`, launched as the doc says, with this key and the running server's address. */
  async function launch(key: string): Promise<Client> {
    if (!url) url = await env().app.listen({ host: '127.0.0.1', port: 0 });
    // The doc's command with this checkout as its Skein folder.
    const transport = new StdioClientTransport({
      command: SET_UP.command === 'node' ? process.execPath : SET_UP.command,
      args: SET_UP.args.map((arg) => arg.replace('/path/to/skein', ROOT)),
      cwd: ROOT,
      env: { ...SET_UP.env, SKEIN_URL: url, SKEIN_API_KEY: key },
      stderr: 'pipe',
    });
    const client = await connect(transport);
    clients.push(client);
    return client;
  }

  // One process per fixture would be slow: the scenarios share one user's `skein mcp`.
  let shared: Awaited<ReturnType<typeof userWithProvider>> & { client: Client };
  toolScenarios(async () => {
    shared ??= await (async () => {
      const f = await userWithProvider(env);
      return { ...f, client: await launch(f.user.key) };
    })();
    return shared;
  });

  test('a revoked key: the client hears the refusal as an error of its first call', async () => {
    const { app, ctx } = env();
    const user = await createUser(ctx);
    const keyId = (await user.call(app, { method: 'GET', url: '/api/v1/keys' })).json().keys[0].id;
    await user.call(app, { method: 'DELETE', url: `/api/v1/keys/${keyId}` });
    await assert.rejects(launch(user.key), /401|UNAUTHENTICATED|Unauthorized/i);
  });
});
