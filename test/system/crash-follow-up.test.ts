/**
 * Crash test for follow-up replies: real `skein worker` processes are killed with SIGKILL while
 * a follow-up reply is being published to the strict fake Graph API, and a fresh worker
 * finishes it. Each reply must reach the network exactly once, as a reply to its thread's last
 * post, and the database must show it PUBLISHED with the network's id and permalink.
 *
 * Each round publishes a 2-post thread first (no kill), then makes its follow-up due at once
 * (its `run_at` moved to now: the 5-minute delay is not waited for in real time) and kills the
 * worker at a chosen call of the reply: before its publish call reaches Meta, after its
 * container was created, after Meta published it (only the network knows), or at a random
 * moment after its first call (its last call, the permalink read, held until then, so the kill
 * lands before the reply is recorded at any machine speed).
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { postgresSkipReason } from '../helpers/db.js';
import { GraphProxy, type ProxyDecision } from '../helpers/fakes/proxies.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { createUser, type TestUser } from '../helpers/seeds.js';
import {
  connectFakeThreads,
  dumpWorkerLogs,
  Gate,
  openSystemEnv,
  pickSeed,
  type SystemEnv,
  seconds,
  seededRandom,
  shutDown,
  startWorker,
  type WorkerProcess,
  waitFor,
} from '../helpers/system.js';

const skip = postgresSkipReason();
const ROUNDS = 8;
const LEASE_MS = 3000;
const MODES = ['before-publish', 'after-create', 'after-publish', 'delay'] as const;

let fake: FakeGraphApi;
let proxy: GraphProxy;
let env: SystemEnv;
const workers: WorkerProcess[] = [];

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({ processingMs: { TEXT: 0, IMAGE: 0 } });
  proxy = await GraphProxy.start(fake.url);
  env = await openSystemEnv();
});

after(async () => {
  if (skip) return;
  await shutDown({ workers, env, servers: [proxy, fake] });
});

test(`a worker killed (SIGKILL) while publishing a follow-up reply, ${ROUNDS} times: each reply on the network exactly once`, {
  skip: skip ?? false,
  // Generous: each round waits out a 3 s lease and spawns a worker; this only stops a hung run.
  timeout: 600_000,
}, async () => {
  const seed = pickSeed();
  const random = seededRandom(seed);
  // Latency draws have their own sequence: how many calls a reply makes (quota reads) varies, and
  // must not shift the kill points a replayed seed picks.
  const jitter = seededRandom(seed ^ 0x5bd1e995);
  const started = Date.now();
  console.log(`# crash-follow-up: seed ${seed}`);
  const user: TestUser = await createUser(env.ctx);
  const { provider, userId } = await connectFakeThreads(env.ctx, user.account.id, fake, 'crash_follow_up');
  const spawn = () => {
    const w = startWorker({ dbUrl: env.dbUrl, threadsApiUrl: proxy.url, leaseMs: LEASE_MS, name: `worker-${workers.length + 1}` });
    workers.push(w);
    return w;
  };
  let current = spawn();
  const problems: string[] = [];
  const kills: string[] = [];
  let recordedAtKill = 0;
  try {
    for (let i = 0; i < ROUNDS; i++) {
      await current.ready;
      const mode = MODES[i % MODES.length]!;
      const texts = [`fu ${i} first (${seed})`, `fu ${i} last (${seed})`];
      const replyText = `fu ${i} the follow-up (${seed})`;
      proxy.decide = () => ({ action: 'forward' });
      const { threadId, followUpId } = await publishedThreadWithFollowUp(user, provider.id, texts, replyText);

      const victim = current;
      let killed: Promise<void> | null = null;
      let killDescription = '';
      const killVictim = (what: string) => {
        killDescription ||= what;
        killed ??= (async () => {
          await victim.kill('SIGKILL');
          const out = fake.published.filter((p) => p.text === replyText).length;
          const status = (await env.ctx.db.selectFrom('follow_ups').select('status').where('id', '=', followUpId).executeTakeFirst())?.status;
          if (status === 'PUBLISHED') recordedAtKill++;
          kills.push(`round ${i}: ${mode.padEnd(14)} killed ${killDescription}; ${out} reply on the network`);
        })();
        return killed;
      };
      const delayMs = Math.floor(random() * 400);
      const delayOver = new Gate();
      let armed = true;
      let calls = 0;
      proxy.decide = (req): ProxyDecision => {
        const forward: ProxyDecision = { action: 'forward', delayMs: 2 + Math.floor(jitter() * 20) };
        // Only the reply's own calls count (a quota read, then create, publish, permalink).
        if (!armed || req.call === 'other') return forward;
        calls++;
        if (mode === 'delay') {
          if (calls === 1)
            setTimeout(() => {
              delayOver.open();
              void killVictim(`${delayMs} ms after the first call`);
            }, delayMs);
          if (req.call !== 'permalink') return forward;
          // The reply's last call (its permalink read) waits for the kill: the reply is never
          // recorded before it, however fast the worker is.
          armed = false;
          return {
            action: 'kill-before',
            kill: async () => {
              if (!delayOver.isOpen) killDescription = `${delayMs} ms after the first call, holding the permalink read`;
              await delayOver.opened;
              await killed;
            },
          };
        }
        const at = { 'before-publish': 'publish', 'after-create': 'create', 'after-publish': 'publish' }[mode];
        if (req.call !== at) return forward;
        armed = false;
        return {
          action: mode === 'before-publish' ? 'kill-before' : 'kill-after',
          kill: () => killVictim(`${mode === 'before-publish' ? 'before' : 'after'} ${req.call} (call ${calls})`),
        };
      };
      // Time passes: the follow-up falls due now.
      await env.ctx.db.updateTable('follow_ups').set({ run_at: new Date() }).where('id', '=', followUpId).execute();

      // Every mode kills within the reply's calls; the bound only stops a hung run.
      await waitFor(`the kill of round ${i}`, async () => killed !== null, 120_000, 10);
      await killed;
      armed = false;
      current = spawn();
      const row = await waitFor(
        `follow-up ${i} to end`,
        async () => {
          const r = await env.ctx.db.selectFrom('follow_ups').selectAll().where('id', '=', followUpId).executeTakeFirst();
          return r && (r.status === 'PUBLISHED' || r.status === 'FAILED') ? r : null;
        },
        120_000,
      );
      const thread = fake.published.filter((p) => p.ownerId === userId && texts.includes(p.text ?? ''));
      const replies = fake.published.filter((p) => p.text === replyText);
      const found: string[] = [];
      if (row.status !== 'PUBLISHED') found.push(`ended ${row.status}: ${row.last_error}`);
      if (replies.length !== 1) found.push(`${replies.length} replies on the network`);
      const reply = replies[0];
      const last = thread.find((p) => p.text === texts[1]);
      if (reply && reply.replyToId !== last?.id) found.push(`the reply answers ${reply.replyToId}, not the last post ${last?.id}`);
      if (reply && row.network_post_id !== reply.id) found.push(`the row records ${row.network_post_id}, the network has ${reply.id}`);
      if (reply && !row.permalink?.endsWith(`/post/${reply.shortcode}`)) found.push(`permalink ${row.permalink}`);
      const view = (await user.call(env.app, { method: 'GET', url: `/api/v1/posts/${threadId}/follow-ups` })).json().followUps[0];
      if (view.status !== 'PUBLISHED' || !view.publishedAt) found.push(`the API shows ${view.status} ${view.publishedAt}`);
      if (found.length) problems.push(`round ${i} (${mode}): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`# crash-follow-up: worker logs in ${dumpWorkerLogs(workers, 'crash-follow-up')}`);
    throw err;
  }
  for (const k of kills) console.log(`#   ${k}`);
  const mine = fake.published.filter((p) => p.ownerId === userId);
  console.log(
    `# crash-follow-up: ${kills.length} kills, ${mine.length} posts and replies on the network (${ROUNDS * 3} expected), ` +
      `${fake.duplicatePublishAttempts} refused re-publishes, ${workers.length} worker processes, ${seconds(Date.now() - started)} s (seed ${seed})`,
  );
  if (problems.length) console.log(`# crash-follow-up: worker logs in ${dumpWorkerLogs(workers, 'crash-follow-up')}`);
  assert.deepEqual(problems, []);
  assert.equal(kills.length, ROUNDS, 'one kill per round');
  assert.equal(recordedAtKill, 0, 'every kill lands before the reply is recorded PUBLISHED (by construction, at any speed)');
  assert.ok(
    kills.some((k) => k.includes('after publish') && k.endsWith('1 reply on the network')),
    'some kills land after the reply is out, before the worker knew',
  );
  assert.equal(mine.length, ROUNDS * 3, 'nothing else was published');
  assert.equal(fake.duplicatePublishAttempts, 0, 'no container was sent to threads_publish twice');
});

/** A 2-post thread published by the running worker (no kill), with a follow-up not yet due. */
async function publishedThreadWithFollowUp(user: TestUser, providerId: string, texts: string[], replyText: string) {
  const created = await user.call(env.app, {
    method: 'POST',
    url: '/api/v1/posts',
    payload: { providerId, scheduleAt: new Date(Date.now() + 300).toISOString(), posts: texts.map((text) => ({ text })) },
  });
  assert.equal(created.statusCode, 201, created.body);
  const threadId: string = created.json().threadId;
  const added = await user.call(env.app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: { text: replyText, delayMinutes: 5 } });
  assert.equal(added.statusCode, 201, added.body);
  await waitFor(
    `thread ${threadId} to be published`,
    async () => (await env.ctx.db.selectFrom('threads').select('status').where('id', '=', threadId).executeTakeFirst())?.status === 'PUBLISHED',
    120_000,
  );
  return { threadId, followUpId: added.json().id as string };
}
