/**
 * Crash test on the fake Mastodon server, on PostgreSQL and on the embedded database (see
 * test/helpers/crash-site.ts): real `skein worker` processes (or `skein serve` on a PGlite data
 * folder) publish 4-post threads and are killed with SIGKILL while publishing; a fresh worker
 * takes each thread over once the dead one's lease runs out (the restarted server, at once). Every status must be on the server exactly once, each a reply to
 * the one before, and the database must show every post PUBLISHED with its permalink. Each
 * thread's first status carries an image (downloaded from a local media server, uploaded to the
 * server once, waited on while it is processed) and every status a content warning and a language.
 *
 * The workers reach the server through a proxy in this process (the provider's server URL
 * points at it), which decides where the kill lands:
 * - `before`: SIGKILL when the thread's k-th status call arrives; the server never sees it;
 * - `after`: the server posts the k-th status, then the worker is killed before it reads the
 *   answer: only the server knows (the next worker finds it among the account's statuses).
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { type CrashSite, openCrashSite, SITE_KINDS, type SkeinProcess } from '../helpers/crash-site.js';
import { postgresSkipReason } from '../helpers/db.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { MastodonProxy, type ProxyDecision } from '../helpers/fakes/proxies.js';
import { type MediaServer, startMediaServer } from '../helpers/media-server.js';
import { createUser } from '../helpers/seeds.js';
import { pickSeed, seconds, seededRandom, waitFor } from '../helpers/system.js';

const KILLS = 10;
const POSTS = 4;
const LEASE_MS = 3000;
const MODES = ['before', 'after'] as const;

let fake: FakeMastodonApi;
let proxy: MastodonProxy;
let cdn: MediaServer;

before(async () => {
  fake = await FakeMastodonApi.start();
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
  test(`${kind}: a process killed (SIGKILL) while publishing to Mastodon, ${KILLS} times: every status exactly once, in order`, {
    skip: skip ?? false,
    timeout: 600_000,
  }, async () => {
    const site = await openCrashSite(kind, { threadsApiUrl: 'http://127.0.0.1:9', leaseMs: LEASE_MS, env: { SKEIN_ALLOW_PRIVATE_MEDIA: '1' } });
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

/** A user with a Mastodon account on the fake, its server URL pointing at the proxy. */
function connectCrasher(site: CrashSite): Promise<Crasher> {
  return site.withDb(async (ctx) => {
    const user = await createUser(ctx);
    const account = fake.createAccount(`crasher_${site.kind}`);
    const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
      kind: 'MASTODON',
      providerUserId: account.accountId,
      username: `crasher_${site.kind}@${fake.domain}`,
      accessToken: account.accessToken,
      serviceUrl: proxy.url,
    });
    return { key: user.key, accountId: account.accountId, providerId: provider.id };
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
    if (status!.language !== 'en' || !status!.spoilerText.startsWith('cw ')) problems.push(`post ${i} lost its language or content warning`);
  });
  const media = found[0]!.mediaIds.map((id) => fake.media.get(id));
  if (media.length !== 1 || media[0]?.description !== `photo of ${texts[0]}`) problems.push(`post 0 carries ${media.length} images, not its one photo`);
  if (found.slice(1).some((s) => s!.mediaIds.length > 0)) problems.push('an image on a later status');
  return problems;
}

async function killWhilePublishing(site: CrashSite): Promise<void> {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# crash mastodon (${site.kind}): seed ${seed}`);
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
      // The first `after` kill lands before the last status, so some kill leaves part of a thread out.
      const killAt = 1 + Math.floor(random() * (i === 1 ? POSTS - 1 : POSTS));
      const texts = Array.from({ length: POSTS }, (_, j) => `crash ${i} status ${j + 1} of ${POSTS} (${seed})`);
      allTexts.push(...texts);
      const victim = current;
      let killed: Promise<void> | null = null;
      let writes = 0;
      let armed = true;
      proxy.decide = (req): ProxyDecision => {
        if (!armed || req.method !== 'POST' || req.path !== '/api/v1/statuses' || !texts.includes(String(req.body?.status))) return { action: 'forward' };
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
          langs: ['en'],
          contentWarning: `cw ${i}`,
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
      if (found.length) problems.push(`thread ${i} (${mode} at status ${killAt}): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`# crash mastodon (${site.kind}): logs in ${site.dumpLogs(`crash-mastodon-${site.kind}`)}`);
    throw err;
  }
  const onServer = fake.postsBy(accountId);
  const duplicates = allTexts.reduce((n, t) => n + Math.max(0, onServer.filter((s) => s.text === t).length - 1), 0);
  const missing = allTexts.filter((t) => !onServer.some((s) => s.text === t)).length;
  for (const [i, k] of kills.entries()) console.log(`#   thread ${i}: ${k.mode.padEnd(6)} killed at status ${k.write}; ${k.out}/${POSTS} were out`);
  console.log(
    `# crash mastodon (${site.kind}): ${kills.length} kills, ${allTexts.length} statuses, ${duplicates} duplicates, ${missing} missing, ${site.processes.length} processes, ${seconds(Date.now() - started)} s (seed ${seed})`,
  );
  if (problems.length) console.log(`# crash mastodon (${site.kind}): logs in ${site.dumpLogs(`crash-mastodon-${site.kind}`)}`);
  assert.deepEqual(problems, []);
  assert.equal(duplicates, 0);
  assert.equal(missing, 0);
  assert.equal(onServer.length, allTexts.length, 'nothing else was posted');
  assert.equal([...fake.media.values()].filter((m) => m.accountId === accountId).length, KILLS, 'each image uploaded once');
  assert.equal(kills.length, KILLS, 'one kill per thread');
  assert.ok(
    kills.some((k) => k.mode === 'after' && k.out > 0 && k.out < POSTS),
    'some kills land after part of the thread is out',
  );
}
