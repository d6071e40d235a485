import type { Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, MediaRow, PostRow, ProviderKind, PublishStatus, SpoilerRangeRow, ThreadRow } from '../db/schema/index.js';
import { newId } from '../lib/ids.js';
import type { MediaInput, SpoilerRangeInput } from '../services/content-rules.js';

export type DbOrTrx = Db | Transaction<Database>;

/** A thread with everything the API shows of it, as stored. */
export interface ThreadAggregate {
  thread: ThreadRow;
  providerKind: ProviderKind;
  providerUserId: string;
  posts: PostAggregate[];
}

export interface PostAggregate {
  post: PostRow;
  media: MediaRow[];
  spoilerRanges: SpoilerRangeRow[];
}

export async function findThread(db: DbOrTrx, id: string, options: { forUpdate?: boolean } = {}): Promise<ThreadRow | undefined> {
  let query = db.selectFrom('threads').selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function loadThreadAggregates(db: DbOrTrx, threads: ThreadRow[]): Promise<ThreadAggregate[]> {
  if (threads.length === 0) return [];
  const threadIds = threads.map((t) => t.id);
  const providerIds = [...new Set(threads.map((t) => t.provider_id))];
  const [providers, posts] = await Promise.all([
    db.selectFrom('providers').select(['id', 'kind', 'provider_user_id']).where('id', 'in', providerIds).execute(),
    db.selectFrom('posts').selectAll().where('thread_id', 'in', threadIds).orderBy('thread_id').orderBy('post_order').execute(),
  ]);
  const postAggregates = await loadPostParts(db, posts);
  const providerById = new Map(providers.map((p) => [p.id, p]));
  const postsByThread = groupBy(postAggregates, (p) => p.post.thread_id);
  return threads.map((thread) => {
    const provider = providerById.get(thread.provider_id)!;
    return { thread, providerKind: provider.kind, providerUserId: provider.provider_user_id, posts: postsByThread.get(thread.id) ?? [] };
  });
}

async function loadPostParts(db: DbOrTrx, posts: PostRow[]): Promise<PostAggregate[]> {
  if (posts.length === 0) return [];
  const postIds = posts.map((p) => p.id);
  const [media, ranges] = await Promise.all([
    db.selectFrom('media').selectAll().where('post_id', 'in', postIds).orderBy('post_id').orderBy('position').execute(),
    db.selectFrom('spoiler_ranges').selectAll().where('post_id', 'in', postIds).orderBy('post_id').orderBy('position').execute(),
  ]);
  const mediaByPost = groupBy(media, (m) => m.post_id);
  const rangesByPost = groupBy(ranges, (r) => r.post_id);
  return posts.map((post) => ({ post, media: mediaByPost.get(post.id) ?? [], spoilerRanges: rangesByPost.get(post.id) ?? [] }));
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

export interface PostWrite {
  content: string;
  topic: string | null;
  isSpoilerMedia: boolean;
  media: MediaInput[];
  spoilerRanges: SpoilerRangeInput[];
}

export async function insertPost(trx: DbOrTrx, threadId: string, order: number, post: PostWrite, now: Date, status: PublishStatus = 'READY'): Promise<string> {
  const id = newId(now.getTime());
  await trx
    .insertInto('posts')
    .values({
      id,
      thread_id: threadId,
      post_order: order,
      content: post.content,
      topic: post.topic,
      is_spoiler_media: post.isSpoilerMedia,
      status,
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
  await replaceMedia(trx, id, post.media);
  await replaceSpoilerRanges(trx, id, post.spoilerRanges);
  return id;
}

export async function replaceMedia(trx: DbOrTrx, postId: string, media: MediaInput[]): Promise<void> {
  await trx.deleteFrom('media').where('post_id', '=', postId).execute();
  if (media.length === 0) return;
  await trx
    .insertInto('media')
    .values(media.map((m, position) => ({ id: newId(), post_id: postId, position, url: m.url, alt_text: m.altText ?? null, type: 'IMAGE' as const })))
    .execute();
}

export async function replaceSpoilerRanges(trx: DbOrTrx, postId: string, ranges: SpoilerRangeInput[]): Promise<void> {
  await trx.deleteFrom('spoiler_ranges').where('post_id', '=', postId).execute();
  if (ranges.length === 0) return;
  await trx
    .insertInto('spoiler_ranges')
    .values(ranges.map((r, position) => ({ post_id: postId, position, offset: r.offset, length: r.length })))
    .execute();
}
