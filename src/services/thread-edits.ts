import type { AppContext } from '../context.js';
import type { AccountRow, ProviderKind } from '../db/schema/index.js';
import { ConflictError, type FieldFault, NotFoundError, ValidationError } from '../errors/index.js';
import { type DbOrTrx, insertPost, replaceMedia, replaceSpoilerRanges } from '../repos/threads.js';
import {
  checkMedia,
  checkPost,
  checkSpoilerRanges,
  checkText,
  checkTopic,
  type MediaInput,
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
    const text = patch.content ?? post.content;
    const ranges =
      patch.spoilerRanges ?? (await trx.selectFrom('spoiler_ranges').select(['offset', 'length']).where('post_id', '=', post.id).orderBy('position').execute());
    const faults: FieldFault[] = [
      ...(patch.content !== undefined ? checkText(kind, patch.content, 'content') : []),
      ...checkTopic(kind, patch.topic, 'topic'),
      ...checkMedia(kind, patch.media, 'media'),
      ...checkSpoilerRanges(kind, ranges, text, 'spoilerRanges'),
    ];
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
    const faults = posts.flatMap((post, i) => checkPost(kind, post, `posts.${i}`));
    const seen = new Set<string>();
    posts.forEach((post, i) => {
      if (post.id === undefined) return;
      if (!existingIds.has(post.id)) faults.push({ path: `posts.${i}.id`, message: 'is not a post of this thread' });
      else if (seen.has(post.id)) faults.push({ path: `posts.${i}.id`, message: 'appears more than once' });
      seen.add(post.id);
    });
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
