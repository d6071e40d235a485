/**
 * Crash test on a real Bluesky PDS: real `skein worker` processes publish 5-post threads to a
 * local PLC + PDS (from @atproto/dev-env) and are killed with SIGKILL at a random moment while
 * publishing; a fresh worker takes each thread over once the dead one's lease runs out. Every
 * post must be on the PDS exactly once, each a reply to the one before (root: the first), and
 * the database must show every post PUBLISHED with its permalink.
 *
 * The kill window is measured first: a thread is published without a kill, and the kills land
 * uniformly within the time it took, counted from the claim.
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { createThread } from '../../../src/services/threads.js';
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
const KILLS = 10;
const POSTS = 5;
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
  account = await pds.createAccount(`crash${Math.floor(Math.random() * 1e6)}`);
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
  cid: string;
  text: string;
  reply: { root: { uri: string }; parent: { uri: string } } | undefined;
}

async function postsOnPds(): Promise<PdsPost[]> {
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

/** Each text once, the first top-level, each other one a reply to the one before with the first as root. */
function checkChain(all: PdsPost[], texts: string[]): string[] {
  const problems: string[] = [];
  const found = texts.map((text, i) => {
    const copies = all.filter((p) => p.text === text);
    if (copies.length !== 1) problems.push(`post ${i} is on the PDS ${copies.length} times`);
    return copies[0];
  });
  if (problems.length) return problems;
  found.forEach((post, i) => {
    if (i === 0 && post!.reply) problems.push('post 0 is a reply');
    if (i > 0 && (post!.reply?.parent.uri !== found[i - 1]!.uri || post!.reply?.root.uri !== found[0]!.uri))
      problems.push(`post ${i} does not reply to post ${i - 1} under the thread's root`);
  });
  return problems;
}

async function statusOf(threadId: string): Promise<string | undefined> {
  return (await env.ctx.db.selectFrom('threads').select('status').where('id', '=', threadId).executeTakeFirst())?.status;
}

test(`a worker killed (SIGKILL) while publishing to a real PDS, ${KILLS} times: every post exactly once, in order`, {
  skip: skip ?? false,
  timeout: 240_000,
}, async () => {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# crash bluesky: seed ${seed}`);
  const spawn = () => {
    const w = startWorker({ dbUrl: env.dbUrl, threadsApiUrl: 'http://127.0.0.1:9', leaseMs: LEASE_MS, pollMs: 100, name: `worker-${workers.length + 1}` });
    workers.push(w);
    return w;
  };
  const newThread = async (label: string) => {
    const texts = Array.from({ length: POSTS }, (_, j) => `${label} post ${j + 1} of ${POSTS} (${seed})`);
    const created = await createThread(env.ctx, user.account, {
      providerId,
      scheduleAt: new Date(Date.now() + 200).toISOString(),
      posts: texts.map((text) => ({ text })),
    });
    return { threadId: created.threadId, texts };
  };
  const claimed = (threadId: string) => waitFor(`thread ${threadId} to be claimed`, async () => (await statusOf(threadId)) !== 'READY', 30_000, 5);
  const ended = (threadId: string) =>
    waitFor(`thread ${threadId} to end`, async () => ['PUBLISHED', 'FAILED'].includes((await statusOf(threadId)) ?? ''), 60_000, 20);

  let current = spawn();
  const problems: string[] = [];
  const kills: Array<{ delayMs: number; postsOut: number; done: boolean }> = [];
  const allTexts: string[] = [];
  try {
    await current.ready;
    // Twice: the first thread of a worker also resumes its session. Kills hit warm workers (each
    // took the previous thread over), so the second measurement is the one to use.
    let windowMs = 0;
    for (const label of ['calibration cold', 'calibration warm']) {
      const calibration = await newThread(label);
      allTexts.push(...calibration.texts);
      await claimed(calibration.threadId);
      const t0 = Date.now();
      await ended(calibration.threadId);
      windowMs = Math.max(200, Date.now() - t0);
    }
    console.log(`# crash bluesky: a ${POSTS}-post thread takes ${windowMs} ms from claim to PUBLISHED; kills land within that`);

    for (let i = 0; i < KILLS; i++) {
      await current.ready;
      const { threadId, texts } = await newThread(`crash ${i}`);
      allTexts.push(...texts);
      await claimed(threadId);
      const delayMs = Math.floor(random() * windowMs * 0.9);
      await sleep(delayMs);
      await current.kill('SIGKILL');
      const onPds = await postsOnPds();
      kills.push({ delayMs, postsOut: texts.filter((t) => onPds.some((p) => p.text === t)).length, done: (await statusOf(threadId)) === 'PUBLISHED' });
      current = spawn();
      await ended(threadId);
      const found = checkChain(await postsOnPds(), texts);
      const posts = await env.ctx.db
        .selectFrom('posts')
        .select(['status', 'permalink', 'network_post_id'])
        .where('thread_id', '=', threadId)
        .orderBy('post_order')
        .execute();
      if ((await statusOf(threadId)) !== 'PUBLISHED') found.push(`thread ended ${await statusOf(threadId)}`);
      posts.forEach((p, j) => {
        if (p.status !== 'PUBLISHED' || !p.permalink || !p.network_post_id)
          found.push(`post ${j} in the database: ${p.status}, ${p.permalink}, ${p.network_post_id}`);
      });
      if (found.length) problems.push(`thread ${i} (killed ${delayMs} ms after the claim): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`# crash bluesky: worker logs in ${dumpWorkerLogs(workers, 'crash-bluesky')}`);
    throw err;
  }

  const onPds = await postsOnPds();
  const duplicates = allTexts.reduce((n, t) => n + Math.max(0, onPds.filter((p) => p.text === t).length - 1), 0);
  const missing = allTexts.filter((t) => !onPds.some((p) => p.text === t)).length;
  const midThread = kills.filter((k) => !k.done).length;
  for (const [i, k] of kills.entries())
    console.log(`#   thread ${i}: killed ${k.delayMs} ms after the claim; ${k.postsOut}/${POSTS} posts were out${k.done ? ' (thread already done)' : ''}`);
  console.log(
    `# crash bluesky: ${kills.length} kills (${midThread} mid-thread), ${allTexts.length} posts, ${duplicates} duplicates, ${missing} missing, ` +
      `${onPds.length} records on the PDS, ${workers.length} worker processes, ${seconds(Date.now() - started)} s (seed ${seed})`,
  );
  if (problems.length) console.log(`# crash bluesky: worker logs in ${dumpWorkerLogs(workers, 'crash-bluesky')}`);
  assert.deepEqual(problems, []);
  assert.equal(duplicates, 0);
  assert.equal(missing, 0);
  assert.equal(onPds.length, allTexts.length, 'nothing else was posted');
  assert.ok(midThread >= KILLS / 2, `most kills must land while the thread is being published (${midThread} of ${KILLS})`);
  assert.ok(
    kills.some((k) => k.postsOut > 0 && k.postsOut < POSTS),
    'some kills land after part of the thread is out',
  );
});
