/**
 * Crash test on the fake LinkedIn API, on PostgreSQL and on the embedded database (see
 * test/helpers/crash-site.ts), as crash-mastodon.test.ts: real `skein worker` processes (or
 * `skein serve` on a PGlite data folder) publish 4-post threads to a page (a post and three
 * comments) and are killed with SIGKILL while publishing; a fresh process takes each thread
 * over. Every post and comment must be on LinkedIn exactly once, the comments in order, and the
 * database must show every post PUBLISHED with its permalink.
 *
 * The processes reach LinkedIn through a proxy in this process (LINKEDIN_API_URL points at it),
 * which decides where the kill lands:
 * - `before`: SIGKILL when the thread's k-th create call arrives; LinkedIn never sees it;
 * - `after`: LinkedIn makes the k-th post or comment, then the process is killed before it reads
 *   the answer: only LinkedIn knows (the next process finds it among the page's posts or the
 *   post's comments).
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { type CrashSite, openCrashSite, SITE_KINDS, type SkeinProcess } from '../helpers/crash-site.js';
import { postgresSkipReason } from '../helpers/db.js';
import { FakeLinkedInApi } from '../helpers/fakes/linkedin-api.js';
// The Mastodon proxy forwards any HTTP API and reads JSON bodies: LinkedIn's too.
import { MastodonProxy, type ProxyDecision } from '../helpers/fakes/proxies.js';
import { createUser } from '../helpers/seeds.js';
import { pickSeed, seconds, seededRandom, waitFor } from '../helpers/system.js';

const KILLS = 8;
const POSTS = 4;
const LEASE_MS = 3000;
const MODES = ['before', 'after'] as const;
const PAGE_SCOPES = ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'];

let fake: FakeLinkedInApi;
let proxy: MastodonProxy;

before(async () => {
  fake = await FakeLinkedInApi.start();
  proxy = await MastodonProxy.start(fake.url);
});

after(async () => {
  await proxy?.close();
  await fake?.close();
});

for (const kind of SITE_KINDS) {
  const skip = kind === 'postgres' ? postgresSkipReason() : undefined;
  test(`${kind}: a process killed (SIGKILL) while publishing to LinkedIn, ${KILLS} times: every post and comment exactly once, in order`, {
    skip: skip ?? false,
    timeout: 600_000,
  }, async () => {
    const site = await openCrashSite(kind, { threadsApiUrl: 'http://127.0.0.1:9', leaseMs: LEASE_MS, env: { LINKEDIN_API_URL: proxy.url } });
    try {
      await killWhilePublishing(site);
    } finally {
      await site.close();
    }
  });
}

interface Crasher {
  key: string;
  page: string;
  providerId: string;
}

/** A user with a LinkedIn page on the fake. */
function connectCrasher(site: CrashSite): Promise<Crasher> {
  return site.withDb(async (ctx) => {
    const user = await createUser(ctx);
    const member = fake.createMember(`Crasher ${site.kind}`, PAGE_SCOPES);
    const page = fake.createOrganization(`Crash ${site.kind}`, member.urn);
    const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
      kind: 'LINKEDIN',
      providerUserId: page,
      username: `Crash ${site.kind}`,
      accessToken: member.accessToken,
    });
    return { key: user.key, page, providerId: provider.id };
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

/** The texts on LinkedIn: how often each is a post of the page, and a comment of the page on the first. */
function onLinkedIn(page: string, texts: string[]): { posts: number[]; comments: string[] } {
  const posts = fake.postsBy(page);
  const first = posts.find((p) => p.rendered.text === texts[0]);
  return {
    posts: texts.map((t) => posts.filter((p) => p.rendered.text === t).length),
    comments: first ? fake.commentsOn(first.urn).map((c) => c.text) : [],
  };
}

function checkThread(page: string, texts: string[]): string[] {
  const { posts, comments } = onLinkedIn(page, texts);
  const problems: string[] = [];
  if (posts[0] !== 1) problems.push(`the first post is on LinkedIn ${posts[0]} times`);
  if (posts.slice(1).some((n) => n > 0)) problems.push('a later post was made a post, not a comment');
  if (JSON.stringify(comments) !== JSON.stringify(texts.slice(1))) problems.push(`the comments are ${JSON.stringify(comments)}`);
  return problems;
}

function createdText(req: { path: string; body: Record<string, unknown> | null }): string | null {
  if (req.path === '/rest/posts') return typeof req.body?.commentary === 'string' ? req.body.commentary : null;
  if (/^\/rest\/socialActions\/[^/]+\/comments$/.test(req.path)) return String((req.body?.message as { text?: unknown } | undefined)?.text ?? '');
  return null;
}

async function killWhilePublishing(site: CrashSite): Promise<void> {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# crash linkedin (${site.kind}): seed ${seed}`);
  const crasher = await connectCrasher(site);
  let current: SkeinProcess = site.start();
  const problems: string[] = [];
  const kills: Array<{ mode: string; write: number; out: number }> = [];
  try {
    for (let i = 0; i < KILLS; i++) {
      await current.ready();
      const mode = MODES[i % MODES.length]!;
      // The first `after` kill lands before the last post, so some kill leaves part of a thread out.
      const killAt = 1 + Math.floor(random() * (i === 1 ? POSTS - 1 : POSTS));
      // No character LinkedIn's format reserves: the commentary sent is the text.
      const texts = Array.from({ length: POSTS }, (_, j) => `crash ${i} post ${j + 1} of ${POSTS} seed ${seed}`);
      const victim = current;
      let killed: Promise<void> | null = null;
      let writes = 0;
      let armed = true;
      proxy.decide = (req): ProxyDecision => {
        const text = req.method === 'POST' ? createdText(req) : null;
        if (!armed || text === null || !texts.includes(text)) return { action: 'forward' };
        const write = ++writes;
        if (write !== killAt) return { action: 'forward' };
        armed = false;
        return {
          action: mode === 'before' ? 'kill-before' : 'kill-after',
          kill: () => {
            killed ??= (async () => {
              victim.sigkill();
              await victim.exited;
              const { posts, comments } = onLinkedIn(crasher.page, texts);
              kills.push({ mode, write, out: posts[0]! + comments.length });
            })();
            return killed;
          },
        };
      };
      const created = await site.api(crasher.key, 'POST', '/api/v1/posts', {
        providerId: crasher.providerId,
        scheduleAt: new Date(Date.now() + 200).toISOString(),
        posts: texts.map((text) => ({ text })),
      });
      assert.equal(created.status, 201, JSON.stringify(created.json));
      const threadId: string = created.json.threadId;
      await waitFor(`the kill of thread ${i}`, async () => killed !== null, 120_000, 10);
      await killed;
      current = site.start();
      await current.ready();
      const view = await endOf(site, crasher, threadId, `thread ${i}`);
      const found = checkThread(crasher.page, texts);
      if (view.status !== 'PUBLISHED') found.push(`thread ended ${view.status}`);
      view.posts.forEach((p, j) => {
        if (p.status !== 'PUBLISHED' || !p.permaLink) found.push(`post ${j}: ${p.status}, ${p.permaLink}`);
      });
      if (found.length) problems.push(`thread ${i} (${mode} at write ${killAt}): ${found.join('; ')}`);
    }
  } catch (err) {
    console.log(`# crash linkedin (${site.kind}): logs in ${site.dumpLogs(`crash-linkedin-${site.kind}`)}`);
    throw err;
  }
  for (const [i, k] of kills.entries()) console.log(`#   thread ${i}: ${k.mode.padEnd(6)} killed at write ${k.write}; ${k.out}/${POSTS} were out`);
  console.log(
    `# crash linkedin (${site.kind}): ${kills.length} kills, ${KILLS * POSTS} posts and comments, ${site.processes.length} processes, ${seconds(Date.now() - started)} s (seed ${seed})`,
  );
  if (problems.length) console.log(`# crash linkedin (${site.kind}): logs in ${site.dumpLogs(`crash-linkedin-${site.kind}`)}`);
  assert.deepEqual(problems, []);
  assert.equal(fake.postsBy(crasher.page).length, KILLS, 'one post per thread, nothing else');
  assert.equal(kills.length, KILLS, 'one kill per thread');
  assert.ok(
    kills.some((k) => k.mode === 'after' && k.out > 0 && k.out < POSTS),
    'some kills land after part of the thread is out',
  );
}
