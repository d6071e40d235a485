/**
 * Crash test for email notifications: a real `skein worker` process on PostgreSQL publishes a
 * thread the fake Graph API refuses (the thread FAILED and its email queued in the same
 * statement), and is killed (SIGKILL) after that change and before the email is sent: as it
 * connects to the SMTP server, which holds the connection unanswered. A fresh worker sends the
 * email once the dead one's lease has run out: it arrives exactly once, nothing lost.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { postgresSkipReason } from '../helpers/db.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { createUser } from '../helpers/seeds.js';
import { SmtpTestServer } from '../helpers/smtp.js';
import { connectFakeThreads, dumpWorkerLogs, openSystemEnv, type SystemEnv, shutDown, startWorker, type WorkerProcess, waitFor } from '../helpers/system.js';

const skip = postgresSkipReason();
const ROUNDS = 2;
const LEASE_MS = 3000;

let env: SystemEnv;
let fake: FakeGraphApi;
const smtp = new SmtpTestServer();
const workers: WorkerProcess[] = [];

before(async () => {
  if (skip) return;
  fake = await FakeGraphApi.start();
  await smtp.start();
  env = await openSystemEnv();
});

after(async () => {
  if (skip) return;
  await shutDown({ workers, env, servers: [fake, { close: () => smtp.stop() }] });
});

test(`a worker killed (SIGKILL) between a thread's failure and its email, ${ROUNDS} times: each email arrives exactly once`, {
  skip: skip ?? false,
  timeout: 300_000,
}, async () => {
  const user = await createUser(env.ctx);
  const { provider } = await connectFakeThreads(env.ctx, user.account.id, fake, 'crashmail');
  const publicUrl = env.ctx.config.http.publicUrl;
  const spawn = () => {
    const w = startWorker({
      dbUrl: env.dbUrl,
      threadsApiUrl: fake.url,
      leaseMs: LEASE_MS,
      name: `worker-${workers.length + 1}`,
      env: { SKEIN_SMTP_URL: smtp.url, PUBLIC_URL: publicUrl },
    });
    workers.push(w);
    return w;
  };
  let current = spawn();
  const threadIds: string[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      await current.ready;
      const victim = current;
      let killed = 0;
      // The first SMTP connection of this round is the victim's: held, and the victim killed there.
      smtp.onConnect = () => {
        smtp.onConnect = () => false;
        killed++;
        victim.child.kill('SIGKILL');
        return true;
      };
      fake.failNext('threads.create', { kind: 'graphError', status: 400, error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 } });
      const res = await user.call(env.app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: new Date(Date.now() + 200).toISOString(), posts: [{ text: `refused ${i}` }] },
      });
      assert.equal(res.statusCode, 201, res.body);
      const threadId = res.json().threadId as string;
      threadIds.push(threadId);
      await waitFor(`round ${i}: the worker killed as it connects to send`, async () => killed > 0, 60_000);
      await victim.exited;
      const thread = await env.ctx.db.selectFrom('threads').select('status').where('id', '=', threadId).executeTakeFirstOrThrow();
      assert.equal(thread.status, 'FAILED', 'the change committed before the kill');
      const row = await env.ctx.db
        .selectFrom('email_notifications')
        .selectAll()
        .where('account_id', '=', user.account.id)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      assert.equal(row.status, 'SENDING', 'claimed by the dead worker, not sent');
      assert.equal(smtp.to(user.account.email).length, i, 'nothing of this round arrived before the kill');
      current = spawn();
      await waitFor(
        `round ${i}: the email sent by the next worker`,
        async () => {
          const r = await env.ctx.db.selectFrom('email_notifications').select('status').where('id', '=', row.id).executeTakeFirst();
          return r?.status === 'SENT';
        },
        60_000,
      );
    }
    const mails = smtp.to(user.account.email);
    assert.equal(mails.length, ROUNDS, 'one email per failed thread');
    for (const threadId of threadIds) {
      const about = mails.filter((m) => (m.text ?? '').includes(`${publicUrl}/threads/${threadId}`));
      assert.equal(about.length, 1, `${threadId}: exactly once`);
    }
    const rows = await env.ctx.db.selectFrom('email_notifications').select(['status', 'attempts']).where('account_id', '=', user.account.id).execute();
    assert.deepEqual(
      rows.map((r) => [r.status, r.attempts]),
      threadIds.map(() => ['SENT', 2]),
      'each claimed twice: by the dead worker, then by the next',
    );
    console.log(`# email crash: threads=${threadIds.length} emails=${mails.length} kills=${ROUNDS}`);
  } catch (err) {
    console.log(`# worker logs: ${dumpWorkerLogs(workers, 'crash-email')}`);
    throw err;
  }
});
