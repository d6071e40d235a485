/**
 * Wake-up across processes on PostgreSQL: a real `skein worker` whose poll interval is an hour
 * (the longest SKEIN_POLL_MS allows) publishes a thread that another process (this one, standing
 * in for an API instance) creates at once, through LISTEN/NOTIFY, and a thread scheduled a few
 * seconds ahead at its time, because the idle loop sleeps until the next due row rather than a
 * whole poll. The poll is far longer than the tests wait, so a thread published at all was
 * published by a wake-up, however slow the machine: the waits below only stop a hung run.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { createThread } from '../../src/services/threads/threads.js';
import { postgresSkipReason } from '../helpers/db.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { createUser, type TestUser } from '../helpers/seeds.js';
import { connectFakeThreads, openSystemEnv, type SystemEnv, shutDown, startWorker, type WorkerProcess, waitFor } from '../helpers/system.js';

const skip = postgresSkipReason();
const POLL_MS = 3_600_000;
/** How long a test waits for the publication: a hang guard, far below the poll. */
const WAIT_MS = 120_000;

let fake: FakeGraphApi;
let env: SystemEnv;
let worker: WorkerProcess;
let user: TestUser;
let providerId: string;

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start({ processingMs: { TEXT: 0 } });
  env = await openSystemEnv();
  user = await createUser(env.ctx);
  providerId = (await connectFakeThreads(env.ctx, user.account.id, fake, 'wakeup')).provider.id;
  worker = startWorker({ dbUrl: env.dbUrl, threadsApiUrl: fake.url, pollMs: POLL_MS, name: 'worker' });
  await worker.ready;
  // The worker listens once its first idle wait begins.
  const dbName = new URL(env.dbUrl).pathname.slice(1);
  await waitFor(
    'the worker to LISTEN',
    async () => {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${dbName} AND query LIKE 'LISTEN%'`.execute(
        env.ctx.db,
      );
      return rows[0]!.n > 0;
    },
    WAIT_MS,
  );
});

after(async () => {
  if (skip) return;
  await shutDown({ workers: worker ? [worker] : [], env, servers: [fake] });
});

async function publishedAt(threadId: string): Promise<Date> {
  return waitFor(
    `thread ${threadId} to be published`,
    async () => (await env.ctx.db.selectFrom('threads').select(['status', 'published_at']).where('id', '=', threadId).executeTakeFirst())?.published_at ?? null,
    WAIT_MS,
    50,
  );
}

test('a thread created by another process is published at once, not at the next poll', { skip: skip ?? false }, async () => {
  const created = await createThread(env.ctx, user.account, { providerId, scheduleAt: new Date().toISOString(), posts: [{ text: 'wake up now' }] });
  const at = await publishedAt(created.threadId);
  console.log(`# wakeup: created by another process, published ${at.getTime() - Date.parse(created.scheduledAt!)} ms after it was due (poll ${POLL_MS} ms)`);
  // Before the worker's next poll: only the notification can have woken it.
  assert.ok(at.getTime() - Date.parse(created.scheduledAt!) < POLL_MS, `published ${at.getTime() - Date.parse(created.scheduledAt!)} ms after it was due`);
  assert.equal(fake.published.filter((p) => p.text === 'wake up now').length, 1);
});

test('a thread due in 3 s is published at its time, not at the next poll', { skip: skip ?? false }, async () => {
  const due = new Date(Date.now() + 3_000);
  const created = await createThread(env.ctx, user.account, { providerId, scheduleAt: due.toISOString(), posts: [{ text: 'wake up at three' }] });
  const at = await publishedAt(created.threadId);
  console.log(`# wakeup: due in 3 s, published ${at.getTime() - due.getTime()} ms after it was due (poll ${POLL_MS} ms)`);
  assert.ok(at.getTime() >= due.getTime(), 'not before its time');
  // Before the worker's next poll: it slept until the thread was due, not a whole poll.
  assert.ok(at.getTime() - due.getTime() < POLL_MS, `published ${at.getTime() - due.getTime()} ms after it was due`);
});
