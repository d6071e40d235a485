/**
 * The kill -9 test of a network whose thread is a chain of writes without an idempotency key
 * (Mastodon, X, LinkedIn), on both sites of test/helpers/crash-site.ts. Each run creates a thread
 * of `posts` posts, lets the proxy kill the publishing process at one write, starts a fresh one
 * and waits for the thread to end; every post must then be on the network exactly once, in
 * order, and PUBLISHED with its permalink in the database. What differs by network (the account,
 * what a write looks like, how the fake shows the chain) is the `ReplyChainNetwork` given.
 *
 * Where a kill lands (alternating, the write picked by a seeded random; replay a run with
 * SKEIN_SYSTEM_SEED=<seed printed>):
 * - `before`: SIGKILL when the thread's k-th write reaches the proxy; the network never sees it;
 * - `after`: the network makes the k-th write, then the process is killed before it reads the
 *   answer: only the network knows, and the next process must find it before sending again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CrashSite, type CrashSiteOptions, openCrashSite, SITE_KINDS, type SkeinProcess } from './crash-site.js';
import { postgresSkipReason } from './db.js';
import type { MastodonProxy, MastodonRequest, ProxyDecision } from './fakes/proxies.js';
import { pickSeed, seconds, seededRandom, waitFor } from './system.js';

interface Crasher {
  key: string;
  providerId: string;
}

export interface ReplyChainNetwork {
  /** In test names and output: 'mastodon'. */
  label: string;
  /** What one write is called there: 'status', 'post'. */
  write: string;
  kills: number;
  posts: number;
  /** The proxy the processes reach the network through (a JSON API's: MastodonProxy reads any). */
  proxy(): MastodonProxy;
  /** The site's settings beside the lease (the network's URL, its app). */
  site(): Omit<CrashSiteOptions, 'threadsApiUrl' | 'leaseMs'>;
  /** A user with an account on the network's fake. */
  connect(site: CrashSite): Promise<Crasher>;
  /** The text a request writes as a post of the thread, or null when it writes none. */
  writtenText(req: MastodonRequest): string | null;
  /** Thread `i`'s posts as Create Thread takes them. */
  postsOf(texts: string[], i: number, site: CrashSite): unknown[];
  /** How many of `texts` the network shows now (read at each kill). */
  outOf(texts: string[]): number;
  /** What is wrong with the thread on the network: each post once, in order, with its media. */
  check(texts: string[]): string[];
  /** Once every thread has ended: the run's own checks (nothing else posted, each image once); returns a summary. */
  settle(allTexts: string[]): string;
}

const LEASE_MS = 3000;
const MODES = ['before', 'after'] as const;

/** One test per site (PostgreSQL workers, the embedded server), each `network.kills` kills long. */
export function replyChainCrashTests(network: ReplyChainNetwork): void {
  for (const kind of SITE_KINDS) {
    const skip = kind === 'postgres' ? postgresSkipReason() : undefined;
    const name = `${kind}: a process killed (SIGKILL) while publishing to ${network.label}, ${network.kills} times: every ${network.write} exactly once, in order`;
    test(name, { skip: skip ?? false, timeout: 600_000 }, async () => {
      const site = await openCrashSite(kind, { threadsApiUrl: 'http://127.0.0.1:9', leaseMs: LEASE_MS, ...network.site() });
      try {
        await killWhilePublishing(site, network);
      } finally {
        await site.close();
      }
    });
  }
}

interface ThreadView {
  status: string;
  posts: Array<{ status: string; permaLink: string | null }>;
}

/** The thread as Get Thread shows it, once it has ended (PUBLISHED or FAILED). */
function endOf(site: CrashSite, crasher: Crasher, threadId: string, label: string): Promise<ThreadView> {
  return waitFor(
    `${label} to end`,
    async () => {
      const res = await site.api(crasher.key, 'GET', `/api/v1/posts/${threadId}`);
      return res.status === 200 && ['PUBLISHED', 'FAILED'].includes(res.json.thread.status) ? (res.json.thread as ThreadView) : null;
    },
    120_000,
    100,
  );
}

interface Kill {
  mode: string;
  write: number;
  out: number;
}

/** Arms the proxy to kill `victim` at the thread's `killAt`-th write; the promise is set once the kill is done. */
function armKill(network: ReplyChainNetwork, texts: string[], victim: SkeinProcess, mode: (typeof MODES)[number], killAt: number, kills: Kill[]) {
  const state: { killed: Promise<void> | null } = { killed: null };
  let writes = 0;
  let armed = true;
  network.proxy().decide = (req): ProxyDecision => {
    const text = network.writtenText(req);
    if (!armed || text === null || !texts.includes(text)) return { action: 'forward' };
    const write = ++writes;
    if (write !== killAt) return { action: 'forward' };
    armed = false;
    return {
      action: mode === 'before' ? 'kill-before' : 'kill-after',
      kill: () => {
        state.killed ??= (async () => {
          victim.sigkill();
          await victim.exited;
          kills.push({ mode, write, out: network.outOf(texts) });
        })();
        return state.killed;
      },
    };
  };
  return state;
}

async function killWhilePublishing(site: CrashSite, network: ReplyChainNetwork): Promise<void> {
  const { label, write, posts: POSTS } = network;
  const tag = `# crash ${label.toLowerCase()} (${site.kind})`;
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`${tag}: seed ${seed}`);
  const crasher = await network.connect(site);
  let current: SkeinProcess = site.start();
  const problems: string[] = [];
  const allTexts: string[] = [];
  const kills: Kill[] = [];
  try {
    for (let i = 0; i < network.kills; i++) {
      await current.ready();
      const mode = MODES[i % MODES.length]!;
      // The first `after` kill lands before the last write, so some kill leaves part of a thread out.
      const killAt = 1 + Math.floor(random() * (i === 1 ? POSTS - 1 : POSTS));
      // No character any network's text format reserves: the text sent is the text written.
      const texts = Array.from({ length: POSTS }, (_, j) => `crash ${i} ${write} ${j + 1} of ${POSTS} seed ${seed} ${site.kind}`);
      allTexts.push(...texts);
      const kill = armKill(network, texts, current, mode, killAt, kills);
      const created = await site.api(crasher.key, 'POST', '/api/v1/posts', {
        providerId: crasher.providerId,
        scheduleAt: new Date(Date.now() + 200).toISOString(),
        posts: network.postsOf(texts, i, site),
      });
      assert.equal(created.status, 201, JSON.stringify(created.json));
      await waitFor(`the kill of thread ${i}`, async () => kill.killed !== null, 120_000, 10);
      await kill.killed;
      current = site.start();
      await current.ready();
      const view = await endOf(site, crasher, created.json.threadId, `thread ${i}`);
      const found = network.check(texts);
      if (view.status !== 'PUBLISHED') found.push(`thread ended ${view.status}`);
      view.posts.forEach((p, j) => {
        if (p.status !== 'PUBLISHED' || !p.permaLink) found.push(`post ${j}: ${p.status}, ${p.permaLink}`);
      });
      if (found.length) problems.push(`thread ${i} (${mode} at ${write} ${killAt}): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`${tag}: logs in ${site.dumpLogs(`crash-${label.toLowerCase()}-${site.kind}`)}`);
    throw err;
  }
  for (const [i, k] of kills.entries()) console.log(`#   thread ${i}: ${k.mode.padEnd(6)} killed at ${write} ${k.write}; ${k.out}/${POSTS} were out`);
  if (problems.length) console.log(`${tag}: logs in ${site.dumpLogs(`crash-${label.toLowerCase()}-${site.kind}`)}`);
  assert.deepEqual(problems, []);
  const summary = network.settle(allTexts);
  console.log(`${tag}: ${kills.length} kills, ${summary}, ${site.processes.length} processes, ${seconds(Date.now() - started)} s (seed ${seed})`);
  assert.equal(kills.length, network.kills, 'one kill per thread');
  assert.ok(
    kills.some((k) => k.mode === 'after' && k.out > 0 && k.out < POSTS),
    'some kills land after part of the thread is out',
  );
}

/** How many of `texts` are on the network more than once, and how many not at all. */
export function copiesOf(texts: string[], onNetwork: string[]): { duplicates: number; missing: number } {
  return {
    duplicates: texts.reduce((n, t) => n + Math.max(0, onNetwork.filter((s) => s === t).length - 1), 0),
    missing: texts.filter((t) => !onNetwork.includes(t)).length,
  };
}

interface ChainPost {
  id: string;
  text: string;
  inReplyToId: string | null;
  mediaIds: string[];
}

/**
 * A reply chain's posts among `all` (the account's posts on the fake), one per text; `problems`
 * names each text not there exactly once, or each post not replying to the one before it.
 */
export function replyChainOf<P extends ChainPost>(texts: string[], all: P[], write: string): { problems: string[]; found: P[] } {
  const problems: string[] = [];
  const found = texts.map((text, i) => {
    const copies = all.filter((p) => p.text === text);
    if (copies.length !== 1) problems.push(`${write} ${i} is on the network ${copies.length} times`);
    return copies[0]!;
  });
  if (problems.length) return { problems, found: [] };
  found.forEach((post, i) => {
    if (post.inReplyToId !== (i === 0 ? null : found[i - 1]!.id)) problems.push(`${write} ${i} does not reply to ${write} ${i - 1}`);
  });
  if (found.slice(1).some((p) => p.mediaIds.length > 0)) problems.push(`an image on a later ${write}`);
  return { problems, found };
}
