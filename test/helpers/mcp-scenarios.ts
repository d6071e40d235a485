import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../../src/context.js';
import { TOOLS } from '../../src/http/mcp/tools.js';
import { textOf } from './mcp.js';
import type { UserWithProvider } from './seeds.js';

/**
 * What a transport's tests need: a user with a Threads account and a client of its key (a fixture
 * may be shared by the scenarios: each counts what it adds).
 */
export interface McpFixture extends UserWithProvider {
  client: Client;
}

async function threadCount(ctx: AppContext, accountId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('threads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The scenarios every transport passes (HTTP, stdio): the same tools through the same server. */
export function toolScenarios(fixture: () => Promise<McpFixture>): void {
  test('lists every tool of the contract, each with its JSON Schema', async () => {
    const { client } = await fixture();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS.map((t) => t.name).sort());
    const create = tools.find((t) => t.name === 'create_thread');
    assert.equal(create?.inputSchema.type, 'object');
    assert.ok(create?.inputSchema.properties?.posts, 'create_thread takes posts, from Create Post');
    assert.match(create?.description ?? '', /time zone/);
    assert.equal(tools.find((t) => t.name === 'list_accounts')?.annotations?.readOnlyHint, true);
  });

  test('create_thread creates a thread the REST API shows; the same call retried creates nothing new', async () => {
    const f = await fixture();
    const before = await threadCount(f.ctx, f.user.account.id);
    const args = { providerId: f.providerId, scheduleAt: '2026-12-01T09:00:00', posts: [{ text: 'by an agent' }, { text: 'second' }] };
    const first = await f.client.callTool({ name: 'create_thread', arguments: args });
    assert.equal(first.isError, undefined, textOf(first));
    const created = JSON.parse(textOf(first));
    assert.equal(created.status, 'scheduled');
    const rest = await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${created.threadId}` });
    assert.equal(rest.statusCode, 200, rest.body);
    assert.deepEqual(
      rest.json().thread.posts.map((p: { content: string }) => p.content),
      ['by an agent', 'second'],
    );
    const again = await f.client.callTool({ name: 'create_thread', arguments: { posts: args.posts, scheduleAt: args.scheduleAt, providerId: f.providerId } });
    assert.equal(JSON.parse(textOf(again)).threadId, created.threadId);
    assert.equal(await threadCount(f.ctx, f.user.account.id), before + 1);
    const deliberate = await f.client.callTool({ name: 'create_thread', arguments: { ...args, idempotencyKey: 'a-second-one' } });
    assert.notEqual(JSON.parse(textOf(deliberate)).threadId, created.threadId);
    assert.equal(await threadCount(f.ctx, f.user.account.id), before + 2);
  });

  test('edit_thread with the etag read changes the thread; with a stale etag it is refused and changes nothing', async () => {
    const f = await fixture();
    const created = JSON.parse(textOf(await f.client.callTool({ name: 'create_thread', arguments: { providerId: f.providerId, posts: [{ text: 'draft' }] } })));
    const read = JSON.parse(textOf(await f.client.callTool({ name: 'get_thread', arguments: { threadId: created.threadId } })));
    assert.match(read.etag, /^"[0-9]+"$/);
    const edited = await f.client.callTool({ name: 'edit_thread', arguments: { threadId: created.threadId, etag: read.etag, posts: [{ text: 'edited' }] } });
    assert.equal(edited.isError, undefined, textOf(edited));
    const stale = await f.client.callTool({
      name: 'edit_thread',
      arguments: { threadId: created.threadId, etag: read.etag, posts: [{ text: 'overwritten' }] },
    });
    assert.equal(stale.isError, true);
    assert.match(textOf(stale), /PRECONDITION_FAILED/);
    const rest = await f.user.call(f.app, { method: 'GET', url: `/api/v1/posts/${created.threadId}` });
    assert.equal(rest.json().thread.posts[0].content, 'edited');
  });

  test('a refused create is a tool error naming each faulty field by its path, and writes nothing', async () => {
    const f = await fixture();
    const before = await threadCount(f.ctx, f.user.account.id);
    const result = await f.client.callTool({
      name: 'create_thread',
      arguments: { providerId: f.providerId, scheduleAt: '2020-01-01T09:00:00', posts: [{ text: 'ok' }, { text: 'x'.repeat(501) }] },
    });
    assert.equal(result.isError, true);
    const text = textOf(result);
    assert.match(text, /VALIDATION_FAILED/);
    assert.match(text, /- posts\.1\.text: /);
    assert.match(text, /- scheduleAt: /);
    assert.equal(await threadCount(f.ctx, f.user.account.id), before);
  });

  test('arguments that fit no schema and an unknown tool are protocol errors naming what is wrong', async () => {
    const f = await fixture();
    const before = await threadCount(f.ctx, f.user.account.id);
    await assert.rejects(
      f.client.callTool({ name: 'create_thread', arguments: { providerId: 7, posts: [{}] } }),
      (err: unknown) => err instanceof McpError && /providerId/.test(err.message) && /posts\.0\.text/.test(err.message),
    );
    await assert.rejects(
      f.client.callTool({ name: 'drop_everything', arguments: {} }),
      (err: unknown) => err instanceof McpError && /drop_everything/.test(err.message),
    );
    assert.equal(await threadCount(f.ctx, f.user.account.id), before);
  });
}
