/**
 * What the publisher needs from a network. One implementation per network lives beside this
 * file (threads/, bluesky/). The claim loop never talks HTTP itself; it calls these.
 *
 * Exactly-once contract: a network call whose outcome is unknown (timeout, connection reset,
 * 5xx after the request was sent) must never be blindly repeated. Each implementation keeps
 * enough state (`PostProgress`) to ask the network first, through `onProgress`, which the
 * publisher persists BEFORE the call that could create a post.
 */

export type NetworkKind = 'THREADS' | 'BLUESKY';

/** Credentials and identity of a connected account, tokens already decrypted. */
export interface PlatformAccount {
  providerId: string;
  providerUserId: string;
  username: string;
  accessToken: string | null;
  refreshToken: string | null;
  tokenExpiresAt: Date | null;
  /** Bluesky: the PDS URL of this account's session; Threads: unused. */
  serviceUrl: string | null;
}

export interface MediaItem {
  url: string;
  altText: string | null;
}

export interface SpoilerRange {
  offset: number;
  length: number;
}

export interface PostToPublish {
  /** Skein post id (UUIDv7). Bluesky derives its record key from it. */
  id: string;
  text: string;
  topic: string | null;
  media: MediaItem[];
  /** UTF-16 offsets; Threads only (Bluesky ignores them). */
  spoilerRanges: SpoilerRange[];
  isSpoilerMedia: boolean;
}

/** Network-side state of one post, saved after every step so a retry can resume. */
export interface PostProgress {
  /** Threads: the (carousel or single) container id, set once created. */
  containerId: string | null;
  /** Threads media id, or Bluesky at:// URI, set once published. */
  networkPostId: string | null;
  /** Bluesky record CID. */
  cid: string | null;
}

/** A published post, as needed for replies and for the API's permaLink. */
export interface PublishedRef {
  networkPostId: string;
  cid: string | null;
  permalink: string | null;
}

export interface ReplyTarget {
  root: PublishedRef;
  parent: PublishedRef;
}

export interface Analytics {
  views: number | null;
  likes: number | null;
  replies: number | null;
  reposts: number | null;
  quotes: number | null;
  shares: number | null;
}

export interface Platform {
  readonly kind: NetworkKind;
  /**
   * Publishes one post (as a reply when `replyTo` is given) or, when `progress` shows an earlier
   * attempt got far, finishes or confirms it without creating a second post.
   * `onProgress` must be awaited by the implementation after each step that creates state on
   * the network (container created), before the next step.
   */
  publishPost(input: {
    account: PlatformAccount;
    post: PostToPublish;
    replyTo: ReplyTarget | null;
    progress: PostProgress;
    onProgress: (progress: PostProgress) => Promise<void>;
  }): Promise<PublishedRef>;
  /** Reposts a published post once. */
  repost(account: PlatformAccount, ref: PublishedRef): Promise<void>;
  /** Engagement counts of a published post; null where the network lacks a metric. */
  fetchAnalytics(account: PlatformAccount, ref: PublishedRef): Promise<Analytics>;
}

/**
 * Errors a Platform throws. Anything else thrown is treated as transient with unknown outcome.
 * `outcomeUnknown`: the request may have reached the network; resume via progress, never resend blindly.
 */
export class PublishError extends Error {
  constructor(
    readonly kind: 'transient' | 'permanent' | 'auth',
    readonly code: string,
    message: string,
    readonly options: { retryAfterMs?: number; outcomeUnknown?: boolean; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'PublishError';
  }
}
