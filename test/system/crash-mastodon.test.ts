/**
 * Crash test on the fake Mastodon server: real `skein worker` processes publish 4-post threads
 * and are killed with SIGKILL while publishing; a fresh worker takes each thread over once the
 * dead one's lease runs out. Every status must be on the server exactly once, each a reply to
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
import { addProvider } from '../../src/services/providers.js';
import { createThread } from '../../src/services/threads.js';
import { postgresSkipReason } from '../helpers/db.js';
import { FakeMastodonApi } from '../helpers/fakes/mastodon-api.js';
import { MastodonProxy, type ProxyDecision } from '../helpers/fakes/proxies.js';
import { type MediaServer, startMediaServer } from '../helpers/media-server.js';
import { createUser, type TestUser } from '../helpers/seeds.js';
import {
  dumpWorkerLogs,
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
const KILLS = 10;
const POSTS = 4;
const LEASE_MS = 3000;
const MODES = ['before', 'after'] as const;

let fake: FakeMastodonApi;
let proxy: MastodonProxy;
let cdn: MediaServer;
let env: SystemEnv;
let user: TestUser;
let accountId: string;
let providerId: string;
const workers: WorkerProcess[] = [];

before(async () => {
  if (skip) return;
  fake = await FakeMastodonApi.start();
  proxy = await MastodonProxy.start(fake.url);
  cdn = await startMediaServer();
  env = await openSystemEnv({ config: (c) => ({ ...c, media: { allowPrivate: true } }) });
  user = await createUser(env.ctx);
  const account = fake.createAccount('crasher');
  accountId = account.accountId;
  const provider = await addProvider(env.ctx, user.account.id, personalWorkspace(user.account.id), {
    kind: 'MASTODON',
    providerUserId: account.accountId,
    username: `crasher@${fake.domain}`,
    accessToken: account.accessToken,
    serviceUrl: proxy.url,
  });
  providerId = provider.id;
});

after(async () => {
  if (skip) return;
  await shutDown({ workers, env, servers: [proxy, fake, cdn] });
});

async function statusOf(threadId: string): Promise<string | undefined> {
  return (await env.ctx.db.selectFrom('threads').select('status').where('id', '=', threadId).executeTakeFirst())?.status;
}

function checkChain(texts: string[]): string[] {
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

test(`a worker killed (SIGKILL) while publishing to Mastodon, ${KILLS} times: every status exactly once, in order`, {
  skip: skip ?? false,
  timeout: 600_000,
}, async () => {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# crash mastodon: seed ${seed}`);
  const spawn = () => {
    const w = startWorker({
      dbUrl: env.dbUrl,
      threadsApiUrl: 'http://127.0.0.1:9',
      leaseMs: LEASE_MS,
      pollMs: 100,
      name: `worker-${workers.length + 1}`,
      env: { SKEIN_ALLOW_PRIVATE_MEDIA: '1' },
    });
    workers.push(w);
    return w;
  };
  let current = spawn();
  const problems: string[] = [];
  const allTexts: string[] = [];
  const kills: Array<{ mode: string; write: number; out: number }> = [];
  try {
    for (let i = 0; i < KILLS; i++) {
      await current.ready;
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
              await victim.kill('SIGKILL');
              kills.push({ mode, write, out: texts.filter((t) => fake.postsBy(accountId).some((s) => s.text === t)).length });
            })();
            return killed;
          },
        };
      };
      const created = await createThread(env.ctx, user.account, {
        providerId,
        scheduleAt: new Date(Date.now() + 200).toISOString(),
        posts: texts.map((text, j) => ({
          text,
          langs: ['en'],
          contentWarning: `cw ${i}`,
          ...(j === 0 ? { media: [{ url: `${cdn.base}/photo-${i}.jpg`, altText: `photo of ${text}` }] } : {}),
        })),
      });
      const threadId = created.threadId;
      await waitFor(`the kill of thread ${i}`, async () => killed !== null, 120_000, 10);
      await killed;
      current = spawn();
      await waitFor(`thread ${i} to end`, async () => ['PUBLISHED', 'FAILED'].includes((await statusOf(threadId)) ?? ''), 120_000, 20);
      const found = checkChain(texts);
      if ((await statusOf(threadId)) !== 'PUBLISHED') found.push(`thread ended ${await statusOf(threadId)}`);
      const posts = await env.ctx.db.selectFrom('posts').select(['status', 'permalink']).where('thread_id', '=', threadId).orderBy('post_order').execute();
      posts.forEach((p, j) => {
        if (p.status !== 'PUBLISHED' || !p.permalink) found.push(`post ${j} in the database: ${p.status}, ${p.permalink}`);
      });
      if (found.length) problems.push(`thread ${i} (${mode} at status ${killAt}): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`# crash mastodon: worker logs in ${dumpWorkerLogs(workers, 'crash-mastodon')}`);
    throw err;
  }
  const onServer = fake.postsBy(accountId);
  const duplicates = allTexts.reduce((n, t) => n + Math.max(0, onServer.filter((s) => s.text === t).length - 1), 0);
  const missing = allTexts.filter((t) => !onServer.some((s) => s.text === t)).length;
  for (const [i, k] of kills.entries()) console.log(`#   thread ${i}: ${k.mode.padEnd(6)} killed at status ${k.write}; ${k.out}/${POSTS} were out`);
  console.log(
    `# crash mastodon: ${kills.length} kills, ${allTexts.length} statuses, ${duplicates} duplicates, ${missing} missing, ${workers.length} worker processes, ${seconds(Date.now() - started)} s (seed ${seed})`,
  );
  if (problems.length) console.log(`# crash mastodon: worker logs in ${dumpWorkerLogs(workers, 'crash-mastodon')}`);
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
});
