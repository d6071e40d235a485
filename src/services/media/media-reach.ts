import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { type FieldFault, foundOrNull } from '../../errors/index.js';
import { GuardedFetchError, permittedAddresses } from '../../lib/guarded-fetch.js';
import { isPublicAddress } from '../../lib/ip-policy.js';
import { NETWORKS } from '../../networks/index.js';
import { getProvider } from '../../repos/providers.js';
import type { Network } from '../threads/content-rules.js';
import { isRecord, MEDIA_ITEMS_MAX, POSTS_PER_THREAD_MAX } from '../threads/content-rules.js';
import { requireAccessibleThread } from '../threads/thread-access.js';

/**
 * Threads fetches a post's media itself, from Meta's servers: a URL whose host is loopback,
 * private, link-local or does not resolve can never work there, and is said at create and edit
 * (decisions.md "Media"). An upload's URL is `<PUBLIC_URL>/media/…`, so a PUBLIC_URL on such an
 * address is caught the same way. SKEIN_ALLOW_PRIVATE_MEDIA=1 turns the check off (tests).
 *
 * Each distinct host of a request is resolved once, all at once, within RESOLVE_TIMEOUT_MS; a
 * lookup that neither answers nor fails in time lets the URL pass (a slow resolver is not a
 * fault of the post; the check just before the container is made still stands).
 *
 * No request can tie up the resolver (decisions.md "Security rules"): a media list over its
 * count (or a thread over its posts) is a schema fault and none of its hosts is resolved; at most
 * MAX_HOSTS_RESOLVED distinct hosts are resolved per request (the URLs of any further host pass
 * here, and meet the check at publish); a thread's media are resolved only once the caller's
 * access to the thread is known (threadMediaReach); and the lookup itself (ctx.dnsLookup,
 * src/lib/name-resolver.ts) is bounded in time and concurrency, off libuv's thread pool.
 */

const RESOLVE_TIMEOUT_MS = 3_000;

/** Distinct hosts resolved for one request, at most. */
export const MAX_HOSTS_RESOLVED = 10;

export interface MediaAt {
  /** The fault's path: `posts.0.media.1.url`. */
  path: string;
  url: string;
}

type Verdict = { ok: true } | { ok: false; why: string };

export interface MediaReach {
  /** The faults of `items` for a post on `kind` (none unless the network fetches media from its URL). */
  faults(kind: Network, items: MediaAt[]): Promise<FieldFault[]>;
}

/** The media URLs a post to `kind` needs the internet to reach: all of them where the network fetches media from its URL itself (Threads), else none. */
export function urlsFetchedBy(kind: Network, urls: string[]): string[] {
  return kind !== null && NETWORKS[kind].fetchesMediaUrls ? urls : [];
}

/** mediaReach of the media a post to `kind` needs the internet to reach (urlsFetchedBy). */
export function mediaReachFor(ctx: Pick<AppContext, 'config' | 'dnsLookup'>, kind: Network, media: MediaAt[]): MediaReach {
  return mediaReach(
    ctx,
    urlsFetchedBy(
      kind,
      media.map((m) => m.url),
    ),
  );
}

/**
 * Starts resolving every host of `urls` now (before a transaction, say), for `faults` to use
 * later; nothing is looked up when private media is allowed.
 */
export function mediaReach(ctx: Pick<AppContext, 'config' | 'dnsLookup'>, urls: string[]): MediaReach {
  const verdicts = new Map<string, Promise<Verdict>>();
  if (!ctx.config.media.allowPrivate) {
    const deadline = new Promise<Verdict>((resolve) => setTimeout(() => resolve({ ok: true }), RESOLVE_TIMEOUT_MS).unref());
    for (const url of urls) {
      const host = hostOf(url);
      if (host === null || verdicts.has(host.hostname)) continue;
      if (verdicts.size >= MAX_HOSTS_RESOLVED) break;
      verdicts.set(host.hostname, Promise.race([verdictOf(ctx, host), deadline]));
    }
  }
  return {
    async faults(kind, items) {
      if (
        urlsFetchedBy(
          kind,
          items.map((item) => item.url),
        ).length === 0 ||
        ctx.config.media.allowPrivate
      )
        return [];
      const found = await Promise.all(
        items.map(async (item): Promise<FieldFault | null> => {
          const host = hostOf(item.url);
          const verdict = host ? await verdicts.get(host.hostname) : undefined;
          return verdict && !verdict.ok ? { path: item.path, message: message(verdict.why) } : null;
        }),
      );
      return found.filter((fault) => fault !== null);
    },
  };
}

/**
 * Starts resolving the media hosts of an edit or follow-up of thread `threadId` once the caller's
 * access to it is known, and only for a thread to a network that fetches media from its URL: nobody has a host resolved through
 * another's thread (or one that is not there). The write's transaction checks access again.
 */
export async function threadMediaReach(ctx: AppContext, account: AccountRow, threadId: string, urls: string[]): Promise<MediaReach> {
  if (urls.length === 0 || ctx.config.media.allowPrivate) return mediaReach(ctx, []);
  const thread = await foundOrNull(() => requireAccessibleThread(ctx.db, account, threadId));
  const kind = thread ? (await getProvider(ctx.db, thread.provider_id)).kind : null;
  return mediaReach(ctx, urlsFetchedBy(kind, urls));
}

/**
 * The media of posts as the client sent them (`posts.N.media.M.url`), well-formed items only;
 * none of a thread over its count of posts (a fault already).
 */
export function mediaOfPosts(posts: unknown, prefix = 'posts'): MediaAt[] {
  if (!Array.isArray(posts) || posts.length > POSTS_PER_THREAD_MAX) return [];
  return posts.flatMap((post: unknown, i) => (isRecord(post) ? mediaItems(post.media, `${prefix}.${i}.media`) : []));
}

/** `media.M.url` of one post's (or follow-up's) media list; none of a list over its count (a fault already). */
export function mediaItems(media: unknown, prefix = 'media'): MediaAt[] {
  if (!Array.isArray(media) || media.length > MEDIA_ITEMS_MAX) return [];
  return media.flatMap((item: unknown, i) => (isRecord(item) && typeof item.url === 'string' ? [{ path: `${prefix}.${i}.url`, url: item.url }] : []));
}

function hostOf(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? url : null;
  } catch {
    return null;
  }
}

async function verdictOf(ctx: Pick<AppContext, 'dnsLookup'>, url: URL): Promise<Verdict> {
  try {
    await permittedAddresses(url, ctx.dnsLookup, isPublicAddress);
    return { ok: true };
  } catch (err) {
    if (err instanceof GuardedFetchError && err.fault === 'refused-address') return { ok: false, why: `${err.message}` };
    if (err instanceof GuardedFetchError && err.fault === 'not-found') return { ok: false, why: `its host ${url.hostname} does not resolve` };
    return { ok: true }; // a resolver failure says nothing about the URL
  }
}

function message(why: string): string {
  return (
    `Threads fetches media itself and cannot fetch this URL: ${why}. Use a URL on a public host; ` +
    'for uploads, set PUBLIC_URL to a public address or use S3 storage (SKEIN_MEDIA_S3_BUCKET), or set SKEIN_ALLOW_PRIVATE_MEDIA=1 in tests'
  );
}
