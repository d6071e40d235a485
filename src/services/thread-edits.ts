import type { AppContext } from '../context.js';
import type { AccountRow, ProviderKind } from '../db/schema/index.js';
import { type FieldFault, NotFoundError, ValidationError } from '../errors/index.js';
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
import { bumpThreadVersion } from '../repos/threads.js';
import type { DbOrTrx } from '../repos/types.js';
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
import { assertAllPostsReady, assertNotSentYet, assertPostEditable } from './edit-rules.js';
import { requireAccessibleThread, toPostWrite } from './threads.js';

export interface PostPatch {
  content?: string;
  topic?: string | null;
  media?: MediaInput[];
  spoilerRanges?: SpoilerRangeInput[];
  isSpoilerMedia?: boolean;
}

const PATCH_FIELDS = ['content', 'topic', 'media', 'spoilerRanges', 'isSpoilerMedia'] as const;

async function providerKind(trx: DbOrTrx, providerId: string): Promise<ProviderKind> {
  return (await getProvider(trx, providerId)).kind;
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
    const post = await findPostInThread(trx, thread.id, postId);
    if (!post) throw new NotFoundError(`Post ${postId}`);
    assertPostEditable(thread, post);
    assertNotSentYet([post]);
    const kind = await providerKind(trx, thread.provider_id);
    const text = patch.content ?? post.content;
    const ranges = patch.spoilerRanges ?? (await listSpoilerRanges(trx, post.id));
    const faults: FieldFault[] = [
      ...(patch.content !== undefined ? checkText(kind, patch.content, 'content') : []),
      ...checkTopic(kind, patch.topic, 'topic'),
      ...checkMedia(kind, patch.media, 'media'),
      ...checkSpoilerRanges(kind, ranges, text, 'spoilerRanges'),
    ];
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

export interface ThreadPostInput extends PostContent {
  id?: string;
}

/** Replaces the whole thread: the array order becomes postOrder; absent posts are deleted. */
export async function editThread(ctx: AppContext, account: AccountRow, threadId: string, posts: ThreadPostInput[]) {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const thread = await requireAccessibleThread(trx, account, threadId, { forUpdate: true });
    const existing = await listPosts(trx, thread.id);
    assertAllPostsReady(
      thread,
      existing.map((p) => p.status),
      'Editing the thread',
    );
    const kind = await providerKind(trx, thread.provider_id);
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
    await bumpThreadVersion(trx, thread.id, now);
    return { threadId: thread.id, postsUpdated, postsCreated, postsDeleted: removed.length, totalPosts: posts.length };
  });
}
