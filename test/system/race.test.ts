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
 * - 20 more threads, half waiting for approval and half rejected, fall due among them and are
 *   never taken: none of their posts reaches the network, each stays READY with its approval;
 * - a delete answers 200 or 409 PUBLISH_IN_PROGRESS; after a 200 nothing more of that thread
 *   reaches the network: a deleted thread has none of its posts out or all of them, published
 *   before the delete answered.
 *
 * The cases these checks are about are arranged, so they happen at any machine speed: every
 * edited thread takes one edit while it is still an hour away, and is edited again from just
 * before its due time until an edit is refused; some threads are deleted before they fall due,
 * some once they are published, and some while their first container call is held open at the
 * proxy (the delete must be refused, then succeed once the thread is out); each worker's first
 * container call is held until the other worker has made one, so both are seen publishing.
 * The rest of the deletes strike at random moments around the due time, where timing decides.
 *
 * Replay a run with SKEIN_SYSTEM_SEED=<seed printed below>.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { createThread } from '../../src/services/threads/threads.js';
import { postgresSkipReason } from '../helpers/db.js';
import { GraphProxy } from '../helpers/fakes/proxies.js';
import { FakeGraphApi, type PublishedPost } from '../helpers/fakes/threads-graph-api.js';
import { createUser, type TestUser } from '../helpers/seeds.js';
import {
  checkThreadInDb,
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
const THREADS = 200;
/** Threads waiting for approval or rejected (half each), due mid-spread: the claim must never take them. */
const GATED = 20;
const LEASE_MS = 3000;
/** Threads fall due over this window, starting LEAD_MS after the due times are set. */
const SPREAD_MS = 8000;
const LEAD_MS = 1500;
/** Hang guards: far beyond what any run needs, so only a hung run reaches them. */
const HANG_MS = 150_000;

let fake: FakeGraphApi;
/** One proxy per worker, so the test can tell (and hold) each worker's calls. */
let proxies: GraphProxy[] = [];
let env: SystemEnv;
let baseUrl: string;
const workers: WorkerProcess[] = [];

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({ processingMs: { TEXT: 0 } });
  proxies = [await GraphProxy.start(fake.url), await GraphProxy.start(fake.url)];
  env = await openSystemEnv();
  baseUrl = await env.app.listen({ host: '127.0.0.1', port: 0 });
});

after(async () => {
  if (skip) return;
  await shutDown({ workers, env, servers: [...proxies, fake] });
});

interface Call {
  status: number;
  code: string | null;
  body: any;
  start: number;
  end: number;
}

/**
 * - edit: edited an hour ahead, then again around its due time until an edit is refused;
 * - delete-early: deleted an hour before it would have been due;
 * - delete-held: deleted while its first container call is held open (refused), then again
 *   once the call is let through (accepted after publishing);
 * - delete-after: deleted once it is PUBLISHED;
 * - delete-racing: deleted at a random moment around its due time, or the moment it is claimed;
 * - none: left alone.
 */
type Role = 'edit' | 'delete-early' | 'delete-held' | 'delete-after' | 'delete-racing' | 'none';
const ARRANGED_DELETES: Role[] = ['delete-early', 'delete-held', 'delete-after'];

function roleOf(index: number): Role {
  const slot = index % 10;
  if (slot < 4) return 'edit';
  if (slot < 6) return 'delete-racing';
  if (slot < 8) return 'none';
  return ARRANGED_DELETES[(Math.floor(index / 10) * 2 + slot - 8) % ARRANGED_DELETES.length]!;
}

interface PlannedThread {
  index: number;
  threadId: string;
  ownerId: string;
  scheduledAt: number;
  postIds: string[];
  /** Every text each post ever had (v0 first); unique across the run. */
  versions: string[][];
  role: Role;
  edits: Array<Call & { post: number; text: string }>;
  deletes: Call[];
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Rejects when `promise` has not settled within the hang guard. */
async function unlessHung<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung: ${what} (${HANG_MS} ms)`)), HANG_MS);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
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

test(`two workers, ${THREADS} due threads, edits and deletes racing the claims over HTTP`, { skip: skip ?? false, timeout: 2 * HANG_MS }, async () => {
  const seed = pickSeed();
  const random = seededRandom(seed);
  const started = Date.now();
  console.log(`# race: seed ${seed}`);
  const user = await createUser(env.ctx);
  const accounts = [await connectFakeThreads(env.ctx, user.account.id, fake, 'race_a'), await connectFakeThreads(env.ctx, user.account.id, fake, 'race_b')];

  // ---- the proxies: a few milliseconds per call, so claims, publishes, edits and deletes overlap ----
  // Each worker publishes one thread at a time: with two accounts and one thread per account in
  // flight, a worker holding its first call keeps one account at most, and the other worker can
  // claim the other account's threads. Both are in flight at most two threads in all, as before.
  const creates = [0, 0];
  const firstCreate = [deferred(), deferred()];
  /** delete-held threads by their first post's text: reached when the worker sends its container call, sent on when released. */
  const held = new Map<string, { reached: Deferred; release: Deferred }>();
  proxies.forEach((proxy, i) => {
    proxy.decide = (req) => {
      const holds: Promise<unknown>[] = [];
      if (req.call === 'create') {
        creates[i] = creates[i]! + 1;
        if (creates[i] === 1) {
          firstCreate[i]!.resolve();
          holds.push(firstCreate[1 - i]!.promise);
        }
        const hold = held.get(req.params.text ?? '');
        if (hold) {
          hold.reached.resolve();
          holds.push(hold.release.promise);
        }
      }
      return { action: 'forward', delayMs: Math.floor(random() * 8), ...(holds.length ? { until: Promise.all(holds) } : {}) };
    };
  });
  for (const [i, name] of ['worker-a', 'worker-b'].entries()) {
    workers.push(startWorker({ dbUrl: env.dbUrl, threadsApiUrl: proxies[i]!.url, leaseMs: LEASE_MS, name, env: { SKEIN_PUBLISHER_CONCURRENCY: '1' } }));
  }
  await Promise.all(workers.map((w) => w.ready));

  // ---- create the threads an hour ahead (through the service: faster than 200 HTTP creates) ----
  const plans: PlannedThread[] = [];
  const specs = Array.from({ length: THREADS }, (_, index) => ({
    index,
    size: 1 + Math.floor(random() * 3),
    account: accounts[index % accounts.length]!,
    offset: Math.floor(random() * SPREAD_MS),
    role: roleOf(index),
  }));
  const anHourAhead = new Date(Date.now() + 3_600_000).toISOString();
  for (let i = 0; i < specs.length; i += 10) {
    await Promise.all(
      specs.slice(i, i + 10).map(async ({ index, size, account, role }) => {
        const versions = Array.from({ length: size }, (_, j) => [`race ${index}.${j} v0 (${seed})`]);
        const created = await createThread(env.ctx, user.account, {
          providerId: account.provider.id,
          scheduleAt: anHourAhead,
          posts: versions.map(([text]) => ({ text: text! })),
        });
        const posts = await env.ctx.db.selectFrom('posts').select('id').where('thread_id', '=', created.threadId).orderBy('post_order').execute();
        plans[index] = {
          index,
          threadId: created.threadId,
          ownerId: account.userId,
          scheduledAt: 0,
          postIds: posts.map((p) => p.id),
          versions,
          role,
          edits: [],
          deletes: [],
        };
        if (role === 'delete-held') held.set(versions[0]![0]!, { reached: deferred(), release: deferred() });
      }),
    );
  }

  // Threads waiting for approval, or rejected (issue 41): due among the others, never to be taken.
  const gated = Array.from({ length: GATED }, (_, k) => ({ k, state: k % 2 ? 'REJECTED' : 'PENDING', text: `race gated ${k} (${seed})`, threadId: '' }));
  for (const g of gated) {
    const account = accounts[g.k % accounts.length]!;
    g.threadId = (await createThread(env.ctx, user.account, { providerId: account.provider.id, scheduleAt: anHourAhead, posts: [{ text: g.text }] })).threadId;
  }
  await sql`UPDATE threads SET approval_state = v.state FROM unnest(${gated.map((g) => g.threadId)}::text[], ${gated.map((g) => g.state)}::text[]) AS v(id, state)
            WHERE threads.id = v.id`.execute(env.ctx.db);

  const edit = async (plan: PlannedThread): Promise<Call> => {
    const post = Math.floor(random() * plan.postIds.length);
    const text = `race ${plan.index}.${post} v${plan.versions[post]!.length} (${seed})`;
    plan.versions[post]!.push(text);
    const res = await call(user, 'PATCH', `/api/v1/posts/${plan.threadId}/posts/${plan.postIds[post]}`, { content: text });
    plan.edits.push({ ...res, post, text });
    return res;
  };
  const remove = async (plan: PlannedThread): Promise<Call> => {
    const res = await call(user, 'DELETE', `/api/v1/posts/${plan.threadId}`);
    plan.deletes.push(res);
    return res;
  };
  /** Deletes until a delete is not refused as in progress. */
  const removeUntilDone = async (plan: PlannedThread) => {
    for (let n = 0; n < 4000 && (await remove(plan)).status === 409; n++) await sleep(5 + Math.floor(random() * 20));
  };

  // ---- an hour ahead: one edit of every edited thread, the early deletes ----
  for (let i = 0; i < plans.length; i += 20) {
    await Promise.all(plans.slice(i, i + 20).map((plan) => (plan.role === 'edit' ? edit(plan) : plan.role === 'delete-early' ? remove(plan) : null)));
  }

  // ---- then every thread left falls due within the next few seconds ----
  const dueFrom = Date.now() + LEAD_MS;
  const due = plans.filter((p) => p.role !== 'delete-early');
  for (const plan of due) plan.scheduledAt = dueFrom + specs[plan.index]!.offset;
  await sql`UPDATE threads SET scheduled_at = v.at, version = version + 1
            FROM unnest(${due.map((p) => p.threadId)}::text[], ${due.map((p) => new Date(p.scheduledAt).toISOString())}::timestamptz[]) AS v(id, at)
            WHERE threads.id = v.id`.execute(env.ctx.db);
  await sql`UPDATE threads SET scheduled_at = ${new Date(dueFrom + SPREAD_MS / 2).toISOString()}::timestamptz, version = version + 1
            WHERE id = ANY(${gated.map((g) => g.threadId)}::text[])`.execute(env.ctx.db);
  env.ctx.scheduleSignal.ring();

  // ---- racing clients ----
  // Editors keep editing from just before the due time until an edit is refused, so the last
  // accepted edit is as close to the claim as the race allows.
  const editor = async (plan: PlannedThread) => {
    await sleep(Math.max(0, plan.scheduledAt - Date.now() - 300 + Math.floor(random() * 200)));
    const deadline = Date.now() + HANG_MS;
    while ((await edit(plan)).status === 200 && Date.now() < deadline) await sleep(10 + Math.floor(random() * 40));
  };
  // Half the racing deleters strike at a random moment around the due time; the other half watch
  // the thread and strike the moment it is claimed (PUBLISHING), to hit publishes in flight.
  const racingDeleter = async (plan: PlannedThread) => {
    const hunter = plan.index % 2 === 0;
    await sleep(Math.max(0, plan.scheduledAt - Date.now() + (hunter ? -100 : -400 + Math.floor(random() * 3000))));
    if (hunter) {
      for (let n = 0; n < 2000; n++) {
        const view = await call(user, 'GET', `/api/v1/posts/${plan.threadId}`);
        if (view.status !== 200 || view.body.thread.status !== 'READY') break;
        await sleep(5);
      }
    }
    await removeUntilDone(plan);
  };
  const heldDeleter = async (plan: PlannedThread) => {
    const hold = held.get(plan.versions[0]![0]!)!;
    await unlessHung(`thread ${plan.index}'s container call`, hold.reached.promise);
    // The worker holds the thread and waits on the network: this delete must be refused.
    await remove(plan);
    hold.release.resolve();
    await removeUntilDone(plan);
  };
  const afterDeleter = async (plan: PlannedThread) => {
    await waitFor(
      `thread ${plan.index} to be published`,
      async () => (await env.ctx.db.selectFrom('threads').select('status').where('id', '=', plan.threadId).executeTakeFirst())?.status === 'PUBLISHED',
      HANG_MS,
    );
    await removeUntilDone(plan);
  };
  const client: Partial<Record<Role, (plan: PlannedThread) => Promise<void>>> = {
    edit: editor,
    'delete-racing': racingDeleter,
    'delete-held': heldDeleter,
    'delete-after': afterDeleter,
  };
  await Promise.all(plans.map((plan) => client[plan.role]?.(plan)));

  // ---- wait until every remaining thread has ended, then stop the workers ----
  const kept = plans.filter((p) => !p.role.startsWith('delete'));
  try {
    await waitFor(
      'every thread to end',
      async () => {
        const rows = await env.ctx.db
          .selectFrom('threads')
          .select('status')
          .where('status', 'in', ['READY', 'PUBLISHING'])
          .where('approval_state', 'is', null) // the gated ones wait for good
          .execute();
        return rows.length === 0;
      },
      HANG_MS,
      100,
    );
  } catch (err) {
    console.log(`# race: worker logs in ${dumpWorkerLogs(workers, 'race')}`);
    throw err;
  }
  const publishedIn = Date.now() - dueFrom;
  // A worker that still had a deleted thread in hand would publish it before it exits: once both
  // have stopped, whatever reached the network is all that ever will.
  await Promise.all(workers.map((w) => w.kill('SIGTERM')));
  const exits = await Promise.all(workers.map((w) => w.exited));

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

    if (plan.role === 'edit') {
      if (plan.edits[0]?.status !== 200) problems.push(`${label}: the edit an hour ahead answered ${plan.edits[0]?.status} ${plan.edits[0]?.code}`);
      if (plan.edits.at(-1)?.status !== 409) problems.push(`${label}: no edit was refused once it was due`);
    }

    if (plan.role.startsWith('delete')) {
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
      if (plan.role === 'delete-early' && out.length !== 0) problems.push(`${label}: deleted an hour ahead, yet ${out.length} posts are out`);
      if ((plan.role === 'delete-after' || plan.role === 'delete-held') && out.length !== plan.postIds.length)
        problems.push(`${label}: ${out.length} of ${plan.postIds.length} posts are out`);
      if (plan.role === 'delete-held' && (plan.deletes[0]?.status !== 409 || plan.deletes[0]?.code !== 'PUBLISH_IN_PROGRESS'))
        problems.push(`${label}: a delete while its container call was held answered ${plan.deletes[0]?.status} ${plan.deletes[0]?.code}`);
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

  // Every other thread was published after the gated ones fell due: none of them was taken.
  for (const g of gated) {
    if (byText.has(g.text)) problems.push(`gated thread ${g.k} (${g.state}) reached the network`);
    const row = await env.ctx.db.selectFrom('threads').select(['status', 'approval_state']).where('id', '=', g.threadId).executeTakeFirstOrThrow();
    if (row.status !== 'READY' || row.approval_state !== g.state) problems.push(`gated thread ${g.k} (${g.state}) is ${row.status} / ${row.approval_state}`);
  }

  const ours = new Set(plans.map((p) => p.ownerId));
  const total = fake.published.filter((p) => ours.has(p.ownerId)).length;
  const posts = plans.reduce((n, p) => n + p.postIds.length, 0);
  const elapsed = Date.now() - started;
  console.log(
    `# race: ${THREADS} threads (${posts} posts; ${kept.length} kept, ${plans.length - kept.length} deleted), 2 workers (${creates[0]} and ${creates[1]} container calls), ` +
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
  assert.ok(creates[0]! > 0 && creates[1]! > 0, 'both workers published threads');
  // The arranged cases happened (the per-thread checks above say which did not), so the test means something.
  assert.ok(tally.edit200 > 0 && tally.edit409 > 0, 'edits were both accepted and refused');
  assert.ok(
    tally.deletedBeforePublish > 0 && tally.deletedAfterPublish > 0 && tally.delete409 > 0,
    'deletes landed before and after publishing, and were refused in between',
  );
  for (const [i, exit] of exits.entries()) assert.deepEqual(exit, { code: 0, signal: null }, `${workers[i]!.name} stopped cleanly on SIGTERM`);
});
