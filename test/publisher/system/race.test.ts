/**
 * Race test: two real `skein worker` processes on one PostgreSQL database and 200 threads
 * (1 to 3 posts) falling due over a few seconds, while clients edit posts (PATCH) and delete
 * threads (DELETE) over real HTTP against the API, racing with the claims.
 *
 * What must hold:
 * - every post of every thread that was not deleted is on the network exactly once and the
 *   thread ends PUBLISHED;
 * - no stale text: an edit either answered 200, and then its text (the last 200 of the post) is
 *   what the network got, or 409 NOT_EDITABLE; once a thread refused an edit it never accepts
 *   one again (no faults here, so nothing goes back to READY);
 * - a delete answers 200 or 409 PUBLISH_IN_PROGRESS; after a 200 nothing more of that thread
 *   reaches the network: a deleted thread has none of its posts out or all of them, published
 *   before the delete answered.
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createThread } from '../../../src/services/threads.js';
import { postgresSkipReason } from '../../helpers/db.js';
import { createUser, type TestUser } from '../../helpers/seeds.js';
import { FakeGraphApi, type PublishedPost } from '../platforms/threads/fake-graph-api.js';
import {
  checkThreadInDb,
  connectFakeThreads,
  dumpWorkerLogs,
  GraphProxy,
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
} from './harness.js';

const skip = postgresSkipReason();
const THREADS = 200;
const LEASE_MS = 3000;
/** Threads fall due over this window, starting once all are created. */
const SPREAD_MS = 8000;

let fake: FakeGraphApi;
let proxy: GraphProxy;
let env: SystemEnv;
let baseUrl: string;
const workers: WorkerProcess[] = [];

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({ processingMs: { TEXT: 0 } });
  proxy = await GraphProxy.start(fake.url);
  env = await openSystemEnv();
  baseUrl = await env.app.listen({ host: '127.0.0.1', port: 0 });
});

after(async () => {
  if (skip) return;
  await shutDown({ workers, env, servers: [proxy, fake] });
});

interface Call {
  status: number;
  code: string | null;
  body: any;
  start: number;
  end: number;
}

interface PlannedThread {
  index: number;
  threadId: string;
  ownerId: string;
  scheduledAt: number;
  postIds: string[];
  /** Every text each post ever had (v0 first); unique across the run. */
  versions: string[][];
  role: 'edit' | 'delete' | 'none';
  edits: Array<Call & { post: number; text: string }>;
  deletes: Call[];
}

async function call(user: TestUser, method: string, path: string, body?: unknown): Promise<Call> {
  const start = Date.now();
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${user.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  const end = Date.now();
  const parsed = text ? JSON.parse(text) : null;
  return { status: res.status, code: parsed?.code ?? null, body: parsed, start, end };
}

test(`two workers, ${THREADS} due threads, edits and deletes racing the claims over HTTP`, { skip: skip ?? false, timeout: 170_000 }, async () => {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# race: seed ${seed}`);
  const user = await createUser(env.ctx);
  const accounts = [await connectFakeThreads(env.ctx, user.account.id, fake, 'race_a'), await connectFakeThreads(env.ctx, user.account.id, fake, 'race_b')];
  // A few milliseconds per network call, so claims, publishes, edits and deletes overlap.
  proxy.decide = () => ({ action: 'forward', delayMs: Math.floor(random() * 8) });
  for (const name of ['worker-a', 'worker-b']) workers.push(startWorker({ dbUrl: env.dbUrl, threadsApiUrl: proxy.url, leaseMs: LEASE_MS, name }));

  await Promise.all(workers.map((w) => w.ready));

  // ---- create the threads (through the service: 200 HTTP creates take longer than the lead time) ----
  const dueFrom = Date.now() + 4000;
  const plans: PlannedThread[] = [];
  const roles: PlannedThread['role'][] = ['edit', 'edit', 'delete', 'none', 'none'];
  const specs = Array.from({ length: THREADS }, (_, index) => {
    const size = 1 + Math.floor(random() * 3);
    const account = accounts[index % accounts.length]!;
    const scheduledAt = dueFrom + Math.floor(random() * SPREAD_MS);
    return { index, size, account, scheduledAt, role: roles[index % roles.length]! };
  });
  for (let i = 0; i < specs.length; i += 10) {
    await Promise.all(
      specs.slice(i, i + 10).map(async ({ index, size, account, scheduledAt, role }) => {
        const versions = Array.from({ length: size }, (_, j) => [`race ${index}.${j} v0 (${seed})`]);
        const created = await createThread(env.ctx, user.account, {
          providerId: account.provider.id,
          scheduleAt: new Date(scheduledAt).toISOString(),
          posts: versions.map(([text]) => ({ text: text! })),
        });
        const posts = await env.ctx.db.selectFrom('posts').select('id').where('thread_id', '=', created.threadId).orderBy('post_order').execute();
        plans[index] = {
          index,
          threadId: created.threadId,
          ownerId: account.userId,
          scheduledAt,
          postIds: posts.map((p) => p.id),
          versions,
          role,
          edits: [],
          deletes: [],
        };
      }),
    );
  }
  const createdIn = Date.now() - (dueFrom - 4000);
  assert.ok(Date.now() < dueFrom, `creating ${THREADS} threads took ${createdIn} ms, past the first due time`);

  // ---- who holds leases while it runs: proves both workers claim ----
  const holders = new Set<string>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const rows = await env.ctx.db.selectFrom('threads').select('locked_by').where('status', '=', 'PUBLISHING').where('locked_by', 'is not', null).execute();
      for (const r of rows) holders.add(r.locked_by!);
      await sleep(25);
    }
  })();

  // ---- racing clients ----
  // Editors keep editing from just before the due time until an edit is refused, so the last
  // accepted edit is as close to the claim as the race allows.
  const editor = async (plan: PlannedThread) => {
    await sleep(Math.max(0, plan.scheduledAt - Date.now() - 300 + Math.floor(random() * 200)));
    for (let n = 1; n <= 80; n++) {
      const post = Math.floor(random() * plan.postIds.length);
      const text = `race ${plan.index}.${post} v${plan.versions[post]!.length} (${seed})`;
      plan.versions[post]!.push(text);
      const res = await call(user, 'PATCH', `/api/v1/posts/${plan.threadId}/posts/${plan.postIds[post]}`, { content: text });
      plan.edits.push({ ...res, post, text });
      if (res.status !== 200) return;
      await sleep(10 + Math.floor(random() * 40));
    }
  };
  // Half the deleters strike at a random moment around the due time; the other half watch the
  // thread and strike the moment it is claimed (PUBLISHING), to hit publishes in flight.
  const deleter = async (plan: PlannedThread) => {
    const hunter = plan.index % 2 === 0;
    await sleep(Math.max(0, plan.scheduledAt - Date.now() + (hunter ? -100 : -400 + Math.floor(random() * 3000))));
    if (hunter) {
      for (let n = 0; n < 2000; n++) {
        const view = await call(user, 'GET', `/api/v1/posts/${plan.threadId}`);
        if (view.status !== 200 || view.body.thread.status !== 'READY') break;
        await sleep(5);
      }
    }
    for (let n = 0; n < 400; n++) {
      const res = await call(user, 'DELETE', `/api/v1/posts/${plan.threadId}`);
      plan.deletes.push(res);
      if (res.status !== 409) return;
      await sleep(5 + Math.floor(random() * 20));
    }
  };
  await Promise.all(plans.map((plan) => (plan.role === 'edit' ? editor(plan) : plan.role === 'delete' ? deleter(plan) : null)));

  // ---- wait until every remaining thread has ended ----
  const kept = plans.filter((p) => p.role !== 'delete');
  try {
    await waitFor(
      'every thread to end',
      async () => {
        const rows = await env.ctx.db.selectFrom('threads').select('status').where('status', 'in', ['READY', 'PUBLISHING']).execute();
        return rows.length === 0;
      },
      90_000,
      100,
    );
  } catch (err) {
    console.log(`# race: worker logs in ${dumpWorkerLogs(workers, 'race')}`);
    throw err;
  }
  const publishedIn = Date.now() - dueFrom;
  // A worker that still had a deleted thread in hand would publish it now: give it the time to.
  await sleep(LEASE_MS + 500);
  sampling = false;
  await sampler;

  // ---- checks ----
  const problems: string[] = [];
  const byText = new Map<string, PublishedPost[]>();
  for (const p of fake.published) byText.set(p.text ?? '', [...(byText.get(p.text ?? '') ?? []), p]);
  const networkOf = (plan: PlannedThread, post: number) => plan.versions[post]!.flatMap((t) => byText.get(t) ?? []).filter((p) => p.ownerId === plan.ownerId);
  let duplicates = 0;
  let missing = 0;
  let expectedOnNetwork = 0;
  const tally = { edit200: 0, edit409: 0, deletedBeforePublish: 0, deletedAfterPublish: 0, delete409: 0, deleteOther: 0 };

  for (const plan of plans) {
    const label = `thread ${plan.index} (${plan.role})`;
    const network = plan.postIds.map((_, j) => networkOf(plan, j));
    network.forEach((found, j) => {
      if (found.length > 1) {
        duplicates += found.length - 1;
        problems.push(`${label} post ${j} was published ${found.length} times: ${found.map((p) => p.text).join(' | ')}`);
      }
    });
    const out = network.filter((f) => f.length > 0).map((f) => f[0]!);

    // Edits: 200s, then 409 NOT_EDITABLE; the published text is the last 200's.
    let refused = false;
    for (const edit of plan.edits) {
      if (edit.status === 200) {
        tally.edit200++;
        if (refused) problems.push(`${label}: an edit was accepted after one was refused (${edit.text})`);
      } else if (edit.status === 409 && edit.code === 'NOT_EDITABLE') {
        tally.edit409++;
        refused = true;
      } else {
        problems.push(`${label}: edit answered ${edit.status} ${edit.code}`);
      }
    }

    if (plan.role === 'delete') {
      const last = plan.deletes[plan.deletes.length - 1];
      for (const d of plan.deletes) {
        if (d.status === 409) {
          tally.delete409++;
          if (d.code !== 'PUBLISH_IN_PROGRESS') problems.push(`${label}: delete answered 409 ${d.code}`);
        } else if (d.status !== 200) {
          tally.deleteOther++;
          problems.push(`${label}: delete answered ${d.status} ${d.code}`);
        }
      }
      if (last?.status !== 200) {
        problems.push(`${label}: never deleted (${last?.status} ${last?.code})`);
        continue;
      }
      if (out.length === 0) tally.deletedBeforePublish++;
      else tally.deletedAfterPublish++;
      if (out.length !== 0 && out.length !== plan.postIds.length)
        problems.push(`${label}: ${out.length} of ${plan.postIds.length} posts are out after the delete`);
      for (const p of out)
        if (p.publishedAt > last.end) problems.push(`${label}: "${p.text}" was published ${p.publishedAt - last.end} ms after the delete answered 200`);
      if (plan.deletes.some((d) => d.status === 409) && out.length !== plan.postIds.length)
        problems.push(`${label}: a delete said a publish was in progress, yet the thread is not out`);
      expectedOnNetwork += out.length;
      const row = await env.ctx.db.selectFrom('threads').select('id').where('id', '=', plan.threadId).executeTakeFirst();
      if (row) problems.push(`${label}: still in the database after the delete answered 200`);
      out.forEach((p, j) => {
        if (p.text !== plan.versions[j]![0]) problems.push(`${label}: post ${j} went out as "${p.text}"`);
      });
      continue;
    }

    expectedOnNetwork += plan.postIds.length;
    network.forEach((found, j) => {
      if (found.length === 0) {
        missing++;
        problems.push(`${label}: post ${j} is missing`);
        return;
      }
      const accepted = plan.edits.filter((e) => e.post === j && e.status === 200);
      const expected = accepted.length ? accepted[accepted.length - 1]!.text : plan.versions[j]![0]!;
      if (found[0]!.text !== expected) problems.push(`${label}: post ${j} went out as "${found[0]!.text}" but the last accepted edit says "${expected}"`);
      for (const e of accepted) if (found[0]!.publishedAt < e.start) problems.push(`${label}: post ${j} went out before an edit that answered 200`);
      const parent = j === 0 ? null : network[j - 1]![0];
      if (found[0]!.replyToId !== (parent?.id ?? null)) problems.push(`${label}: post ${j} is not a reply to post ${j - 1}`);
    });
    if (out.length === plan.postIds.length) problems.push(...(await checkThreadInDb(env.ctx, plan.threadId, out)).map((p) => `${label}: ${p}`));
    const stored = await env.ctx.db.selectFrom('posts').select(['id', 'content']).where('thread_id', '=', plan.threadId).orderBy('post_order').execute();
    stored.forEach((s, j) => {
      if (out[j] && s.content !== out[j]!.text) problems.push(`${label}: post ${j} is stored as "${s.content}" but went out as "${out[j]!.text}"`);
    });
  }

  const ours = new Set(plans.map((p) => p.ownerId));
  const total = fake.published.filter((p) => ours.has(p.ownerId)).length;
  const posts = plans.reduce((n, p) => n + p.postIds.length, 0);
  const elapsed = Date.now() - started;
  console.log(
    `# race: ${THREADS} threads (${posts} posts; ${kept.length} kept, ${plans.length - kept.length} deleted), 2 workers (${holders.size} seen holding leases), ` +
      `${total} posts on the network, ${duplicates} duplicates, ${missing} missing, ${fake.duplicatePublishAttempts} refused re-publishes`,
  );
  console.log(
    `# race: edits ${tally.edit200} × 200 / ${tally.edit409} × 409 NOT_EDITABLE; deletes: ${tally.deletedBeforePublish} before publishing, ` +
      `${tally.deletedAfterPublish} after (${tally.delete409} × 409 PUBLISH_IN_PROGRESS on the way), ${problems.length} problems; ` +
      `all published ${seconds(publishedIn)} s after the first was due; ${seconds(elapsed)} s in all (seed ${seed})`,
  );
  if (problems.length) console.log(`# race: worker logs in ${dumpWorkerLogs(workers, 'race')}`);

  assert.deepEqual(problems.slice(0, 30), []);
  assert.equal(duplicates, 0);
  assert.equal(missing, 0);
  assert.equal(total, expectedOnNetwork, 'nothing else reached the network');
  assert.equal(fake.duplicatePublishAttempts, 0);
  assert.equal(holders.size, 2, 'both workers claimed threads');
  // The race has to have happened for the test to mean anything.
  assert.ok(tally.edit200 > 0 && tally.edit409 > 0, 'edits were both accepted and refused');
  assert.ok(tally.deletedBeforePublish > 0 && tally.deletedAfterPublish > 0, 'deletes landed both before and after publishing');
  for (const w of workers) assert.ok(w.alive, `${w.name} is still running`);
});
