/**
 * Crash test for follow-up replies on a real Bluesky PDS: real `skein worker` processes are
 * killed with SIGKILL at a random moment while a follow-up reply is being written to a local
 * PLC + PDS (from @atproto/dev-env); a fresh worker takes it over once the dead one's lease runs
 * out. Each reply must be on the PDS exactly once, its root the thread's first post and its
 * parent the last, and the database must show it PUBLISHED with that record's URI.
 *
 * Each round publishes a 2-post thread first (no kill), then makes its follow-up due at once
 * (its `run_at` moved to now: the 5-minute delay is not waited for in real time). The kill
 * window is measured first, on a follow-up published without a kill, from its claim to
 * PUBLISHED; the kills land uniformly within it.
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { postgresSkipReason } from '../../helpers/db.js';
import { createUser, type TestUser } from '../../helpers/seeds.js';
import { type LocalAccount, type LocalNetwork, startPds } from '../../support/pds.js';
import {
  dumpWorkerLogs,
  openSystemEnv,
  pickSeed,
  type SystemEnv,
  seconds,
  seededRandom,
  shutDown,
  sleep,
  startWorker,
  type WorkerProcess,
  waitFor,
} from './harness.js';

const skip = postgresSkipReason();
const KILLS = 6;
const LEASE_MS = 3000;

let pds: LocalNetwork<TestNetworkNoAppView>;
let env: SystemEnv;
let user: TestUser;
let account: LocalAccount;
let providerId: string;
const workers: WorkerProcess[] = [];

before(async () => {
  if (skip) return;
  pds = await startPds();
  env = await openSystemEnv({ config: (c) => ({ ...c, media: { allowPrivate: true } }) }); // the PDS is on loopback
  user = await createUser(env.ctx);
  account = await pds.createAccount(`crashfu${Math.floor(Math.random() * 1e6)}`);
  const connected = await user.call(env.app, {
    method: 'POST',
    url: '/api/v1/providers/bluesky',
    payload: { identifier: account.handle, appPassword: account.appPassword, service: pds.url },
  });
  assert.equal(connected.statusCode, 201, connected.body);
  providerId = connected.json().id;
});

after(async () => {
  if (skip) return;
  await shutDown({ workers, env, servers: [pds] });
});

interface PdsPost {
  uri: string;
  text: string;
  reply: { root: { uri: string }; parent: { uri: string } } | undefined;
}

async function postsOnPds(): Promise<PdsPost[]> {
  const res = await account.agent.com.atproto.repo.listRecords({ repo: account.did, collection: 'app.bsky.feed.post', limit: 100 });
  return res.data.records.map((r) => {
    const value = r.value as { text: string; reply?: PdsPost['reply'] };
    return { uri: r.uri, text: value.text, reply: value.reply };
  });
}

async function followUpRow(id: string) {
  return env.ctx.db.selectFrom('follow_ups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A 2-post thread published by the running worker, with a follow-up then made due at once. */
async function dueFollowUp(label: string) {
  const texts = [`${label} first`, `${label} last`];
  const reply = `${label} the follow-up`;
  const created = await user.call(env.app, {
    method: 'POST',
    url: '/api/v1/posts',
    payload: { providerId, scheduleAt: new Date(Date.now() + 200).toISOString(), posts: texts.map((text) => ({ text })) },
  });
  assert.equal(created.statusCode, 201, created.body);
  const threadId: string = created.json().threadId;
  const added = await user.call(env.app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: { text: reply, delayMinutes: 5 } });
  assert.equal(added.statusCode, 201, added.body);
  const id: string = added.json().id;
  await waitFor(
    `thread ${label} to be published`,
    async () => (await env.ctx.db.selectFrom('threads').select('status').where('id', '=', threadId).executeTakeFirst())?.status === 'PUBLISHED',
    30_000,
  );
  await env.ctx.db.updateTable('follow_ups').set({ run_at: new Date() }).where('id', '=', id).execute();
  await waitFor(`follow-up ${label} to be claimed`, async () => (await followUpRow(id)).status !== 'PENDING', 30_000, 5);
  return { id, texts, reply };
}

const ended = (id: string) => waitFor(`follow-up ${id} to end`, async () => ['PUBLISHED', 'FAILED'].includes((await followUpRow(id)).status), 60_000, 20);

test(`a worker killed (SIGKILL) while writing a follow-up reply to a real PDS, ${KILLS} times: each reply exactly once`, {
  skip: skip ?? false,
  timeout: 240_000,
}, async () => {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# crash-follow-up bluesky: seed ${seed}`);
  const spawn = () => {
    const w = startWorker({ dbUrl: env.dbUrl, threadsApiUrl: 'http://127.0.0.1:9', leaseMs: LEASE_MS, pollMs: 100, name: `worker-${workers.length + 1}` });
    workers.push(w);
    return w;
  };
  let current = spawn();
  const problems: string[] = [];
  const kills: Array<{ delayMs: number; out: boolean; done: boolean }> = [];
  const replies: string[] = [];
  try {
    await current.ready;
    const calibration = await dueFollowUp(`calibration (${seed})`);
    replies.push(calibration.reply);
    const t0 = Date.now();
    await ended(calibration.id);
    const windowMs = Math.max(50, Date.now() - t0);
    console.log(`# crash-follow-up bluesky: a follow-up takes ${windowMs} ms from claim to PUBLISHED; kills land within that`);

    for (let i = 0; i < KILLS; i++) {
      await current.ready;
      const { id, texts, reply } = await dueFollowUp(`crash ${i} (${seed})`);
      replies.push(reply);
      const delayMs = Math.floor(random() * windowMs * 0.9);
      await sleep(delayMs);
      await current.kill('SIGKILL');
      const out = (await postsOnPds()).some((p) => p.text === reply);
      kills.push({ delayMs, out, done: (await followUpRow(id)).status === 'PUBLISHED' });
      current = spawn();
      await ended(id);
      const onPds = await postsOnPds();
      const copies = onPds.filter((p) => p.text === reply);
      const [first, last] = texts.map((t) => onPds.find((p) => p.text === t));
      const row = await followUpRow(id);
      const found: string[] = [];
      if (copies.length !== 1) found.push(`the reply is on the PDS ${copies.length} times`);
      if (copies[0] && (copies[0].reply?.root.uri !== first?.uri || copies[0].reply?.parent.uri !== last?.uri)) found.push('the reply is not under the thread');
      if (row.status !== 'PUBLISHED') found.push(`ended ${row.status}: ${row.last_error}`);
      if (copies[0] && row.network_post_id !== copies[0].uri) found.push(`the row records ${row.network_post_id}, the PDS has ${copies[0].uri}`);
      if (found.length) problems.push(`round ${i} (killed ${delayMs} ms after the claim): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`# crash-follow-up bluesky: worker logs in ${dumpWorkerLogs(workers, 'crash-follow-up-bluesky')}`);
    throw err;
  }
  const onPds = await postsOnPds();
  for (const [i, k] of kills.entries())
    console.log(`#   round ${i}: killed ${k.delayMs} ms after the claim; reply ${k.out ? 'out' : 'not out'}${k.done ? ' (already recorded)' : ''}`);
  console.log(
    `# crash-follow-up bluesky: ${kills.length} kills (${kills.filter((k) => !k.done).length} before it was recorded), ` +
      `${onPds.length} records on the PDS (${(KILLS + 1) * 3} expected), ${workers.length} worker processes, ${seconds(Date.now() - started)} s (seed ${seed})`,
  );
  if (problems.length) console.log(`# crash-follow-up bluesky: worker logs in ${dumpWorkerLogs(workers, 'crash-follow-up-bluesky')}`);
  assert.deepEqual(problems, []);
  assert.equal(onPds.length, (KILLS + 1) * 3, 'each post and reply once, nothing else');
  assert.ok(
    kills.some((k) => !k.done),
    'some kills land before the worker recorded the reply',
  );
});
