import type { AppContext } from '../../context.js';
import type { AccountRow, PostRow, ReplyControl, ThreadRow } from '../../db/schema/index.js';
import { Faults, type FieldFault, foundOrNull, NotFoundError, ValidationError } from '../../errors/index.js';
import type { IfMatch } from '../../lib/etag.js';
import { holdsNul } from '../../lib/text.js';
import { type Workspace, workspaceOf } from '../../lib/workspace.js';
import { announceApprovalRequested } from '../../repos/approvals.js';
import {
  deletePosts,
  findPostInThread,
  insertPost,
  listPosts,
  listSpoilerRanges,
  replaceMedia,
  replaceSpoilerRanges,
  rewritePost,
  updatePostFields,
} from '../../repos/posts.js';
import { getProvider } from '../../repos/providers.js';
import { setThreadRepeat } from '../../repos/series.js';
import { bumpThreadVersion } from '../../repos/threads.js';
import type { DbOrTrx } from '../../repos/types.js';
import { mediaListAt, mediaUseFaults, postMediaLists } from '../media/media.js';
import { type MediaReach, mediaItems, mediaOfPosts, mediaReachFor, threadMediaReach } from '../media/media-reach.js';
import {
  checkMedia,
  checkPost,
  checkQuotesDisabled,
  checkReplyControl,
  checkSpoilerRanges,
  checkText,
  checkTopic,
  isRecord,
  type MediaInput,
  type PostContent,
  type PostTarget,
  postTarget,
  type SpoilerRangeInput,
} from './content-rules.js';
import { assertAllPostsReady, assertIfMatch, assertNotSentYet, assertPostEditable } from './edit-rules.js';
import { queuedInstantFor } from './queue.js';
import { checkQuotedPosts } from './quotes.js';
import { anchorColumns, checkRepeat, NO_REPEAT, type RepeatInput, type RepeatRuleInput, repeatColumns, untilFaults } from './repeat.js';
import { readScheduleChoice } from './schedule-time.js';
import { checkTagNames, writeThreadTags } from './tags.js';
import { requireAccessibleThread } from './thread-access.js';
import { toPostWrite } from './threads.js';

export interface PostPatch {
  content?: string;
  topic?: string | null;
  media?: MediaInput[];
  spoilerRanges?: SpoilerRangeInput[];
  isSpoilerMedia?: boolean;
}

const PATCH_FIELDS = ['content', 'topic', 'media', 'spoilerRanges', 'isSpoilerMedia'] as const;

/** The thread's network and its server's limits, which its posts are checked against. */
async function targetOfProvider(db: DbOrTrx, providerId: string): Promise<NonNullable<PostTarget>> {
  const target = postTarget(await getProvider(db, providerId));
  if (!target) throw new NotFoundError(`Provider ${providerId}`);
  return target;
}

/** An edited thread as the rules of its edits need it: the row, its network and its workspace. */
interface EditedThread {
  thread: ThreadRow;
  target: NonNullable<PostTarget>;
  workspace: Workspace;
}

/**
 * The thread an edit names and its network, read the same way by the writing path (in its
 * transaction, the row locked FOR UPDATE, the same row the publisher's claim locks, so an edit
 * and a claim never interleave) and by the faults-only path; 404 when the caller may not see it.
 */
async function readEditedThread(db: DbOrTrx, account: AccountRow, threadId: string, forUpdate: boolean): Promise<EditedThread> {
  const thread = await requireAccessibleThread(db, account, threadId, { forUpdate });
  return { thread, target: await targetOfProvider(db, thread.provider_id), workspace: workspaceOf(thread) };
}

/** As readEditedThread for a request with faults already: null where there is no thread to check against (an id holding U+0000 is a fault already). */
function editedThreadOrNull(ctx: AppContext, account: AccountRow, threadId: string): Promise<EditedThread | null> {
  return holdsNul(threadId) ? Promise.resolve(null) : foundOrNull(() => readEditedThread(ctx.db, account, threadId, false));
}

export async function editPost(ctx: AppContext, account: AccountRow, threadId: string, postId: string, patch: PostPatch, ifMatch?: IfMatch) {
  // Refused before anything is read (readPostPatch holds the same rule for the faults-only path).
  const empty = emptyPatchFault(patch);
  if (empty) throw new ValidationError(empty);
  const now = ctx.clock.now();
  const reach = await threadMediaReach(
    ctx,
    account,
    threadId,
    mediaItems(patch.media).map((m) => m.url),
  ); // resolved while the transaction starts
  return ctx.db.transaction().execute(async (trx) => {
    const edited = await readEditedThread(trx, account, threadId, true);
    const { thread } = edited;
    assertIfMatch(thread, ifMatch);
    const post = await findPostInThread(trx, thread.id, postId);
    if (!post) throw new NotFoundError(`Post ${postId}`);
    assertPostEditable(thread, post);
    assertNotSentYet([post]);
    const faults = await readPostPatch(ctx, trx, { ...edited, post }, patch, reach);
    if (faults.length) throw new ValidationError(faults);

    await updatePostFields(
      trx,
      post.id,
      {
        ...(patch.content !== undefined ? { content: patch.content } : {}),
        ...(patch.topic !== undefined ? { topic: patch.topic } : {}),
        ...(patch.isSpoilerMedia !== undefined ? { isSpoilerMedia: patch.isSpoilerMedia } : {}),
      },
      now,
    );
    if (patch.media !== undefined) await replaceMedia(trx, post.id, patch.media);
    if (patch.spoilerRanges !== undefined) await replaceSpoilerRanges(trx, post.id, patch.spoilerRanges);
    const { approvalAsked } = await bumpThreadVersion(trx, thread.id, now, { changedBy: account.id });
    if (approvalAsked) await announceApprovalRequested(trx, [thread.id], now);
    const updated = Object.fromEntries(PATCH_FIELDS.map((f) => [f, patch[f] !== undefined])) as Record<(typeof PATCH_FIELDS)[number], boolean>;
    return { postId: post.id, threadId: thread.id, updated };
  });
}

function emptyPatchFault(patch: unknown): FieldFault | null {
  if (!isRecord(patch) || PATCH_FIELDS.some((f) => patch[f] !== undefined)) return null;
  return { path: '', message: `must contain at least one of ${PATCH_FIELDS.join(', ')}` };
}

/**
 * Every content fault of an Edit Single Post body: the one check of both the writing path and the
 * validation guard's faults-only path (whose patch may be of the wrong shape in places: only its
 * well-formed parts are checked). The patch is checked merged with the stored post (shortening
 * the text must keep the stored spoiler ranges inside it); `edited` null when the thread is not
 * known, `post` undefined when the post is not. `reach` has started resolving the media hosts.
 */
async function readPostPatch(
  ctx: AppContext,
  db: DbOrTrx,
  edited: (EditedThread & { post: PostRow | undefined }) | null,
  patch: unknown,
  reach?: MediaReach,
): Promise<FieldFault[]> {
  if (!isRecord(patch)) return [];
  const empty = emptyPatchFault(patch);
  if (empty) return [empty];
  const target = edited?.target ?? null;
  const kind = target?.kind ?? null;
  const post = edited?.post;
  const stored = post ? await storedRanges(db, post.id) : undefined;
  const text = patch.content !== undefined ? patch.content : post?.content;
  const ranges = patch.spoilerRanges !== undefined ? patch.spoilerRanges : stored;
  const media = mediaItems(patch.media);
  const position = post?.post_order ?? 0;
  return [
    ...checkText(target, patch.content, 'content', null, position),
    ...checkTopic(kind, patch.topic, 'topic'),
    ...checkMedia(target, patch.media, 'media', position),
    ...checkSpoilerRanges(kind, ranges, text, 'spoilerRanges'),
    ...(await (reach ?? mediaReachFor(ctx, kind, media)).faults(kind, media)),
    ...(edited ? await mediaUseFaults(ctx, db, edited.workspace, target, [mediaListAt(patch.media, 'media', position)]) : []),
  ];
}

function storedRanges(db: DbOrTrx, postId: string): Promise<SpoilerRangeInput[]> {
  return listSpoilerRanges(db, postId);
}

/** Every content fault of an Edit Single Post request that has shape faults: readPostPatch's, as the writing path's. */
export async function editPostFaults(ctx: AppContext, account: AccountRow, threadId: string, postId: string, patch: unknown): Promise<FieldFault[]> {
  const edited = await editedThreadOrNull(ctx, account, threadId);
  const post = edited && !holdsNul(postId) ? await findPostInThread(ctx.db, edited.thread.id, postId) : undefined;
  return readPostPatch(ctx, ctx.db, edited && { ...edited, post }, patch);
}

/**
 * The content rules of Edit Entire Thread's posts over what is well-formed in `posts`;
 * `existingIds` (the thread's post ids) null when the thread is not known.
 */
function checkThreadPosts(target: PostTarget, existingIds: Set<string> | null, posts: unknown): FieldFault[] {
  if (!Array.isArray(posts)) return [];
  const faults = posts.flatMap((post: unknown, i) => checkPost(target, post, `posts.${i}`, i));
  const seen = new Set<string>();
  posts.forEach((post: unknown, i) => {
    if (!isRecord(post) || typeof post.id !== 'string' || existingIds === null) return;
    if (!existingIds.has(post.id)) faults.push({ path: `posts.${i}.id`, message: 'is not a post of this thread' });
    else if (seen.has(post.id)) faults.push({ path: `posts.${i}.id`, message: 'appears more than once' });
    seen.add(post.id);
  });
  return faults;
}

/** What an Edit Entire Thread body sets besides its posts, once read. */
interface ThreadEditRead {
  faults: Faults;
  /** Null when the body leaves the tags alone. */
  tagNames: string[] | null;
  /** The new time (scheduleAt, or the queue's slot where the path takes one); null: unchanged. */
  scheduledAt: Date | null;
  repeat: RepeatRuleInput | null;
}

/**
 * Every content fault of an Edit Entire Thread body: the one check of both the writing path and
 * the validation guard's faults-only path (whose body may be of the wrong shape in places: only
 * its well-formed parts are checked). `edited` null when the thread is not known; `existing` its
 * posts. Only the writing path passes `takeQueued`: the faults-only path takes no time slot, so
 * a queued repeat's `until` is checked on the writing path alone.
 */
async function readThreadEdit(
  ctx: AppContext,
  db: DbOrTrx,
  account: AccountRow,
  edited: (EditedThread & { existing: PostRow[] }) | null,
  body: unknown,
  options: { now: Date; reach?: MediaReach; takeQueued?: () => Promise<Date> },
): Promise<ThreadEditRead> {
  const fields: Record<string, unknown> = isRecord(body) ? body : {};
  const target = edited?.target ?? null;
  const kind = target?.kind ?? null;
  const media = mediaOfPosts(fields.posts);
  const reach = options.reach ?? mediaReachFor(ctx, kind, media);
  const faults = new Faults();
  faults.add(...checkThreadPosts(target, edited ? new Set(edited.existing.map((p) => p.id)) : null, fields.posts));
  faults.add(...(await reach.faults(kind, media)));
  if (edited) faults.add(...(await mediaUseFaults(ctx, db, edited.workspace, target, postMediaLists(fields.posts))));
  faults.add(...checkReplyControl(kind, fields.replyControl, 'replyControl'));
  faults.add(...checkQuotesDisabled(kind, fields.quotesDisabled, 'quotesDisabled'));
  if (edited) faults.add(...(await checkQuotedPosts(db, edited.workspace, kind, fields.posts)));
  const tags = checkTagNames(fields.tags, 'tags');
  faults.add(...tags.faults);
  let scheduledAt = readScheduleChoice(fields, account.timezone, options.now, faults);
  const { takeQueued } = options;
  if (takeQueued && fields.queue === true && fields.scheduleAt === undefined) scheduledAt = (await faults.checkAsync(takeQueued)) ?? null;
  const draft = edited ? edited.thread.scheduled_at === null : true;
  const repeat = checkRepeat(fields, !draft || fields.scheduleAt !== undefined || fields.queue === true, faults);
  const at = scheduledAt ?? edited?.thread.scheduled_at ?? null;
  if (repeat && at) faults.add(...untilFaults(repeat, at, account.timezone));
  return { faults, tagNames: Array.isArray(fields.tags) ? tags.names : null, scheduledAt, repeat };
}

/** Every content fault of an Edit Entire Thread request that has shape faults: readThreadEdit's, as the writing path's. */
export async function editThreadFaults(ctx: AppContext, account: AccountRow, threadId: string, body: unknown): Promise<FieldFault[]> {
  const edited = await editedThreadOrNull(ctx, account, threadId);
  const existing = edited ? await listPosts(ctx.db, edited.thread.id) : [];
  return (await readThreadEdit(ctx, ctx.db, account, edited && { ...edited, existing }, body, { now: ctx.clock.now() })).faults.list;
}

interface ThreadPostInput extends PostContent {
  id?: string;
}

export interface EditThreadInput {
  posts: ThreadPostInput[];
  /** The complete set of tag names, as Set Thread Tags takes them; omitted: the tags stay. */
  tags?: string[];
  /** A new time (a draft becomes scheduled), as Reschedule takes it. */
  scheduleAt?: string;
  /** true: to the provider's next free time slot, as the queue endpoint moves it. */
  queue?: boolean;
  /** Omitted: unchanged, as `tags` (the posts' own options are rewritten with each post). */
  replyControl?: ReplyControl;
  quotesDisabled?: boolean;
  /** Omitted: unchanged; null: the series stops after this occurrence; a rule: the thread repeats (decisions.md "Recurring threads"). */
  repeat?: RepeatInput | null;
}

/**
 * The repeat columns an Edit Entire Thread writes: none when it leaves the repeat and the time
 * alone; `rule` null clears the rule (the series stops after this occurrence); a new time
 * re-anchors the series there, the same time keeps the anchor it has (a time a DST gap moved
 * goes on meaning the time it was meant for).
 */
function repeatChange(thread: ThreadRow, rule: RepeatRuleInput | null | undefined, movedTo: Date | null, zone: string) {
  if (rule === null) return NO_REPEAT;
  if (rule === undefined) return movedTo && thread.repeat_every !== null ? anchorColumns(movedTo, zone) : {};
  const at = movedTo ?? thread.scheduled_at;
  if (!at) return {};
  const columns = repeatColumns(thread, rule, at, zone, thread.id);
  if (movedTo || thread.repeat_local === null) return columns;
  const { repeat_zone, repeat_local, repeat_day } = thread;
  return { ...columns, repeat_zone, repeat_local, repeat_day };
}

/**
 * Replaces the whole thread: the array order becomes postOrder; absent posts are deleted. With
 * `tags`, `scheduleAt` or `queue`, the tags and the time change in the same transaction, so the
 * save lands whole or not at all; every content fault is found before anything is written.
 */
export async function editThread(ctx: AppContext, account: AccountRow, threadId: string, input: EditThreadInput, ifMatch?: IfMatch) {
  const now = ctx.clock.now();
  const { posts } = input;
  const reach = await threadMediaReach(
    ctx,
    account,
    threadId,
    mediaOfPosts(posts).map((m) => m.url),
  ); // resolved while the transaction starts
  const result = await ctx.db.transaction().execute(async (trx) => {
    const edited = await readEditedThread(trx, account, threadId, true);
    const { thread } = edited;
    assertIfMatch(thread, ifMatch);
    const existing = await listPosts(trx, thread.id);
    assertAllPostsReady(
      thread,
      existing.map((p) => p.status),
      'Editing the thread',
    );
    assertNotSentYet(existing);
    const read = await readThreadEdit(ctx, trx, account, { ...edited, existing }, input, { now, reach, takeQueued: () => queuedInstantFor(trx, thread, now) });
    read.faults.throwIfAny();
    const { scheduledAt } = read;

    const kept = new Set(posts.flatMap((p) => (p.id ? [p.id] : [])));
    const removed = existing.map((p) => p.id).filter((id) => !kept.has(id));
    await deletePosts(trx, removed);
    let postsUpdated = 0;
    let postsCreated = 0;
    for (const [order, post] of posts.entries()) {
      const write = toPostWrite(post);
      if (post.id) {
        await rewritePost(trx, post.id, order, write, now);
        postsUpdated++;
      } else {
        await insertPost(trx, thread.id, order, write, now);
        postsCreated++;
      }
    }
    if (read.tagNames) await writeThreadTags(trx, thread, read.tagNames, account.id, now);
    const { approvalAsked } = await bumpThreadVersion(trx, thread.id, now, {
      changedBy: account.id,
      ...(scheduledAt ? { scheduledAt } : {}),
      ...(input.replyControl !== undefined ? { replyControl: input.replyControl } : {}),
      ...(input.quotesDisabled !== undefined ? { quotesDisabled: input.quotesDisabled } : {}),
    });
    if (approvalAsked) await announceApprovalRequested(trx, [thread.id], now);
    await setThreadRepeat(
      trx,
      thread.id,
      repeatChange(thread, input.repeat === undefined ? undefined : input.repeat === null ? null : read.repeat, scheduledAt, account.timezone),
    );
    return {
      moved: scheduledAt !== null,
      answer: { threadId: thread.id, postsUpdated, postsCreated, postsDeleted: removed.length, totalPosts: posts.length },
    };
  });
  if (result.moved) ctx.scheduleSignal.ring();
  return result.answer;
}
