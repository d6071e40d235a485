/**
 * The Bluesky system tests' set-up (crash-bluesky, crash-follow-up-bluesky): a local PLC + PDS,
 * a proxy in front of it (where the test places its kills), the test file's own database and
 * app, and a user with a fresh PDS account connected through the API. Its own module, not in
 * system.ts, so the Threads system tests don't load the Bluesky client.
 */
import assert from 'node:assert/strict';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { type LocalAccount, type LocalNetwork, startPds } from './fakes/bluesky-pds.js';
import { XrpcProxy } from './fakes/proxies.js';
import { createUser, type TestUser } from './seeds.js';
import { openSystemEnv, type SystemEnv, startWorker, type WorkerProcess } from './system.js';

export interface BlueskySystem {
  pds: LocalNetwork<TestNetworkNoAppView>;
  proxy: XrpcProxy;
  env: SystemEnv;
  user: TestUser;
  account: LocalAccount;
  providerId: string;
}

/**
 * Starts it all; `handlePrefix` (letters, at most 12) names the PDS account. The provider's
 * service URL is pointed at the proxy afterwards (connecting stored the PDS's own URL), so the
 * workers' calls go through it. Close with shutDown({ workers, env, servers: [proxy, pds] }).
 */
export async function startBlueskySystem(handlePrefix: string): Promise<BlueskySystem> {
  const pds = await startPds();
  const proxy = await XrpcProxy.start(pds.url);
  const env = await openSystemEnv({ config: (c) => ({ ...c, media: { allowPrivate: true } }) }); // the PDS is on loopback
  const user = await createUser(env.ctx);
  const account = await pds.createAccount(`${handlePrefix}${Math.floor(Math.random() * 1e6)}`);
  const connected = await user.call(env.app, {
    method: 'POST',
    url: '/api/v1/providers/bluesky',
    payload: { identifier: account.handle, appPassword: account.appPassword, service: pds.url },
  });
  assert.equal(connected.statusCode, 201, connected.body);
  const providerId: string = connected.json().id;
  await env.ctx.db.updateTable('providers').set({ service_url: proxy.url }).where('id', '=', providerId).execute();
  return { pds, proxy, env, user, account, providerId };
}

export interface PdsPost {
  uri: string;
  cid: string;
  text: string;
  reply: { root: { uri: string }; parent: { uri: string } } | undefined;
}

/** Every post record in the account's repository, read straight from the PDS. */
export async function postsOnPds(account: LocalAccount): Promise<PdsPost[]> {
  const out: PdsPost[] = [];
  let cursor: string | undefined;
  do {
    const res = await account.agent.com.atproto.repo.listRecords({ repo: account.did, collection: 'app.bsky.feed.post', limit: 100, cursor });
    for (const r of res.data.records) {
      const value = r.value as { text: string; reply?: PdsPost['reply'] };
      out.push({ uri: r.uri, cid: r.cid, text: value.text, reply: value.reply });
    }
    cursor = res.data.records.length === 100 ? res.data.cursor : undefined;
  } while (cursor);
  return out;
}

/**
 * A `skein worker` for these tests: the PDS (and the proxy before it) is on loopback, which the
 * worker may reach as the API's environment may (startBlueskySystem); no Threads API.
 */
export function startBlueskyWorker(env: SystemEnv, name: string, leaseMs: number): WorkerProcess {
  return startWorker({ dbUrl: env.dbUrl, threadsApiUrl: 'http://127.0.0.1:9', leaseMs, pollMs: 100, name, env: { SKEIN_ALLOW_PRIVATE_MEDIA: '1' } });
}
