import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { PublishError } from '../../src/networks/platform.js';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { refreshExpiringTokens } from '../../src/publisher/token-refresh.js';
import { revokeProvider } from '../../src/repos/providers.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { describeEachDb, type TestEnvOptions } from '../helpers/context.js';
import { FakePlatform } from '../helpers/fakes/platform.js';
import { createProvider, createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';
import { SmtpTestServer } from '../helpers/smtp.js';

const smtp = new SmtpTestServer();
const options: TestEnvOptions = {};
before(async () => {
  await smtp.start();
  options.smtpUrl = smtp.url;
});
after(() => smtp.stop());

describeEachDb(
  'email notifications: the outbox and the SMTP sender',
  (env) => {
    const publicUrl = () => env().ctx.config.http.publicUrl;
    /** Each test starts with nothing left to send from the tests before. */
    const reset = async () => {
      await env().ctx.db.updateTable('email_notifications').set({ status: 'SENT' }).where('status', 'in', ['PENDING', 'SENDING']).execute();
      smtp.received.length = 0;
      smtp.refuse = null;
    };
    async function scheduleThread(user: TestUser, providerId: string, text = 'hello world') {
      const scheduleAt = new Date(env().clock.now().getTime() + 10_000).toISOString();
      const res = await user.call(env().app, { method: 'POST', url: '/api/v1/posts', payload: { providerId, scheduleAt, posts: [{ text }] } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().threadId as string;
    }
    async function choose(user: TestUser, payload: Record<string, unknown>) {
      const res = await user.call(env().app, { method: 'PATCH', url: '/api/v1/account/notifications', payload });
      assert.equal(res.statusCode, 200, res.body);
    }
    const run = (fake: FakePlatform, worker = 'w1') => new PublisherLoop(env().ctx, { THREADS: fake }, worker).runOnce();

    test('a failed thread: one email with text and HTML parts, the error, a link to the thread and a Message-ID from the event', async () => {
      const { ctx, clock } = env();
      await reset();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const threadId = await scheduleThread(user, provider.id, 'my failing thread');
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.faults.push(new PublishError('permanent', 'TEXT_REFUSED', 'the network refused the text'));
      await run(fake);
      const mails = smtp.to(user.account.email);
      assert.equal(mails.length, 1, 'one email');
      const mail = mails[0]!;
      assert.match(mail.subject ?? '', new RegExp(`thread failed to publish on @${provider.username}`));
      assert.match(mail.text ?? '', /the network refused the text \(TEXT_REFUSED\)/);
      assert.match(mail.text ?? '', /my failing thread/);
      assert.ok((mail.text ?? '').includes(`${publicUrl()}/threads/${threadId}`));
      assert.ok(typeof mail.html === 'string' && mail.html.includes(`href="${publicUrl()}/threads/${threadId}"`), 'an HTML part with the link');
      assert.equal(mail.from?.value[0]?.address, ctx.config.email.from);
      const row = await ctx.db.selectFrom('email_notifications').selectAll().where('account_id', '=', user.account.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'SENT');
      assert.equal(row.kind, 'THREAD_FAILED');
      assert.equal(mail.messageId, `<${row.event_id}.${user.account.id}@${new URL(publicUrl()).hostname}>`);
      assert.equal(mail.headers.get('x-skein-event-id'), row.event_id);
      // Nothing more, however often the publisher runs.
      clock.advance(3600_000);
      await run(fake);
      await run(fake, 'w2');
      assert.equal(smtp.to(user.account.email).length, 1, 'never two for one event');
    });

    test('a failed follow-up reply: one email linking to its thread', async () => {
      const { ctx, clock, app } = env();
      await reset();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      const threadId = await scheduleThread(user, provider.id, 'the thread');
      const res = await user.call(app, { method: 'POST', url: `/api/v1/posts/${threadId}/follow-ups`, payload: { text: 'refused', delayMinutes: 5 } });
      assert.equal(res.statusCode, 201, res.body);
      const followUpId = res.json().id as string;
      clock.advance(60_000);
      const fake = new FakePlatform();
      await run(fake);
      assert.equal(smtp.to(user.account.email).length, 0, 'a published thread sends nothing');
      clock.advance(6 * 60_000);
      fake.beforePublish = async (post) => {
        if (post.id === followUpId) throw new PublishError('permanent', 'REPLY_REFUSED', 'replies are closed');
      };
      await run(fake);
      await run(fake);
      const mails = smtp.to(user.account.email);
      assert.equal(mails.length, 1);
      assert.match(mails[0]!.subject ?? '', /follow-up reply failed/);
      assert.match(mails[0]!.text ?? '', /replies are closed \(REPLY_REFUSED\)/);
      assert.ok((mails[0]!.text ?? '').includes(`${publicUrl()}/threads/${threadId}`));
    });

    test("an expired account: one email to reconnect it, linking to the accounts page (with the failed thread's own)", async () => {
      const { ctx, clock } = env();
      await reset();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      await scheduleThread(user, provider.id);
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.faults.push(new PublishError('auth', 'TOKEN_EXPIRED', 'the token expired'));
      await run(fake);
      await run(fake);
      const mails = smtp.to(user.account.email);
      const expired = mails.filter((m) => /needs reconnecting/.test(m.subject ?? ''));
      assert.equal(expired.length, 1, mails.map((m) => m.subject).join(', '));
      assert.ok((expired[0]!.text ?? '').includes(`${publicUrl()}/accounts`));
      assert.equal(mails.filter((m) => /thread failed/.test(m.subject ?? '')).length, 1);
    });

    test('a LinkedIn token that runs out in 3 days and cannot be refreshed: one email saying by when, linking to the accounts', async () => {
      const { ctx, clock } = env();
      await reset();
      const user = await createUser(ctx);
      const expiresAt = new Date(clock.now().getTime() + 3 * 86_400_000);
      const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
        kind: 'LINKEDIN',
        providerUserId: 'urn:li:person:expiring',
        username: 'Ada Lovelace',
        accessToken: 'a-60-day-token',
        tokenExpiresAt: expiresAt,
      });
      await refreshExpiringTokens(ctx);
      await refreshExpiringTokens(ctx);
      await run(new FakePlatform());
      const mails = smtp.to(user.account.email);
      assert.equal(mails.length, 1, 'one email, however often the sweep runs');
      const said = `${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      assert.equal(mails[0]!.subject, `Skein: @${provider.username} (LinkedIn) needs reconnecting by ${said}: its sign-in runs out then`);
      assert.ok((mails[0]!.text ?? '').includes(`${publicUrl()}/accounts`));
    });

    test('preferences off: no email, nothing queued; a team event reaches each member by their own choice', async () => {
      const { ctx, clock } = env();
      await reset();
      const user = await createUser(ctx);
      await choose(user, { kinds: { THREAD_FAILED: 'off', PROVIDER_EXPIRED: 'off' } });
      const provider = await createProvider(ctx, user.account);
      await scheduleThread(user, provider.id);
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.faults.push(new PublishError('auth', 'TOKEN_EXPIRED', 'the token expired'));
      await run(fake);
      assert.equal(smtp.to(user.account.email).length, 0);
      assert.equal((await ctx.db.selectFrom('email_notifications').select('id').where('account_id', '=', user.account.id).execute()).length, 0);

      const owner = await createUser(ctx);
      const member = await createUser(ctx);
      const quiet = await createUser(ctx);
      await choose(quiet, { kinds: { PROVIDER_REVOKED: 'off' } });
      await choose(member, { kinds: { PROVIDER_REVOKED: 'immediate' } });
      await choose(owner, { kinds: { PROVIDER_REVOKED: 'immediate' } });
      const team = await createTeamWith(ctx, owner.account, [member.account, quiet.account]);
      const shared = await createProvider(ctx, owner.account, 'THREADS', team.id);
      await revokeProvider(ctx.db, shared.id, clock.now());
      await revokeProvider(ctx.db, shared.id, clock.now());
      await run(fake);
      assert.equal(smtp.to(owner.account.email).length, 1);
      assert.equal(smtp.to(member.account.email).length, 1, 'a second disconnect of a disconnected account is no event');
      assert.match(smtp.to(member.account.email)[0]!.subject ?? '', /was disconnected/);
      assert.equal(smtp.to(quiet.account.email).length, 0);
    });

    test('an SMTP server that refuses: retried with backoff on 4xx (the same Message-ID), given up on 5xx', async () => {
      const { ctx, clock } = env();
      await reset();
      const user = await createUser(ctx);
      const provider = await createProvider(ctx, user.account);
      await scheduleThread(user, provider.id);
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.faults.push(new PublishError('permanent', 'TEXT_REFUSED', 'no'));
      smtp.refuse = 451;
      await run(fake);
      const row = () => ctx.db.selectFrom('email_notifications').selectAll().where('account_id', '=', user.account.id).executeTakeFirstOrThrow();
      const first = await row();
      assert.equal(first.status, 'PENDING');
      assert.equal(first.attempts, 1);
      assert.match(first.last_error ?? '', /451|refused/);
      assert.ok(first.run_at.getTime() > clock.now().getTime() && first.run_at.getTime() <= clock.now().getTime() + 60_000, 'retried within 60 s');
      smtp.refuse = null;
      await run(fake);
      assert.equal(smtp.to(user.account.email).length, 0, 'not before its time');
      clock.advance(60_000);
      await run(fake);
      assert.equal(smtp.to(user.account.email).length, 1);
      assert.equal((await row()).status, 'SENT');
      assert.equal((await row()).attempts, 2);

      const other = await createUser(ctx);
      const otherProvider = await createProvider(ctx, other.account);
      await scheduleThread(other, otherProvider.id);
      clock.advance(60_000);
      fake.faults.push(new PublishError('permanent', 'TEXT_REFUSED', 'no'));
      smtp.refuse = 550;
      await run(fake);
      const refused = await ctx.db.selectFrom('email_notifications').selectAll().where('account_id', '=', other.account.id).executeTakeFirstOrThrow();
      assert.equal(refused.status, 'FAILED');
      assert.equal(smtp.to(other.account.email).length, 0);
    });

    test("the daily digest: at 08:00 in the user's zone, once that day, with the daily kinds and the day's outcomes; none with nothing to say", async () => {
      const { ctx, clock } = env();
      await reset();
      // 2026-11-23 08:00 in New York is 13:00 UTC.
      clock.set('2026-11-22T20:00:00.000Z');
      const user = await createUser(ctx, { timezone: 'America/New_York' });
      await choose(user, { kinds: { THREAD_FAILED: 'daily' }, digest: true });
      const provider = await createProvider(ctx, user.account);
      const failing = await scheduleThread(user, provider.id, 'this one fails');
      await scheduleThread(user, provider.id, 'this one goes out');
      clock.advance(60_000);
      const fake = new FakePlatform();
      fake.beforePublish = async (post) => {
        if (post.text === 'this one fails') throw new PublishError('permanent', 'TEXT_REFUSED', 'refused at night');
      };
      await run(fake);
      assert.equal(smtp.to(user.account.email).length, 0, 'a daily kind sends nothing at once');

      clock.set('2026-11-23T12:59:59.000Z');
      await run(fake);
      assert.equal(smtp.to(user.account.email).length, 0, 'not before 08:00 local');
      clock.set('2026-11-23T13:00:00.000Z');
      await run(fake);
      await run(fake, 'w2');
      clock.set('2026-11-23T23:00:00.000Z');
      await run(fake);
      const mails = smtp.to(user.account.email);
      assert.equal(mails.length, 1, 'one digest that day');
      const digest = mails[0]!;
      assert.match(digest.subject ?? '', /your day, 2026-11-23/);
      assert.match(digest.text ?? '', /Published: 1 thread\b/);
      assert.match(digest.text ?? '', /Failed: 1/);
      assert.match(digest.text ?? '', /refused at night/);
      assert.ok((digest.text ?? '').includes(`${publicUrl()}/threads/${failing}`));
      assert.ok(typeof digest.html === 'string' && digest.html.includes(`${publicUrl()}/threads/${failing}`));
      assert.equal(digest.messageId, `<digest.${user.account.id}.2026-11-23@${new URL(publicUrl()).hostname}>`);

      // The next day had nothing: no email, the day still counted once.
      clock.set('2026-11-24T13:00:00.000Z');
      await run(fake);
      await run(fake);
      assert.equal(smtp.to(user.account.email).length, 1, 'nothing to say: nothing sent');
      const days = await ctx.db
        .selectFrom('email_notifications')
        .select([sql<string>`digest_day::text`.as('day'), 'status'])
        .where('account_id', '=', user.account.id)
        .where('kind', '=', 'DIGEST')
        .orderBy('digest_day')
        .execute();
      assert.deepEqual(
        days.map((d) => [d.day, d.status]),
        [
          // Turned on at 15:00 local on the 22nd: that day's digest was due at once, and had nothing to say.
          ['2026-11-22', 'SKIPPED'],
          ['2026-11-23', 'SENT'],
          ['2026-11-24', 'SKIPPED'],
        ],
      );
    });
  },
  options,
);
