import type { AppContext } from '../context.js';
import type { PostRow } from '../db/schema/index.js';
import { fillInPermalink as savePermalinkIfMissing, savePostAnalytics } from '../repos/posts.js';
import { type Analytics, type Platform, type PlatformAccount, PublishError } from './platform.js';
import { publishedRef } from './rows.js';

/**
 * Fetching and storing the analytics of published posts: the ANALYTICS job (publisher) and
 * Refresh now (services) both run `refreshPostsAnalytics`.
 */

type Deps = Pick<AppContext, 'db' | 'clock' | 'logger'>;

/** posts.analytics as stored and shown by Get Thread (the `Analytics` schema of the API). */
export interface StoredAnalytics extends Analytics {
  fetchedAt: string;
}

const METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'] as const;

/**
 * Keeps only whole, non-negative counts: the API declares integers, and a response that does
 * not match its schema would turn every Get Thread of this thread into a 500.
 */
function toStoredAnalytics(counts: Analytics, fetchedAt: Date): StoredAnalytics {
  const clean = (value: number | null) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null);
  const stored = { fetchedAt: fetchedAt.toISOString() } as StoredAnalytics;
  for (const metric of METRICS) stored[metric] = clean(counts[metric]);
  return stored;
}

export async function saveAnalytics(ctx: Deps, postId: string, counts: Analytics): Promise<StoredAnalytics> {
  const now = ctx.clock.now();
  const stored = toStoredAnalytics(counts, now);
  await savePostAnalytics(ctx.db, postId, stored, now);
  return stored;
}

export interface PostsRefresh {
  platform: Platform;
  account: PlatformAccount;
  posts: PostRow[];
  /** Called before each post's call; false stops the refresh there (a job that lost its lease). */
  beforeEach?: () => Promise<boolean>;
}

export interface PostsRefreshResult {
  refreshed: number;
  /** The last refusal of a post the network refused for good (deleted there); null when none. */
  refused: PublishError | null;
  /** beforeEach said stop. */
  stopped: boolean;
}

/**
 * Refreshes the analytics of `posts`, one call per post, each stored as soon as it is read. A
 * post the network refuses for good is skipped so the others still refresh; any other error
 * (transient, auth) ends the refresh and is thrown (the posts done before it keep their new
 * counts). A post whose permalink could not be read when it was published gets it here.
 */
export async function refreshPostsAnalytics(ctx: Deps, refresh: PostsRefresh): Promise<PostsRefreshResult> {
  const result: PostsRefreshResult = { refreshed: 0, refused: null, stopped: false };
  for (const post of refresh.posts) {
    if (refresh.beforeEach && !(await refresh.beforeEach())) return { ...result, stopped: true };
    try {
      await saveAnalytics(ctx, post.id, await refresh.platform.fetchAnalytics(refresh.account, publishedRef(post)));
      result.refreshed++;
      if (!post.permalink) await fillInPermalink(ctx, refresh, post);
    } catch (err) {
      if (!(err instanceof PublishError && err.kind === 'permanent')) throw err;
      ctx.logger.info({ postId: post.id, code: err.code }, `analytics of a post skipped: ${err.message}`);
      result.refused = err;
    }
  }
  return result;
}

/** Best effort: a failed lookup is tried again at the next refresh. */
async function fillInPermalink(ctx: Deps, refresh: PostsRefresh, post: PostRow): Promise<void> {
  try {
    const permalink = await refresh.platform.lookUpPermalink(refresh.account, publishedRef(post));
    if (permalink) await savePermalinkIfMissing(ctx.db, post.id, permalink, ctx.clock.now());
  } catch (err) {
    ctx.logger.info({ postId: post.id, err }, 'the permalink of a published post could not be read; trying again at the next refresh');
  }
}
