/**
 * A real Bluesky network for tests: PLC directory + PDS (TestNetworkNoAppView), or the full
 * TestNetwork with the AppView for reads such as getPosts. See
 * ../shared/reference/bluesky-local-server.md for why each step is here.
 *
 * Start one network per test file, in `before`, and close it in `after`: node --test runs each
 * file in its own process, and importing dev-env costs 3–5 s of CPU and ~200 MB.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AtpAgent } from '@atproto/api';
import type { TestNetwork, TestNetworkNoAppView } from '@atproto/dev-env';
import pg from 'pg';

export interface LocalAccount {
  did: string;
  handle: string;
  /** The account password; tests use it only to read back records. */
  password: string;
  /** An app password (xxxx-xxxx-xxxx-xxxx), what Skein stores for a connected account. */
  appPassword: string;
  /** Signed in with the account password. */
  agent: AtpAgent;
}

export interface LocalNetwork<N extends TestNetworkNoAppView> {
  network: N;
  /** PDS URL on 127.0.0.1. */
  url: string;
  /** Creates `<name>.test` with an app password. The name must be 3 to 18 letters or digits. */
  createAccount(name: string): Promise<LocalAccount>;
  close(): Promise<void>;
}

/**
 * `didDocWithSession`: a login's answer carries the account's DID document, as Bluesky's own
 * entryway does (the agent then goes to the PDS it names: http://localhost:<port> here).
 */
export async function startPds(options: { didDocWithSession?: boolean } = {}): Promise<LocalNetwork<TestNetworkNoAppView>> {
  const sandbox = await enterSandbox();
  try {
    const { TestNetworkNoAppView } = await import('@atproto/dev-env');
    const network = await TestNetworkNoAppView.create(options.didDocWithSession ? { pds: { enableDidDocWithSession: true } } : {});
    return wrap(network, () => sandbox.leave());
  } catch (err) {
    await sandbox.leave();
    throw err;
  }
}

/** The full network (PLC, PDS, AppView, Ozone) on the machine's PostgreSQL and Redis. */
export async function startFullNetwork(): Promise<LocalNetwork<TestNetwork>> {
  const sandbox = await enterSandbox();
  const schema = `skein${randomLetters(10)}`;
  const dbPostgresUrl = process.env.SKEIN_TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
  const restoreRedis = setEnv('REDIS_HOST', process.env.SKEIN_TEST_REDIS_HOST ?? '127.0.0.1:6379'); // dev-env reads it from the environment
  const cleanUp = async () => {
    restoreRedis();
    await dropSchemas(dbPostgresUrl, [`appview_${schema}`, `ozone_${schema}`]);
    await sandbox.leave();
  };
  try {
    const { TestNetwork } = await import('@atproto/dev-env');
    const network = await TestNetwork.create({ dbPostgresUrl, dbPostgresSchema: schema });
    return wrap(network, cleanUp);
  } catch (err) {
    await cleanUp();
    throw err;
  }
}

function wrap<N extends TestNetworkNoAppView>(network: N, cleanUp: () => Promise<void>): LocalNetwork<N> {
  const url = `http://127.0.0.1:${network.pds.port}`;
  return {
    network,
    url,
    createAccount: (name) => createAccount(url, name),
    close: async () => {
      try {
        await network.close();
      } finally {
        await cleanUp();
      }
    },
  };
}

async function createAccount(url: string, name: string): Promise<LocalAccount> {
  const agent = new AtpAgent({ service: url });
  const handle = `${name}.test`;
  const password = randomBytes(12).toString('hex');
  const created = await agent.createAccount({ handle, email: `${name}@skein.test`, password });
  // App passwords can only be made from a main-password session.
  const app = await agent.com.atproto.server.createAppPassword({ name: 'skein' });
  return { did: created.data.did, handle, password, appPassword: app.data.password, agent };
}

interface Sandbox {
  leave(): Promise<void>;
}

/**
 * Binds every server to 127.0.0.1 and gives the PDS a private TMPDIR: dev-env calls
 * listen(port) on all interfaces and leaves its SQLite and blob folders in os.tmpdir().
 */
async function enterSandbox(): Promise<Sandbox> {
  const restoreListen = bindListenToLoopback();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'skein-atproto-'));
  const restoreTmp = setEnv('TMPDIR', tmp);
  return {
    leave: async () => {
      restoreTmp();
      restoreListen();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

type Listen = typeof net.Server.prototype.listen;

function bindListenToLoopback(): () => void {
  const original: Listen = net.Server.prototype.listen;
  const patched = function (this: net.Server, ...args: unknown[]) {
    const [first, second] = args;
    if (args.length === 0) {
      args.push(0, '127.0.0.1');
    } else if (typeof first === 'number' && (args.length === 1 || typeof second === 'function')) {
      args.splice(1, 0, '127.0.0.1');
    } else if (isListenOptionsWithoutHost(first)) {
      args[0] = { ...first, host: '127.0.0.1' };
    }
    return (original as (...a: unknown[]) => net.Server).apply(this, args);
  };
  net.Server.prototype.listen = patched as Listen;
  return () => {
    if (net.Server.prototype.listen === (patched as Listen)) net.Server.prototype.listen = original;
  };
}

function isListenOptionsWithoutHost(value: unknown): value is net.ListenOptions {
  if (!value || typeof value !== 'object') return false;
  const options = value as net.ListenOptions & { _handle?: unknown; fd?: unknown };
  return !options.path && !options.host && !options._handle && options.fd === undefined;
}

function setEnv(name: string, value: string): () => void {
  const previous = process.env[name];
  process.env[name] = value;
  return () => {
    if (previous === undefined) delete process.env[name];
    else process.env[name] = previous;
  };
}

async function dropSchemas(url: string, schemas: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

function randomLetters(count: number): string {
  return Array.from(randomBytes(count), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
}
