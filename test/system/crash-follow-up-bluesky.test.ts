/**
 * Crash test for follow-up replies on a real Bluesky PDS: real `skein worker` processes are
 * killed with SIGKILL while a follow-up reply is being written to a local PLC + PDS (from
 * @atproto/dev-env); a fresh worker takes it over once the dead one's lease runs out. Each reply
 * must be on the PDS exactly once, its root the thread's first post and its parent the last, and
 * the database must show it PUBLISHED with that record's URI.
 *
 * Each round publishes a 2-post thread first (no kill), then makes its follow-up due at once
 * (its `run_at` moved to now: the 5-minute delay is not waited for in real time). The workers
 * reach the PDS through a proxy in this process (the provider's service URL points at it),
 * which places the kill, so each case is arranged rather than left to the machine's speed:
 * `before` the reply's write reaches the PDS (its record key saved as pending), `after` the PDS
 * wrote it (only the PDS knows), or `delay`: at a random moment after the claim, the write's
 * answer held until then, so the kill never comes after the reply is recorded.
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { postgresSkipReason } from '../helpers/db.js';
import type { LocalAccount, LocalNetwork } from '../helpers/fakes/bluesky-pds.js';
import { type ProxyDecision, writtenPostText, type XrpcProxy } from '../helpers/fakes/proxies.js';
import type { TestUser } from '../helpers/seeds.js';
import { dumpWorkerLogs, Gate, pickSeed, type SystemEnv, seconds, seededRandom, shutDown, type WorkerProcess, waitFor } from '../helpers/system.js';
import { postsOnPds, startBlueskySystem, startBlueskyWorker } from '../helpers/system-bluesky.js';

const skip = postgresSkipReason();
const KILLS = 6;
const LEASE_MS = 3000;
const MODES = ['before', 'after', 'delay'] as const;
/** Delay mode: the kill comes up to this long after the claim (the spread of the moments, not a speed claim). */
const MAX_DELAY_MS = 400;

let pds: LocalNetwork<TestNetworkNoAppView>;
let proxy: XrpcProxy;
let env: SystemEnv;
let user: TestUser;
let account: LocalAccount;
let providerId: string;
const workers: WorkerProcess[] = [];

before(async () => {
  if (skip) return;
  ({ pds, proxy, env, user, account, providerId } = await startBlueskySystem('crashfu'));
});

after(async () => {
  if (skip) return;
  await shutDown({ workers, env, servers: [proxy, pds] });
});

async function followUpRow(id: string) {
  return env.ctx.db.selectFrom('follow_ups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A 2-post thread published by the running worker, with a follow-up not yet due. */
async function publishedThreadWithFollowUp(label: string) {
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
    120_000,
  );
  return { id, texts, reply };
}

// The bounds below only stop a hung run.
const ended = (id: string) => waitFor(`follow-up ${id} to end`, async () => ['PUBLISHED', 'FAILED'].includes((await followUpRow(id)).status), 120_000, 20);

// Generous: each round waits out a 3 s lease and spawns a worker; this only stops a hung run.
test(`a worker killed (SIGKILL) while writing a follow-up reply to a real PDS, ${KILLS} times: each reply exactly once`, {
  skip: skip ?? false,
  timeout: 600_000,
}, async () => {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# crash-follow-up bluesky: seed ${seed}`);
  const spawn = () => {
    const w = startBlueskyWorker(env, `worker-${workers.length + 1}`, LEASE_MS);
    workers.push(w);
    return w;
  };
  let current = spawn();
  const problems: string[] = [];
  const kills: Array<{ mode: (typeof MODES)[number]; at: string; out: boolean; done: boolean }> = [];
  try {
    for (let i = 0; i < KILLS; i++) {
      await current.ready;
      const mode = MODES[i % MODES.length]!;
      const delayMs = Math.floor(random() * MAX_DELAY_MS);
      proxy.decide = () => ({ action: 'forward' });
      const { id, texts, reply } = await publishedThreadWithFollowUp(`crash ${i} (${seed})`);

      const victim = current;
      let killed: Promise<void> | null = null;
      let description = '';
      const killVictim = (what: string) => {
        description ||= what;
        killed ??= (async () => {
          await victim.kill('SIGKILL');
          const out = (await postsOnPds(account)).some((p) => p.text === reply);
          kills.push({ mode, at: description, out, done: (await followUpRow(id)).status === 'PUBLISHED' });
        })();
        return killed;
      };
      const delayOver = new Gate();
      let armed = true;
      proxy.decide = (req): ProxyDecision => {
        if (!armed || writtenPostText(req) !== reply) return { action: 'forward' };
        armed = false;
        if (mode === 'delay') {
          return {
            action: 'kill-after',
            kill: async () => {
              if (!delayOver.isOpen) description = `${delayMs} ms after the claim, the write's answer held`;
              await delayOver.opened;
              await killed;
            },
          };
        }
        return { action: mode === 'before' ? 'kill-before' : 'kill-after', kill: () => killVictim(`${mode} the write`) };
      };
      // Time passes: the follow-up falls due now.
      await env.ctx.db.updateTable('follow_ups').set({ run_at: new Date() }).where('id', '=', id).execute();
      if (mode === 'delay') {
        await waitFor(`follow-up ${i} to be claimed`, async () => (await followUpRow(id)).status !== 'PENDING', 120_000, 5);
        setTimeout(() => {
          delayOver.open();
          void killVictim(`${delayMs} ms after the claim`);
        }, delayMs);
      }
      // Every mode kills before the reply is recorded; the bound only stops a hung run.
      await waitFor(`the kill of round ${i}`, async () => killed !== null, 120_000, 10);
      await killed;
      armed = false;
      current = spawn();
      await ended(id);
      const onPds = await postsOnPds(account);
      const copies = onPds.filter((p) => p.text === reply);
      const [first, last] = texts.map((t) => onPds.find((p) => p.text === t));
      const row = await followUpRow(id);
      const found: string[] = [];
      if (copies.length !== 1) found.push(`the reply is on the PDS ${copies.length} times`);
      if (copies[0] && (copies[0].reply?.root.uri !== first?.uri || copies[0].reply?.parent.uri !== last?.uri)) found.push('the reply is not under the thread');
      if (row.status !== 'PUBLISHED') found.push(`ended ${row.status}: ${row.last_error}`);
      if (copies[0] && row.network_post_id !== copies[0].uri) found.push(`the row records ${row.network_post_id}, the PDS has ${copies[0].uri}`);
      if (found.length) problems.push(`round ${i} (${mode}, killed ${description}): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`# crash-follow-up bluesky: worker logs in ${dumpWorkerLogs(workers, 'crash-follow-up-bluesky')}`);
    throw err;
  }
  const onPds = await postsOnPds(account);
  for (const [i, k] of kills.entries())
    console.log(`#   round ${i}: ${k.mode.padEnd(6)} killed ${k.at}; reply ${k.out ? 'out' : 'not out'}${k.done ? ' (already recorded)' : ''}`);
  console.log(
    `# crash-follow-up bluesky: ${kills.length} kills (${kills.filter((k) => !k.done).length} before it was recorded), ` +
      `${onPds.length} records on the PDS (${KILLS * 3} expected), ${workers.length} worker processes, ${seconds(Date.now() - started)} s (seed ${seed})`,
  );
  if (problems.length) console.log(`# crash-follow-up bluesky: worker logs in ${dumpWorkerLogs(workers, 'crash-follow-up-bluesky')}`);
  assert.deepEqual(problems, []);
  assert.equal(onPds.length, KILLS * 3, 'each post and reply once, nothing else');
  assert.equal(kills.length, KILLS, 'one kill per round');
  // By construction (the kill comes before the write's answer is read), at any machine speed.
  assert.equal(kills.filter((k) => k.done).length, 0, 'every kill lands before the worker recorded the reply');
  assert.ok(
    kills.some((k) => k.mode === 'after' && k.out),
    'some kills land after the reply is on the PDS, before the worker knew',
  );
});
