import assert from 'node:assert/strict';
import { test } from 'node:test';
import { threadQueue } from '../../src/repos/thread-queue.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createTeamWith, createUser, type TestUser } from '../helpers/seeds.js';

const HOUR = 3_600_000;

describeEachDb('approvals', (env) => {
  async function team() {
    const { ctx } = env();
    const owner = await createUser(ctx);
    const editor = await createUser(ctx);
    const writer = await createUser(ctx);
    const t = await createTeamWith(ctx, owner.account, [editor.account]);
    const { setTeamMember } = await import('../../src/services/accounts/members.js');
    await setTeamMember(ctx, t.id, writer.account, 'writer');
    const provider = await createProvider(ctx, owner.account, 'THREADS', t.id);
    return { owner, editor, writer, teamId: t.id, providerId: provider.id };
  }
  const at = (hours: number) => new Date(env().clock.now().getTime() + hours * HOUR).toISOString();
  const create = (who: TestUser, f: { teamId: string; providerId: string }, scheduleAt: string | undefined, text = 'hello') =>
    who.call(env().app, {
      method: 'POST',
      url: '/api/v1/posts',
      payload: { providerId: f.providerId, teamId: f.teamId, ...(scheduleAt ? { scheduleAt } : {}), posts: [{ text }] },
    });
  const get = async (who: TestUser, id: string) => {
    const res = await who.call(env().app, { method: 'GET', url: `/api/v1/posts/${id}` });
    return { thread: res.json().thread, etag: res.headers.etag as string };
  };
  const claimable = async () => {
    const now = env().clock.now();
    const claimed = await env()
      .ctx.db.transaction()
      .execute((trx) => threadQueue.claim(trx as never, { workerId: 'w', now, until: new Date(now.getTime() + 60_000) }, 50));
    return claimed.rows.map((r) => r.id);
  };

  test("a writer's scheduled thread waits for approval and is never claimed until an editor approves it; then it goes at once", async () => {
    const f = await team();
    const { app, ctx, clock } = env();
    const hook = await f.owner.call(app, {
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: { url: 'https://hooks.example/a', events: ['thread.approval_requested', 'thread.approved', 'thread.rejected'], teamId: f.teamId },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const byWriter = await create(f.writer, f, at(1));
    assert.equal(byWriter.statusCode, 201, byWriter.body);
    const id = byWriter.json().threadId;
    const byEditor = (await create(f.editor, f, at(1))).json().threadId;
    const draft = (await create(f.writer, f, undefined)).json().threadId;
    assert.deepEqual((await get(f.writer, id)).thread.approval, { state: 'PENDING', by: null, at: null, note: null });
    assert.equal((await get(f.writer, byEditor)).thread.approval, null);
    assert.equal((await get(f.writer, draft)).thread.approval, null, 'a draft asks for nothing');

    clock.advance(2 * HOUR);
    const due = await claimable();
    assert.ok(due.includes(byEditor));
    assert.ok(!due.includes(id), 'a pending thread is never claimed');
    const attention = (await f.editor.call(app, { method: 'GET', url: `/api/v1/attention?teamId=${f.teamId}` })).json();
    assert.ok(
      attention.items.some((i: { kind: string; threadId: string }) => i.kind === 'THREAD_AWAITING_APPROVAL' && i.threadId === id),
      JSON.stringify(attention),
    );

    const own = await f.writer.call(app, { method: 'POST', url: `/api/v1/posts/${id}/approve`, payload: {} });
    assert.equal(own.statusCode, 403, own.body);
    assert.equal(own.json().neededRole, 'editor');
    const { etag } = await get(f.editor, id);
    const stale = await f.editor.call(app, { method: 'POST', url: `/api/v1/posts/${id}/approve`, headers: { 'if-match': '"999"' }, payload: {} });
    assert.equal(stale.statusCode, 412, stale.body);
    const approved = await f.editor.call(app, {
      method: 'POST',
      url: `/api/v1/posts/${id}/approve`,
      headers: { 'if-match': etag },
      payload: { note: 'ship it' },
    });
    assert.equal(approved.statusCode, 200, approved.body);
    assert.deepEqual(approved.json().thread.approval, { state: 'APPROVED', by: f.editor.account.email, at: clock.now().toISOString(), note: 'ship it' });
    assert.notEqual(approved.headers.etag, etag);
    const again = await f.editor.call(app, { method: 'POST', url: `/api/v1/posts/${id}/approve`, payload: {} });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().code, 'NOT_PENDING');
    assert.ok((await claimable()).includes(id), 'approved past its time: claimed at once');

    const types = await ctx.db.selectFrom('webhook_events').select('type').where('team_id', '=', f.teamId).orderBy('created_at').orderBy('id').execute();
    assert.deepEqual(
      types.map((t) => t.type),
      ['thread.approval_requested', 'thread.approved'],
    );
  });

  test('a change by a writer after approval asks again; a rejected thread is never claimed; List Posts filters by approval', async () => {
    const f = await team();
    const { app, clock } = env();
    const id = (await create(f.writer, f, at(1))).json().threadId;
    assert.equal((await f.editor.call(app, { method: 'POST', url: `/api/v1/posts/${id}/approve` })).statusCode, 200);
    const edited = await f.writer.call(app, { method: 'PUT', url: `/api/v1/posts/${id}/edit`, payload: { posts: [{ text: 'changed' }] } });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal((await get(f.editor, id)).thread.approval.state, 'PENDING');
    // An editor's change keeps the approval as it is.
    const other = (await create(f.writer, f, at(1))).json().threadId;
    await f.editor.call(app, { method: 'POST', url: `/api/v1/posts/${other}/approve` });
    await f.editor.call(app, { method: 'PUT', url: `/api/v1/posts/${other}/edit`, payload: { posts: [{ text: 'fixed typo' }] } });
    assert.equal((await get(f.editor, other)).thread.approval.state, 'APPROVED');

    const rejected = await f.editor.call(app, { method: 'POST', url: `/api/v1/posts/${id}/reject`, payload: { note: 'off brand' } });
    assert.equal(rejected.statusCode, 200, rejected.body);
    assert.equal(rejected.json().thread.approval.note, 'off brand');
    clock.advance(2 * HOUR);
    const due = await claimable();
    assert.ok(!due.includes(id));
    assert.ok(due.includes(other));
    const range = `from=${encodeURIComponent(at(-3))}&to=${encodeURIComponent(at(1))}&teamId=${f.teamId}`;
    const list = async (approval: string) =>
      (await f.editor.call(app, { method: 'GET', url: `/api/v1/posts?${range}&approval=${approval}` }))
        .json()
        .threads.map((p: { threadId: string }) => p.threadId);
    assert.deepEqual(await list('REJECTED'), [id]);
    assert.deepEqual(await list('APPROVED'), [other]);
    assert.deepEqual(await list('PENDING'), []);
    const bad = await f.editor.call(app, { method: 'GET', url: `/api/v1/posts?${range}&approval=MAYBE` });
    assert.equal(bad.statusCode, 400);
  });
});
