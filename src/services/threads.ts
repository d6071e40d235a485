import { createHash } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { AccountRow, ProviderRow, ThreadRow } from '../db/schema/index.js';
import { ConflictError, Faults, type FieldFault, foundOrNull, NotFoundError, ValidationError } from '../errors/index.js';
import { newId } from '../lib/ids.js';
import { iso } from '../lib/time.js';
import type { Workspace } from '../lib/workspace.js';
import { type DbOrTrx, findThread, insertPost, loadThreadAggregates } from '../repos/threads.js';
import { canAccess, resolveWorkspace } from './accounts.js';
import { getAutoPlug } from './auto-plug.js';
import { checkAutoRepostDelay, checkPost, isRecord, type PostContent } from './content-rules.js';
import { requireProviderInWorkspace } from './providers.js';
import { readDateTime, readScheduleAt } from './schedule-time.js';
import { type DraftView, draftView, type ThreadView, threadView } from './thread-views.js';
import { takeNextFreeInstant } from './time-slots.js';

export interface CreateThreadInput {
  providerId: string;
  posts: PostContent[];
  scheduleAt?: string;
  /** Schedule at the provider's next free time slot (no scheduleAt). */
  queue?: boolean;
  autoRepost?: { enabled: boolean; delays?: string[] };
  teamId?: string;
}

export interface CreateThreadResult {
  threadId: string;
  status: 'scheduled' | 'draft';
  scheduledAt: string | null;
  postCount: number;
  autoPlugApplied: boolean;
}

const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** Threads of one workspace. */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's where() overloads differ per builder; this helper only chains one call.
function inWorkspace<QB extends { where: any }>(qb: QB, workspace: Workspace): QB {
  return workspace.teamId ? qb.where('team_id', '=', workspace.teamId) : qb.where('team_id', 'is', null).where('account_id', '=', workspace.ownerAccountId);
}

export async function createThread(ctx: AppContext, account: AccountRow, input: CreateThreadInput, idempotencyKey?: string): Promise<CreateThreadResult> {
  // A replay answers what the first request answered, even where checking the request again
  // would now fail (its scheduleAt has passed, the active workspace changed...).
  if (idempotencyKey) {
    const replay = await findIdempotentReplay(ctx.db, account.id, idempotencyKey, requestHash(input), ctx.clock.now());
    if (replay) return replay;
  }
  const workspace = await resolveWorkspace(ctx.db, account, input.teamId);
  const provider = await requireProviderInWorkspace(ctx.db, workspace, input.providerId);
  const now = ctx.clock.now();
  const faults = new Faults();
  const repostHours = checkCreate(input, provider, faults);
  const requestedAt = input.scheduleAt === undefined ? null : (faults.check(() => readScheduleAt(input.scheduleAt!, account.timezone, now)) ?? null);
  faults.throwIfAny();
  const plug = await getAutoPlug(ctx.db, workspace);

  const result = await ctx.db.transaction().execute(async (trx) => {
    if (idempotencyKey) {
      const replay = await claimIdempotencyKey(trx, account.id, idempotencyKey, requestHash(input), now);
      if (replay) return replay;
    }
    const scheduledAt = input.queue ? await takeNextFreeInstant(trx, provider.id, now) : requestedAt;
    const threadId = newId(now.getTime());
    await trx
      .insertInto('threads')
      .values({
        id: threadId,
        account_id: account.id,
        team_id: workspace.teamId,
        provider_id: provider.id,
        status: 'READY',
        scheduled_at: scheduledAt,
        auto_repost_delay_hours: repostHours,
        auto_plug_text: plug.enabled ? plug.text : null,
        auto_plug_min_likes: plug.enabled ? plug.minLikes : null,
        next_attempt_at: null,
        locked_by: null,
        locked_until: null,
        last_error: null,
        published_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const [order, post] of input.posts.entries()) {
      await insertPost(trx, threadId, order, toPostWrite(post), now);
    }
    const response: CreateThreadResult = {
      threadId,
      status: scheduledAt ? 'scheduled' : 'draft',
      scheduledAt: iso(scheduledAt),
      postCount: input.posts.length,
      autoPlugApplied: plug.enabled,
    };
    if (idempotencyKey) await saveIdempotentResponse(trx, account.id, idempotencyKey, response);
    return response;
  });
  if (result.scheduledAt) ctx.scheduleSignal.ring();
  return result;
}

/**
 * The content rules of Create Post, over what is well-formed in `body` (it may have shape faults
 * too, see content-rules.ts); `provider` null when it is not known. Returns the repost delay.
 */
function checkCreate(body: unknown, provider: ProviderRow | null, faults: Faults): number | null {
  if (!isRecord(body)) return null;
  // Said now rather than when the thread falls due. An EXPIRED account is accepted: it can be
  // reconnected (same provider id) before then.
  if (provider?.status === 'REVOKED')
    faults.add({ path: 'providerId', message: `@${provider.username} on ${provider.kind} is disconnected; reconnect it first` });
  if (Array.isArray(body.posts)) {
    body.posts.forEach((post: unknown, i) => {
      faults.add(...checkPost(provider?.kind ?? null, post, `posts.${i}`));
    });
  }
  if (body.queue === true && body.scheduleAt !== undefined) faults.add({ path: 'queue', message: 'cannot be combined with scheduleAt' });
  const repost = body.autoRepost;
  if (!isRecord(repost)) return null;
  if (repost.enabled === true) {
    const checked = checkAutoRepostDelay(repost.delays ?? [], 'autoRepost.delays');
    faults.add(...checked.faults);
    return checked.hours;
  }
  if (Array.isArray(repost.delays) && repost.delays.length > 0) faults.add(...checkAutoRepostDelay(repost.delays, 'autoRepost.delays').faults);
  return null;
}

/**
 * Every content fault of a Create Post request that has shape faults: the rules run over its
 * well-formed parts, with the provider when `providerId` (and `teamId`) name one.
 */
export async function createThreadFaults(ctx: AppContext, account: AccountRow, body: unknown): Promise<FieldFault[]> {
  const fields = isRecord(body) ? body : {};
  const { providerId, teamId, scheduleAt } = fields;
  let provider: ProviderRow | null = null;
  if (typeof providerId === 'string' && (teamId === undefined || typeof teamId === 'string')) {
    provider = await foundOrNull(async () => requireProviderInWorkspace(ctx.db, await resolveWorkspace(ctx.db, account, teamId), providerId));
  }
  const faults = new Faults();
  checkCreate(body, provider, faults);
  if (typeof scheduleAt === 'string') faults.check(() => readScheduleAt(scheduleAt, account.timezone, ctx.clock.now()));
  return faults.list;
}

export function toPostWrite(post: PostContent) {
  return {
    content: post.text,
    topic: post.topic ?? null,
    isSpoilerMedia: post.isSpoilerMedia ?? false,
    media: post.media ?? [],
    spoilerRanges: post.spoilerRanges ?? [],
  };
}

function requestHash(input: CreateThreadInput): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}

/**
 * JSON with sorted keys, so that key order in the body does not make it "another body".
 * Its recursion is bounded: a request body nests at most MAX_JSON_DEPTH levels (json-body.ts).
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Inserts the key first: a concurrent request with the same key blocks on the primary key until
 * this transaction ends, then sees the stored response. Returns the earlier response to replay.
 */
/** The stored response for this key and body within 24 h; 409 for the same key with another body. */
async function findIdempotentReplay(db: DbOrTrx, accountId: string, key: string, hash: string, now: Date): Promise<CreateThreadResult | null> {
  const existing = await db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('created_at', '>=', new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
    .executeTakeFirst();
  if (!existing) return null;
  if (existing.request_hash !== hash) {
    throw new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request body in the last 24 hours.');
  }
  return existing.response_status === 201 ? (existing.response_body as CreateThreadResult) : null;
}

/** Claims the key inside the creating transaction: of two first requests at once, one creates, the other replays. */
async function claimIdempotencyKey(trx: DbOrTrx, accountId: string, key: string, hash: string, now: Date): Promise<CreateThreadResult | null> {
  await trx
    .deleteFrom('idempotency_records')
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
    .execute();
  const inserted = await trx
    .insertInto('idempotency_records')
    .values({ account_id: accountId, key, request_hash: hash, response_status: 0, response_body: JSON.stringify(null), created_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return null;
  const existing = await trx.selectFrom('idempotency_records').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirstOrThrow();
  if (existing.request_hash !== hash) {
    throw new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request body in the last 24 hours.');
  }
  return existing.response_body as CreateThreadResult;
}

async function saveIdempotentResponse(trx: DbOrTrx, accountId: string, key: string, response: CreateThreadResult): Promise<void> {
  await trx
    .updateTable('idempotency_records')
    .set({ response_status: 201, response_body: JSON.stringify(response) })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .execute();
}

export async function listThreads(
  ctx: AppContext,
  account: AccountRow,
  query: { from: string; to: string; providerId?: string; teamId?: string },
): Promise<ThreadView[]> {
  const from = readDateTime(query.from, account.timezone, 'from');
  const to = readDateTime(query.to, account.timezone, 'to');
  if (from > to) throw new ValidationError({ path: 'from', message: 'must not be after to' });
  if (to.getTime() - from.getTime() > 366 * 86_400_000) throw new ValidationError({ path: 'to', message: 'the range may span at most 366 days' });
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  let select = inWorkspace(ctx.db.selectFrom('threads').selectAll(), workspace).where('scheduled_at', '>=', from).where('scheduled_at', '<=', to);
  if (query.providerId !== undefined) select = select.where('provider_id', '=', query.providerId);
  const threads = await select.orderBy('scheduled_at').orderBy('id').execute();
  return (await loadThreadAggregates(ctx.db, threads)).map(threadView);
}

export async function listDrafts(ctx: AppContext, account: AccountRow, teamId?: string): Promise<DraftView[]> {
  const workspace = await resolveWorkspace(ctx.db, account, teamId);
  const threads = await inWorkspace(ctx.db.selectFrom('threads').selectAll(), workspace)
    .where('scheduled_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return (await loadThreadAggregates(ctx.db, threads)).map(draftView);
}

/** A thread the caller may see; any other (or none) is "not found". */
export async function requireAccessibleThread(db: DbOrTrx, account: AccountRow, threadId: string, options: { forUpdate?: boolean } = {}): Promise<ThreadRow> {
  const thread = await findThread(db, threadId, options);
  if (!thread || !(await canAccess(db, account.id, thread))) throw new NotFoundError(`Thread ${threadId}`);
  return thread;
}

export async function getThread(ctx: AppContext, account: AccountRow, threadId: string): Promise<ThreadView> {
  const thread = await requireAccessibleThread(ctx.db, account, threadId);
  const [aggregate] = await loadThreadAggregates(ctx.db, [thread]);
  return threadView(aggregate!);
}

/** A publish is in flight while a worker holds an unexpired lease on the thread. */
export function publishInFlight(thread: ThreadRow, now: Date): boolean {
  return thread.status === 'PUBLISHING' && thread.locked_until !== null && thread.locked_until > now;
}

export async function deleteThread(ctx: AppContext, account: AccountRow, threadId: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    if (publishInFlight(thread, ctx.clock.now())) {
      throw new ConflictError('PUBLISH_IN_PROGRESS', 'This thread is being published right now; try again when it is done.');
    }
    const { count } = await trx
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('thread_id', '=', thread.id)
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('threads').where('id', '=', thread.id).execute();
    return { deleted: true, threadId: thread.id, postsDeleted: Number(count) };
  });
}

/** Statuses of a thread's posts, for the READY rules. */
export async function assertAllPostsReady(trx: DbOrTrx, thread: ThreadRow, action: string): Promise<number> {
  const posts = await trx.selectFrom('posts').select('status').where('thread_id', '=', thread.id).execute();
  if (thread.status !== 'READY' || posts.some((p) => p.status !== 'READY')) {
    throw new ConflictError('NOT_EDITABLE', `${action} needs every post of the thread to be READY (not yet published).`);
  }
  return posts.length;
}

export async function rescheduleThread(ctx: AppContext, account: AccountRow, threadId: string, scheduleAt: string) {
  const now = ctx.clock.now();
  const scheduledAt = readScheduleAt(scheduleAt, account.timezone, now);
  const result = await ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    const postsUpdated = await assertAllPostsReady(trx, thread, 'Rescheduling');
    await trx
      .updateTable('threads')
      .set((eb) => ({ scheduled_at: scheduledAt, version: eb('version', '+', 1), next_attempt_at: null, updated_at: now }))
      .where('id', '=', thread.id)
      .execute();
    return { threadId: thread.id, scheduledAt: scheduledAt.toISOString(), postsUpdated };
  });
  ctx.scheduleSignal.ring();
  return result;
}

/** Resumes a FAILED thread after its last published post. */
export async function retryThread(ctx: AppContext, account: AccountRow, threadId: string, scheduleAt?: string): Promise<ThreadView> {
  const now = ctx.clock.now();
  const scheduledAt = scheduleAt === undefined ? now : readScheduleAt(scheduleAt, account.timezone, now);
  await ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    if (thread.status !== 'FAILED') throw new ConflictError('NOT_EDITABLE', `Only a FAILED thread can be retried; this one is ${thread.status}.`);
    await trx
      .updateTable('posts')
      .set({ status: 'READY', error_code: null, error_message: null, updated_at: now })
      .where('thread_id', '=', thread.id)
      .where('status', '!=', 'PUBLISHED')
      .execute();
    await trx
      .updateTable('threads')
      .set((eb) => ({
        status: 'READY',
        scheduled_at: scheduledAt,
        attempts: 0,
        next_attempt_at: null,
        last_error: null,
        locked_by: null,
        locked_until: null,
        version: eb('version', '+', 1),
        updated_at: now,
      }))
      .where('id', '=', thread.id)
      .execute();
  });
  ctx.scheduleSignal.ring();
  return getThread(ctx, account, threadId);
}
