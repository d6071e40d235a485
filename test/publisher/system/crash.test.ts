/**
 * Crash test: real `skein worker` processes are killed with SIGKILL in the middle of publishing
 * a 5-post thread, and a fresh worker finishes the thread. Every post must reach the (fake)
 * network exactly once, in order, each a reply to the one before, and the database must show
 * every post PUBLISHED with its permalink and publishedAt.
 *
 * The worker talks to the strict fake Graph API through a proxy in this process, which adds a
 * little latency and decides where the kill lands:
 * - `delay`: SIGKILL at a random moment after the thread's first network call;
 * - `before`: SIGKILL when the worker's k-th call arrives; the fake never sees that call;
 * - `after`: the fake carries out the k-th call (a container is created, a post is published...),
 *   then the worker is killed before it reads the answer: the case where only the network knows;
 * - `after-publish`: the same, at the n-th publish call: the post is out, the database does not know.
 * Some threads are "slow": the fake keeps each container IN_PROGRESS for a moment, so the worker
 * waits (and is killed) while Meta is still processing, and resumes a saved container.
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createThread } from '../../../src/services/threads.js';
import { postgresSkipReason } from '../../helpers/db.js';
import { createUser, type TestUser } from '../../helpers/seeds.js';
import { FakeGraphApi } from '../platforms/threads/fake-graph-api.js';
import {
  checkThreadInDb,
  checkThreadOnNetwork,
  connectFakeThreads,
  dumpWorkerLogs,
  GraphProxy,
  openSystemEnv,
  type ProxyDecision,
  pickSeed,
  type SystemEnv,
  seconds,
  seededRandom,
  shutDown,
  startWorker,
  type WorkerProcess,
  waitFor,
} from './harness.js';

const skip = postgresSkipReason();
const THREADS = 20;
const POSTS = 5;
const LEASE_MS = 3000;
/** The fake keeps a text container IN_PROGRESS this long. */
const PROCESSING_MS = 150;
/** Fast threads: container status is asked only once processing is over (no 2 s poll wait). */
const FAST_STATUS_DELAY_MS = PROCESSING_MS + 20;
const SLOW_THREADS = new Set([4, 11, 17]);
const MODES = ['delay', 'before', 'after', 'after-publish'] as const;

let fake: FakeGraphApi;
let proxy: GraphProxy;
let env: SystemEnv;
const workers: WorkerProcess[] = [];

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({ processingMs: { TEXT: PROCESSING_MS } });
  proxy = await GraphProxy.start(fake.url);
  env = await openSystemEnv();
});

after(async () => {
  if (skip) return;
  await shutDown({ workers, env, servers: [proxy, fake] });
});

interface KillRecord {
  thread: number;
  mode: (typeof MODES)[number];
  slow: boolean;
  at: string;
  postsOnNetworkAtKill: number;
  threadDoneAtKill: boolean;
}

test(`a worker killed (SIGKILL) mid-thread, ${THREADS} times: every post on the network exactly once, in order`, {
  skip: skip ?? false,
  timeout: 280_000,
}, async () => {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# crash: seed ${seed}`);
  const user: TestUser = await createUser(env.ctx);
  const { provider, userId } = await connectFakeThreads(env.ctx, user.account.id, fake, 'crash_test');
  const spawn = () => {
    const w = startWorker({ dbUrl: env.dbUrl, threadsApiUrl: proxy.url, leaseMs: LEASE_MS, name: `worker-${workers.length + 1}` });
    workers.push(w);
    return w;
  };

  let current = spawn();
  const kills: KillRecord[] = [];
  const threadIds: string[] = [];
  const texts: string[][] = [];
  const problems: string[] = [];
  try {
    for (let i = 0; i < THREADS; i++) {
      await current.ready;
      const slow = SLOW_THREADS.has(i);
      const mode = MODES[i % MODES.length]!;
      const victim = current;
      const callsInThread = slow ? 6 + (POSTS - 1) * 5 : 5 + (POSTS - 1) * 4;
      const killAtCall = 1 + Math.floor(random() * callsInThread);
      const killAtPublish = 1 + Math.floor(random() * POSTS);
      let publishes = 0;
      const killDelayMs = Math.floor(random() * (slow ? 10_000 : 1_100));
      const latency = () => 2 + Math.floor(random() * 20);
      const threadTexts = Array.from({ length: POSTS }, (_, j) => `crash ${i} post ${j + 1} of ${POSTS} (${seed})`);
      texts.push(threadTexts);

      let killed: Promise<void> | null = null;
      let killDescription = '';
      const killVictim = (what: string) => {
        killDescription = what;
        killed ??= (async () => {
          await victim.kill('SIGKILL');
          const row = await env.ctx.db.selectFrom('threads').select('status').where('id', '=', threadIds[i]!).executeTakeFirst();
          kills.push({
            thread: i,
            mode,
            slow,
            at: killDescription,
            postsOnNetworkAtKill: fake.published.filter((p) => p.ownerId === userId && threadTexts.includes(p.text ?? '')).length,
            threadDoneAtKill: row?.status === 'PUBLISHED',
          });
        })();
        return killed;
      };
      const forward = (call: string): ProxyDecision => ({ action: 'forward', delayMs: latency() + (call === 'status' && !slow ? FAST_STATUS_DELAY_MS : 0) });
      let armed = true;
      proxy.seq = 0;
      proxy.decide = (req) => {
        if (!armed) return forward(req.call);
        if (mode === 'delay') {
          if (req.seq === 1) setTimeout(() => void killVictim(`${killDelayMs} ms after the first call`), killDelayMs);
          return forward(req.call);
        }
        if (mode === 'after-publish') {
          if (req.call !== 'publish' || ++publishes !== killAtPublish) return forward(req.call);
          armed = false;
          return { action: 'kill-after', kill: () => killVictim(`after publish ${killAtPublish} of ${POSTS} (call ${req.seq})`) };
        }
        if (req.seq !== killAtCall) return forward(req.call);
        armed = false;
        return { action: mode === 'before' ? 'kill-before' : 'kill-after', kill: () => killVictim(`${mode} call ${req.seq} (${req.call})`) };
      };

      const created = await createThread(env.ctx, user.account, {
        providerId: provider.id,
        scheduleAt: new Date(Date.now() + 300).toISOString(),
        posts: threadTexts.map((text) => ({ text })),
      });
      threadIds.push(created.threadId);

      await waitFor(`the kill of thread ${i}`, async () => killed !== null, 30_000, 10);
      await killed;
      armed = false;
      // The next worker starts at once; it takes the thread over when the dead one's lease runs out.
      current = spawn();
      const row = await waitFor(
        `thread ${i} to end`,
        async () => {
          const r = await env.ctx.db.selectFrom('threads').select(['status', 'last_error']).where('id', '=', created.threadId).executeTakeFirst();
          return r && (r.status === 'PUBLISHED' || r.status === 'FAILED') ? r : null;
        },
        60_000,
      );
      const network = checkThreadOnNetwork(fake, userId, threadTexts);
      const db = await checkThreadInDb(env.ctx, created.threadId, network.posts);
      const view = (await user.call(env.app, { method: 'GET', url: `/api/v1/posts/${created.threadId}` })).json().thread;
      const api: string[] = [];
      if (view.status !== 'PUBLISHED') api.push(`Get Thread shows ${view.status}`);
      for (const [j, post] of (view.posts as Array<{ status: string; permaLink: string | null; publishedAt: string | null; content: string }>).entries()) {
        if (post.status !== 'PUBLISHED' || !post.permaLink || !post.publishedAt)
          api.push(`Get Thread post ${j}: ${post.status} ${post.permaLink} ${post.publishedAt}`);
        if (post.content !== threadTexts[j]) api.push(`Get Thread post ${j} content ${post.content}`);
      }
      const found = [...network.problems, ...db, ...api];
      if (row.status !== 'PUBLISHED') found.unshift(`thread ended ${row.status}: ${row.last_error}`);
      if (found.length) problems.push(`thread ${i} (${mode}, killed ${killDescription}${slow ? ', slow' : ''}): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`# crash: worker logs in ${dumpWorkerLogs(workers, 'crash')}`);
    throw err;
  }

  const mine = fake.published.filter((p) => p.ownerId === userId);
  const allTexts = texts.flat();
  const duplicates = allTexts.reduce((n, t) => n + Math.max(0, mine.filter((p) => p.text === t).length - 1), 0);
  const missing = allTexts.filter((t) => !mine.some((p) => p.text === t)).length;
  const midThread = kills.filter((k) => !k.threadDoneAtKill).length;
  const elapsed = Date.now() - started;
  for (const k of kills) {
    console.log(
      `#   thread ${String(k.thread).padStart(2)}: ${k.mode.padEnd(13)}${k.slow ? ' slow' : '     '} killed ${k.at}; ${k.postsOnNetworkAtKill}/${POSTS} posts were out${k.threadDoneAtKill ? ' (thread already done)' : ''}`,
    );
  }
  console.log(
    `# crash: ${kills.length} kills (${midThread} mid-thread), ${allTexts.length} posts, ${duplicates} duplicates, ${missing} missing, ` +
      `${fake.duplicatePublishAttempts} refused re-publishes, ${workers.length} worker processes, ${seconds(elapsed)} s (seed ${seed})`,
  );
  if (problems.length || duplicates || missing) console.log(`# crash: worker logs in ${dumpWorkerLogs(workers, 'crash')}`);

  assert.deepEqual(problems, []);
  assert.equal(kills.length, THREADS, 'one kill per thread');
  assert.ok(midThread >= THREADS - 3, `most kills must land while the thread is being published (${midThread} of ${kills.length})`);
  assert.ok(
    kills.some((k) => k.postsOnNetworkAtKill > 0 && k.postsOnNetworkAtKill < POSTS),
    'some kills land after part of the thread is out',
  );
  assert.equal(duplicates, 0);
  assert.equal(missing, 0);
  assert.equal(mine.length, THREADS * POSTS, 'nothing else was published');
  assert.equal(fake.duplicatePublishAttempts, 0, 'no container was sent to threads_publish twice');
});
