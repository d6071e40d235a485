import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { COMMANDS } from '../../src/cli/commands.js';
import { RUN } from '../../src/cli/handlers.js';
import { CLIENT } from '../../src/cli/mcp-bridge.js';
import { LONG } from '../../src/cli/process-handlers.js';

// What a `skein` process loads, recorded by test/helpers/record-loads.mjs (an ESM resolve hook
// plus the CommonJS cache at exit). A static import of a heavy module anywhere on the path of
// `--help` (the CLI entry, the command table) makes these tests fail.

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'skein.js');
const RECORDER = join(ROOT, 'test', 'helpers', 'record-loads.mjs');

const dir = mkdtempSync(join(tmpdir(), 'skein-loads-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let runs = 0;

/** Runs node with the recorder; returns the exit code, output and every package it loaded. */
function recordLoads(args: string[], env: Record<string, string> = {}) {
  const log = join(dir, `loads-${++runs}.log`);
  const res = spawnSync(process.execPath, ['--import', RECORDER, ...args], {
    cwd: ROOT,
    env: { ...process.env, SKEIN_DATA_DIR: join(dir, 'data'), DATABASE_URL: '', LOG_LEVEL: 'silent', ...env, SKEIN_LOAD_LOG: log },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(lines.flatMap((line) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line)?.[1] ?? []));
  return { code: res.status, stdout: res.stdout, stderr: res.stderr, lines, packages };
}

describe('the CLI loads what a command needs, when it needs it', () => {
  test('skein --help loads no package at all (no database driver, Fastify or SDK)', () => {
    const res = recordLoads([BIN, '--help']);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /key list/);
    // The recorder works: it saw the CLI entry being loaded.
    assert.ok(
      res.lines.some((line) => line.endsWith('/dist/cli/index.js')),
      'the recorder saw dist/cli/index.js',
    );
    assert.deepEqual([...res.packages], []);
    assert.ok(!res.lines.some((line) => /\/dist\/(context|cli\/(process-)?handlers|server|db\/database)\.js$/.test(line)), res.lines.join('\n'));
  });

  test('a usage error and a command --help answer without loading a package either', () => {
    for (const args of [['key', 'list'], ['key', 'list', '--help'], ['no-such-command']]) {
      const res = recordLoads([BIN, ...args]);
      assert.notEqual(res.stdout + res.stderr, '', args.join(' '));
      assert.deepEqual([...res.packages], [], args.join(' '));
    }
  });

  test('a command on PostgreSQL loads pg and kysely, not PGlite, Fastify, Redis or the Bluesky SDK', () => {
    // Nothing listens on port 1: the command fails at its first query, after loading its modules.
    const res = recordLoads([BIN, 'key', 'list', '--email', 'ann@example.test'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /ECONNREFUSED|connect/);
    for (const needed of ['pg', 'kysely']) assert.ok(res.packages.has(needed), `loads ${needed}`);
    for (const heavy of ['@electric-sql/pglite', 'fastify', '@atproto/api', 'ioredis', '@sinclair/typebox', 'prom-client']) {
      assert.ok(!res.packages.has(heavy), `does not load ${heavy}`);
    }
  });

  test('the publisher and the connect service load the Bluesky SDK only when a Bluesky call needs it', () => {
    const load = (path: string) => `await import(${JSON.stringify(join(ROOT, 'dist', path))});`;
    const imports = [load('networks/clients.js'), load('services/providers/connect/index.js'), load('publisher/runner.js')].join('\n');
    const before = recordLoads(['--input-type=module', '-e', imports]);
    assert.equal(before.code, 0, before.stderr);
    assert.ok(before.packages.has('kysely'), 'the recorder saw the modules load');
    assert.ok(!before.packages.has('@atproto/api'), 'importing the platforms loads no SDK');
    assert.ok(!before.packages.has('fastify'));
    // Reading an error is the first thing that needs the SDK (is it an XRPCError?): it loads then.
    const errors = JSON.stringify(join(ROOT, 'dist', 'networks', 'bluesky', 'errors.js'));
    const res = recordLoads([
      '--input-type=module',
      '-e',
      `${imports}\nconst { toPublishError } = await import(${errors});\nconsole.log(toPublishError(new Error('boom'), 'publish').code);`,
    ]);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout.trim(), 'BLUESKY_UNAVAILABLE');
    assert.ok(res.packages.has('@atproto/api'));
  });

  test('the server loads the MCP SDK and sharp only when a request needs them (an idle server holds neither)', () => {
    const load = (path: string) => `await import(${JSON.stringify(join(ROOT, 'dist', path))});`;
    const paths = ['app.js', 'http/routes/index.js', 'networks/clients.js', 'services/providers/connect/index.js', 'publisher/runner.js'];
    const res = recordLoads(['--input-type=module', '-e', paths.map(load).join('\n')]);
    assert.equal(res.code, 0, res.stderr);
    assert.ok(res.packages.has('fastify'), 'the recorder saw the modules load');
    for (const heavy of ['@modelcontextprotocol/sdk', 'zod', 'sharp']) assert.ok(!res.packages.has(heavy), `does not load ${heavy}`);
  });

  test('skein mcp opens no database and loads no server: it is a client of the running Skein', () => {
    const res = recordLoads([BIN, 'mcp'], { SKEIN_URL: 'http://127.0.0.1:9', SKEIN_API_KEY: '' });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /SKEIN_API_KEY is not set/);
    assert.ok(res.packages.has('@modelcontextprotocol/sdk'), 'the recorder saw the bridge load');
    for (const heavy of ['pg', 'kysely', '@electric-sql/pglite', 'fastify', 'ioredis']) assert.ok(!res.packages.has(heavy), `does not load ${heavy}`);
  });

  test('every command of the table has its handler', () => {
    for (const command of COMMANDS) {
      const handler = command.long ? LONG[command.name] : command.client ? CLIENT[command.name] : RUN[command.name];
      assert.equal(typeof handler, 'function', command.name);
    }
    assert.equal(Object.keys(LONG).length + Object.keys(RUN).length + Object.keys(CLIENT).length, COMMANDS.length);
  });
});
