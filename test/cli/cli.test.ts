import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { dataDirLockHolder } from '../../src/db/pglite/data-dir-lock.js';

const BIN = join(process.cwd(), 'bin', 'skein.js');

function skein(args: string[], env: Record<string, string>) {
  const res = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 120_000 });
  // What a command said when it failed, in the test output: a failure far from its assertion (as in a full run) says why.
  if (res.status !== 0) console.log(`# skein ${args.join(' ')}: exit ${res.status} ${res.signal ?? ''} ${res.error ?? ''} ${res.stderr.trim()}`);
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('skein command line (embedded database)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-cli-'));
  const env = { SKEIN_DATA_DIR: dataDir, DATABASE_URL: '' };
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('--help lists every command', () => {
    const res = skein(['--help'], env);
    assert.equal(res.code, 0);
    for (const cmd of [
      'user create',
      'key create',
      'key list',
      'key revoke',
      'team create',
      'team add-member',
      'provider add',
      'provider list',
      'serve',
      'worker',
      'migrate',
    ]) {
      assert.ok(res.stdout.includes(cmd), cmd);
    }
  });

  test('user, key, team and provider commands with --json; errors are one line', () => {
    assert.equal(skein(['migrate', '--json'], env).code, 0);
    const user = skein(['user', 'create', '--email', 'ann@example.test', '--timezone', 'Europe/Berlin', '--password', 'pw-123456-long', '--json'], env);
    assert.equal(user.code, 0, user.stderr);
    const account = JSON.parse(user.stdout);
    // The password is stored as an argon2id hash.
    const short = skein(['user', 'create', '--email', 'short@example.test', '--timezone', 'UTC', '--password', 'pw-1', '--json'], env);
    assert.equal(short.code, 1);
    assert.match(short.stderr, /password: must be at least 10 characters/);
    const link = skein(['user', 'sign-in-link', '--email', 'ann@example.test', '--json'], env);
    assert.equal(link.code, 0, link.stderr);
    assert.match(JSON.parse(link.stdout).url, /\/set-password#token=[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(Object.keys(account).sort(), ['email', 'id', 'timezone']);
    assert.equal(account.timezone, 'Europe/Berlin');
    const key = JSON.parse(skein(['key', 'create', '--email', 'ann@example.test', '--name', 'ci', '--json'], env).stdout);
    assert.deepEqual(Object.keys(key).sort(), ['id', 'key']);
    assert.match(key.key, /^skein_/);
    const list = JSON.parse(skein(['key', 'list', '--email', 'ann@example.test', '--json'], env).stdout);
    assert.equal(list.keys.length, 1);
    assert.ok(!JSON.stringify(list).includes(key.key));
    const team = JSON.parse(skein(['team', 'create', '--email', 'ann@example.test', '--name', 'Crew', '--json'], env).stdout);
    assert.deepEqual(Object.keys(team).sort(), ['id', 'name']);
    skein(['user', 'create', '--email', 'bob@example.test', '--timezone', 'UTC', '--json'], env);
    const member = JSON.parse(skein(['team', 'add-member', '--team', team.id, '--email', 'bob@example.test', '--json'], env).stdout);
    assert.deepEqual(member, { teamId: team.id, accountId: member.accountId, role: 'editor' });
    const writer = JSON.parse(skein(['team', 'add-member', '--team', team.id, '--email', 'bob@example.test', '--role', 'writer', '--json'], env).stdout);
    assert.deepEqual(writer, { teamId: team.id, accountId: member.accountId, role: 'writer' });
    const badRole = skein(['team', 'add-member', '--team', team.id, '--email', 'bob@example.test', '--role', 'member'], env);
    assert.notEqual(badRole.code, 0);
    assert.match(badRole.stderr, /--role must be one of viewer, writer, editor, admin, owner/);
    const provider = skein(
      [
        'provider',
        'add',
        '--email',
        'ann@example.test',
        '--kind',
        'BLUESKY',
        '--provider-user-id',
        'did:plc:abc',
        '--username',
        'ann.test',
        '--access-token',
        'app-pass',
        '--team',
        team.id,
        '--json',
      ],
      env,
    );
    assert.equal(provider.code, 0, provider.stderr);
    assert.equal(JSON.parse(provider.stdout).teamId, team.id);
    assert.ok(!provider.stdout.includes('app-pass'));
    const providers = JSON.parse(skein(['provider', 'list', '--email', 'ann@example.test', '--team', team.id, '--json'], env).stdout);
    assert.equal(providers.count, 1);
    const revoked = skein(['key', 'revoke', '--email', 'ann@example.test', '--id', key.id, '--json'], env);
    assert.equal(revoked.code, 0);

    const bad = skein(['user', 'create', '--email', 'x@example.test', '--timezone', 'Nowhere/City'], env);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    assert.match(bad.stderr, /timezone/);
    const badJson = skein(['user', 'create', '--email', 'x@example.test', '--timezone', 'Nowhere/City', '--json'], env);
    assert.equal(badJson.code, 1);
    const failure = JSON.parse(badJson.stdout);
    assert.equal(failure.error.code, 'VALIDATION_FAILED');
    assert.match(failure.error.message, /timezone/);
    assert.equal(JSON.parse(skein(['key', 'create', '--json'], env).stdout).error.code, 'USAGE');
    const missing = skein(['key', 'create'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /--email is required/);
    const unknown = skein(['frobnicate'], env);
    assert.equal(unknown.code, 2);
  });

  test('a command that needs the database to itself says so in one line when a running server holds the embedded database', async () => {
    const server = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    server.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
    });
    try {
      await waitFor(async () => {
        if (server.exitCode !== null) throw new Error(`skein serve exited ${server.exitCode} before taking the data folder: ${said}`);
        return (await dataDirLockHolder(dataDir)) === server.pid ? true : null;
      });
      const res = skein(['export', '--out', join(dataDir, 'export.json')], env);
      assert.equal(res.code, 1);
      assert.equal(res.stderr.trim().split('\n').length, 1);
      assert.match(res.stderr, /in use by a running Skein process \(pid \d+\)/);
    } finally {
      const exited = server.exitCode !== null ? server.exitCode : new Promise((resolve) => server.on('exit', resolve));
      server.kill('SIGTERM');
      assert.equal(await exited, 0, `SIGTERM exits 0: ${said}`);
    }
    assert.equal(skein(['key', 'list', '--email', 'ann@example.test', '--json'], env).code, 0, 'the lock is released on exit');
  });

  test('SIGTERM while the server is still starting stops it cleanly once started (exit 0, lock released)', async () => {
    const server = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve(code ?? signal)));
    // The lock is taken before the database opens: the server is mid-start when it appears. (A
    // server that exits first never takes it: the wait ends there, and the exit code says why.)
    while (server.exitCode === null && (await dataDirLockHolder(dataDir)) !== server.pid) await new Promise((r) => setTimeout(r, 5));
    server.kill('SIGTERM');
    assert.equal(await exited, 0, 'exit 0, not killed by the signal');
    assert.equal(skein(['key', 'list', '--email', 'ann@example.test', '--json'], env).code, 0, 'the lock is released on exit');
  });
});

describe('first start on an empty embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'skein-first-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('creates an owner, prints its key once with a curl line that works; SIGTERM exits 0', async () => {
    const port = await freePort();
    const server = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, SKEIN_DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    server.stdout.on('data', (chunk) => (out += chunk));
    let errOut = '';
    server.stderr.on('data', (chunk) => (errOut += chunk));
    try {
      await waitFor(() => {
        if (server.exitCode !== null) throw new Error(`skein serve exited (${server.exitCode}) before printing the key:\n${out}${errOut}`);
        return /curl .*\/api\/v1\/account/.test(out) ? true : null;
      });
      const key = /(skein_[A-Za-z0-9_-]{32,})/.exec(out)?.[1];
      assert.ok(key, out);
      const curl = /curl -H "Authorization: Bearer (\S+)" (\S+)/.exec(out);
      assert.equal(curl?.[1], key);
      const res = await fetch(curl![2]!, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).email, 'owner@localhost');
    } finally {
      server.kill('SIGTERM');
      assert.equal(await new Promise((resolve) => server.on('exit', resolve)), 0);
    }
    // A second start finds the account and prints no key.
    const again = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, SKEIN_DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out2 = '';
    again.stdout.on('data', (chunk) => (out2 += chunk));
    await waitFor(async () => {
      if (again.exitCode !== null) throw new Error(`the second skein serve exited (${again.exitCode}):\n${out2}`);
      return (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok ? true : null;
    });
    again.kill('SIGTERM');
    // 'close', not 'exit': the output is read to its end, so a key printed late is seen too.
    await new Promise((resolve) => again.on('close', resolve));
    assert.doesNotMatch(out2, /skein_/);
  });
});

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Polls `check` until it gives a value. The limit only guards against a hang: a first start on a
 * loaded machine (2 cores, 4 test files at once) took more than a minute to print its key.
 */
async function waitFor<T>(check: () => T | null | Promise<T | null>, timeoutMs = 300_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('timed out');
}
