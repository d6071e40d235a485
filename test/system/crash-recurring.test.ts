/**
 * Crash test for recurring threads, on PostgreSQL (real `skein worker` processes) and on the
 * embedded database (`skein serve` on a PGlite data folder): publishing an occurrence's last post
 * completes it and makes the next occurrence in one transaction (repos/series.ts), and the
 * process is killed (SIGKILL) around that moment, round after round:
 * - `publish-before`: as the last post's threads_publish call arrives (the network never sees it);
 * - `publish-after`: the network publishes the last post, the process dies before the answer
 *   (only the network knows; nothing is committed);
 * - `after-commit`: as soon as the API shows the next occurrence (the transaction committed).
 * Each round makes the waiting occurrence due at once with new texts (Edit Entire Thread with
 * `scheduleAt`; the edit carries into the series). After each restart the series must be whole:
 * occurrences 1…n published, exactly one waiting (n + 1), numbers consecutive, each occurrence's
 * posts at the fake Graph API exactly once, in order. Replay with SKEIN_SYSTEM_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type CrashSite, openCrashSite, SITE_KINDS } from '../helpers/crash-site.js';
import { postgresSkipReason } from '../helpers/db.js';
import { GraphProxy, type ProxyDecision } from '../helpers/fakes/proxies.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { createUser } from '../helpers/seeds.js';
import { checkThreadOnNetwork, connectFakeThreads, pickSeed, seconds, waitFor } from '../helpers/system.js';

const POSTS = 2;
const MODES = ['publish-before', 'publish-after', 'after-commit'] as const;
const ROUNDS = 2 * MODES.length;
const LEASE_MS = 3000;
const DAY_MS = 24 * 3_600_000;

type Mode = (typeof MODES)[number];

interface SeriesThread {
  threadId: string;
  status: string;
  series: { id: string; occurrence: number } | null;
  repeat: unknown;
}

interface Owner {
  key: string;
  providerId: string;
  networkUserId: string;
}

let fake: FakeGraphApi;
let proxy: GraphProxy;

before(async () => {
  fake = await FakeGraphApi.start({ processingMs: { TEXT: 0 } });
  proxy = await GraphProxy.start(fake.url);
});

after(async () => {
  await proxy?.close();
  await fake?.close();
});

for (const kind of SITE_KINDS) {
  const skip = kind === 'postgres' ? postgresSkipReason() : undefined;
  test(`${kind}: a process killed (SIGKILL) around an occurrence's completion, ${ROUNDS} times: the series is never lost nor doubled`, {
    skip: skip ?? false,
    timeout: 600_000,
  }, async () => {
    const site = await openCrashSite(kind, { threadsApiUrl: proxy.url, leaseMs: LEASE_MS });
    try {
      await killAroundCompletion(site);
    } catch (err) {
      console.log(`# crash recurring (${kind}): logs in ${site.dumpLogs(`crash-recurring-${kind}`)}`);
      throw err;
    } finally {
      proxy.decide = () => ({ action: 'forward' });
      await site.close();
    }
  });
}

/** `YYYY-MM-DDThh:mm:ss` in UTC (the account's zone): List Posts' `from` and `to`. */
function utcLocal(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Every thread of the series List Posts shows (all of them are within a day of the test's start, or the next day). */
async function seriesThreads(site: CrashSite, owner: Owner, seriesId: string, startedAt: number): Promise<SeriesThread[]> {
  const res = await site.api(owner.key, 'GET', `/api/v1/posts?from=${utcLocal(startedAt - DAY_MS)}&to=${utcLocal(Date.now() + 3 * DAY_MS)}`);
  assert.equal(res.status, 200, JSON.stringify(res.json));
  return (res.json.threads as SeriesThread[]).filter((t) => t.series?.id === seriesId).sort((a, b) => a.series!.occurrence - b.series!.occurrence);
}

function textsOf(seed: number, occurrence: number): string[] {
  return Array.from({ length: POSTS }, (_, j) => `series ${seed} occurrence ${occurrence} post ${j + 1}`);
}

/**
 * The series after occurrence `n` ended: 1…n PUBLISHED, n + 1 waiting (READY, carrying the
 * rule), nothing else; each published occurrence's posts on the network once, in order.
 */
function problemsOf(threads: SeriesThread[], n: number, owner: Owner, seed: number): string[] {
  const problems: string[] = [];
  const numbers = threads.map((t) => t.series!.occurrence);
  const expected = Array.from({ length: n + 1 }, (_, i) => i + 1);
  if (JSON.stringify(numbers) !== JSON.stringify(expected)) problems.push(`occurrences ${numbers.join(',')}, expected ${expected.join(',')}`);
  const waiting = threads.filter((t) => t.status !== 'PUBLISHED');
  if (waiting.length !== 1 || waiting[0]!.series!.occurrence !== n + 1 || waiting[0]!.status !== 'READY' || waiting[0]!.repeat === null)
    problems.push(`waiting: ${JSON.stringify(waiting.map((t) => [t.series?.occurrence, t.status, t.repeat]))}`);
  for (let occurrence = 1; occurrence <= n; occurrence++) {
    for (const p of checkThreadOnNetwork(fake, owner.networkUserId, textsOf(seed, occurrence)).problems) problems.push(`occurrence ${occurrence}: ${p}`);
  }
  return problems;
}

/** Kills the process (`onKill`) at the last post's threads_publish call (before or after the network carries it out). */
function killAtLastPublish(lastText: string, mode: 'publish-before' | 'publish-after', onKill: () => Promise<void>): void {
  let armed = true;
  let publishNext = false;
  proxy.decide = (req): ProxyDecision => {
    if (!armed) return { action: 'forward' };
    if (req.call === 'create' && req.params.text === lastText) publishNext = true;
    else if (req.call === 'publish' && publishNext) {
      armed = false;
      return { action: mode === 'publish-before' ? 'kill-before' : 'kill-after', kill: onKill };
    }
    return { action: 'forward' };
  };
}

async function killAroundCompletion(site: CrashSite): Promise<void> {
  const seed = pickSeed();
  const startedAt = Date.now();
  console.log(`# crash recurring (${site.kind}): seed ${seed}`);
  const owner = await site.withDb(async (ctx): Promise<Owner> => {
    const user = await createUser(ctx);
    const { provider, userId } = await connectFakeThreads(ctx, user.account.id, fake, `recurring_${site.kind}`);
    return { key: user.key, providerId: provider.id, networkUserId: userId };
  });
  let current = site.start();
  await current.ready();
  const created = await site.api(owner.key, 'POST', '/api/v1/posts', {
    providerId: owner.providerId,
    scheduleAt: new Date(Date.now() + 60_000).toISOString(),
    posts: textsOf(seed, 1).map((text) => ({ text })),
    repeat: { every: 1, unit: 'day' },
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const seriesId: string = created.json.threadId;
  let waitingId = seriesId;
  const log: string[] = [];
  for (let n = 1; n <= ROUNDS; n++) {
    const mode: Mode = MODES[(n - 1) % MODES.length]!;
    const texts = textsOf(seed, n);
    const victim = current;
    let killed: Promise<void> | null = null;
    const kill = () => {
      killed ??= (async () => {
        victim.sigkill();
        await victim.exited;
      })();
      return killed;
    };
    if (mode === 'after-commit') proxy.decide = () => ({ action: 'forward' });
    else killAtLastPublish(texts.at(-1)!, mode, kill);
    // Due at once, with this round's texts (the first round's are already there).
    const edited = await site.api(owner.key, 'PUT', `/api/v1/posts/${waitingId}/edit`, {
      posts: texts.map((text) => ({ text })),
      scheduleAt: new Date(Date.now() + 200).toISOString(),
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.json));
    if (mode === 'after-commit') {
      await waitFor(`round ${n}: occurrence ${n + 1} made`, async () => (await seriesThreads(site, owner, seriesId, startedAt)).length > n, 120_000, 20);
      await kill();
    }
    await waitFor(`round ${n}: the kill`, async () => killed !== null, 120_000, 10);
    await killed;
    const outAtKill = texts.filter((t) => fake.published.some((p) => p.text === t)).length;
    current = site.start();
    await current.ready();
    const threads = await waitFor(
      `round ${n}: occurrence ${n} published and ${n + 1} made`,
      async () => {
        const all = await seriesThreads(site, owner, seriesId, startedAt);
        return all.length > n && all.slice(0, n).every((t) => ['PUBLISHED', 'FAILED'].includes(t.status)) ? all : null;
      },
      120_000,
      100,
    );
    assert.deepEqual(problemsOf(threads, n, owner, seed), [], `round ${n} (${mode})`);
    waitingId = threads.at(-1)!.threadId;
    log.push(`#   occurrence ${n}: killed ${mode.padEnd(14)} with ${outAtKill}/${POSTS} posts out`);
  }
  const mine = fake.published.filter((p) => p.text?.startsWith(`series ${seed} `));
  for (const line of log) console.log(line);
  console.log(
    `# crash recurring (${site.kind}): ${ROUNDS} kills, ${ROUNDS} occurrences published, ${mine.length} posts on the network, ${site.processes.length} processes, ${seconds(Date.now() - startedAt)} s (seed ${seed})`,
  );
  assert.equal(mine.length, ROUNDS * POSTS, 'every occurrence once, nothing else');
}
