import type { AppContext } from '../context.js';
import type { AccountRow, ProviderKind } from '../db/schema/index.js';
import { ConflictError, type FieldFault, foundOrNull, NotFoundError, ValidationError } from '../errors/index.js';
import { type DbOrTrx, insertPost, replaceMedia, replaceSpoilerRanges } from '../repos/threads.js';
import {
  checkMedia,
  checkPost,
  checkSpoilerRanges,
  checkText,
  checkTopic,
  isRecord,
  type MediaInput,
  type Network,
  type PostContent,
  type SpoilerRangeInput,
} from './content-rules.js';
import { assertAllPostsReady, requireAccessibleThread, toPostWrite } from './threads.js';

export interface PostPatch {
  content?: string;
  topic?: string | null;
  media?: MediaInput[];
  spoilerRanges?: SpoilerRangeInput[];
  isSpoilerMedia?: boolean;
}

const PATCH_FIELDS = ['content', 'topic', 'media', 'spoilerRanges', 'isSpoilerMedia'] as const;

async function providerKind(trx: DbOrTrx, providerId: string): Promise<ProviderKind> {
  const row = await trx.selectFrom('providers').select('kind').where('id', '=', providerId).executeTakeFirstOrThrow();
  return row.kind;
}

async function bumpVersion(trx: DbOrTrx, threadId: string, now: Date): Promise<void> {
  await trx
    .updateTable('threads')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', threadId)
    .execute();
}

/**
 * A READY post may still be on its way out: an earlier attempt saved a Threads container or sent
 * a Bluesky write and its outcome is not known yet (the publisher finds out at its next attempt).
 * Editing it then would publish the old text, or lose track of the post that went out.
 */
function assertNotSentYet(posts: Array<{ post_order: number; network_container_id: string | null; network_post_id: string | null }>): void {
  const sent = posts.find((p) => p.network_container_id !== null || p.network_post_id !== null);
  if (sent) {
    throw new ConflictError(
      'NOT_EDITABLE',
      `Post ${sent.post_order} may already be on the network: an earlier attempt to publish it is not confirmed yet. Skein finds out at its next attempt to publish the thread; until then it cannot be edited.`,
    );
  }
}

/**
 * The thread row is locked first (FOR UPDATE), the same row the publisher's claim locks, so an
 * edit and a claim never interleave: the edit either lands before the claim or sees non-READY.
 */
export async function editPost(ctx: AppContext, account: AccountRow, threadId: string, postId: string, patch: PostPatch) {
  if (!PATCH_FIELDS.some((f) => patch[f] !== undefined)) {
    throw new ValidationError({ path: '', message: `must contain at least one of ${PATCH_FIELDS.join(', ')}` });
  }
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    const post = await trx.selectFrom('posts').selectAll().where('id', '=', postId).where('thread_id', '=', thread.id).executeTakeFirst();
    if (!post) throw new NotFoundError(`Post ${postId}`);
    if (post.status !== 'READY') throw new ConflictError('NOT_EDITABLE', `Only a READY post can be edited; this one is ${post.status}.`);
    // A FAILED thread is at rest: its posts that never went out may be fixed before a retry.
    if (thread.status !== 'READY' && thread.status !== 'FAILED') {
      throw new ConflictError('NOT_EDITABLE', `The thread is ${thread.status}; its posts cannot be edited now.`);
    }
    assertNotSentYet([post]);
    const kind = await providerKind(trx, thread.provider_id);
    const faults = checkPostPatch(kind, { content: post.content, spoilerRanges: await storedRanges(trx, post.id) }, patch);
    if (faults.length) throw new ValidationError(faults);

    await trx
      .updateTable('posts')
      .set({
        ...(patch.content !== undefined ? { content: patch.content } : {}),
        ...(patch.topic !== undefined ? { topic: patch.topic } : {}),
        ...(patch.isSpoilerMedia !== undefined ? { is_spoiler_media: patch.isSpoilerMedia } : {}),
        updated_at: now,
      })
      .where('id', '=', post.id)
      .execute();
    if (patch.media !== undefined) await replaceMedia(trx, post.id, patch.media);
    if (patch.spoilerRanges !== undefined) await replaceSpoilerRanges(trx, post.id, patch.spoilerRanges);
    await bumpVersion(trx, thread.id, now);
    const updated = Object.fromEntries(PATCH_FIELDS.map((f) => [f, patch[f] !== undefined])) as Record<(typeof PATCH_FIELDS)[number], boolean>;
    return { postId: post.id, threadId: thread.id, updated };
  });
}

async function storedRanges(db: DbOrTrx, postId: string): Promise<SpoilerRangeInput[]> {
  return db.selectFrom('spoiler_ranges').select(['offset', 'length']).where('post_id', '=', postId).orderBy('position').execute();
}

/**
 * The content rules of Edit Single Post over what is well-formed in `patch`, checked merged with
 * the stored post (shortening the text must keep the stored spoiler ranges inside it); `stored`
 * null when the post is not known.
 */
function checkPostPatch(kind: Network, stored: { content: string; spoilerRanges: SpoilerRangeInput[] } | null, patch: unknown): FieldFault[] {
  if (!isRecord(patch)) return [];
  const text = patch.content !== undefined ? patch.content : stored?.content;
  const ranges = patch.spoilerRanges !== undefined ? patch.spoilerRanges : stored?.spoilerRanges;
  return [
    ...checkText(kind, patch.content, 'content'),
    ...checkTopic(kind, patch.topic, 'topic'),
    ...checkMedia(kind, patch.media, 'media'),
    ...checkSpoilerRanges(kind, ranges, text, 'spoilerRanges'),
  ];
}

/** An accessible thread's provider kind, or null (for checks that can do without it). */
async function kindOfAccessibleThread(ctx: AppContext, account: AccountRow, threadId: string): Promise<{ threadId: string; kind: ProviderKind } | null> {
  const thread = await foundOrNull(() => requireAccessibleThread(ctx.db, account, threadId));
  return thread ? { threadId: thread.id, kind: await providerKind(ctx.db, thread.provider_id) } : null;
}

/** Every content fault of an Edit Single Post request that has shape faults (see content-rules.ts). */
export async function editPostFaults(ctx: AppContext, account: AccountRow, threadId: string, postId: string, patch: unknown): Promise<FieldFault[]> {
  const thread = await kindOfAccessibleThread(ctx, account, threadId);
  const post = thread
    ? await ctx.db.selectFrom('posts').select(['id', 'content']).where('id', '=', postId).where('thread_id', '=', thread.threadId).executeTakeFirst()
    : undefined;
  const stored = post ? { content: post.content, spoilerRanges: await storedRanges(ctx.db, post.id) } : null;
  return checkPostPatch(thread?.kind ?? null, stored, patch);
}

/**
 * The content rules of Edit Entire Thread over what is well-formed in `posts`; `existingIds`
 * (the thread's post ids) null when the thread is not known.
 */
function checkThreadPosts(kind: Network, existingIds: Set<string> | null, posts: unknown): FieldFault[] {
  if (!Array.isArray(posts)) return [];
  const faults = posts.flatMap((post: unknown, i) => checkPost(kind, post, `posts.${i}`));
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
  const existing = thread ? await ctx.db.selectFrom('posts').select('id').where('thread_id', '=', thread.threadId).execute() : null;
  return checkThreadPosts(thread?.kind ?? null, existing ? new Set(existing.map((p) => p.id)) : null, isRecord(body) ? body.posts : undefined);
}

export interface ThreadPostInput extends PostContent {
  id?: string;
}

/** Replaces the whole thread: the array order becomes postOrder; absent posts are deleted. */
export async function editThread(ctx: AppContext, account: AccountRow, threadId: string, posts: ThreadPostInput[]) {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    await assertAllPostsReady(trx, thread, 'Editing the thread');
    const kind = await providerKind(trx, thread.provider_id);
    const existing = await trx
      .selectFrom('posts')
      .select(['id', 'post_order', 'network_container_id', 'network_post_id'])
      .where('thread_id', '=', thread.id)
      .execute();
    assertNotSentYet(existing);
    const existingIds = new Set(existing.map((p) => p.id));
    const faults = checkThreadPosts(kind, existingIds, posts);
    if (faults.length) throw new ValidationError(faults);

    const kept = new Set(posts.flatMap((p) => (p.id ? [p.id] : [])));
    const removed = [...existingIds].filter((id) => !kept.has(id));
    if (removed.length) await trx.deleteFrom('posts').where('id', 'in', removed).execute();
    let postsUpdated = 0;
    let postsCreated = 0;
    for (const [order, post] of posts.entries()) {
      const write = toPostWrite(post);
      if (post.id) {
        await trx
          .updateTable('posts')
          .set({ post_order: order, content: write.content, topic: write.topic, is_spoiler_media: write.isSpoilerMedia, updated_at: now })
          .where('id', '=', post.id)
          .execute();
        await replaceMedia(trx, post.id, write.media);
        await replaceSpoilerRanges(trx, post.id, write.spoilerRanges);
        postsUpdated++;
      } else {
        await insertPost(trx, thread.id, order, write, now);
        postsCreated++;
      }
    }
    await bumpVersion(trx, thread.id, now);
    return { threadId: thread.id, postsUpdated, postsCreated, postsDeleted: removed.length, totalPosts: posts.length };
  });
}
