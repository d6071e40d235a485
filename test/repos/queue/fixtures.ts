import type { AppContext } from '../../../src/context.js';
import { newId } from '../../../src/lib/ids.js';
import type { QueueTableName } from '../../../src/repos/queue/leased-queue.js';
import { createProvider, createUser } from '../../helpers/seeds.js';

/**
 * Rows of each queue table, inserted directly (no API, no publisher), so the queue's statements
 * are tested on their own. Each row is waiting, due at `dueAt`.
 */

export interface QueueFixture {
  /** Inserts a waiting row due at `dueAt` (null: not scheduled) and returns its key. */
  insert(dueAt: Date | null): Promise<Record<string, string>>;
  /** The row's lease columns, by key. */
  lease(key: Record<string, string>): Promise<{ status: string; locked_by: string | null; locked_until: Date | null; attempts: number }>;
}

/** Empties every queue table (the tests of a file share one database). */
export async function emptyQueues(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom('webhook_deliveries').execute();
  await ctx.db.deleteFrom('email_notifications').execute();
  await ctx.db.deleteFrom('jobs').execute();
  await ctx.db.deleteFrom('follow_ups').execute();
  await ctx.db.deleteFrom('threads').execute();
}

/** A user and a provider of theirs, to hang rows on. */
export async function owner(ctx: AppContext) {
  const user = await createUser(ctx);
  const provider = await createProvider(ctx, user.account);
  return { accountId: user.account.id, providerId: provider.id };
}

export async function insertThread(
  ctx: AppContext,
  who: { accountId: string; providerId: string },
  values: { scheduledAt: Date | null; status?: 'READY' | 'PUBLISHED'; nextAttemptAt?: Date | null; posts?: number },
): Promise<string> {
  const id = newId();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('threads')
    .values({
      id,
      account_id: who.accountId,
      team_id: null,
      provider_id: who.providerId,
      status: values.status ?? 'READY',
      scheduled_at: values.scheduledAt,
      auto_repost_delay_hours: null,
      auto_plug_text: null,
      auto_plug_min_likes: null,
      next_attempt_at: values.nextAttemptAt ?? null,
      locked_by: null,
      locked_until: null,
      last_error: null,
      published_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  for (let order = 0; order < (values.posts ?? 1); order++) {
    await ctx.db
      .insertInto('posts')
      .values({
        id: newId(),
        thread_id: id,
        post_order: order,
        content: `post ${order}`,
        topic: null,
        is_spoiler_media: false,
        status: 'READY',
        network_container_id: null,
        network_post_id: null,
        network_cid: null,
        permalink: null,
        published_at: null,
        error_code: null,
        error_message: null,
        analytics: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return id;
}

const JOB_KINDS = ['ANALYTICS', 'REPOST', 'PLUG'] as const;

/** How to insert a waiting row of each queue table. */
export async function queueFixture(ctx: AppContext, table: QueueTableName): Promise<QueueFixture> {
  const who = await owner(ctx);
  const now = () => ctx.clock.now();
  const byKey = (key: Record<string, string>) => {
    let query = ctx.db.selectFrom(table as any).select(['status', 'locked_by', 'locked_until', 'attempts']);
    for (const [column, value] of Object.entries(key)) query = query.where(column, '=', value);
    return query.executeTakeFirstOrThrow();
  };
  const lease: QueueFixture['lease'] = async (key) => byKey(key) as never;
  if (table === 'threads') {
    return { lease, insert: async (dueAt) => ({ id: await insertThread(ctx, who, { scheduledAt: dueAt }) }) };
  }
  if (table === 'jobs') {
    // One job of each kind per thread: a new published thread every three jobs.
    let threadId = '';
    let n = 0;
    return {
      lease,
      insert: async (dueAt) => {
        if (n % JOB_KINDS.length === 0) threadId = await insertThread(ctx, who, { scheduledAt: now(), status: 'PUBLISHED' });
        const id = newId();
        await ctx.db
          .insertInto('jobs')
          .values({
            id,
            kind: JOB_KINDS[n++ % JOB_KINDS.length]!,
            thread_id: threadId,
            provider_id: null,
            status: 'PENDING',
            run_at: dueAt ?? now(),
            locked_by: null,
            locked_until: null,
            last_error: null,
            network_container_id: null,
            network_post_id: null,
            network_cid: null,
            permalink: null,
            created_at: now(),
            updated_at: now(),
          })
          .execute();
        return { id };
      },
    };
  }
  if (table === 'follow_ups') {
    const threadId = await insertThread(ctx, who, { scheduledAt: now(), status: 'PUBLISHED' });
    return {
      lease,
      insert: async (dueAt) => {
        const id = newId();
        await ctx.db
          .insertInto('follow_ups')
          .values({
            id,
            thread_id: threadId,
            text: 'later',
            media: '[]',
            delay_minutes: 10,
            status: 'PENDING',
            due_at: dueAt,
            run_at: dueAt,
            locked_by: null,
            locked_until: null,
            last_error: null,
            network_container_id: null,
            network_post_id: null,
            network_cid: null,
            permalink: null,
            published_at: null,
            error_code: null,
            error_message: null,
            created_at: now(),
            updated_at: now(),
          })
          .execute();
        return { id };
      },
    };
  }
  if (table === 'email_notifications') {
    return {
      lease,
      insert: async (dueAt) => {
        const id = `${newId()}.${who.accountId}`;
        await ctx.db
          .insertInto('email_notifications')
          .values({
            id,
            account_id: who.accountId,
            kind: 'PROVIDER_EXPIRED',
            event_id: id.split('.')[0]!,
            digest_id: null,
            data: JSON.stringify({ providerId: who.providerId, teamId: null }),
            status: 'PENDING',
            run_at: dueAt ?? now(),
            locked_by: null,
            locked_until: null,
            last_error: null,
            sent_at: null,
            created_at: now(),
            updated_at: now(),
          })
          .execute();
        return { id };
      },
    };
  }
  const webhookId = newId();
  await ctx.db
    .insertInto('webhooks')
    .values({
      id: webhookId,
      account_id: who.accountId,
      team_id: null,
      url: 'https://hooks.example.test/in',
      events: ['ping'],
      secret_enc: 'not-used',
      created_at: now(),
    })
    .execute();
  return {
    lease,
    insert: async (dueAt) => {
      const eventId = newId();
      await ctx.db
        .insertInto('webhook_events')
        .values({ id: eventId, type: 'ping', account_id: who.accountId, team_id: null, data: '{}', created_at: now() })
        .execute();
      await ctx.db
        .insertInto('webhook_deliveries')
        .values({ webhook_id: webhookId, event_id: eventId, status: 'PENDING', attempts: 0, run_at: dueAt ?? now(), created_at: now(), updated_at: now() })
        .execute();
      return { webhook_id: webhookId, event_id: eventId };
    },
  };
}
