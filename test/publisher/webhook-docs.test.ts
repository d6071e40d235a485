/**
 * docs/api.md's "Verifying webhook signatures" receiver, extracted from the page and run as is
 * (a real `node` process) against a real delivery: the documentation cannot rot.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { describeEachDb } from '../helpers/context.js';
import { createUser } from '../helpers/seeds.js';
import { until } from '../helpers/wait.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

function documentedReceiver(): string {
  const page = readFileSync(join(REPO_ROOT, 'docs/api.md'), 'utf8');
  const section = page.slice(page.indexOf('### Verifying webhook signatures'));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'docs/api.md has a js block under "Verifying webhook signatures"');
  return block[1]!;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function post(url: string, body: string, signature: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'skein-signature': signature }, body });
  await res.arrayBuffer();
  return res.status;
}

describeEachDb(
  'docs/api.md: the documented signature check, run against a real delivery',
  (env) => {
    let child: ChildProcess | null = null;
    let output = '';
    let dir = '';
    after(() => {
      child?.kill('SIGKILL');
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('the receiver accepts Skein’s delivery and refuses a forged or stale one', async () => {
      const { ctx, app } = env();
      const user = await createUser(ctx);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/`;
      const res = await user.call(app, { method: 'POST', url: '/api/v1/webhooks', payload: { url, events: ['ping'] } });
      assert.equal(res.statusCode, 201, res.body);
      const { id, secret } = res.json();

      dir = mkdtempSync(join(tmpdir(), 'skein-docs-'));
      const file = join(dir, 'receiver.mjs');
      writeFileSync(file, documentedReceiver());
      child = spawn(process.execPath, [file], {
        env: { ...process.env, PORT: String(port), SKEIN_WEBHOOK_SECRET: secret },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      // Until the receiver listens (a node process starting: seconds on a loaded machine).
      await until(
        'the documented receiver to listen',
        () => {
          if (child!.exitCode !== null) throw new Error(`the receiver exited (${child!.exitCode}): ${output}`);
          return post(url, '{}', 't=0,v1=00').then(
            () => true,
            () => false,
          );
        },
        { intervalMs: 50 },
      );

      const { eventId } = (await user.call(app, { method: 'POST', url: `/api/v1/webhooks/${id}/test` })).json();
      await new PublisherLoop(ctx, {}, 'docs').runOnce();
      const { deliveries } = (await user.call(app, { method: 'GET', url: `/api/v1/webhooks/${id}/deliveries` })).json();
      assert.deepEqual(
        deliveries.map((d: Record<string, unknown>) => [d.eventId, d.status, d.responseStatus]),
        [[eventId, 'DELIVERED', 204]],
      );
      // The receiver's line comes through its stdout pipe, after its answer: waited for.
      await until('the receiver to print the event', () => output.includes(eventId));
      assert.match(output, new RegExp(`^${eventId} ping `, 'm'));

      const body = JSON.stringify({ id: 'x', type: 'ping', createdAt: new Date().toISOString(), data: {} });
      const sign = (key: string, t: number, signed = body) => `t=${t},v1=${createHmac('sha256', key).update(`${t}.${signed}`).digest('hex')}`;
      const now = Math.floor(Date.now() / 1000);
      assert.equal(await post(url, body, sign(secret, now)), 204, 'a fresh, correctly signed request is accepted');
      assert.equal(await post(url, body, sign('whsec_wrong', now)), 400, 'another secret');
      assert.equal(await post(url, body, sign(secret, now, `${body} `)), 400, 'another body');
      assert.equal(await post(url, body, sign(secret, now - 600)), 400, 'signed 10 minutes ago');
      assert.equal(await post(url, body, 'v1=abc'), 400, 'no timestamp');
    });
  },
  // The signature's `t` comes from the context's clock; the receiver compares it with its own.
  { config: (c) => ({ ...c, media: { allowPrivate: true } }), start: new Date().toISOString() },
);
