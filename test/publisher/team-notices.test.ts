/**
 * A team's notices by email (decisions.md "Teams"; docs/decisions.md "Teams: roles and
 * approvals"): an approval request to the team's editors, admins and owner (never its writers
 * and viewers), each by their own choice, once per request however often the waiting thread
 * changes and however many workers send; the decision to the writer who asked; a comment's
 * `@email` mentions to the members it names, once; a writer's import asks as a writer's Create
 * Post does, an editor's asks nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { PublisherLoop } from '../../src/publisher/loop.js';
import { findThread } from '../../src/repos/threads.js';
import { setTeamMember } from '../../src/services/accounts/members.js';
import { writeComment } from '../../src/services/threads/comments.js';
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

const HOUR = 3_600_000;

describeEachDb(
  'team notices: approval and mention emails',
  (env) => {
    const reset = async () => {
      await env().ctx.db.updateTable('email_notifications').set({ status: 'SENT' }).where('status', 'in', ['PENDING', 'SENDING']).execute();
      smtp.received.length = 0;
    };
    /** A team with one member of each role, a provider of the team and a webhook for the team's events. */
    async function team() {
      const { ctx } = env();
      const [owner, admin, editor, writer, viewer, stranger] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createUser(ctx)));
      const t = await createTeamWith(ctx, owner!.account);
      await setTeamMember(ctx, t.id, admin!.account, 'admin');
      await setTeamMember(ctx, t.id, editor!.account, 'editor');
      await setTeamMember(ctx, t.id, writer!.account, 'writer');
      await setTeamMember(ctx, t.id, viewer!.account, 'viewer');
      const provider = await createProvider(ctx, owner!.account, 'THREADS', t.id);
      const hook = await owner!.call(env().app, {
        method: 'POST',
        url: '/api/v1/webhooks',
        payload: { url: 'https://hooks.example/t', events: ['thread.approval_requested', 'comment.created'], teamId: t.id },
      });
      assert.equal(hook.statusCode, 201, hook.body);
      return { owner: owner!, admin: admin!, editor: editor!, writer: writer!, viewer: viewer!, stranger: stranger!, teamId: t.id, providerId: provider.id };
    }
    type Team = Awaited<ReturnType<typeof team>>;
    const ok = (res: LightMyRequestResponse, status = 200) => {
      assert.equal(res.statusCode, status, res.body);
      return res.json();
    };
    const create = async (f: Team, who: TestUser, text: string): Promise<string> => {
      const scheduleAt = new Date(env().clock.now().getTime() + HOUR).toISOString();
      const payload = { providerId: f.providerId, teamId: f.teamId, scheduleAt, posts: [{ text }] };
      return ok(await who.call(env().app, { method: 'POST', url: '/api/v1/posts', payload }), 201).threadId;
    };
    const edit = (who: TestUser, id: string, text: string) =>
      who.call(env().app, { method: 'PUT', url: `/api/v1/posts/${id}/edit`, payload: { posts: [{ text }] } });
    const choose = async (user: TestUser, kinds: Record<string, string>, digest?: boolean) =>
      ok(await user.call(env().app, { method: 'PATCH', url: '/api/v1/account/notifications', payload: { kinds, ...(digest ? { digest } : {}) } }));
    const run = (worker = 'w1') => new PublisherLoop(env().ctx, { THREADS: new FakePlatform() }, worker).runOnce();
    const subjects = (user: TestUser) => smtp.to(user.account.email).map((m) => m.subject ?? '');
    const asked = (user: TestUser) => subjects(user).filter((s) => s.includes('waits for your approval'));

    test("a writer's thread: one email to each editor, admin and owner by their choice (none to writers and viewers); once per request, with two workers", async () => {
      const { ctx, clock } = env();
      await reset();
      clock.set('2026-11-22T12:00:00.000Z');
      const f = await team();
      await choose(f.editor, { APPROVAL_REQUESTED: 'off' });
      const owner2 = await createUser(ctx);
      await setTeamMember(ctx, f.teamId, owner2.account, 'owner');
      await choose(owner2, { APPROVAL_REQUESTED: 'daily' });

      const id = await create(f, f.writer, 'please approve me');
      // A waiting thread changed again is the same request: no second email.
      ok(await edit(f.writer, id, 'please approve me, edited'));
      await Promise.all([edit(f.writer, id, 'edited at the same time'), edit(f.writer, id, 'edited at the same time, too')]);
      await Promise.all([run('w1'), run('w2')]);
      await Promise.all([run('w1'), run('w2')]);

      assert.equal(asked(f.owner).length, 1, subjects(f.owner).join(', '));
      assert.equal(asked(f.admin).length, 1);
      assert.deepEqual(asked(f.editor), [], 'the editor chose no email');
      assert.deepEqual(asked(owner2), [], 'daily: not at once');
      for (const user of [f.writer, f.viewer, f.stranger]) assert.deepEqual(subjects(user), [], 'writers, viewers and strangers get nothing');
      const mail = smtp.to(f.admin.account.email)[0]!;
      assert.match(mail.text ?? '', /edited at the same time/, 'the thread as it is when sent');
      assert.match(mail.text ?? '', new RegExp(`Asked by ${f.writer.account.email}`));
      assert.ok((mail.text ?? '').includes(`${ctx.config.http.publicUrl}/approvals`), 'the approvals page, where the buttons are');
      assert.equal(mail.headers.get('x-skein-notification'), 'APPROVAL_REQUESTED');
      const events = await ctx.db
        .selectFrom('webhook_events')
        .select('type')
        .where('team_id', '=', f.teamId)
        .where('type', '=', 'thread.approval_requested')
        .execute();
      assert.equal(events.length, 4, 'the webhook hears every change of the waiting thread');

      // Rejected: the writer is told, with the note; the editor who rejected is not.
      await choose(f.editor, { APPROVAL_REQUESTED: 'immediate' });
      ok(await f.editor.call(env().app, { method: 'POST', url: `/api/v1/posts/${id}/reject`, payload: { note: 'too long, cut it' } }));
      await run();
      const rejected = smtp.to(f.writer.account.email);
      assert.equal(rejected.length, 1);
      assert.match(rejected[0]!.subject ?? '', new RegExp(`was rejected by ${f.editor.account.email}`));
      assert.match(rejected[0]!.text ?? '', /Note: too long, cut it/);
      assert.deepEqual(
        smtp.received.filter((m) => /rejected/.test(m.subject ?? '')).map((m) => m.to),
        [rejected[0]!.to],
      );

      // Changed after the rejection: a new request, emailed again (to the editor too now).
      ok(await edit(f.writer, id, 'shorter'));
      await run();
      assert.equal(asked(f.owner).length, 2);
      assert.equal(asked(f.admin).length, 2);
      assert.equal(asked(f.editor).length, 1);
      // Approved: nothing to the writer by default (it asks nothing of them), an email when chosen.
      ok(await f.editor.call(env().app, { method: 'POST', url: `/api/v1/posts/${id}/approve`, payload: {} }));
      const other = await create(f, f.writer, 'another one');
      await choose(f.writer, { THREAD_APPROVED: 'immediate' });
      ok(await f.admin.call(env().app, { method: 'POST', url: `/api/v1/posts/${other}/approve`, payload: {} }));
      await run();
      assert.deepEqual(
        subjects(f.writer).filter((s) => s.includes('approved')),
        [`Skein: Your thread on @${await providerName(f.providerId)} (Threads) was approved by ${f.admin.account.email}`],
      );

      // The daily choice: in the owner's digest at 08:00 UTC the next day.
      clock.set('2026-11-23T08:00:00.000Z');
      await run();
      const digest = smtp.to(owner2.account.email);
      assert.equal(digest.length, 1, digest.map((m) => m.subject).join(', '));
      assert.match(digest[0]!.subject ?? '', /your day, 2026-11-23/);
      assert.equal((digest[0]!.text ?? '').match(/waits for your approval/g)?.length, 3, 'each request in the digest');
    });

    async function providerName(providerId: string): Promise<string> {
      return (await env().ctx.db.selectFrom('providers').select('username').where('id', '=', providerId).executeTakeFirstOrThrow()).username;
    }

    test('mentions: each member a comment names once, never the author or a stranger; the event names them; a reviewer-less personal thread none', async () => {
      const { ctx, app } = env();
      await reset();
      const f = await team();
      await choose(f.admin, { COMMENT_MENTION: 'off' });
      const id = await create(f, f.editor, 'a thread to talk about');
      const text = `@${f.writer.account.email.toUpperCase()} and @${f.viewer.account.email}, see this. Also @${f.writer.account.email}, me (@${f.editor.account.email}), @${f.admin.account.email} and @${f.stranger.account.email}. Not a mention: x@${f.owner.account.email}`;
      ok(await f.editor.call(app, { method: 'POST', url: `/api/v1/posts/${id}/comments`, payload: { text } }), 201);
      await Promise.all([run('w1'), run('w2')]);
      for (const user of [f.writer, f.viewer]) {
        const mails = smtp.to(user.account.email);
        assert.equal(mails.length, 1, `${user.account.email}: ${mails.map((m) => m.subject).join(', ')}`);
        assert.match(mails[0]!.subject ?? '', new RegExp(`${f.editor.account.email} mentioned you in a comment`));
        assert.match(mails[0]!.text ?? '', /see this/);
      }
      for (const user of [f.editor, f.admin, f.stranger, f.owner]) assert.deepEqual(subjects(user), [], user.account.email);
      const event = await ctx.db
        .selectFrom('webhook_events')
        .select('data')
        .where('team_id', '=', f.teamId)
        .where('type', '=', 'comment.created')
        .executeTakeFirstOrThrow();
      const mentions = (event.data as { comment: { mentions: string[] } }).comment.mentions;
      assert.deepEqual(
        [...mentions].sort(),
        [f.admin.account.email, f.viewer.account.email, f.writer.account.email].sort(),
        'every member named (the admin chose no email)',
      );

      // A review link's reviewer (no account) comments through the same service: mentions count.
      await reset();
      const thread = (await findThread(ctx.db, id))!;
      await writeComment(ctx, thread, { accountId: null, name: 'Carla (client)' }, { text: `Fine by me, @${f.writer.account.email}` });
      await run();
      assert.deepEqual(subjects(f.writer), [`Skein: Carla (client) mentioned you in a comment on a thread on @${await providerName(f.providerId)} (Threads)`]);
      assert.equal(smtp.received.length, 1);

      // No mention, no email; a personal thread has no one to mention.
      ok(await f.writer.call(app, { method: 'POST', url: `/api/v1/posts/${id}/comments`, payload: { text: 'no mention here' } }), 201);
      const personal = await createProvider(ctx, f.stranger.account);
      const mine = ok(
        await f.stranger.call(app, { method: 'POST', url: '/api/v1/posts', payload: { providerId: personal.id, posts: [{ text: 'mine' }] } }),
        201,
      ).threadId;
      ok(await f.stranger.call(app, { method: 'POST', url: `/api/v1/posts/${mine}/comments`, payload: { text: `@${f.writer.account.email} hi` } }), 201);
      await run();
      assert.equal(smtp.to(f.writer.account.email).length, 1, 'nothing more');
      assert.equal(smtp.received.length, 1);
    });

    test("a writer's import waits for approval with its event and emails; an editor's asks nothing", async () => {
      const { ctx, app } = env();
      await reset();
      const f = await team();
      const scheduleAt = new Date(env().clock.now().getTime() + HOUR).toISOString();
      const rows = [
        { providerId: f.providerId, scheduleAt, posts: [{ text: 'imported, scheduled' }] },
        { providerId: f.providerId, posts: [{ text: 'imported draft' }] },
      ];
      const importAs = async (who: TestUser) =>
        ok(await who.call(app, { method: 'POST', url: `/api/v1/posts/import?teamId=${f.teamId}`, payload: rows }), 201).threads.map(
          (t: { threadId: string }) => t.threadId,
        );
      const approvalOf = async (id: string) => ok(await f.owner.call(app, { method: 'GET', url: `/api/v1/posts/${id}` })).thread.approval;
      const requested = async () =>
        (
          await ctx.db.selectFrom('webhook_events').select('data').where('team_id', '=', f.teamId).where('type', '=', 'thread.approval_requested').execute()
        ).map((e) => (e.data as { threadId: string }).threadId);

      const [scheduled, draft] = await importAs(f.writer);
      assert.deepEqual(await approvalOf(scheduled), { state: 'PENDING', by: null, at: null, note: null });
      assert.equal(await approvalOf(draft), null, 'a draft asks for nothing');
      assert.deepEqual(await requested(), [scheduled]);
      await run();
      for (const user of [f.owner, f.admin, f.editor]) assert.equal(asked(user).length, 1, user.account.email);
      assert.deepEqual(subjects(f.writer), []);
      assert.deepEqual(subjects(f.viewer), []);

      await reset();
      const [byEditor] = await importAs(f.editor);
      assert.equal(await approvalOf(byEditor), null);
      assert.deepEqual(await requested(), [scheduled], 'no event');
      await run();
      assert.equal(smtp.received.length, 0, 'no email');
    });
  },
  options,
);
