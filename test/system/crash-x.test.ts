/**
 * Crash test on the fake X API, on PostgreSQL and on the embedded database (see
 * test/helpers/crash-site.ts): real `skein worker` processes (or `skein serve` on a PGlite data
 * folder) publish 4-post threads and are killed with SIGKILL while publishing; a fresh worker
 * takes each thread over once the dead one's lease runs out (the restarted server, at once).
 * X takes no idempotency key, so every post must still be on X exactly once, each a reply to
 * the one before, and the database must show every post PUBLISHED with its permalink. Each
 * thread's first post carries an image (downloaded from a local media server, uploaded to X once).
 *
 * The workers reach X through a proxy in this process (X_API_URL points at it; its description
 * of a JSON request fits X's API as it does Mastodon's), which decides where the kill lands:
 * - `before`: SIGKILL when the thread's k-th `POST /2/tweets` arrives; X never sees it;
 * - `after`: X makes the k-th post, then the worker is killed before it reads the answer: only
 *   X knows (the next worker finds it among the account's recent posts, from its attempt marker).
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { type CrashSite, openCrashSite, SITE_KINDS, type SkeinProcess } from '../helpers/crash-site.js';
import { postgresSkipReason } from '../helpers/db.js';
import { MastodonProxy, type ProxyDecision } from '../helpers/fakes/proxies.js';
import { FakeXApi } from '../helpers/fakes/x-api.js';
import { type MediaServer, startMediaServer } from '../helpers/media-server.js';
import { createUser } from '../helpers/seeds.js';
import { pickSeed, seconds, seededRandom, waitFor } from '../helpers/system.js';

const KILLS = 8;
const POSTS = 4;
const LEASE_MS = 3000;
const MODES = ['before', 'after'] as const;

let fake: FakeXApi;
let proxy: MastodonProxy;
let cdn: MediaServer;

before(async () => {
  // A public client: the workers get X_CLIENT_ID and no secret.
  fake = await FakeXApi.start({ clientSecret: null });
  proxy = await MastodonProxy.start(fake.url);
  cdn = await startMediaServer();
});

after(async () => {
  await cdn?.close();
  await proxy?.close();
  await fake?.close();
});

for (const kind of SITE_KINDS) {
  const skip = kind === 'postgres' ? postgresSkipReason() : undefined;
  test(`${kind}: a process killed (SIGKILL) while publishing to X, ${KILLS} times: every post exactly once, in order`, {
    skip: skip ?? false,
    timeout: 600_000,
  }, async () => {
    const site = await openCrashSite(kind, {
      threadsApiUrl: 'http://127.0.0.1:9',
      leaseMs: LEASE_MS,
      env: { SKEIN_ALLOW_PRIVATE_MEDIA: '1', X_API_URL: proxy.url, X_CLIENT_ID: fake.clientId },
    });
    try {
      await killWhilePublishing(site);
    } finally {
      await site.close();
    }
  });
}

interface Crasher {
  key: string;
  accountId: string;
  providerId: string;
}

/** A user with an X account on the fake, its access token good for the run (two hours). */
function connectCrasher(site: CrashSite): Promise<Crasher> {
  return site.withDb(async (ctx) => {
    const user = await createUser(ctx);
    const username = `crasher_${site.kind}`;
    const account = fake.createAccount(username);
    const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
      kind: 'X',
      providerUserId: account.userId,
      username,
      accessToken: account.accessToken,
      refreshToken: account.refreshToken,
      tokenExpiresAt: new Date(Date.now() + 2 * 3_600_000),
    });
    return { key: user.key, accountId: account.userId, providerId: provider.id };
  });
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

function checkChain(accountId: string, texts: string[]): string[] {
  const all = fake.postsBy(accountId);
  const problems: string[] = [];
  const found = texts.map((text, i) => {
    const copies = all.filter((s) => s.text === text);
    if (copies.length !== 1) problems.push(`post ${i} is on the server ${copies.length} times`);
    return copies[0];
  });
  if (problems.length) return problems;
  found.forEach((status, i) => {
    if (status!.inReplyToId !== (i === 0 ? null : found[i - 1]!.id)) problems.push(`post ${i} does not reply to post ${i - 1}`);
  });
  const media = found[0]!.mediaIds.map((id) => fake.media.get(id));
  if (media.length !== 1 || media[0]?.altText !== `photo of ${texts[0]}`) problems.push(`post 0 carries ${media.length} images, not its one photo`);
  if (found.slice(1).some((s) => s!.mediaIds.length > 0)) problems.push('an image on a later post');
  return problems;
}

async function killWhilePublishing(site: CrashSite): Promise<void> {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# crash x (${site.kind}): seed ${seed}`);
  const crasher = await connectCrasher(site);
  const { accountId } = crasher;
  let current: SkeinProcess = site.start();
  const problems: string[] = [];
  const allTexts: string[] = [];
  const kills: Array<{ mode: string; write: number; out: number }> = [];
  try {
    for (let i = 0; i < KILLS; i++) {
      await current.ready();
      const mode = MODES[i % MODES.length]!;
      // The first `after` kill lands before the last post, so some kill leaves part of a thread out.
      const killAt = 1 + Math.floor(random() * (i === 1 ? POSTS - 1 : POSTS));
      const texts = Array.from({ length: POSTS }, (_, j) => `crash ${i} post ${j + 1} of ${POSTS} (${seed}, ${site.kind})`);
      allTexts.push(...texts);
      const victim = current;
      let killed: Promise<void> | null = null;
      let writes = 0;
      let armed = true;
      proxy.decide = (req): ProxyDecision => {
        if (!armed || req.method !== 'POST' || req.path !== '/2/tweets' || !texts.includes(String(req.body?.text))) return { action: 'forward' };
        const write = ++writes;
        if (write !== killAt) return { action: 'forward' };
        armed = false;
        return {
          action: mode === 'before' ? 'kill-before' : 'kill-after',
          kill: () => {
            killed ??= (async () => {
              victim.sigkill();
              await victim.exited;
              kills.push({ mode, write, out: texts.filter((t) => fake.postsBy(accountId).some((s) => s.text === t)).length });
            })();
            return killed;
          },
        };
      };
      const created = await site.api(crasher.key, 'POST', '/api/v1/posts', {
        providerId: crasher.providerId,
        scheduleAt: new Date(Date.now() + 200).toISOString(),
        posts: texts.map((text, j) => ({
          text,
          ...(j === 0 ? { media: [{ url: `${cdn.base}/photo-${site.kind}-${i}.jpg`, altText: `photo of ${text}` }] } : {}),
        })),
      });
      assert.equal(created.status, 201, JSON.stringify(created.json));
      const threadId: string = created.json.threadId;
      await waitFor(`the kill of thread ${i}`, async () => killed !== null, 120_000, 10);
      await killed;
      current = site.start();
      await current.ready();
      const view = await endOf(site, crasher, threadId, `thread ${i}`);
      const found = checkChain(accountId, texts);
      if (view.status !== 'PUBLISHED') found.push(`thread ended ${view.status}`);
      view.posts.forEach((p, j) => {
        if (p.status !== 'PUBLISHED' || !p.permaLink) found.push(`post ${j}: ${p.status}, ${p.permaLink}`);
      });
      if (found.length) problems.push(`thread ${i} (${mode} at post ${killAt}): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`# crash x (${site.kind}): logs in ${site.dumpLogs(`crash-x-${site.kind}`)}`);
    throw err;
  }
  const onServer = fake.postsBy(accountId);
  const duplicates = allTexts.reduce((n, t) => n + Math.max(0, onServer.filter((s) => s.text === t).length - 1), 0);
  const missing = allTexts.filter((t) => !onServer.some((s) => s.text === t)).length;
  for (const [i, k] of kills.entries()) console.log(`#   thread ${i}: ${k.mode.padEnd(6)} killed at post ${k.write}; ${k.out}/${POSTS} were out`);
  console.log(
    `# crash x (${site.kind}): ${kills.length} kills, ${allTexts.length} posts, ${duplicates} duplicates, ${missing} missing, ${site.processes.length} processes, ${seconds(Date.now() - started)} s (seed ${seed})`,
  );
  if (problems.length) console.log(`# crash x (${site.kind}): logs in ${site.dumpLogs(`crash-x-${site.kind}`)}`);
  assert.deepEqual(problems, []);
  assert.equal(duplicates, 0);
  assert.equal(missing, 0);
  assert.equal(onServer.length, allTexts.length, 'nothing else was posted');
  assert.equal([...fake.media.values()].filter((m) => m.ownerId === accountId).length, KILLS, 'each image uploaded once');
  assert.equal(kills.length, KILLS, 'one kill per thread');
  assert.ok(
    kills.some((k) => k.mode === 'after' && k.out > 0 && k.out < POSTS),
    'some kills land after part of the thread is out',
  );
}
