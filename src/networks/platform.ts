/**
 * What the publisher needs from a network. One implementation per network lives beside this
 * file (threads/, bluesky/). The claim loop never talks HTTP itself; it calls these.
 *
 * Exactly-once contract: a network call whose outcome is unknown (timeout, connection reset,
 * 5xx after the request was sent) must never be blindly repeated. Each implementation keeps
 * enough state (`PostProgress`) to ask the network first, through `onProgress`, which the
 * publisher persists BEFORE the call that could create a post.
 *
 * Fencing: the worker may lose its lease to another worker at any moment (a pause, a slow
 * answer). `confirmLease` and `onProgress` throw `LeaseLostError` then; the implementation lets
 * it through untouched, and the worker stops without touching the thread.
 */

import type { NetworkLimits, ReplyControl } from '../db/schema/index.js';
import type { NetworkKind } from './index.js';

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
  /** Bluesky: a link card for the first link when there is no media; true when absent. */
  linkPreview?: boolean;
  /** When the post was written in Skein: nothing the account published well before can be it. */
  writtenAt: Date;
  /** A thread's post: its network options (a follow-up reply or plug has none). */
  options?: PostOptions;
}

/**
 * The network options of decisions.md "Network options" a thread's post is published with,
 * the thread's included. The quote is resolved before the platform sees it: a Skein post is
 * its network reference here.
 */
export interface PostOptions {
  replyControl: ReplyControl;
  quotesDisabled: boolean;
  quote: QuoteTarget | null;
  /** `question`: LinkedIn's, required there (decisions.md "LinkedIn"); ignored elsewhere. */
  poll: { options: string[]; question?: string } | null;
  langs: string[];
  /** Mastodon's `spoiler_text`; ignored elsewhere. */
  contentWarning?: string | null;
}

/**
 * What a post quotes: a published Skein post's network id and CID, or the reference the user
 * gave (a Threads media id; a Bluesky at:// URI or bsky.app URL, `cid` null: read at publish).
 */
export interface QuoteTarget {
  networkPostId: string;
  cid: string | null;
}

/** Network-side state of one post, saved after every step so a retry can resume. */
export interface PostProgress {
  /**
   * What may already have reached the network, saved before the call that can create the post:
   * Threads, the (carousel or single) container id; Bluesky, the record key of a write whose
   * outcome is not known yet. Null once the network said for certain that nothing went out.
   * While it (or `networkPostId`) is set, Skein refuses edits of the post.
   */
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

export interface PublishInput {
  account: PlatformAccount;
  post: PostToPublish;
  replyTo: ReplyTarget | null;
  /** What earlier attempts saved. */
  progress: PostProgress;
  /**
   * Persists new network state. Must be awaited after each step that creates state on the
   * network (container created, post published), before the next step. A new container is
   * adopted only while the worker holds its lease and nobody else saved another one meanwhile;
   * otherwise it throws `LeaseLostError` and the container must not be published.
   */
  onProgress: (progress: PostProgress) => Promise<void>;
  /**
   * Renews the worker's lease, or throws `LeaseLostError`. Called right before the call that
   * makes a post public, and while waiting on the network, so a live worker keeps its thread.
   */
  confirmLease: () => Promise<void>;
  /**
   * Given when the caller can come back later: a container the network is still processing is
   * then not waited for in this call, which throws `ContainerNotReady` instead. Without it the
   * platform waits in-process (renewing the lease), as for a follow-up reply or a plug.
   */
  comeBackLater?: {
    /** When the saved container (`progress.containerId`) was saved: the wait is bounded from then. */
    containerSavedAt: Date | null;
  };
}

/** The network clients the publisher uses, one per network this server publishes to. */
export type Platforms = Partial<Record<NetworkKind, Platform>>;

/** `K`: a network not yet in the registry (`NetworkKind`) may implement it before it is listed there. */
/** The network options that are the whole thread's, not one post's. */
export type ThreadOptions = Pick<PostOptions, 'replyControl' | 'quotesDisabled'>;

export interface Platform<K extends string = NetworkKind> {
  readonly kind: K;
  /**
   * Publishes one post (as a reply when `replyTo` is given) or, when `progress` shows an earlier
   * attempt got far, finishes or confirms it without creating a second post.
   */
  publishPost(input: PublishInput): Promise<PublishedRef>;
  /** Reposts a published post once. */
  repost(account: PlatformAccount, ref: PublishedRef): Promise<void>;
  /** Engagement counts of a published post; null where the network lacks a metric. */
  fetchAnalytics(account: PlatformAccount, ref: PublishedRef): Promise<Analytics>;
  /** The account's follower count now. */
  fetchFollowers(account: PlatformAccount): Promise<number>;
  /** The server's own limits now (Mastodon's /api/v2/instance), for a network whose servers set their own: read again daily with the follower count. */
  fetchLimits?(account: PlatformAccount): Promise<NetworkLimits>;
  /** The public address of a published post (for one whose permalink could not be read at publish time). */
  lookUpPermalink(account: PlatformAccount, ref: PublishedRef): Promise<string | null>;
  /**
   * What the network needs once every post of a thread is out (LinkedIn closes the comments of a
   * `replyControl: nobody` thread). Called before the thread is recorded as published, so a crash
   * or a failure calls it again on the retry: it must be harmless twice.
   */
  afterThread?(account: PlatformAccount, root: PublishedRef, options: ThreadOptions): Promise<void>;
}

/**
 * The worker no longer holds the lease of what it was publishing: another worker took it over
 * (this one was too slow or paused). Not a publishing failure: the new holder carries on.
 */
export class LeaseLostError extends Error {
  constructor(what: string) {
    super(`lease lost: ${what} is held by another worker now`);
    this.name = 'LeaseLostError';
  }
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

/**
 * Not a failure: the network is still processing the saved container, and the caller that
 * asked for `comeBackLater` should publish the post again at `retryAt`, which resumes on that
 * same container (it is saved). Nothing was posted.
 */
export class ContainerNotReady extends Error {
  constructor(
    readonly containerId: string,
    readonly retryAt: Date,
  ) {
    super(`container ${containerId} is still being processed; come back at ${retryAt.toISOString()}`);
    this.name = 'ContainerNotReady';
  }
}
