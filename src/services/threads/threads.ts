import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { AccountRow, ProviderRow, ReplyControl, ThreadRow } from '../../db/schema/index.js';
import { ConflictError, Faults, type FieldFault, foundOrNull, NotFoundError, ValidationError } from '../../errors/index.js';
import type { IfMatch } from '../../lib/etag.js';
import { newId } from '../../lib/ids.js';
import { type Role, roleAtLeast } from '../../lib/roles.js';
import { holdsNul } from '../../lib/text.js';
import { iso } from '../../lib/time.js';
import type { Workspace } from '../../lib/workspace.js';
import { announceApprovalRequested } from '../../repos/approvals.js';
import { lockFollowUpsOf } from '../../repos/follow-ups.js';
import { claimIdempotencyKey, findRecentIdempotencyRecord, IDEMPOTENCY_TTL_MS, saveIdempotentResponse } from '../../repos/idempotency.js';
import { countPosts, insertThreadsWithPosts, listPosts, resetUnpublishedPosts } from '../../repos/posts.js';
import { findProviderWithSettings } from '../../repos/providers.js';
import { setThreadRepeat } from '../../repos/series.js';
import * as threadsRepo from '../../repos/threads.js';
import type { DbOrTrx } from '../../repos/types.js';
import { addressedWorkspace, resolveWorkspace } from '../accounts/accounts.js';
import { mediaUseFaults, postMediaLists } from '../media/media.js';
import { type MediaReach, mediaOfPosts, mediaReachFor } from '../media/media-reach.js';
import { autoPlugOf } from './auto-plug.js';
import { checkAutoRepostDelay, checkPost, checkQuotesDisabled, checkReplyControl, isRecord, type PostContent, postTarget } from './content-rules.js';
import { assertAllPostsReady, assertDeletable, assertFollowUpDeletable, assertIfMatch, assertRetryable } from './edit-rules.js';
import { checkQuotedPosts } from './quotes.js';
import { anchorColumns, checkRepeat, type RepeatInput, type RepeatRuleInput, repeatColumns, untilFaults } from './repeat.js';
import { readScheduleAt, readScheduleChoice } from './schedule-time.js';
import { checkTagNames, writeNewThreadsTags } from './tags.js';
import { requireAccessibleThread } from './thread-access.js';
import { type DraftView, draftView, type ThreadView, threadView } from './thread-views.js';
import { takeNextFreeInstants } from './time-slots.js';

export interface CreateThreadInput {
  providerId: string;
  posts: PostContent[];
  scheduleAt?: string;
  /** Schedule at the provider's next free time slot (no scheduleAt). */
  queue?: boolean;
  autoRepost?: { enabled: boolean; delays?: string[] };
  /** Tag names, as Set Thread Tags takes them. */
  tags?: string[];
  teamId?: string;
  replyControl?: ReplyControl;
  quotesDisabled?: boolean;
  /** Repeat the thread (with scheduleAt or queue): decisions.md "Recurring threads". */
  repeat?: RepeatInput | null;
}

export interface CreateThreadResult {
  threadId: string;
  status: 'scheduled' | 'draft';
  scheduledAt: string | null;
  postCount: number;
  autoPlugApplied: boolean;
}

export async function createThread(ctx: AppContext, account: AccountRow, input: CreateThreadInput, idempotencyKey?: string): Promise<CreateThreadResult> {
  // A replay answers what the first request answered, even where checking the request again
  // would now fail (its scheduleAt has passed, the active workspace changed...).
  if (idempotencyKey) {
    const replay = await findIdempotentReplay<CreateThreadResult>(ctx.db, account.id, idempotencyKey, requestHash(input), ctx.clock.now());
    if (replay) return replay;
  }
  const now = ctx.clock.now();
  const read = await readCreateBody(ctx, account, input, { now });
  // A well-formed body names its team and provider: the ones not missing were found.
  if (read.missing) throw read.missing;
  read.faults.throwIfAny();
  const checked = read.value!;

  // Without a key to claim, tags or a queue to take a time from, the thread is one statement:
  // atomic on its own, so no transaction (two round trips fewer).
  const asks = approvalAsked(checked.role, checked.requestedAt ?? (input.queue ? now : null));
  if (!idempotencyKey && checked.tagNames.length === 0 && !input.queue && !asks) {
    const [response] = await writeThreads(ctx.db, account, [checked], now);
    if (response!.scheduledAt) ctx.scheduleSignal.ring();
    return response!;
  }
  const result = await ctx.db.transaction().execute(async (trx) => {
    if (idempotencyKey) {
      const replay = await claimIdempotency<CreateThreadResult>(trx, account.id, idempotencyKey, requestHash(input), now);
      if (replay) return replay;
    }
    // A writer's scheduled thread waits for approval: writeThreads writes its event and emails.
    const [response] = await writeThreads(trx, account, [checked], now);
    if (idempotencyKey) await saveIdempotentResponse(trx, account.id, idempotencyKey, 201, response);
    return response!;
  });
  if (result.scheduledAt) ctx.scheduleSignal.ring();
  return result;
}

/** What a Create Post body needs of the database before its rules run (lookUpCreateTarget). */
interface CreateTarget {
  workspace: Workspace;
  provider: ProviderRow;
  plug: ReturnType<typeof autoPlugOf>;
  /** The caller's role in the workspace: a writer's scheduled thread waits for approval. */
  role: Role;
}

/** A Create Post body that passed its rules, with what writeThreads needs to save it. */
export interface CheckedThread<Body = CreateThreadInput> extends CreateTarget {
  input: Body;
  repostHours: number | null;
  tagNames: string[];
  /** From scheduleAt; null for a draft or a queue thread. */
  requestedAt: Date | null;
  repeat: RepeatRuleInput | null;
}

/**
 * What the body's team and provider ids found: the target when both were found, else the
 * workspace alone when only it was (rules that need the workspace still run), and the 404 a
 * well-formed request answers. An id that is not a readable string (a shape or NUL fault
 * already) is not looked up, and is not `missing` either.
 */
export interface CreateLookup {
  target: CreateTarget | null;
  workspace: Workspace | null;
  missing: NotFoundError | null;
}

/** What readCreateBody found: every fault of the body, and the thread to save when the target was found. */
export interface CreateBodyRead<Body> {
  faults: Faults;
  missing: NotFoundError | null;
  /** Null when the target is not known; saved only when `faults` is empty. */
  value: CheckedThread<Body> | null;
}

/**
 * Reads a Create Post body (Create Post's, or one row of an import) and collects every fault of
 * its content, path from the body's root: the one check of both the writing path (which throws
 * `missing`, then the faults, before writing anything) and the validation guard's faults-only
 * path (whose body may be of the wrong shape in places: only its well-formed parts are checked).
 * `lookup` is the target already read (the import reads each distinct one once); `reach` has
 * started resolving the media hosts (the import resolves every row's at once).
 */
export async function readCreateBody<Body>(
  ctx: AppContext,
  account: AccountRow,
  body: Body,
  options: { now: Date; lookup?: CreateLookup; reach?: MediaReach },
): Promise<CreateBodyRead<Body>> {
  const fields: Record<string, unknown> = isRecord(body) ? body : {};
  const lookup = options.lookup ?? (await lookUpCreateTarget(ctx.db, account, fields));
  const { target, workspace } = lookup;
  const provider = target?.provider ?? null;
  const media = mediaOfPosts(fields.posts);
  const reach = options.reach ?? mediaReachFor(ctx, provider?.kind ?? null, media);
  const faults = new Faults();
  const { repostHours, tagNames, repeat } = readCreateContent(fields, provider, faults);
  faults.add(...(await reach.faults(provider?.kind ?? null, media)));
  const requestedAt = readScheduleChoice(fields, account.timezone, options.now, faults);
  if (repeat && requestedAt) faults.add(...untilFaults(repeat, requestedAt, account.timezone));
  if (workspace) {
    faults.add(...(await mediaUseFaults(ctx, ctx.db, workspace, postTarget(provider), postMediaLists(fields.posts))));
    faults.add(...(await checkQuotedPosts(ctx.db, workspace, provider?.kind ?? null, fields.posts)));
  }
  const value = target && { ...target, input: body, repostHours, tagNames, requestedAt, repeat };
  return { faults, missing: lookup.missing, value };
}

/**
 * Saves checked threads in the caller's transaction: one INSERT per table for all of them
 * (threads, posts, media, spoiler ranges; the tags in two), so an import of 1,000 threads costs
 * the round trips of one Create Post. The `queue` threads of a provider take its next free
 * instants, distinct, in the order given. Answers each thread as Create Post does.
 */
export async function writeThreads(
  trx: DbOrTrx,
  account: AccountRow,
  threads: CheckedThread[],
  now: Date,
  locate: (index: number, fault: FieldFault) => FieldFault = (_index, fault) => fault,
): Promise<CreateThreadResult[]> {
  const queued = new Map<string, number[]>();
  threads.forEach((t, i) => {
    if (t.input.queue) queued.set(t.provider.id, [...(queued.get(t.provider.id) ?? []), i]);
  });
  const scheduled = threads.map((t) => t.requestedAt);
  const untilFaultsFound: FieldFault[] = [];
  for (const [providerId, indexes] of queued) {
    const instants = await relocatingFaults(
      () => takeNextFreeInstants(trx, providerId, now, indexes.length),
      (fault) => indexes.map((index) => locate(index, fault)),
    );
    indexes.forEach((index, n) => {
      scheduled[index] = instants[n]!;
      // A queued repeat's `until` can be checked only now that its time is known.
      const repeat = threads[index]!.repeat;
      if (repeat) untilFaultsFound.push(...untilFaults(repeat, instants[n]!, account.timezone).map((fault) => locate(index, fault)));
    });
  }
  if (untilFaultsFound.length) throw new ValidationError(untilFaultsFound);
  const ids = threads.map(() => newId(now.getTime()));
  const threadRows = threads.map(({ workspace, provider, plug, input, repostHours, repeat, role }, i) => ({
    id: ids[i]!,
    account_id: account.id,
    team_id: workspace.teamId,
    provider_id: provider.id,
    status: 'READY' as const,
    scheduled_at: scheduled[i]!,
    auto_repost_delay_hours: repostHours,
    auto_plug_text: plug.enabled ? plug.text : null,
    auto_plug_min_likes: plug.enabled ? plug.minLikes : null,
    reply_control: input.replyControl ?? 'everyone',
    quotes_disabled: input.quotesDisabled ?? false,
    // The publisher's columns (next_attempt_at, locked_by, locked_until, last_error, published_at)
    // are left to their default, NULL: fewer parameters for the server to send and PostgreSQL to read.
    // A thread that waits is its first approval request, asked by the caller.
    ...(approvalAsked(role, scheduled[i] ?? null)
      ? { approval_state: 'PENDING' as const, approval_round: 1, approval_asked_by: account.id }
      : { approval_state: null, approval_round: 0, approval_asked_by: null }),
    // The first occurrence's id names its series.
    ...(repeat && scheduled[i] ? repeatColumns(null, repeat, scheduled[i]!, account.timezone, ids[i]!) : {}),
    created_at: now,
    updated_at: now,
  }));
  const posts = threads.flatMap(({ input }, i) => input.posts.map((post, order) => ({ threadId: ids[i]!, order, post: toPostWrite(post) })));
  await insertThreadsWithPosts(trx, threadRows, posts, now, () => threadsRepo.insertThread(trx, threadRows));
  await writeNewThreadsTags(
    trx,
    threads.map((t, i) => ({ id: ids[i]!, workspace: t.workspace, names: t.tagNames })),
    account.id,
    now,
  );
  // Every way threads are created (Create Post, an import) asks the same: the event and emails of those that wait.
  await announceApprovalRequested(
    trx,
    threadRows.filter((row) => row.approval_state === 'PENDING').map((row) => row.id),
    now,
  );
  return threads.map((t, i) => ({
    threadId: ids[i]!,
    status: scheduled[i] ? 'scheduled' : 'draft',
    scheduledAt: iso(scheduled[i]!),
    postCount: t.input.posts.length,
    autoPlugApplied: t.plug.enabled,
  }));
}

/** Whether a thread scheduled (or changed) by `role` waits for approval: a writer's scheduled one does; a draft waits for nothing. */
function approvalAsked(role: Role, scheduledAt: Date | null): boolean {
  return scheduledAt !== null && !roleAtLeast(role, 'editor');
}

/** What `work` answers; its ValidationError's faults become those `relocate` makes of each. */
async function relocatingFaults<T>(work: () => Promise<T>, relocate: (fault: FieldFault) => FieldFault[]): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ValidationError) throw new ValidationError(err.errors.flatMap(relocate));
    throw err;
  }
}

/**
 * The workspace, its provider and its auto-plug in one round trip (the membership check of a
 * team workspace included); the same answers, in the same order, as resolveWorkspace,
 * requireProviderInWorkspace and getAutoPlug one after another. Ids that are not readable
 * strings (only in a body with faults already) are not looked up.
 */
export async function lookUpCreateTarget(db: DbOrTrx, account: AccountRow, fields: { teamId?: unknown; providerId?: unknown }): Promise<CreateLookup> {
  const { providerId } = fields;
  const none: CreateLookup = { target: null, workspace: null, missing: null };
  const teamId = fields.teamId === undefined || isReadableId(fields.teamId) ? fields.teamId : null;
  if (teamId === null) return none;
  const workspace = addressedWorkspace(account, teamId);
  if (!isReadableId(providerId)) return { ...none, workspace: await foundOrNull(() => resolveWorkspace(db, account, teamId)) };
  const read = await findProviderWithSettings(db, workspace, providerId, account.id);
  if (!read.role) return { ...none, missing: new NotFoundError(`Team ${workspace.teamId}`) };
  if (!read.provider) return { ...none, workspace, missing: new NotFoundError(`Provider ${providerId}`) };
  return { target: { workspace, provider: read.provider, plug: autoPlugOf(read.settings), role: read.role }, workspace, missing: null };
}

/** An id that can be looked up: a string without U+0000 (one with it is a fault already). */
function isReadableId(id: unknown): id is string {
  return typeof id === 'string' && !holdsNul(id);
}

/**
 * Reads what Create Post's content rules check (the repost delay in hours, the tag names), adding
 * a fault for each rule broken, as readScheduleChoice does for the time. Runs over what is
 * well-formed in `body` (it may have shape faults too, see content-rules.ts); `provider` is null
 * when it is not known.
 */
function readCreateContent(
  body: unknown,
  provider: ProviderRow | null,
  faults: Faults,
): { repostHours: number | null; tagNames: string[]; repeat: RepeatRuleInput | null } {
  if (!isRecord(body)) return { repostHours: null, tagNames: [], repeat: null };
  // Said now rather than when the thread falls due. An EXPIRED account is accepted: it can be
  // reconnected (same provider id) before then.
  if (provider?.status === 'REVOKED')
    faults.add({ path: 'providerId', message: `@${provider.username} on ${provider.kind} is disconnected; reconnect it first` });
  if (Array.isArray(body.posts)) {
    const target = postTarget(provider);
    body.posts.forEach((post: unknown, i) => {
      faults.add(...checkPost(target, post, `posts.${i}`, i));
    });
  }
  faults.add(...checkReplyControl(provider?.kind ?? null, body.replyControl, 'replyControl'));
  faults.add(...checkQuotesDisabled(provider?.kind ?? null, body.quotesDisabled, 'quotesDisabled'));
  const tags = checkTagNames(body.tags, 'tags');
  faults.add(...tags.faults);
  const repeat = checkRepeat(body, body.scheduleAt !== undefined || body.queue === true, faults);
  return { repostHours: checkRepost(body.autoRepost, faults), tagNames: tags.names, repeat };
}

function checkRepost(repost: unknown, faults: Faults): number | null {
  if (!isRecord(repost)) return null;
  if (repost.enabled === true) {
    const checked = checkAutoRepostDelay(repost.delays ?? [], 'autoRepost.delays');
    faults.add(...checked.faults);
    return checked.hours;
  }
  if (Array.isArray(repost.delays) && repost.delays.length > 0) faults.add(...checkAutoRepostDelay(repost.delays, 'autoRepost.delays').faults);
  return null;
}

export function toPostWrite(post: PostContent) {
  return {
    content: post.text,
    topic: post.topic ?? null,
    isSpoilerMedia: post.isSpoilerMedia ?? false,
    linkPreview: post.linkPreview ?? true,
    media: post.media ?? [],
    spoilerRanges: post.spoilerRanges ?? [],
    quote: post.quote ?? null,
    poll: post.poll ?? null,
    langs: post.langs ?? [],
    contentWarning: post.contentWarning ?? null,
  };
}

export function requestHash(input: unknown): string {
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

/** The stored response for this key and body within 24 h; 409 for the same key with another body. */
export async function findIdempotentReplay<T>(db: DbOrTrx, accountId: string, key: string, hash: string, now: Date): Promise<T | null> {
  const existing = await findRecentIdempotencyRecord(db, accountId, key, now, IDEMPOTENCY_TTL_MS);
  if (!existing) return null;
  if (existing.request_hash !== hash) {
    throw new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request body in the last 24 hours.');
  }
  return existing.response_status === 201 ? (existing.response_body as T) : null;
}

/**
 * Claims the key inside the creating transaction: of two first requests at once, one creates,
 * the other blocks on the key until the first commits, then replays its response.
 */
export async function claimIdempotency<T>(trx: DbOrTrx, accountId: string, key: string, hash: string, now: Date): Promise<T | null> {
  const existing = await claimIdempotencyKey(trx, accountId, key, hash, now, IDEMPOTENCY_TTL_MS);
  if (!existing) return null;
  if (existing.request_hash !== hash) {
    throw new ConflictError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request body in the last 24 hours.');
  }
  return existing.response_body as T;
}

/** List Drafts' answer (kept whole by the thread view cache). */
export interface DraftList {
  drafts: DraftView[];
}

/**
 * A workspace's drafts, kept by the thread view cache as List Posts' answers are (any change to
 * a thread drops them; per caller, as the membership check is part of the read): an agency's
 * drafts are hundreds of threads, read and serialised at every visit of the calendar.
 */
export function listDrafts(ctx: AppContext, account: AccountRow, teamId?: string): Promise<DraftList> {
  const addressed = addressedWorkspace(account, teamId);
  const key = JSON.stringify(['drafts', account.id, addressed.teamId ?? 'personal']);
  return ctx.threadViews.list(
    key,
    async () => {
      const workspace = await resolveWorkspace(ctx.db, account, teamId);
      return { drafts: (await threadsRepo.listDraftThreadAggregates(ctx.db, workspace)).map(draftView) };
    },
    (list) => list.drafts.length,
  );
}

/**
 * The thread as the database has it now, never the cache: for a write's own answer (on
 * PostgreSQL this instance may not have heard of that write's NOTIFY yet).
 */
export async function getThread(ctx: AppContext, account: AccountRow, threadId: string): Promise<ThreadView> {
  const found = await readVersionedThread(ctx, account, threadId);
  if (!found) throw new NotFoundError(`Thread ${threadId}`);
  return found.thread;
}

async function readVersionedThread(ctx: AppContext, account: AccountRow, threadId: string): Promise<{ thread: ThreadView; version: number } | undefined> {
  const aggregate = await threadsRepo.findAccessibleThreadAggregate(ctx.db, threadId, account.id);
  return aggregate && { thread: threadView(aggregate), version: aggregate.thread.version };
}

/** The thread and its version (Get Thread's ETag), read in the same statement, or kept (ctx.threadViews). */
export async function getVersionedThread(ctx: AppContext, account: AccountRow, threadId: string): Promise<{ thread: ThreadView; version: number }> {
  const found = await ctx.threadViews.thread(threadId, account.id, () => readVersionedThread(ctx, account, threadId));
  if (!found) throw new NotFoundError(`Thread ${threadId}`);
  return found;
}

export async function deleteThread(ctx: AppContext, account: AccountRow, threadId: string, ifMatch?: IfMatch) {
  return ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    assertIfMatch(thread, ifMatch);
    assertDeletable(thread, ctx.clock.now());
    // Its follow-ups go with it (ON DELETE CASCADE); locked here, so none is claimed meanwhile.
    for (const followUp of await lockFollowUpsOf(trx, thread.id)) assertFollowUpDeletable(followUp, ctx.clock.now());
    const postsDeleted = await countPosts(trx, thread.id);
    await threadsRepo.deleteThread(trx, thread.id);
    return { deleted: true, threadId: thread.id, postsDeleted };
  });
}

export async function rescheduleThread(ctx: AppContext, account: AccountRow, threadId: string, scheduleAt: string, ifMatch?: IfMatch) {
  const scheduledAt = readScheduleAt(scheduleAt, account.timezone, ctx.clock.now());
  return moveThread(ctx, account, threadId, ifMatch, 'Rescheduling', async () => scheduledAt);
}

/**
 * Moves a READY thread (every post READY) to the instant `to` chooses, inside the transaction
 * that holds the thread row; Reschedule and Queue answer alike: the thread, its new time and its
 * post count.
 */
export async function moveThread(
  ctx: AppContext,
  account: AccountRow,
  threadId: string,
  ifMatch: IfMatch | undefined,
  action: 'Rescheduling' | 'Queueing',
  to: (trx: DbOrTrx, thread: ThreadRow, now: Date) => Promise<Date>,
) {
  const now = ctx.clock.now();
  const result = await ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    assertIfMatch(thread, ifMatch);
    const posts = await listPosts(trx, thread.id);
    assertAllPostsReady(
      thread,
      posts.map((p) => p.status),
      action,
    );
    const scheduledAt = await to(trx, thread, now);
    await threadsRepo.bumpThreadVersion(trx, thread.id, now, { scheduledAt });
    // A repeating thread's series goes on from its new time.
    if (thread.repeat_every !== null) await setThreadRepeat(trx, thread.id, anchorColumns(scheduledAt, account.timezone));
    return { threadId: thread.id, scheduledAt: scheduledAt.toISOString(), postsUpdated: posts.length };
  });
  ctx.scheduleSignal.ring();
  return result;
}

/** Resumes a FAILED thread after its last published post. */
export async function retryThread(ctx: AppContext, account: AccountRow, threadId: string, scheduleAt?: string, ifMatch?: IfMatch): Promise<ThreadView> {
  const now = ctx.clock.now();
  const scheduledAt = scheduleAt === undefined ? now : readScheduleAt(scheduleAt, account.timezone, now);
  await ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    assertIfMatch(thread, ifMatch);
    assertRetryable(thread);
    await resetUnpublishedPosts(trx, thread.id, now);
    await threadsRepo.resetThreadForRetry(trx, thread.id, scheduledAt, now);
  });
  ctx.scheduleSignal.ring();
  return getThread(ctx, account, threadId);
}
