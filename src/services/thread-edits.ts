import type { AppContext } from '../context.js';
import type { AccountRow, ProviderKind, ReplyControl, ThreadRow } from '../db/schema/index.js';
import { Faults, type FieldFault, foundOrNull, NotFoundError, ValidationError } from '../errors/index.js';
import type { IfMatch } from '../lib/etag.js';
import { holdsNul } from '../lib/text.js';
import { type Workspace, workspaceOf } from '../lib/workspace.js';
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
} from '../repos/posts.js';
import { getProvider } from '../repos/providers.js';
import { setThreadRepeat } from '../repos/series.js';
import { bumpThreadVersion } from '../repos/threads.js';
import type { DbOrTrx } from '../repos/types.js';
import {
  checkMedia,
  checkPost,
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
import { mediaListAt, mediaUseFaults, postMediaLists } from './media.js';
import { mediaItems, mediaOfPosts, threadMediaReach, threadsMediaFaults } from './media-reach.js';
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

/**
 * The thread row is locked first (FOR UPDATE), the same row the publisher's claim locks, so an
 * edit and a claim never interleave: the edit either lands before the claim or sees non-READY.
 */
export async function editPost(ctx: AppContext, account: AccountRow, threadId: string, postId: string, patch: PostPatch, ifMatch?: IfMatch) {
  if (!PATCH_FIELDS.some((f) => patch[f] !== undefined)) {
    throw new ValidationError({ path: '', message: `must contain at least one of ${PATCH_FIELDS.join(', ')}` });
  }
  const now = ctx.clock.now();
  const media = mediaItems(patch.media);
  const reach = await threadMediaReach(
    ctx,
    account,
    threadId,
    media.map((m) => m.url),
  ); // resolved while the transaction starts
  return ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    assertIfMatch(thread, ifMatch);
    const post = await findPostInThread(trx, thread.id, postId);
    if (!post) throw new NotFoundError(`Post ${postId}`);
    assertPostEditable(thread, post);
    assertNotSentYet([post]);
    const target = await targetOfProvider(trx, thread.provider_id);
    const { kind } = target;
    const faults = [
      ...checkPostPatch(target, { content: post.content, spoilerRanges: await storedRanges(trx, post.id) }, patch),
      ...(await reach.faults(kind, media)),
    ];
    faults.push(...(await mediaUseFaults(ctx, trx, workspaceOf(thread), target, [mediaListAt(patch.media, 'media')])));
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
    await bumpThreadVersion(trx, thread.id, now);
    const updated = Object.fromEntries(PATCH_FIELDS.map((f) => [f, patch[f] !== undefined])) as Record<(typeof PATCH_FIELDS)[number], boolean>;
    return { postId: post.id, threadId: thread.id, updated };
  });
}

function storedRanges(db: DbOrTrx, postId: string): Promise<SpoilerRangeInput[]> {
  return listSpoilerRanges(db, postId);
}

/**
 * The content rules of Edit Single Post over what is well-formed in `patch`, checked merged with
 * the stored post (shortening the text must keep the stored spoiler ranges inside it); `stored`
 * null when the post is not known.
 */
function checkPostPatch(target: PostTarget, stored: { content: string; spoilerRanges: SpoilerRangeInput[] } | null, patch: unknown): FieldFault[] {
  if (!isRecord(patch)) return [];
  const kind = target?.kind ?? null;
  const text = patch.content !== undefined ? patch.content : stored?.content;
  const ranges = patch.spoilerRanges !== undefined ? patch.spoilerRanges : stored?.spoilerRanges;
  return [
    ...checkText(target, patch.content, 'content'),
    ...checkTopic(kind, patch.topic, 'topic'),
    ...checkMedia(target, patch.media, 'media'),
    ...checkSpoilerRanges(kind, ranges, text, 'spoilerRanges'),
  ];
}

/** An accessible thread's network (with its server's limits), or null (for checks that can do without it). */
async function kindOfAccessibleThread(
  ctx: AppContext,
  account: AccountRow,
  threadId: string,
): Promise<{ threadId: string; kind: ProviderKind; target: PostTarget; workspace: Workspace; draft: boolean } | null> {
  // Only reached for a faulty request: its ids may hold U+0000 (reported as a fault already).
  if (holdsNul(threadId)) return null;
  const thread = await foundOrNull(() => requireAccessibleThread(ctx.db, account, threadId));
  if (!thread) return null;
  const target = await targetOfProvider(ctx.db, thread.provider_id);
  return { threadId: thread.id, kind: target.kind, target, workspace: workspaceOf(thread), draft: thread.scheduled_at === null };
}

/** Every content fault of an Edit Single Post request that has shape faults (see content-rules.ts). */
export async function editPostFaults(ctx: AppContext, account: AccountRow, threadId: string, postId: string, patch: unknown): Promise<FieldFault[]> {
  const thread = await kindOfAccessibleThread(ctx, account, threadId);
  const post = thread && !holdsNul(postId) ? await findPostInThread(ctx.db, thread.threadId, postId) : undefined;
  const stored = post ? { content: post.content, spoilerRanges: await storedRanges(ctx.db, post.id) } : null;
  const media = mediaItems(isRecord(patch) ? patch.media : undefined);
  const uploads = thread
    ? await mediaUseFaults(ctx, ctx.db, thread.workspace, thread.target, [mediaListAt(isRecord(patch) ? patch.media : undefined, 'media')])
    : [];
  return [...checkPostPatch(thread?.target ?? null, stored, patch), ...(await threadsMediaFaults(ctx, thread?.kind ?? null, media)), ...uploads];
}

/**
 * The content rules of Edit Entire Thread over what is well-formed in `posts`; `existingIds`
 * (the thread's post ids) null when the thread is not known.
 */
function checkThreadPosts(target: PostTarget, existingIds: Set<string> | null, posts: unknown): FieldFault[] {
  if (!Array.isArray(posts)) return [];
  const faults = posts.flatMap((post: unknown, i) => checkPost(target, post, `posts.${i}`));
  const seen = new Set<string>();
  posts.forEach((post: unknown, i) => {
    if (!isRecord(post) || typeof post.id !== 'string' || existingIds === null) return;
    if (!existingIds.has(post.id)) faults.push({ path: `posts.${i}.id`, message: 'is not a post of this thread' });
    else if (seen.has(post.id)) faults.push({ path: `posts.${i}.id`, message: 'appears more than once' });
    seen.add(post.id);
  });
  return faults;
}

/** Every content fault of an Edit Entire Thread request that has shape faults (see content-rules.ts). */
export async function editThreadFaults(ctx: AppContext, account: AccountRow, threadId: string, body: unknown): Promise<FieldFault[]> {
  const thread = await kindOfAccessibleThread(ctx, account, threadId);
  const existing = thread ? await listPosts(ctx.db, thread.threadId) : null;
  const fields = isRecord(body) ? body : {};
  const faults = new Faults();
  faults.add(...checkThreadPosts(thread?.target ?? null, existing ? new Set(existing.map((p) => p.id)) : null, fields.posts));
  const media = mediaOfPosts(fields.posts);
  faults.add(...(await threadsMediaFaults(ctx, thread?.kind ?? null, media)));
  faults.add(...checkReplyControl(thread?.kind ?? null, fields.replyControl, 'replyControl'));
  if (thread) faults.add(...(await checkQuotedPosts(ctx.db, thread.workspace, thread.kind, fields.posts)));
  if (thread) faults.add(...(await mediaUseFaults(ctx, ctx.db, thread.workspace, thread.target, postMediaLists(fields.posts))));
  const { scheduledAt } = checkSaveExtras(fields, account.timezone, ctx.clock.now(), faults);
  const repeat = checkRepeat(fields, thread?.draft === false || fields.scheduleAt !== undefined || fields.queue === true, faults);
  if (repeat && scheduledAt) faults.add(...untilFaults(repeat, scheduledAt, account.timezone));
  return faults.list;
}

/** The parts of an Edit Entire Thread besides the posts: tags, and the time (scheduleAt or queue). */
function checkSaveExtras(body: Record<string, unknown>, zone: string, now: Date, faults: Faults): { tagNames: string[] | null; scheduledAt: Date | null } {
  const tags = checkTagNames(body.tags, 'tags');
  faults.add(...tags.faults);
  const scheduledAt = readScheduleChoice(body, zone, now, faults);
  return { tagNames: Array.isArray(body.tags) ? tags.names : null, scheduledAt };
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
  const media = mediaOfPosts(posts);
  const reach = await threadMediaReach(
    ctx,
    account,
    threadId,
    media.map((m) => m.url),
  ); // resolved while the transaction starts
  const result = await ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    assertIfMatch(thread, ifMatch);
    const existing = await listPosts(trx, thread.id);
    assertAllPostsReady(
      thread,
      existing.map((p) => p.status),
      'Editing the thread',
    );
    const target = await targetOfProvider(trx, thread.provider_id);
    const { kind } = target;
    assertNotSentYet(existing);
    const existingIds = new Set(existing.map((p) => p.id));
    const faults = new Faults();
    faults.add(...checkThreadPosts(target, existingIds, posts));
    faults.add(...(await reach.faults(kind, media)));
    faults.add(...(await mediaUseFaults(ctx, trx, workspaceOf(thread), target, postMediaLists(posts))));
    faults.add(...checkReplyControl(kind, input.replyControl, 'replyControl'));
    faults.add(...(await checkQuotedPosts(trx, workspaceOf(thread), kind, posts)));
    const extras = checkSaveExtras({ ...input }, account.timezone, now, faults);
    let scheduledAt = extras.scheduledAt;
    if (input.queue === true && input.scheduleAt === undefined) scheduledAt = (await faults.checkAsync(() => queuedInstantFor(trx, thread, now))) ?? null;
    const repeat = checkRepeat({ ...input }, thread.scheduled_at !== null || input.scheduleAt !== undefined || input.queue === true, faults);
    const at = scheduledAt ?? thread.scheduled_at;
    if (repeat && at) faults.add(...untilFaults(repeat, at, account.timezone));
    faults.throwIfAny();

    const kept = new Set(posts.flatMap((p) => (p.id ? [p.id] : [])));
    const removed = [...existingIds].filter((id) => !kept.has(id));
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
    if (extras.tagNames) await writeThreadTags(trx, thread, extras.tagNames, account.id, now);
    await bumpThreadVersion(trx, thread.id, now, {
      ...(scheduledAt ? { scheduledAt } : {}),
      ...(input.replyControl !== undefined ? { replyControl: input.replyControl } : {}),
      ...(input.quotesDisabled !== undefined ? { quotesDisabled: input.quotesDisabled } : {}),
    });
    await setThreadRepeat(
      trx,
      thread.id,
      repeatChange(thread, input.repeat === undefined ? undefined : input.repeat === null ? null : repeat, scheduledAt, account.timezone),
    );
    return {
      moved: scheduledAt !== null,
      answer: { threadId: thread.id, postsUpdated, postsCreated, postsDeleted: removed.length, totalPosts: posts.length },
    };
  });
  if (result.moved) ctx.scheduleSignal.ring();
  return result.answer;
}
