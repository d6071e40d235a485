/**
 * The CLI beside a running `skein serve` on the embedded database: the account, key, team and
 * provider commands reach the database through the server's control socket (only the machine's
 * user can open it), and `provider add --kind THREADS` asks Meta (here the strict fake Graph
 * API) whose token it is, as the API's token path does.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { controlSocketPath } from '../../src/cli/control-socket.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';

const BIN = join(process.cwd(), 'bin', 'skein.js');
const dataDir = mkdtempSync(join(tmpdir(), 'skein-cli-server-'));
let fake: FakeGraphApi;
let env: Record<string, string>;
let server: ChildProcess;
let output = '';

function skein(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function json(args: string[]): Promise<any> {
  const res = await skein([...args, '--json']);
  assert.equal(res.code, 0, `skein ${args.join(' ')}: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

let port: number;

before(async () => {
  fake = await FakeGraphApi.start({});
  port = await freePort();
  env = { SKEIN_DATA_DIR: dataDir, DATABASE_URL: '', THREADS_API_URL: fake.url, PORT: String(port), SKEIN_PUBLISHER: '0' };
  server = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (c) => (output += c));
  server.stderr!.on('data', (c) => (output += c));
  // The banner is printed once the server listens; the control socket is up before that.
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (/Sign in: \S+/.test(output)) {
        clearInterval(check);
        resolve();
      }
    }, 20);
    server.once('exit', (code) => {
      clearInterval(check);
      reject(new Error(`skein serve exited (${code}) before it started:\n${output}`));
    });
  });
});

after(async () => {
  if (server.exitCode === null) {
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
  }
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('while skein serve holds the embedded database, user, key, team and provider commands run through it; THREADS tokens are checked with Meta', async () => {
  const socket = controlSocketPath(dataDir)!;
  assert.equal(statSync(socket).mode & 0o777, 0o600, 'only the owner may open the socket');
  assert.equal(statSync(join(socket, '..')).mode & 0o777, 0o700, 'in a folder only the owner may enter');

  const user = await json(['user', 'create', '--email', 'cli@example.test', '--timezone', 'Europe/Berlin']);
  assert.equal(user.email, 'cli@example.test');
  const key = await json(['key', 'create', '--email', 'cli@example.test', '--name', 'script']);
  const team = await json(['team', 'create', '--email', 'cli@example.test', '--name', 'Crew']);

  // The provider is who Meta says the token belongs to.
  const account = fake.createAccount('cli_threads');
  const provider = await json(['provider', 'add', '--email', 'cli@example.test', '--kind', 'THREADS', '--access-token', account.accessToken]);
  assert.deepEqual([provider.provider, provider.providerUserId, provider.username, provider.teamId], ['THREADS', account.userId, 'cli_threads', null]);
  const inTeam = await json(['provider', 'add', '--email', 'cli@example.test', '--kind', 'THREADS', '--access-token', account.accessToken, '--team', team.id]);
  assert.equal(inTeam.teamId, team.id);

  // Refusals: a token Meta refuses, an id that is not the token's; one line, nothing added.
  const revoked = fake.createAccount('cli_revoked');
  fake.revokeToken(revoked.accessToken);
  const refused = await skein(['provider', 'add', '--email', 'cli@example.test', '--kind', 'THREADS', '--access-token', revoked.accessToken, '--json']);
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  assert.match(refused.stderr, /^skein: access-token: Threads refused: .+/);
  assert.equal(JSON.parse(refused.stdout).error.code, 'VALIDATION_FAILED');
  const wrongId = await skein([
    'provider',
    'add',
    '--email',
    'cli@example.test',
    '--kind',
    'THREADS',
    '--access-token',
    account.accessToken,
    '--provider-user-id',
    '999',
  ]);
  assert.equal(wrongId.code, 1);
  assert.match(wrongId.stderr, /provider-user-id: is 999, but the token belongs to Threads user/);
  const listed = await json(['provider', 'list', '--email', 'cli@example.test']);
  assert.equal(listed.count, 1, 'the personal workspace has the one account');

  // The server itself sees what the CLI added, through the API with the key the CLI made.
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/providers`, { headers: { authorization: `Bearer ${key.key}` } });
  assert.equal(res.status, 200);
  assert.deepEqual(
    (await res.json()).providers.map((p: { id: string }) => p.id),
    [provider.id],
  );

  // A command that needs the database to itself still says the server holds it.
  const exported = await skein(['export', '--out', join(dataDir, 'export.jsonl')]);
  assert.equal(exported.code, 1);
  assert.match(exported.stderr, /in use by a running Skein process \(pid \d+\)/);

  // Once the server has stopped, the socket is gone and the CLI opens the database itself.
  server.kill('SIGTERM');
  assert.equal(await new Promise((r) => server.once('exit', r)), 0);
  assert.equal(existsSync(socket), false, 'the socket file is removed');
  assert.deepEqual(
    (await json(['key', 'list', '--email', 'cli@example.test'])).keys.map((k: { id: string }) => k.id),
    [key.id],
  );
});
