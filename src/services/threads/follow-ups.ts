import type { AppContext } from '../../context.js';
import type { AccountRow, FollowUpRow, ThreadRow } from '../../db/schema/index.js';
import { ConflictError, type FieldFault, foundOrNull, NotFoundError, ValidationError } from '../../errors/index.js';
import { httpUrlOrNull } from '../../lib/http-url.js';
import { newId } from '../../lib/ids.js';
import { holdsNul } from '../../lib/text.js';
import { iso } from '../../lib/time.js';
import { type Workspace, workspaceOf } from '../../lib/workspace.js';
import * as followUpsRepo from '../../repos/follow-ups.js';
import { getProvider } from '../../repos/providers.js';
import type { DbOrTrx } from '../../repos/types.js';
import { mediaListAt, mediaUseFaults } from '../media/media.js';
import { type MediaReach, mediaItems, mediaReachFor, threadMediaReach } from '../media/media-reach.js';
import { checkMedia, checkText, isRecord, type MediaInput, type PostTarget, postTarget } from './content-rules.js';
import { assertFollowUpDeletable, assertFollowUpRetryable } from './edit-rules.js';
import { readScheduleAt } from './schedule-time.js';
import { requireAccessibleThread } from './thread-access.js';

/**
 * Follow-up replies (decisions.md "Follow-up replies"): created, listed and deleted here; the
 * publisher publishes them (publisher/follow-ups.ts). Access follows the thread's: a thread the
 * caller may not see is "not found", and so are its follow-ups.
 */

const MAX_FOLLOW_UPS_PER_THREAD = 10;

export interface CreateFollowUpInput {
  text: string;
  delayMinutes: number;
  media?: MediaInput[];
}

export interface FollowUpView {
  id: string;
  threadId: string;
  text: string;
  media: Array<{ url: string; altText: string | null }>;
  delayMinutes: number;
  status: FollowUpRow['status'];
  dueAt: string | null;
  publishedAt: string | null;
  permaLink: string | null;
  error: { code: string; message: string } | null;
}

function followUpView(row: FollowUpRow): FollowUpView {
  return {
    id: row.id,
    threadId: row.thread_id,
    text: row.text,
    media: row.media.map((m) => ({ url: m.url, altText: m.altText ?? null })),
    delayMinutes: row.delay_minutes,
    status: row.status,
    dueAt: iso(row.due_at),
    publishedAt: iso(row.published_at),
    permaLink: httpUrlOrNull(row.permalink),
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
  };
}

/** The thread a follow-up replies to, with its network (and its server's limits) and its workspace. */
interface FollowedThread {
  thread: ThreadRow;
  target: PostTarget;
  workspace: Workspace;
}

/**
 * The thread a follow-up names, read the same way by the writing path (in its transaction, the
 * row locked) and by the faults-only path; 404 when the caller may not see it.
 */
async function readFollowedThread(db: DbOrTrx, account: AccountRow, threadId: string, forUpdate: boolean): Promise<FollowedThread> {
  const thread = await requireAccessibleThread(db, account, threadId, { forUpdate });
  return { thread, target: postTarget(await getProvider(db, thread.provider_id)), workspace: workspaceOf(thread) };
}

/**
 * Every content fault of a Create Follow-up body: the one check of both the writing path and the
 * validation guard's faults-only path (whose body may be of the wrong shape in places: only its
 * well-formed parts are checked). `followed` null when the thread is not known (only the shared
 * rules run); `reach` has started resolving the media hosts.
 */
async function readFollowUpBody(ctx: AppContext, db: DbOrTrx, followed: FollowedThread | null, body: unknown, reach?: MediaReach): Promise<FieldFault[]> {
  if (!isRecord(body)) return [];
  const target = followed?.target ?? null;
  const kind = target?.kind ?? null;
  const media = mediaItems(body.media);
  return [
    ...checkText(target, body.text, 'text'),
    ...checkMedia(target, body.media, 'media'),
    ...(await (reach ?? mediaReachFor(ctx, kind, media)).faults(kind, media)),
    ...(followed ? await mediaUseFaults(ctx, db, followed.workspace, target, [mediaListAt(body.media, 'media')]) : []),
  ];
}

/** Every content fault of a Create Follow-up request that has shape faults: readFollowUpBody's, as the writing path's. */
export async function createFollowUpFaults(ctx: AppContext, account: AccountRow, threadId: string, body: unknown): Promise<FieldFault[]> {
  // Only reached for a faulty request: an id holding U+0000 (a fault already) is not looked up.
  const followed = holdsNul(threadId) ? null : await foundOrNull(() => readFollowedThread(ctx.db, account, threadId, false));
  return readFollowUpBody(ctx, ctx.db, followed, body);
}

/**
 * Adds a follow-up to a thread the caller may see. The thread row is locked, as the publisher
 * locks it to mark it PUBLISHED: a follow-up added to a thread already published gets its due
 * time here, one added before gets it in the publisher's transaction; never neither.
 */
export async function createFollowUp(ctx: AppContext, account: AccountRow, threadId: string, input: CreateFollowUpInput): Promise<FollowUpView> {
  const now = ctx.clock.now();
  const reach = await threadMediaReach(
    ctx,
    account,
    threadId,
    mediaItems(input.media).map((m) => m.url),
  ); // resolved while the transaction starts
  const row = await ctx.db.transaction().execute(async (trx) => {
    const followed = await readFollowedThread(trx, account, threadId, true);
    const { thread } = followed;
    const faults = await readFollowUpBody(ctx, trx, followed, input, reach);
    if (faults.length) throw new ValidationError(faults);
    if ((await followUpsRepo.countFollowUps(trx, thread.id)) >= MAX_FOLLOW_UPS_PER_THREAD) {
      throw new ConflictError('CONFLICT', `A thread has at most ${MAX_FOLLOW_UPS_PER_THREAD} follow-ups; delete one first.`);
    }
    const id = newId(now.getTime());
    await followUpsRepo.insertFollowUp(trx, {
      id,
      thread_id: thread.id,
      text: input.text,
      media: JSON.stringify((input.media ?? []).map((m) => ({ url: m.url, altText: m.altText ?? null }))),
      delay_minutes: input.delayMinutes,
      status: 'PENDING',
      due_at: null,
      run_at: null,
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
      created_at: now,
      updated_at: now,
    });
    if (thread.status === 'PUBLISHED') await followUpsRepo.scheduleFollowUps(trx, thread.id, now);
    return requireFollowUp(trx, thread.id, id);
  });
  if (row.due_at) ctx.scheduleSignal.ring();
  return followUpView(row);
}

export async function listFollowUps(ctx: AppContext, account: AccountRow, threadId: string): Promise<FollowUpView[]> {
  const thread = await requireAccessibleThread(ctx.db, account, threadId);
  return (await followUpsRepo.listFollowUps(ctx.db, thread.id)).map(followUpView);
}

/**
 * Deletes Skein's record of a follow-up (a published reply stays on the network). Refused while
 * a worker publishes it: the row is locked first, so a claim either happened (and this sees
 * PUBLISHING under a live lease) or waits and then finds nothing to claim.
 */
export async function deleteFollowUp(ctx: AppContext, account: AccountRow, threadId: string, id: string): Promise<{ deleted: true; id: string }> {
  return ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId);
    const row = await followUpsRepo.findFollowUpForUpdate(trx, thread.id, id);
    if (!row) throw new NotFoundError(`Follow-up ${id}`);
    assertFollowUpDeletable(row, ctx.clock.now());
    await followUpsRepo.deleteFollowUp(trx, row.id);
    return { deleted: true as const, id: row.id };
  });
}

/**
 * Publishes a FAILED follow-up again, now or at `scheduleAt` (the caller's zone, as a thread's
 * retry reads it). The row is locked first, as for a delete: a worker's claim cannot overlap.
 */
export async function retryFollowUp(ctx: AppContext, account: AccountRow, threadId: string, id: string, scheduleAt?: string): Promise<FollowUpView> {
  const now = ctx.clock.now();
  const dueAt = scheduleAt === undefined ? now : readScheduleAt(scheduleAt, account.timezone, now);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId);
    const found = await followUpsRepo.findFollowUpForUpdate(trx, thread.id, id);
    if (!found) throw new NotFoundError(`Follow-up ${id}`);
    assertFollowUpRetryable(found);
    await followUpsRepo.resetFollowUpForRetry(trx, found.id, dueAt, now);
    return requireFollowUp(trx, thread.id, found.id);
  });
  ctx.scheduleSignal.ring();
  return followUpView(row);
}

async function requireFollowUp(trx: DbOrTrx, threadId: string, id: string): Promise<FollowUpRow> {
  const row = await followUpsRepo.findFollowUpForUpdate(trx, threadId, id);
  if (!row) throw new Error(`follow-up ${id} vanished in its own transaction`);
  return row;
}
