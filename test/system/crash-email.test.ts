/**
 * Crash test for email notifications, on PostgreSQL (real `skein worker` processes) and on the
 * embedded database (`skein serve` on a PGlite data folder, as `npm start` runs it): the process
 * publishes a thread the fake Graph API refuses (the thread FAILED and its email queued in the
 * same statement), and is killed (SIGKILL) after that change and before the email is sent: as it
 * connects to the SMTP server, which holds the connection unanswered. The next process (on
 * PostgreSQL once the dead one's lease has run out; on the embedded database restarted on the
 * same folder, taking over at once) sends the email: it arrives exactly once, nothing lost.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type CrashSite, openCrashSite, SITE_KINDS, type SkeinProcess } from '../helpers/crash-site.js';
import { postgresSkipReason } from '../helpers/db.js';
import { FakeGraphApi } from '../helpers/fakes/threads-graph-api.js';
import { createUser } from '../helpers/seeds.js';
import { SmtpTestServer } from '../helpers/smtp.js';
import { connectFakeThreads, waitFor } from '../helpers/system.js';

const ROUNDS = 2;
const LEASE_MS = 3000;

let fake: FakeGraphApi;
const smtp = new SmtpTestServer();

before(async () => {
  fake = await FakeGraphApi.start();
  await smtp.start();
});

after(async () => {
  await fake?.close();
  await smtp.stop();
});

for (const kind of SITE_KINDS) {
  const skip = kind === 'postgres' ? postgresSkipReason() : undefined;
  test(`${kind}: a process killed (SIGKILL) between a thread's failure and its email, ${ROUNDS} times: each email arrives exactly once`, {
    skip: skip ?? false,
    timeout: 300_000,
  }, async () => {
    const site = await openCrashSite(kind, { threadsApiUrl: fake.url, leaseMs: LEASE_MS, env: { SKEIN_SMTP_URL: smtp.url } });
    try {
      await killBetweenFailureAndEmail(site);
    } catch (err) {
      console.log(`# ${kind} process logs: ${site.dumpLogs(`crash-email-${kind}`)}`);
      throw err;
    } finally {
      await site.close();
    }
  });
}

async function killBetweenFailureAndEmail(site: CrashSite): Promise<void> {
  const { user, providerId } = await site.withDb(async (ctx) => {
    const user = await createUser(ctx);
    const { provider } = await connectFakeThreads(ctx, user.account.id, fake, `crashmail_${site.kind}`);
    return { user, providerId: provider.id };
  });
  const email = user.account.email;
  let current: SkeinProcess = site.start();
  const threadIds: string[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    await current.ready();
    const victim = current;
    let killed = 0;
    // The first SMTP connection of this round is the victim's: held, and the victim killed there.
    smtp.onConnect = () => {
      smtp.onConnect = () => false;
      killed++;
      victim.sigkill();
      return true;
    };
    fake.failNext('threads.create', { kind: 'graphError', status: 400, error: { message: '(#100) Invalid parameter', type: 'OAuthException', code: 100 } });
    const res = await site.api(user.key, 'POST', '/api/v1/posts', {
      providerId,
      scheduleAt: new Date(Date.now() + 200).toISOString(),
      posts: [{ text: `refused ${site.kind} ${i}` }],
    });
    assert.equal(res.status, 201, JSON.stringify(res.json));
    const threadId = res.json.threadId as string;
    threadIds.push(threadId);
    await waitFor(`round ${i}: the process killed as it connects to send`, async () => killed > 0, 60_000);
    await victim.exited;
    await site.withDb(async (ctx) => {
      const thread = await ctx.db.selectFrom('threads').select('status').where('id', '=', threadId).executeTakeFirstOrThrow();
      assert.equal(thread.status, 'FAILED', 'the change committed before the kill');
      const row = await ctx.db
        .selectFrom('email_notifications')
        .selectAll()
        .where('account_id', '=', user.account.id)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      assert.equal(row.status, 'SENDING', 'claimed by the dead process, not sent');
    });
    assert.equal(smtp.to(email).length, i, 'nothing of this round arrived before the kill');
    current = site.start();
    await waitFor(`round ${i}: the email sent by the next process`, async () => smtp.to(email).length > i, 60_000);
  }
  // A clean stop: the last email's row is marked SENT before the process ends.
  await current.stop('SIGTERM');
  const mails = smtp.to(email);
  assert.equal(mails.length, ROUNDS, 'one email per failed thread');
  for (const threadId of threadIds) {
    const about = mails.filter((m) => (m.text ?? '').includes(`${site.publicUrl}/threads/${threadId}`));
    assert.equal(about.length, 1, `${threadId}: exactly once`);
  }
  const rows = await site.withDb((ctx) =>
    ctx.db.selectFrom('email_notifications').select(['status', 'attempts']).where('account_id', '=', user.account.id).execute(),
  );
  assert.deepEqual(
    rows.map((r) => [r.status, r.attempts]),
    threadIds.map(() => ['SENT', 2]),
    'each claimed twice: by the dead process, then by the next',
  );
  console.log(`# email crash (${site.kind}): threads=${threadIds.length} emails=${mails.length} kills=${ROUNDS}`);
}
