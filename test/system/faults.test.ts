/**
 * Network faults: the fake Graph API answers 500s, 429 with Retry-After, hangs (the client times
 * out) and cuts connections after carrying a request out. Threads must be published late, never
 * lost, never twice.
 *
 * The last part ("on every network") is table-driven: Threads, X, LinkedIn and Mastodon each meet
 * the same faults (down, hang, slow, lost answers that still created the post, 5xx, 429) through
 * a proxy in front of their fakes, on both databases, and each must publish every post once, in
 * order. Mastodon's client has a fixed 30 s timeout, so it meets all but hang and slow. Bluesky's
 * faults are its crash test's (a real PDS).
 *
 * How it runs:
 * - In-process part (the first tests): `skein worker`'s Threads client waits 30 s for an answer
 *   (not configurable through the environment), so two PublisherLoops run in this process
 *   against the file's own PostgreSQL database, each with its own ThreadsPlatform and
 *   ThreadsClient, and a ManualClock shared by Skein and the fake: backoff and Retry-After waits
 *   are jumped over by moving the clock. A hang is played by the loops' fetch (see `net`):
 *   the request fails at once with the TimeoutError the client's timeout raises, so no real
 *   timeout is waited out, and the client's own timeout stays long enough that an answer merely
 *   slow on a loaded machine is never taken for a hang.
 * - Real-process part (the last tests): two `skein worker` child processes on the system clock
 *   with faults that need no short timeout (500, 429 with Retry-After, dropped answers), a hang
 *   (the stuck worker keeps its lease by its heartbeat until its client gives up after 30 s,
 *   then the thread is retried), and an answer slower than the lease.
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AppContext } from '../../src/context.js';
import { ManualClock } from '../../src/lib/clock.js';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { createPlatforms } from '../../src/networks/clients.js';
import { withFreshTokens } from '../../src/networks/fresh-tokens.js';
import { LinkedInClient } from '../../src/networks/linkedin/client.js';
import { LinkedInPlatform } from '../../src/networks/linkedin/platform.js';
import { MastodonClient } from '../../src/networks/mastodon/client.js';
import { MastodonPlatform } from '../../src/networks/mastodon/platform.js';
import type { Platforms } from '../../src/networks/platform.js';
import { ThreadsClient, ThreadsPlatform } from '../../src/networks/threads/platform.js';
import { XClient } from '../../src/networks/x/client.js';
import { XPlatform } from '../../src/networks/x/platform.js';
import type { PublisherLoop as Loop } from '../../src/publisher/loop.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { createThread } from '../../src/services/threads/threads.js';
import { describeEachDb } from '../helpers/context.js';
import { postgresSkipReason } from '../helpers/db.js';
import { FakeLinkedInApi } from '../helpers/fakes/linkedin-api.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { classify, GraphProxy, HttpProxy, type HttpRequestSeen, type ProxyDecision } from '../helpers/fakes/proxies.js';
import { type FakeEndpoint, FakeGraphApi, type Fault } from '../helpers/fakes/threads-graph-api.js';
import { FakeXApi } from '../helpers/fakes/x-api.js';
import { type MediaServer, startMediaServer } from '../helpers/media-server.js';
import { createUser, type TestUser } from '../helpers/seeds.js';
import {
  checkThreadInDb,
  checkThreadOnNetwork,
  connectFakeThreads,
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
} from '../helpers/system.js';

const skip = postgresSkipReason();
/** The in-process clients' timeout: only a hang guard (hangs are played at once, see net). */
const CLIENT_TIMEOUT_MS = 30_000;
const seed = pickSeed();
console.log(`# faults: seed ${seed}`);

/** The fake's endpoint a request of the Threads client goes to (null for one no fault is aimed at). */
function endpointOf(method: string, url: URL): FakeEndpoint | null {
  const call = classify(method, url.pathname, Object.fromEntries(url.searchParams));
  if (call === 'limit') return 'threads_publishing_limit';
  if (call === 'create') return 'threads.create';
  if (call === 'status' || call === 'permalink') return 'object.get';
  if (call === 'publish') return 'threads_publish';
  if (call === 'list') return url.pathname.endsWith('/replies') ? 'replies.list' : 'threads.list';
  return null;
}

// ---------------------------------------------------------------------------------------------
// In-process: two PublisherLoops, short client timeout, test clock
// ---------------------------------------------------------------------------------------------

describe('network faults, in-process loops on PostgreSQL (test clock)', { skip: skip ?? false }, () => {
  const clock = new ManualClock(Date.now());
  let fake: FakeGraphApi;
  let env: SystemEnv;
  let user: TestUser;
  let account: { provider: { id: string }; userId: string };
  let serial = 0;
  /** The posts' media, which "Meta" downloads; on loopback, so private media is allowed. */
  let cdn: MediaServer;

  before(async () => {
    // Videos take 200 s to process: longer than a 120 s lease (see the lease test).
    fake = await FakeGraphApi.start({ clock, processingMs: { TEXT: 0, IMAGE: 0, VIDEO: 200_000 } });
    cdn = await startMediaServer();
    env = await openSystemEnv({ clock, config: (c) => ({ ...c, publisher: { ...c.publisher, leaseMs: 120_000 }, media: { allowPrivate: true } }) });
    user = await createUser(env.ctx);
    account = await connectFakeThreads(env.ctx, user.account.id, fake, 'faults_inproc');
  });
  after(async () => {
    await env?.close();
    await fake?.close();
    await cdn?.close();
  });

  /** Hangs still to play, per endpoint: the next requests to it get no answer. */
  const hangs = new Map<FakeEndpoint, number>();

  /** Queues a fault for the next calls to an endpoint: a hang here (see net), any other kind in the fake. */
  function inject(endpoint: FakeEndpoint, fault: Fault, times = 1): void {
    if (fault.kind === 'hang') hangs.set(endpoint, (hangs.get(endpoint) ?? 0) + times);
    else fake.failNext(endpoint, fault, times);
  }

  /**
   * The loops' way to the network. A request to an endpoint with a hang queued is not sent: it
   * fails at once as a fetch whose AbortSignal.timeout fired fails (TimeoutError), which is what
   * the client sees when the fake hangs and its timeout runs out. Test wrappers call this rather
   * than fetch, so a hang applies to the request they pass on.
   */
  const net: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const endpoint = endpointOf(init?.method ?? 'GET', url);
    const queued = endpoint ? (hangs.get(endpoint) ?? 0) : 0;
    if (endpoint && queued > 0) {
      hangs.set(endpoint, queued - 1);
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    }
    return fetch(input, init);
  };

  function platform(options: { sleep?: (ms: number) => Promise<void>; fetch?: typeof fetch } = {}) {
    const client = new ThreadsClient({
      apiUrl: fake.url,
      appId: null,
      appSecret: null,
      timeoutMs: CLIENT_TIMEOUT_MS,
      now: () => clock.now().getTime(),
      fetch: options.fetch ?? net,
    });
    return { THREADS: new ThreadsPlatform({ client, ...(options.sleep ? { sleep: options.sleep } : {}) }) };
  }
  const loops = () => [new PublisherLoop(env.ctx, platform(), `fault-a-${serial}`), new PublisherLoop(env.ctx, platform(), `fault-b-${serial}`)];

  async function newThread(size: number, label: string, media?: string, inMs = 0): Promise<{ threadId: string; texts: string[] }> {
    serial++;
    const texts = Array.from({ length: size }, (_, j) => `${label} #${serial} post ${j + 1} (${seed})`);
    const created = await createThread(env.ctx, user.account, {
      providerId: account.provider.id,
      scheduleAt: new Date(clock.now().getTime() + inMs).toISOString(),
      posts: texts.map((text, j) => ({ text, ...(media && j === 0 ? { media: [{ url: media }] } : {}) })),
    });
    return { threadId: created.threadId, texts };
  }

  /**
   * Runs the loops round after round; between rounds the clock jumps to the next moment a thread
   * is due (backoff, Retry-After, an expired lease), at least one second.
   */
  async function drive(loopsToRun: Loop[], threadIds: string[], options: { maxRounds?: number; beforeRound?: (round: number) => void } = {}): Promise<number> {
    for (let round = 0; round < (options.maxRounds ?? 200); round++) {
      options.beforeRound?.(round);
      await Promise.all(loopsToRun.map((l) => l.runOnce()));
      const open = await env.ctx.db
        .selectFrom('threads')
        .select(['status', 'scheduled_at', 'next_attempt_at', 'locked_until'])
        .where('id', 'in', threadIds)
        .where('status', 'in', ['READY', 'PUBLISHING'])
        .execute();
      if (open.length === 0) return round + 1;
      const now = clock.now().getTime();
      const due = open.map((t) =>
        t.status === 'READY' ? Math.max(t.scheduled_at!.getTime(), t.next_attempt_at?.getTime() ?? 0) : t.locked_until!.getTime() + 1,
      );
      clock.set(Math.max(now + 1000, Math.min(...due)));
    }
    throw new Error(`threads still open after ${options.maxRounds ?? 200} rounds`);
  }

  async function verify(threadId: string, texts: string[], options: { permalinks?: boolean } = {}): Promise<string[]> {
    const network = checkThreadOnNetwork(fake, account.userId, texts);
    let db = await checkThreadInDb(env.ctx, threadId, network.posts);
    if (options.permalinks === false) db = db.filter((p) => !p.endsWith('has no permalink'));
    return [...network.problems, ...db];
  }

  const attemptsOf = async (threadId: string) =>
    (await env.ctx.db.selectFrom('threads').select('attempts').where('id', '=', threadId).executeTakeFirstOrThrow()).attempts;

  const KINDS: Record<string, Fault> = {
    http500: { kind: 'http500' },
    http429: { kind: 'http429', retryAfterSec: 90 },
    hang: { kind: 'hang' },
    dropResponse: { kind: 'dropResponse' },
    unknownError: { kind: 'graphError', status: 500, error: { message: 'An unknown error occurred', type: 'OAuthException', code: 1, is_transient: true } },
  };

  test('every fault kind at every step of a 2-post thread: published once, after a retry', async () => {
    const started = Date.now();
    const cases: Array<{ name: string; faults: Array<[FakeEndpoint, Fault, number?]> }> = [];
    for (const endpoint of ['threads_publishing_limit', 'threads.create', 'object.get', 'threads_publish'] as const) {
      for (const [name, fault] of Object.entries(KINDS)) cases.push({ name: `${name} on ${endpoint}`, faults: [[endpoint, fault]] });
    }
    // The answer to a publish is lost, then the lookup that finds the post fails too.
    for (const [name, fault] of Object.entries(KINDS)) {
      cases.push({
        name: `dropResponse on the first publish, then ${name} on threads.list`,
        faults: [
          ['threads_publish', KINDS.dropResponse!],
          ['threads.list', fault],
        ],
      });
    }
    cases.push({
      name: '500 on create, then two hangs on publish',
      faults: [
        ['threads.create', KINDS.http500!],
        ['threads_publish', KINDS.hang!, 2],
      ],
    });
    cases.push({ name: 'dropResponse on every create, three times', faults: [['threads.create', KINDS.dropResponse!, 3]] });

    const problems: string[] = [];
    let retries = 0;
    for (const c of cases) {
      // A text container is published without a status read, so the first object.get of a text
      // post is the permalink read (best effort, not retried): an image post makes it the status poll.
      const onStatusRead = c.faults.some(([endpoint]) => endpoint === 'object.get');
      const { threadId, texts } = await newThread(2, c.name, onStatusRead ? `${cdn.base}/photo.jpg` : undefined);
      for (const [endpoint, fault, times] of c.faults) inject(endpoint, fault, times ?? 1);
      await drive(loops(), [threadId]);
      const attempts = await attemptsOf(threadId);
      retries += attempts - 1;
      if (attempts < 2) problems.push(`${c.name}: the fault did not cause a retry (the test did not test it)`);
      problems.push(...(await verify(threadId, texts)).map((p) => `${c.name}: ${p}`));
    }
    console.log(
      `# faults matrix: ${cases.length} cases, ${retries} retries, ${problems.length} problems, ${fake.duplicatePublishAttempts} refused re-publishes, ${seconds(Date.now() - started)} s`,
    );
    assert.deepEqual(problems, []);
    assert.equal(fake.duplicatePublishAttempts, 0);
  });

  test('429 waits at least Retry-After; a 500 backs off about 5 s', async () => {
    const limited = await newThread(1, 'retry-after');
    fake.failNext('threads.create', { kind: 'http429', retryAfterSec: 600 });
    const [loop] = loops();
    await loop!.runOnce();
    const row = await env.ctx.db.selectFrom('threads').selectAll().where('id', '=', limited.threadId).executeTakeFirstOrThrow();
    assert.equal(row.status, 'READY');
    assert.match(row.last_error ?? '', /THREADS_RATE_LIMITED/);
    assert.ok(row.next_attempt_at!.getTime() >= clock.now().getTime() + 600_000, `retried at ${row.next_attempt_at?.toISOString()}, before Retry-After`);
    clock.advance(599_000);
    await loop!.runOnce();
    assert.equal(await attemptsOf(limited.threadId), 1, 'not claimed again before Retry-After');
    clock.advance(2_000);
    await loop!.runOnce();
    assert.deepEqual(await verify(limited.threadId, limited.texts), []);

    const failing = await newThread(1, 'backoff');
    fake.failNext('threads.create', KINDS.http500!);
    await loop!.runOnce();
    const again = await env.ctx.db.selectFrom('threads').selectAll().where('id', '=', failing.threadId).executeTakeFirstOrThrow();
    const wait = again.next_attempt_at!.getTime() - clock.now().getTime();
    assert.ok(wait >= 3_750 && wait <= 6_250, `first backoff ${wait} ms`);
    await drive([loop!], [failing.threadId]);
    assert.deepEqual(await verify(failing.threadId, failing.texts), []);
  });

  // The permalink is read after the post is out; a failed read must not fail the post (it is
  // published), and the analytics refresh fills the permalink in later.
  test('a failed permalink read does not leave the post without a permaLink for good', async () => {
    const { threadId, texts } = await newThread(1, 'permalink');
    // The connection is reset on the permalink read (the first post's status read goes through).
    const realFetch = net;
    let failed = 0;
    const flaky: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      if (url.searchParams.get('fields')?.includes('permalink') && failed === 0 && ++failed)
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
      return realFetch(input, init);
    };
    const loop = new PublisherLoop(env.ctx, platform({ fetch: flaky }), 'permalink');
    await drive([loop], [threadId]);
    assert.equal(failed, 1, 'the permalink read failed once');
    assert.deepEqual(checkThreadOnNetwork(fake, account.userId, texts).problems, []);
    // Later rounds (analytics refresh, a retry...) may fill it in; give them the chance.
    for (let i = 0; i < 3; i++) {
      clock.advance(3_600_000);
      await loop.runOnce();
    }
    const [post] = await env.ctx.db.selectFrom('posts').select(['status', 'permalink']).where('thread_id', '=', threadId).execute();
    assert.equal(post!.status, 'PUBLISHED');
    assert.ok(post!.permalink, 'the post has a permaLink');
  });

  // A video container may take up to 5 minutes to process, longer than the 120 s lease used here.
  // A renews its lease at every status poll, so B never takes the thread over while A waits.
  test('container processing outlives the lease: the thread is still published once and ends PUBLISHED', async () => {
    const { threadId, texts } = await newThread(2, 'slow video', `${cdn.base}/clip.mp4`);
    // The platform's poll waits move the shared clock, as real waits would move real time.
    const movingSleep = async (ms: number) => {
      clock.advance(ms);
      await sleep(5);
    };
    // Publish calls take a moment to travel (A 50 ms, B 150 ms), so whichever of A and B sees the
    // container FINISHED first, the other one sees it too before the first publish lands: both send it.
    const slowPublish =
      (ms: number): typeof fetch =>
      async (input, init) => {
        if (String(input).endsWith('/threads_publish')) await sleep(ms);
        return net(input, init);
      };
    const a = new PublisherLoop(env.ctx, platform({ sleep: movingSleep, fetch: slowPublish(50) }), 'lease-a');
    const b = new PublisherLoop(env.ctx, platform({ sleep: movingSleep, fetch: slowPublish(150) }), 'lease-b');
    const refusedBefore = fake.duplicatePublishAttempts;
    const aRun = a.runOnce();
    let aDone = false;
    void aRun.then(() => (aDone = true));
    let bTookOver = false;
    while (!aDone && !bTookOver) {
      await b.runOnce(); // also runs follow-up jobs: look at the thread itself
      bTookOver = (await attemptsOf(threadId)) >= 2;
      await sleep(2);
    }
    await aRun;
    await drive([a, b], [threadId]);
    const network = checkThreadOnNetwork(fake, account.userId, texts);
    const row = await env.ctx.db.selectFrom('threads').select(['status', 'last_error']).where('id', '=', threadId).executeTakeFirstOrThrow();
    console.log(
      `# faults lease: B took the thread over: ${bTookOver}; thread ${row.status} (${row.last_error ?? 'no error'}); network copies per post ${network.counts.join('/')}; ${fake.duplicatePublishAttempts - refusedBefore} refused re-publishes`,
    );
    if (process.env.SKEIN_SYSTEM_DEBUG)
      console.log(
        fake.requests
          .slice(-40)
          .map((r) => `${r.method} ${r.path} ${JSON.stringify(r.params).slice(0, 100)}`)
          .join('\n'),
      );
    assert.equal(bTookOver, false, 'A kept its lease while Meta processed the video');
    assert.deepEqual(
      network.problems.filter((p) => p.includes('times')),
      [],
      'no post twice',
    );
    assert.equal(row.status, 'PUBLISHED', `the thread ended ${row.status}: ${row.last_error}`);
    assert.deepEqual(await verify(threadId, texts), []);
  });

  /**
   * A worker "paused" past its lease (a long GC pause, a frozen VM: the heartbeat cannot help).
   * A's first POST to `hold.path` is held: the fake has already carried it out when it is held
   * (`after`) or gets it only once released (`before`). Meanwhile the clock jumps past A's lease
   * and B takes the thread over; A is released when B's own request to `hold.releaseOn` is about
   * to be sent (A's request then lands first), or when B has finished the thread.
   */
  async function pausedWorker(label: string, hold: { path: string; when: 'before' | 'after'; releaseOn?: string }) {
    const { threadId, texts } = await newThread(2, label);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const reachedHold = new Promise<void>((r) => (reached = r));
    let landed!: () => void;
    const aLanded = new Promise<void>((r) => (landed = r));
    let aHeld = false;
    let bReleased = false;
    const pausingA: typeof fetch = async (input, init) => {
      if (aHeld || init?.method !== 'POST' || !String(input).endsWith(hold.path)) return net(input, init);
      aHeld = true;
      // A is paused, its timers too: the client's timeout does not run out on the held request
      // however long B takes (it would with real time passing while A is held).
      const { signal: _frozen, ...paused } = init;
      const early = hold.when === 'after' ? await net(input, paused) : null;
      reached();
      await released;
      const answer = early ?? (await net(input, paused));
      landed();
      return answer;
    };
    const releasingB: typeof fetch = async (input, init) => {
      if (hold.releaseOn && !bReleased && init?.method === 'POST' && String(input).endsWith(hold.releaseOn)) {
        bReleased = true;
        release();
        await aLanded;
      }
      return net(input, init);
    };
    const creates = fake.callsTo('threads.create').length;
    const publishes = fake.callsTo('threads_publish').length;
    const refusedBefore = fake.duplicatePublishAttempts;
    const a = new PublisherLoop(env.ctx, platform({ fetch: pausingA }), `paused-a-${serial}`);
    const b = new PublisherLoop(env.ctx, platform({ fetch: releasingB }), `paused-b-${serial}`);
    const aRun = a.runOnce();
    await reachedHold;
    clock.advance(env.ctx.config.publisher.leaseMs + 1_000);
    await drive([b], [threadId]);
    release();
    await aRun;
    const row = await env.ctx.db.selectFrom('threads').select(['status', 'last_error', 'locked_by']).where('id', '=', threadId).executeTakeFirstOrThrow();
    return {
      threadId,
      texts,
      row,
      containers: fake.callsTo('threads.create').length - creates,
      publishCalls: fake.callsTo('threads_publish').length - publishes,
      refused: fake.duplicatePublishAttempts - refusedBefore,
    };
  }

  test('a worker that lost its lease while creating a container never publishes that container', async () => {
    const run = await pausedWorker('paused at create', { path: '/me/threads', when: 'after' });
    assert.equal(run.containers, 3, "A's orphan container and B's two");
    assert.equal(run.publishCalls, 2, 'A never sent its container to threads_publish');
    assert.deepEqual(await verify(run.threadId, run.texts), [], 'each post once, B finished the thread');
    assert.deepEqual(run.row, { status: 'PUBLISHED', last_error: null, locked_by: null }, 'A, woken up, changed nothing');
  });

  test("the lease holder's publish is refused because a paused worker's publish of that container landed first: one post, PUBLISHED", async () => {
    const run = await pausedWorker('paused at publish', { path: '/threads_publish', when: 'before', releaseOn: '/threads_publish' });
    assert.equal(run.containers, 2, 'B resumed the container A had saved');
    assert.equal(run.refused, 1, "B's publish of the container A had just published was refused by Meta");
    assert.deepEqual(await verify(run.threadId, run.texts), []);
    assert.deepEqual(run.row, { status: 'PUBLISHED', last_error: null, locked_by: null }, 'B took the refusal as "already published" and went on');
  });

  test('random faults for a while, 40 threads, two loops: published late, not lost, not duplicated', async () => {
    const started = Date.now();
    const random = seededRandom(seed);
    const t0 = clock.now().getTime();
    // Due over 10 minutes of test clock; faults during the first 5.
    const threads = await Promise.all(
      Array.from({ length: 40 }, () => newThread(1 + Math.floor(random() * 3), 'random', undefined, Math.floor(random() * 600_000))),
    );
    const faultsUntil = t0 + 300_000;
    const kinds = Object.keys(KINDS);
    const injected: Record<string, number> = {};
    // Faults are decided per request, just before it is sent (a queue filled in advance would
    // pile up on whichever thread is left, until it runs out of attempts).
    const faulty: typeof fetch = (input, init) => {
      const endpoint = endpointOf(init?.method ?? 'GET', new URL(String(input)));
      if (endpoint && clock.now().getTime() < faultsUntil && random() < 0.12) {
        const kind = kinds[Math.floor(random() * kinds.length)]!;
        inject(endpoint, kind === 'http429' ? { kind: 'http429', retryAfterSec: 5 + Math.floor(random() * 120) } : KINDS[kind]!);
        injected[kind] = (injected[kind] ?? 0) + 1;
      }
      return net(input, init);
    };
    const before = fake.duplicatePublishAttempts;
    const rounds = await drive(
      [new PublisherLoop(env.ctx, platform({ fetch: faulty }), 'random-a'), new PublisherLoop(env.ctx, platform({ fetch: faulty }), 'random-b')],
      threads.map((t) => t.threadId),
      { maxRounds: 500 },
    );
    const problems: string[] = [];
    let noPermalink = 0;
    let retries = 0;
    for (const t of threads) {
      problems.push(...(await verify(t.threadId, t.texts, { permalinks: false })).map((p) => `${t.texts[0]}: ${p}`));
      noPermalink += (await env.ctx.db.selectFrom('posts').select('id').where('thread_id', '=', t.threadId).where('permalink', 'is', null).execute()).length;
      retries += (await attemptsOf(t.threadId)) - 1;
    }
    const rows = await env.ctx.db
      .selectFrom('threads')
      .select(['published_at', 'scheduled_at'])
      .where(
        'id',
        'in',
        threads.map((t) => t.threadId),
      )
      .execute();
    const late = rows.map((r) => (r.published_at ? r.published_at.getTime() - r.scheduled_at!.getTime() : 0));
    const posts = threads.reduce((n, t) => n + t.texts.length, 0);
    const faults = Object.values(injected).reduce((a, b) => a + b, 0);
    console.log(
      `# faults random: ${threads.length} threads / ${posts} posts, ${faults} faults (${Object.entries(injected)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}), ` +
        `${retries} retries, ${rounds} rounds, at most ${seconds(Math.max(...late))} s late (test clock), ${problems.length} problems, ` +
        `${fake.duplicatePublishAttempts - before} refused re-publishes, ${noPermalink} posts without permalink, ${seconds(Date.now() - started)} s`,
    );
    assert.deepEqual(problems, []);
    assert.ok(faults >= 5 && retries > 0, `the faults (${faults}) caused retries (${retries})`);
    assert.equal(fake.duplicatePublishAttempts - before, 0);
  });
});

// ---------------------------------------------------------------------------------------------
// Real worker processes, system clock
// ---------------------------------------------------------------------------------------------

/**
 * The real workers' lease. Their heartbeat renews it every third of it, so a worker keeps it
 * unless it goes two thirds of a lease without renewing: 10 s leaves a loaded machine 6.7 s of
 * slack, where 3 s left 2 s.
 */
const PROC_LEASE_MS = 10_000;

describe('network faults, two real worker processes', { skip: skip ?? false }, () => {
  let fake: FakeGraphApi;
  let proxy: GraphProxy;
  let env: SystemEnv;
  let user: TestUser;
  let account: { provider: { id: string }; userId: string };
  const workers: WorkerProcess[] = [];

  before(async () => {
    fake = await FakeGraphApi.start({ processingMs: { TEXT: 0 } });
    proxy = await GraphProxy.start(fake.url);
    env = await openSystemEnv();
    user = await createUser(env.ctx);
    account = await connectFakeThreads(env.ctx, user.account.id, fake, 'faults_proc');
    for (const name of ['worker-a', 'worker-b']) workers.push(startWorker({ dbUrl: env.dbUrl, threadsApiUrl: proxy.url, leaseMs: PROC_LEASE_MS, name }));
    await Promise.all(workers.map((w) => w.ready));
  });
  after(async () => {
    await shutDown({ workers, env, servers: [proxy, fake] });
  });

  async function publishAll(label: string, sizes: number[], inject: () => void, timeoutMs: number) {
    const started = Date.now();
    const threads: Array<{ threadId: string; texts: string[] }> = [];
    for (const [i, size] of sizes.entries()) {
      const texts = Array.from({ length: size }, (_, j) => `${label} ${i} post ${j + 1} (${seed})`);
      const created = await createThread(env.ctx, user.account, {
        providerId: account.provider.id,
        scheduleAt: new Date(Date.now() + 1000).toISOString(),
        posts: texts.map((text) => ({ text })),
      });
      threads.push({ threadId: created.threadId, texts });
    }
    inject();
    try {
      await waitFor(
        `the ${label} threads to end`,
        async () =>
          (
            await env.ctx.db
              .selectFrom('threads')
              .select('id')
              .where(
                'id',
                'in',
                threads.map((t) => t.threadId),
              )
              .where('status', 'in', ['READY', 'PUBLISHING'])
              .execute()
          ).length === 0,
        timeoutMs,
        100,
      );
    } catch (err) {
      console.log(`# faults: worker logs in ${dumpWorkerLogs(workers, 'faults')}`);
      throw err;
    }
    const problems: string[] = [];
    let retries = 0;
    for (const t of threads) {
      const network = checkThreadOnNetwork(fake, account.userId, t.texts);
      problems.push(...[...network.problems, ...(await checkThreadInDb(env.ctx, t.threadId, network.posts))].map((p) => `${t.texts[0]}: ${p}`));
      retries += (await env.ctx.db.selectFrom('threads').select('attempts').where('id', '=', t.threadId).executeTakeFirstOrThrow()).attempts - 1;
    }
    if (problems.length) console.log(`# faults: worker logs in ${dumpWorkerLogs(workers, 'faults')}`);
    return { problems, retries, elapsed: Date.now() - started, posts: sizes.reduce((a, b) => a + b, 0) };
  }

  // The answer to a container creation takes longer than the lease: the worker's heartbeat
  // keeps its lease, so the other worker does not take over and create a second container.
  // First in this group: both workers must be free (the hang below blocks one for 30 s).
  // The bounds only stop a hung run.
  test('Meta answers a container creation after the lease ran out: still published once', { timeout: 180_000 }, async () => {
    let slowed = 0;
    proxy.decide = (req) => {
      if (req.call !== 'create' || slowed > 0) return { action: 'forward' };
      slowed++;
      return { action: 'forward', answerDelayMs: PROC_LEASE_MS + 2_000 };
    };
    const texts = Array.from({ length: 2 }, (_, j) => `slow answer 0 post ${j + 1} (${seed})`);
    const result = await publishAll('slow answer', [2], () => {}, 120_000);
    proxy.decide = () => ({ action: 'forward' });
    const createsOf = () => fake.callsTo('threads.create').filter((r) => r.params.text === texts[0]).length;
    // One container: the worker that waited kept its lease and finished the thread itself, so
    // nothing is left to happen. Two: the other worker took over, and the slow one acts on its
    // answer only once it comes: wait until it has (it stops, or it publishes a second copy).
    if (createsOf() > 1) {
      await waitFor(
        'the slow worker to act on its late answer',
        async () =>
          workers.some((w) => w.lines.some((l) => l.includes('another worker took the thread over'))) ||
          checkThreadOnNetwork(fake, account.userId, texts).duplicates > 0,
        60_000,
      ).catch(() => {});
    }
    const again = checkThreadOnNetwork(fake, account.userId, texts);
    if (process.env.SKEIN_SYSTEM_DEBUG) {
      console.log(
        fake.requests
          .slice(-30)
          .map((r) => `${r.method} ${r.path} ${JSON.stringify(r.params).slice(0, 120)}`)
          .join('\n'),
      );
      for (const w of workers) console.log(w.name, w.lines.slice(-20).join('\n'));
    }
    const creates = createsOf();
    console.log(
      `# faults slow answer: ${creates} containers created for post 1, network copies per post ${again.counts.join('/')}, ${result.problems.length + again.problems.length} problems, ${seconds(result.elapsed)} s`,
    );
    assert.equal(slowed, 1);
    assert.equal(creates, 1, 'the waiting worker kept its lease: no second container');
    assert.deepEqual([...result.problems, ...again.problems], []);
  });

  // The faults land on whichever threads are in flight, so their backoffs may stack on one
  // (5, 10, 20 s...) on top of the 30 s hang: the bounds are generous and only stop a hung run.
  test('500s, 429 with Retry-After, dropped answers and a hang: published late, once', { timeout: 420_000 }, async () => {
    proxy.decide = () => ({ action: 'forward' });
    const before = fake.duplicatePublishAttempts;
    const result = await publishAll(
      'proc faults',
      [3, 2, 1, 3, 2, 1],
      () => {
        fake.failNext('threads.create', { kind: 'http500' }, 2);
        fake.failNext('threads_publish', { kind: 'http429', retryAfterSec: 2 });
        fake.failNext('threads_publish', { kind: 'dropResponse' });
        fake.failNext('object.get', { kind: 'dropResponse' });
        fake.failNext('threads.create', { kind: 'dropResponse' });
        // The worker's client waits 30 s on this one (its heartbeat keeps the lease), then the
        // thread is retried.
        fake.failNext('threads_publish', { kind: 'hang' });
        fake.failNext('threads_publish', { kind: 'dropResponse' });
      },
      360_000,
    );
    console.log(
      `# faults processes: 6 threads / ${result.posts} posts, 8 faults, ${result.retries} retries, ${result.problems.length} problems, ` +
        `${fake.duplicatePublishAttempts - before} refused re-publishes, ${seconds(result.elapsed)} s`,
    );
    // The dropped object.get may be a permalink read (best effort; the analytics refresh fills it
    // in later): at most that one post may lack its permalink, nothing else may be wrong.
    const withoutPermalink = result.problems.filter((p) => p.endsWith('has no permalink'));
    assert.ok(withoutPermalink.length <= 1, withoutPermalink.join('; '));
    assert.deepEqual(
      result.problems.filter((p) => !p.endsWith('has no permalink')),
      [],
    );
    assert.ok(result.retries >= 5, `the faults caused retries (${result.retries})`);
    assert.equal(fake.duplicatePublishAttempts - before, 0);
  });
});

// ---------------------------------------------------------------------------------------------
// Every network, the same faults: in-process loops on both databases (test clock)
// ---------------------------------------------------------------------------------------------

/**
 * The faults every network meets, on the call that creates a post (or, LinkedIn, a comment):
 * played by a proxy in front of the network's fake, so each network's client meets them the same
 * way. `down`: the connection drops before the request reaches the network; `hang`: no answer
 * and nothing done, until the client's timeout; `slow`: done, but the answer comes after the
 * client gave up; `lost`: done, then the connection is cut; `5xx` and `429`: the network's own
 * answers (its reference digest's bodies and headers), nothing done.
 */
const NETWORK_FAULTS = ['down', 'hang', 'slow', 'lost', '5xx', '429'] as const;
type NetworkFault = (typeof NETWORK_FAULTS)[number];
/** Faults that wait out the client's timeout in real time: played on one write only (runtime). */
const TIMED_FAULTS: readonly NetworkFault[] = ['hang', 'slow'];
/** The clients' timeout here: short, as the hang and slow faults wait it out for real. */
const TABLE_TIMEOUT_MS = 2_000;

interface NetworkAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

interface ConnectedForFaults {
  providerId: string;
  /** The network's copy of the thread: each text once, in order, chained; and the ids it got. */
  onNetwork(texts: string[]): { problems: string[]; ids: string[] };
}

interface FaultyNetwork {
  name: string;
  proxy: HttpProxy;
  /** Whether its client's timeout can be made short enough to play hang and slow (Mastodon's is a fixed 30 s). */
  timed: boolean;
  /** The request that creates a post or a comment: where the faults land. */
  isWrite(req: HttpRequestSeen): boolean;
  unavailable: NetworkAnswer;
  rateLimited(nowMs: number): NetworkAnswer;
  connect(ctx: AppContext, accountId: string): Promise<ConnectedForFaults>;
  platform(ctx: AppContext): Platforms;
  close(): Promise<void>;
}

const tableClock = new ManualClock('2026-11-22T12:00:00.000Z');
const tableNow = () => tableClock.now().getTime();
let tableSerial = 0;

async function faultyX(): Promise<FaultyNetwork> {
  const fake = await FakeXApi.start({ clock: tableClock, clientSecret: null });
  const proxy = await HttpProxy.start(fake.url);
  return {
    name: 'X',
    proxy,
    timed: true,
    isWrite: (req) => req.method === 'POST' && req.path === '/2/tweets',
    unavailable: { status: 503, body: { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 } },
    rateLimited: (nowMs) => ({
      status: 429,
      headers: { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(Math.ceil(nowMs / 1000) + 90) },
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
    }),
    async connect(ctx, accountId) {
      const username = `xfaults${++tableSerial}`;
      const account = fake.createAccount(username);
      const provider = await addProvider(ctx, accountId, personalWorkspace(accountId), {
        kind: 'X',
        providerUserId: account.userId,
        username,
        accessToken: account.accessToken,
        refreshToken: account.refreshToken,
        tokenExpiresAt: new Date(tableNow() + 2 * 3_600_000),
      });
      return {
        providerId: provider.id,
        onNetwork(texts) {
          const posts = fake.postsBy(account.userId);
          const found = texts.map((text) => posts.filter((p) => p.text === text));
          const problems = onceEach(texts, found);
          found.forEach(([post], i) => {
            const parent = i === 0 ? null : (found[i - 1]![0]?.id ?? '?');
            if (post && post.inReplyToId !== parent) problems.push(`post ${i} replies to ${post.inReplyToId}, expected ${parent ?? 'nothing'}`);
          });
          return { problems, ids: found.map(([p]) => p?.id ?? '') };
        },
      };
    },
    platform(ctx) {
      const client = new XClient({ apiUrl: proxy.url, clientId: fake.clientId, clientSecret: null, timeoutMs: TABLE_TIMEOUT_MS, now: tableNow });
      const platform = new XPlatform({ client, uploads: null, allowPrivateMedia: true });
      return { X: withFreshTokens(platform, { name: 'X', marginMs: 10 * 60_000, refresh: (token) => client.refresh(token) }, ctx) };
    },
    close: async () => {
      await proxy.close();
      await fake.close();
    },
  };
}

async function faultyLinkedIn(): Promise<FaultyNetwork> {
  const fake = await FakeLinkedInApi.start({ clock: tableClock });
  const proxy = await HttpProxy.start(fake.url);
  return {
    name: 'LinkedIn',
    proxy,
    timed: true,
    isWrite: (req) => req.method === 'POST' && (req.path === '/rest/posts' || /^\/rest\/socialActions\/[^/]+\/comments$/.test(req.path)),
    unavailable: { status: 503, body: 'Service Unavailable' },
    // LinkedIn documents no Retry-After (its daily quotas reset at midnight UTC): the test clock jumps there.
    rateLimited: () => ({
      status: 429,
      body: { status: 429, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle limit for calls to this resource is reached.' },
    }),
    async connect(ctx, accountId) {
      const member = fake.createMember(`Fault Tester ${++tableSerial}`, [
        'openid',
        'profile',
        'w_member_social',
        'w_organization_social',
        'r_organization_social',
      ]);
      const page = fake.createOrganization(`Faults ${tableSerial}`, member.urn);
      const provider = await addProvider(ctx, accountId, personalWorkspace(accountId), {
        kind: 'LINKEDIN',
        providerUserId: page,
        username: `Faults ${tableSerial}`,
        accessToken: member.accessToken,
      });
      return {
        providerId: provider.id,
        onNetwork(texts) {
          // A thread is a post and the later posts as the page's comments on it, in order.
          const roots = fake.postsBy(page).filter((p) => p.rendered.text === texts[0]);
          const comments = roots.length === 1 ? fake.commentsOn(roots[0]!.urn).filter((c) => c.actor === page) : [];
          const replies = texts.slice(1).map((text) => comments.filter((c) => c.text === text));
          const problems = onceEach(texts, [roots, ...replies]);
          const order = comments.map((c) => c.text);
          if (JSON.stringify(order) !== JSON.stringify(texts.slice(1))) problems.push(`the comments read ${JSON.stringify(order)}`);
          return { problems, ids: [roots[0]?.urn ?? '', ...replies.map(([c]) => c?.commentUrn ?? '')] };
        },
      };
    },
    platform: () => ({
      LINKEDIN: new LinkedInPlatform({
        client: new LinkedInClient({ apiUrl: proxy.url, now: tableNow, timeoutMs: TABLE_TIMEOUT_MS }),
        uploads: null,
        allowPrivateMedia: true,
      }),
    }),
    close: async () => {
      await proxy.close();
      await fake.close();
    },
  };
}

async function faultyThreads(): Promise<FaultyNetwork> {
  const fake = await FakeGraphApi.start({ clock: tableClock, processingMs: { TEXT: 0 } });
  const proxy = await HttpProxy.start(fake.url);
  return {
    name: 'Threads',
    proxy,
    timed: true,
    isWrite: (req) => req.method === 'POST' && req.path.endsWith('/threads_publish'),
    unavailable: {
      status: 500,
      body: { error: { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, is_transient: true } },
    },
    rateLimited: () => ({
      status: 429,
      headers: { 'retry-after': '90' },
      body: { error: { message: '(#4) Application request limit reached', type: 'OAuthException', code: 4, is_transient: true } },
    }),
    async connect(ctx, accountId) {
      const { provider, userId } = await connectFakeThreads(ctx, accountId, fake, `threads_faults_${++tableSerial}`);
      return {
        providerId: provider.id,
        onNetwork(texts) {
          const check = checkThreadOnNetwork(fake, userId, texts);
          return { problems: check.problems, ids: check.posts.map((p) => p?.id ?? '') };
        },
      };
    },
    platform: () => ({
      THREADS: new ThreadsPlatform({
        client: new ThreadsClient({ apiUrl: proxy.url, appId: null, appSecret: null, timeoutMs: TABLE_TIMEOUT_MS, now: tableNow }),
      }),
    }),
    close: async () => {
      await proxy.close();
      await fake.close();
    },
  };
}

async function faultyMastodon(): Promise<FaultyNetwork> {
  const fake = await FakeMastodonApi.start({ clock: tableClock });
  const proxy = await HttpProxy.start(fake.url);
  return {
    name: 'Mastodon',
    proxy,
    timed: false,
    isWrite: (req) => req.method === 'POST' && req.path === '/api/v1/statuses',
    unavailable: { status: 503, body: '<html><body><h1>503 Service Unavailable</h1></body></html>' },
    rateLimited: (nowMs) => ({
      status: 429,
      headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(nowMs + 90_000).toISOString() },
      body: { error: 'Too many requests' },
    }),
    async connect(ctx, accountId) {
      const username = `faults${++tableSerial}`;
      const account = fake.createAccount(username);
      const provider = await addProvider(ctx, accountId, personalWorkspace(accountId), {
        kind: 'MASTODON',
        providerUserId: account.accountId,
        username: `${username}@${fake.domain}`,
        accessToken: account.accessToken,
        // The server's address is the account's: the proxy's, so every call meets the faults.
        serviceUrl: proxy.url,
        networkLimits: {
          maxCharacters: 500,
          maxMediaAttachments: 4,
          charactersReservedPerUrl: 23,
          imageSizeLimit: null,
          videoSizeLimit: null,
          descriptionLimit: null,
        },
      });
      return {
        providerId: provider.id,
        onNetwork(texts) {
          const posts = fake.postsBy(account.accountId);
          const found = texts.map((text) => posts.filter((p) => p.text === text));
          const problems = onceEach(texts, found);
          found.forEach(([post], i) => {
            const parent = i === 0 ? null : (found[i - 1]![0]?.id ?? '?');
            if (post && post.inReplyToId !== parent) problems.push(`post ${i} replies to ${post.inReplyToId}, expected ${parent ?? 'nothing'}`);
          });
          return { problems, ids: found.map(([p]) => p?.id ?? '') };
        },
      };
    },
    platform: () => ({
      MASTODON: new MastodonPlatform({ client: new MastodonClient({ allowPrivate: true, now: tableNow }), uploads: null, allowPrivateMedia: true }),
    }),
    close: async () => {
      await proxy.close();
      await fake.close();
    },
  };
}

/** Each text found exactly once. */
function onceEach(texts: string[], found: unknown[][]): string[] {
  return texts.flatMap((text, i) => {
    const n = found[i]!.length;
    return n === 1 ? [] : [n === 0 ? `post ${i} ("${text}") is missing` : `post ${i} ("${text}") was published ${n} times`];
  });
}

describe('network faults on every network, in-process loops (test clock)', () => {
  const networks: FaultyNetwork[] = [];
  before(async () => {
    networks.push(await faultyThreads(), await faultyX(), await faultyLinkedIn(), await faultyMastodon());
  });
  after(async () => {
    await Promise.all(networks.map((n) => n.close()));
  });

  describeEachDb(
    'the same faults on each network',
    (env) => {
      /** Runs the loops; between rounds the test clock jumps to the next moment a thread is due (backoff, a 429's reset), at least a second. */
      async function drive(ctx: AppContext, loops: PublisherLoop[], threadId: string): Promise<void> {
        for (let round = 0; round < 60; round++) {
          for (const loop of loops) await loop.runOnce();
          const row = await ctx.db
            .selectFrom('threads')
            .select(['status', 'scheduled_at', 'next_attempt_at', 'locked_until'])
            .where('id', '=', threadId)
            .executeTakeFirstOrThrow();
          if (row.status !== 'READY' && row.status !== 'PUBLISHING') return;
          const due = row.status === 'READY' ? Math.max(row.scheduled_at!.getTime(), row.next_attempt_at?.getTime() ?? 0) : row.locked_until!.getTime() + 1;
          tableClock.set(Math.max(tableNow() + 1_000, due));
        }
        throw new Error('the thread was still open after 60 rounds');
      }

      async function inDb(ctx: AppContext, threadId: string, ids: string[]): Promise<string[]> {
        const thread = await ctx.db.selectFrom('threads').select(['status', 'last_error']).where('id', '=', threadId).executeTakeFirstOrThrow();
        const posts = await ctx.db.selectFrom('posts').select(['status', 'network_post_id']).where('thread_id', '=', threadId).orderBy('post_order').execute();
        return [
          ...(thread.status === 'PUBLISHED' ? [] : [`the thread is ${thread.status} (${thread.last_error})`]),
          ...posts.flatMap((p, i) =>
            p.status === 'PUBLISHED' && p.network_post_id === ids[i]
              ? []
              : [`post ${i} is ${p.status} with network id ${p.network_post_id}, the network has ${ids[i]}`],
          ),
        ];
      }

      test('down, hang, slow, lost answers, 5xx and 429 on the first and the second post: every post once, in order', { timeout: 300_000 }, async () => {
        const { ctx } = env();
        const user = await createUser(ctx);
        const problems: string[] = [];
        const summary: string[] = [];
        for (const network of networks) {
          const started = Date.now();
          const account = await network.connect(ctx, user.account.id);
          // Two loops, as two workers would run.
          const loops = [0, 1].map((i) => new PublisherLoop(ctx, { ...createPlatforms(ctx), ...network.platform(ctx) }, `faults-${network.name}-${i}`));
          let retries = 0;
          for (const fault of NETWORK_FAULTS.filter((f) => network.timed || !TIMED_FAULTS.includes(f))) {
            for (const target of TIMED_FAULTS.includes(fault) ? [2] : [1, 2]) {
              const label = `${network.name}: ${fault} on write ${target}`;
              const texts = [1, 2].map((j) => `${label}, post ${j} (${env().kind} ${seed})`);
              const created = await createThread(ctx, user.account, {
                providerId: account.providerId,
                scheduleAt: new Date(tableNow()).toISOString(),
                posts: texts.map((text) => ({ text })),
              });
              let writes = 0;
              network.proxy.decide = (req) => (network.isWrite(req) && ++writes === target ? decisionFor(network, fault) : { action: 'forward' });
              await drive(ctx, loops, created.threadId);
              network.proxy.decide = () => ({ action: 'forward' });
              const { attempts } = await ctx.db.selectFrom('threads').select('attempts').where('id', '=', created.threadId).executeTakeFirstOrThrow();
              retries += attempts - 1;
              if (writes < target) problems.push(`${label}: the fault was never played`);
              if (attempts < 2) problems.push(`${label}: the fault caused no retry (the case tested nothing)`);
              const seen = account.onNetwork(texts);
              problems.push(...[...seen.problems, ...(await inDb(ctx, created.threadId, seen.ids))].map((p) => `${label}: ${p}`));
            }
          }
          summary.push(`${network.name} ${retries} retries ${seconds(Date.now() - started)} s`);
        }
        console.log(`# faults on every network [${env().kind}]: ${summary.join(', ')}, ${problems.length} problems`);
        assert.deepEqual(problems, []);
      });
    },
    { clock: tableClock },
  );
});

function decisionFor(network: FaultyNetwork, fault: NetworkFault): ProxyDecision {
  const nothing = async () => {};
  switch (fault) {
    case 'down':
      return { action: 'kill-before', kill: nothing };
    case 'hang':
      return { action: 'kill-before', kill: () => sleep(TABLE_TIMEOUT_MS + 500) };
    case 'slow':
      return { action: 'forward', answerDelayMs: TABLE_TIMEOUT_MS + 500 };
    case 'lost':
      return { action: 'kill-after', kill: nothing };
    case '5xx':
      return { action: 'answer', ...network.unavailable };
    case '429':
      return { action: 'answer', ...network.rateLimited(tableNow()) };
  }
}
