import { buffer } from 'node:stream/consumers';
import type { NetworkLimits } from '../../db/schema/index.js';
import { GuardedFetchError, guardedFetch, type LookupAll } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { findStoredUpload, type StoredMediaSource } from '../bluesky/stored-media.js';
import { spool } from '../bluesky/video.js';
import {
  type Analytics,
  ContainerNotReady,
  type MediaItem,
  type Platform,
  type PlatformAccount,
  PublishError,
  type PublishedRef,
  type PublishInput,
} from '../platform.js';
import type { MediaCategory, MediaStream, XAuth, XClient, XPost } from './client.js';
import { X, X_LIMITS, X_STATUS_URL } from './rules.js';

/**
 * Publishes to X (decisions.md "X"): each post `POST /2/tweets`, each reply to the previous one.
 * X takes no idempotency key, so the order is: upload the media (saved as `xm:<ids>`, so a retry
 * does not upload again and a restart waits on the same uploads), then save an attempt marker
 * (`xa:<start ms>:<ids>`) before the call that creates the post. A retry that finds the marker
 * looks among the account's own posts created since the attempt began (same media, or same text
 * replying to the same post) before it sends again; X's duplicate-content refusal sends it
 * looking once more, and is a failure when nothing is found.
 */

/** X's clock and ours may disagree: a post this long before the attempt began may still be it. */
const CLOCK_MARGIN_MS = 60_000;
/** How many pages of 100 recent posts the lookup of a lost answer reads. */
const LOOKUP_PAGES = 3;
/** Media X is still processing: looked at again after as long as it has waited (5 s…60 s), up to 10 minutes. */
const COME_BACK = { firstDelayMs: 5_000, maxDelayMs: 60_000, maxWaitMs: 10 * 60_000 };
/** A caller that cannot come back polls in-process, at least as far apart as X's `check_after_secs`. */
const POLLING = { firstDelayMs: 1_000, maxDelayMs: 15_000, maxWaitMs: 10 * 60_000 };
/**
 * How long after its upload a media id is still sent: X keeps uploads 24 hours
 * (`expires_after_secs` 86400, x-api.md §4); an hour is left for the processing and the call.
 */
const MEDIA_USABLE_MS = 23 * 3_600_000;
/** A poll stays open a day (decisions.md "X"). */
const POLL_MINUTES = 1440;
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;
const UPLOADED = 'xm:';
const ATTEMPTED = 'xa:';
const PROCESSING = '~';

export interface XPlatformOptions {
  client: XClient;
  /** This server's uploads, read from the media storage; any other URL is downloaded through the guarded fetch. */
  uploads: StoredMediaSource | null;
  allowPrivateMedia: boolean;
  lookup?: LookupAll;
  sleep?: (ms: number) => Promise<void>;
}

/** What an earlier attempt saved in `containerId`. */
interface Saved {
  mediaIds: string[];
  /** Whether X said it processes them (a GIF or video): waited on before the post. */
  processing: boolean;
  /** When their upload began; null in a marker saved before it was kept (taken as too old to send). */
  uploadedAt: number | null;
  /** When the call that creates the post was first made; null: it never was. */
  attemptedAt: number | null;
}

export class XPlatform implements Platform<'X'> {
  readonly kind = 'X' as const;
  readonly #client: XClient;
  readonly #uploads: StoredMediaSource | null;
  readonly #allowAddress: (address: string) => boolean;
  readonly #lookup: LookupAll | undefined;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: XPlatformOptions) {
    this.#client = options.client;
    this.#uploads = options.uploads;
    this.#allowAddress = addressPolicy(options.allowPrivateMedia);
    this.#lookup = options.lookup;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async publishPost(input: PublishInput): Promise<PublishedRef> {
    const token = tokenOf(input.account);
    const known = input.progress.networkPostId;
    if (known) return refOf(input.account, known);
    const saved = savedOf(input.progress.containerId);
    if (saved?.attemptedAt != null) {
      const found = await this.#findPublished(token, input, saved.mediaIds, saved.attemptedAt);
      if (found) return this.#record(input, input.progress.containerId, found.id);
    }
    // X forgets uploads after a day: ids saved longer ago are not sent (X would refuse them), the media go up again.
    const usable = saved && (saved.mediaIds.length === 0 || (saved.uploadedAt !== null && this.#client.now() - saved.uploadedAt < MEDIA_USABLE_MS));
    const media = usable ? saved : { ...(await this.#uploadAll(token, input)), attemptedAt: saved?.attemptedAt ?? null };
    const { mediaIds } = media;
    if (media !== saved && mediaIds.length) await input.onProgress({ containerId: markerOf(media), networkPostId: null, cid: null });
    if (media.processing) await this.#waitForMedia(token, input, media);
    const attemptedAt = saved?.attemptedAt ?? this.#client.now();
    const attempt = markerOf({ ...media, attemptedAt });
    await input.onProgress({ containerId: attempt, networkPostId: null, cid: null });
    await input.confirmLease();
    try {
      const { id } = await this.#client.createPost(token, newPostOf(input, mediaIds));
      return await this.#record(input, attempt, id);
    } catch (err) {
      // "Duplicate content" after an earlier attempt: it may have landed after all. Only a post
      // found says so; on a first attempt nothing of ours can be out, so the refusal stands.
      if (!(err instanceof PublishError && err.code === 'X_DUPLICATE') || saved?.attemptedAt == null) throw err;
      const found = await this.#findPublished(token, input, mediaIds, attemptedAt);
      if (found) return this.#record(input, attempt, found.id);
      throw err;
    }
  }

  async repost(account: PlatformAccount, ref: PublishedRef): Promise<void> {
    try {
      await this.#client.retweet(tokenOf(account), account.providerUserId, ref.networkPostId);
    } catch (err) {
      // A repeat after a lost answer: X may say it is reposted already, which is what was asked.
      if (err instanceof PublishError && err.code === 'X_REFUSED' && /already (re)?(tweet|post)ed/i.test(err.message)) return;
      throw err;
    }
  }

  async fetchAnalytics(account: PlatformAccount, ref: PublishedRef): Promise<Analytics> {
    const post = await this.#client.getPost(tokenOf(account), ref.networkPostId);
    if (!post) throw new PublishError('permanent', 'X_POST_GONE', `The post ${ref.networkPostId} is gone from X.`);
    const m = post.metrics;
    return {
      views: m?.views ?? null,
      likes: m?.likes ?? null,
      replies: m?.replies ?? null,
      reposts: m?.reposts ?? null,
      quotes: m?.quotes ?? null,
      shares: null,
    };
  }

  async fetchFollowers(account: PlatformAccount): Promise<number> {
    return (await this.#client.me(tokenOf(account))).followersCount;
  }

  /** The account's own limits (an X Premium subscriber's posts may hold 25,000), read again daily with the follower count. */
  async fetchLimits(account: PlatformAccount): Promise<NetworkLimits> {
    return xAccountLimits((await this.#client.me(tokenOf(account))).subscriptionType);
  }

  async lookUpPermalink(account: PlatformAccount, ref: PublishedRef): Promise<string | null> {
    return permalinkOf(account.username, ref.networkPostId);
  }

  async #record(input: PublishInput, container: string | null, id: string): Promise<PublishedRef> {
    await input.onProgress({ containerId: container, networkPostId: id, cid: null });
    return refOf(input.account, id);
  }

  /**
   * The post among the account's own, created since the attempt began, that this one became:
   * one carrying its uploads (X's ids, so certain), or without media one replying to the same
   * post (or to none) with the same text.
   */
  async #findPublished(token: XAuth, input: PublishInput, mediaIds: string[], attemptedAt: number): Promise<XPost | null> {
    const startTime = new Date(attemptedAt - CLOCK_MARGIN_MS);
    const parent = input.replyTo?.parent.networkPostId ?? null;
    let pageToken: string | null = null;
    for (let page = 0; page < LOOKUP_PAGES; page++) {
      const { posts, next } = await this.#client.recentPosts(token, input.account.providerUserId, { startTime, pageToken });
      const found = posts.find((post) =>
        mediaIds.length > 0
          ? mediaIds.every((id) => post.mediaIds.includes(id))
          : post.mediaIds.length === 0 && post.inReplyToId === parent && sameText(post.text, input.post.text),
      );
      if (found) return found;
      if (!next) return null;
      pageToken = next;
    }
    return null;
  }

  async #uploadAll(token: XAuth, input: PublishInput): Promise<Saved> {
    const files: MediaFile[] = [];
    try {
      for (const item of input.post.media) files.push(await this.#readMedia(item));
      checkMix(files.map((f) => f.category));
      const uploaded: Saved = { mediaIds: [], processing: false, uploadedAt: this.#client.now(), attemptedAt: null };
      for (const [index, file] of files.entries()) {
        let id: string;
        if (file.category === 'tweet_image') id = await this.#client.uploadImage(token, await file.bytes(), file.mimeType);
        else {
          const state = await this.#client.uploadChunked(token, await file.stream(), file.mimeType, file.category);
          id = state.id;
          if (state.state === 'failed') throw mediaFailed(state.error);
          uploaded.processing ||= state.state === 'pending' || state.state === 'in_progress';
        }
        const alt = input.post.media[index]!.altText;
        if (alt) await this.#client.setAltText(token, id, alt);
        uploaded.mediaIds.push(id);
      }
      return uploaded;
    } finally {
      await Promise.all(files.map((f) => f.dispose()));
    }
  }

  /**
   * A medium, its size and kind known before a byte is sent: an upload of this server streams
   * from the media storage when sent; any other URL is downloaded to a temporary file (a video
   * may be 512 MB), within the kind's limit. Images (5 MB) are read whole when sent.
   */
  async #readMedia(item: MediaItem): Promise<MediaFile> {
    const stored = await findStoredUpload(item.url, this.#uploads);
    if (stored) {
      const { row } = stored;
      const category = categoryOf(row.mime_type);
      checkSize(item.url, category, row.bytes);
      const stream = async (): Promise<MediaStream> => ({ totalBytes: row.bytes, chunks: readingOf(item.url, await stored.open()) });
      return { mimeType: row.mime_type, category, stream, bytes: async () => new Uint8Array(await buffer((await stream()).chunks)), dispose: async () => {} };
    }
    const file = await this.#download(item);
    checkSize(item.url, file.category, file.size);
    return file;
  }

  async #download(item: MediaItem): Promise<MediaFile> {
    try {
      const res = await guardedFetch(item.url, { allowAddress: this.#allowAddress, timeoutMs: DOWNLOAD_TIMEOUT_MS, maxRedirects: 3, lookup: this.#lookup });
      if (res.status !== 200) {
        res.close();
        throw new PublishError(res.status >= 500 ? 'transient' : 'permanent', 'MEDIA_UNAVAILABLE', `downloading ${item.url} answered HTTP ${res.status}`);
      }
      const mimeType = res.contentType || 'application/octet-stream';
      const category = categoryOf(mimeType);
      // One byte over the kind's limit is enough to refuse it (checkSize says so with the limit).
      const spooled = await spool(res.stream(limitOf(category) + 1), mimeType);
      const { data } = spooled;
      return {
        mimeType,
        category,
        size: data.size,
        stream: async () => ({ totalBytes: data.size, chunks: readingOf(item.url, data.stream()) }),
        bytes: async () => new Uint8Array(await data.arrayBuffer()),
        dispose: spooled.dispose,
      };
    } catch (err) {
      if (err instanceof PublishError) throw err;
      const tooLarge = err instanceof GuardedFetchError && err.fault === 'too-large';
      if (tooLarge) throw new PublishError('permanent', 'MEDIA_TOO_LARGE', `${item.url} is larger than X takes (${err.message}).`, { cause: err });
      const permanent = err instanceof GuardedFetchError && ['bad-url', 'refused-address', 'not-found'].includes(err.fault);
      throw new PublishError(permanent ? 'permanent' : 'transient', 'MEDIA_UNAVAILABLE', `downloading ${item.url} failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  /**
   * Waits until X has processed every upload (GIF and video; images are ready at once). A caller
   * that can come back later is told when to look again (ContainerNotReady); others poll here,
   * renewing the lease. X's `failed` fails the post with its reason.
   */
  async #waitForMedia(token: XAuth, input: PublishInput, media: Saved): Promise<void> {
    const pending = async (): Promise<number | null> => {
      for (const id of media.mediaIds) {
        const status = await this.#client.mediaStatus(token, id);
        if (status.state === 'failed') throw mediaFailed(status.error);
        if (status.state === 'pending' || status.state === 'in_progress') return (status.checkAfterSecs ?? 1) * 1000;
      }
      return null;
    };
    let wait = await pending();
    if (wait === null) return;
    // An earlier attempt stays in the marker: the retry that finds it looks for that post first.
    const container = markerOf(media);
    const now = this.#client.now();
    if (input.comeBackLater) {
      const savedAt = input.comeBackLater.containerSavedAt?.getTime() ?? now;
      const waited = Math.max(0, now - savedAt);
      if (waited >= COME_BACK.maxWaitMs) throw notProcessed(waited);
      const step = Math.min(Math.max(waited, wait, COME_BACK.firstDelayMs), COME_BACK.maxDelayMs, COME_BACK.maxWaitMs - waited);
      throw new ContainerNotReady(container, new Date(now + step));
    }
    let waited = 0;
    let delay = POLLING.firstDelayMs;
    while (waited < POLLING.maxWaitMs) {
      const step = Math.max(delay, wait);
      await this.#sleep(step);
      await input.confirmLease();
      waited += step;
      wait = await pending();
      if (wait === null) return;
      delay = Math.min(delay * 2, POLLING.maxDelayMs);
    }
    throw notProcessed(waited);
  }
}

/** A medium ready to send: its bytes are read (or streamed) only then. */
interface MediaFile {
  mimeType: string;
  category: MediaCategory;
  size?: number;
  /** For the chunked upload (GIF, video). */
  stream(): Promise<MediaStream>;
  /** For the simple upload (an image, 5 MB at most). */
  bytes(): Promise<Uint8Array>;
  /** Removes a temporary copy. */
  dispose(): Promise<void>;
}

/** The medium's bytes as they are read; a read that fails mid-way fails the upload as a transient fault. */
async function* readingOf(url: string, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch (err) {
    throw new PublishError('transient', 'MEDIA_UNAVAILABLE', `reading ${url} failed: ${(err as Error).message}`, { cause: err, outcomeUnknown: false });
  }
}

function categoryOf(mimeType: string): MediaCategory {
  return mimeType === 'image/gif' ? 'tweet_gif' : mimeType.startsWith('video/') ? 'tweet_video' : 'tweet_image';
}

function limitOf(category: MediaCategory): number {
  return category === 'tweet_gif' ? X_LIMITS.gifBytes : category === 'tweet_video' ? X.limits.videoBytes : X.limits.imageBytes;
}

function checkSize(url: string, category: MediaCategory, size: number | undefined): void {
  const limit = limitOf(category);
  if (size === undefined || size <= limit) return;
  const kind = category === 'tweet_gif' ? 'a GIF' : category === 'tweet_video' ? 'a video' : 'an image';
  throw new PublishError('permanent', 'MEDIA_TOO_LARGE', `${url} is ${size} bytes; X takes ${kind} of up to ${limit} bytes.`);
}

/** 4 images, or 1 GIF, or 1 video (§4): the shared limits cannot say that a GIF goes alone. */
function checkMix(categories: MediaCategory[]): void {
  const moving = categories.filter((c) => c !== 'tweet_image').length;
  if (moving > 0 && categories.length > 1) {
    throw new PublishError('permanent', 'MEDIA_MIX', 'X takes up to 4 images, or 1 GIF, or 1 video on a post, not more than one of them.');
  }
  if (categories.length > X.limits.mediaPerPost) throw new PublishError('permanent', 'MEDIA_MIX', `X takes up to ${X.limits.mediaPerPost} images on a post.`);
}

function newPostOf(input: PublishInput, mediaIds: string[]) {
  const options = input.post.options;
  return {
    text: input.post.text,
    inReplyToId: input.replyTo?.parent.networkPostId ?? null,
    mediaIds,
    quoteId: options?.quote ? quoteIdOf(options.quote.networkPostId) : null,
    poll: options?.poll ? { options: options.poll.options, durationMinutes: POLL_MINUTES } : null,
    replySettings: replySettingsOf(options?.replyControl ?? 'everyone'),
  };
}

/** decisions.md "X": `everyone` sends none; `followers` and `nobody` X cannot say (refused at create too). */
function replySettingsOf(control: string): string | null {
  switch (control) {
    case 'everyone':
      return null;
    case 'following':
      return 'following';
    case 'mentioned':
      return 'mentionedUsers';
    default:
      throw new PublishError('permanent', 'X_REPLY_CONTROL', `X cannot limit replies to "${control}".`);
  }
}

/** A quoted post: an X id, or its x.com / twitter.com address. */
function quoteIdOf(reference: string): string {
  if (/^\d{1,19}$/.test(reference)) return reference;
  const id = X_STATUS_URL.exec(reference)?.[1];
  if (!id) throw new PublishError('permanent', 'X_QUOTE_INVALID', `"${reference}" is not a post on X.`);
  return id;
}

/** The uploads as saved: their ids, after `~` when X processes them. */
function mediaListOf(media: Saved): string {
  return (media.processing ? PROCESSING : '') + media.mediaIds.join(',');
}

/**
 * The marker saved in `containerId`: `xm:<upload ms>:<ids>` once the media are up, `xa:<attempt
 * ms>:<upload ms>:<ids>` once the call that creates the post was made.
 */
function markerOf(media: Saved): string {
  const uploaded = `${media.uploadedAt ?? 0}:${mediaListOf(media)}`;
  return media.attemptedAt === null ? UPLOADED + uploaded : `${ATTEMPTED}${media.attemptedAt}:${uploaded}`;
}

/** A marker as markerOf writes it, or as it was written before the upload time was kept (`xm:<ids>`, `xa:<attempt ms>:<ids>`). */
function savedOf(containerId: string | null): Saved | null {
  const media = (list: string) => ({
    mediaIds: list.replace(PROCESSING, '').split(',').filter(Boolean),
    processing: list.startsWith(PROCESSING),
  });
  const uploaded = (rest: string) => {
    const [, at, list] = /^(?:(\d+):)?(.*)$/.exec(rest)!;
    return { ...media(list!), uploadedAt: at === undefined || at === '0' ? null : Number(at) };
  };
  if (containerId?.startsWith(UPLOADED)) return { ...uploaded(containerId.slice(UPLOADED.length)), attemptedAt: null };
  const attempt = containerId?.startsWith(ATTEMPTED) ? /^(\d+):(.*)$/.exec(containerId.slice(ATTEMPTED.length)) : null;
  return attempt ? { ...uploaded(attempt[2]!), attemptedAt: Number(attempt[1]) } : null;
}

function mediaFailed(reason: string | null): PublishError {
  return new PublishError('permanent', 'X_MEDIA_FAILED', `X could not process the media: ${reason ?? 'failed'}.`);
}

function notProcessed(waitedMs: number): PublishError {
  return new PublishError('transient', 'X_MEDIA_NOT_READY', `X was still processing the media ${Math.round(waitedMs / 1000)} s after the upload.`, {
    outcomeUnknown: false,
  });
}

/** The account's token with its X user id: X's rate-limit holds are the user's, whichever token it has now. */
function tokenOf(account: PlatformAccount): XAuth {
  if (!account.accessToken) throw new PublishError('auth', 'X_NOT_CONNECTED', `The X account ${account.username} has no access token; reconnect it.`);
  return { token: account.accessToken, userId: account.providerUserId };
}

function permalinkOf(username: string, id: string): string {
  return `https://x.com/${encodeURIComponent(username)}/status/${id}`;
}

function refOf(account: PlatformAccount, id: string): PublishedRef {
  return { networkPostId: id, cid: null, permalink: permalinkOf(account.username, id) };
}

/**
 * Whether X's copy of a post is the text sent: X reads back URLs as t.co links and `& < >`
 * escaped (§5), so both sides lose their URLs and entities and their spacing before comparing.
 */
function sameText(read: string, sent: string): boolean {
  const normalise = (text: string) =>
    text
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .normalize('NFC')
      .replace(/\bhttps?:\/\/\S+/gi, '<url>')
      .replace(/\s+/g, ' ')
      .trim();
  return normalise(read) === normalise(sent);
}

/** An account's own limits by its subscription (users/me `subscription_type`): Premium posts may hold 25,000 characters. */
export function xAccountLimits(subscriptionType: string): NetworkLimits {
  const premium = subscriptionType === 'Premium' || subscriptionType === 'PremiumPlus';
  return {
    maxCharacters: premium ? X_LIMITS.premiumTextPerPost : X.limits.textPerPost,
    maxMediaAttachments: X.limits.mediaPerPost,
    charactersReservedPerUrl: X_LIMITS.charactersPerUrl,
    imageSizeLimit: X.limits.imageBytes,
    videoSizeLimit: X.limits.videoBytes,
    descriptionLimit: X_LIMITS.altTextChars,
  };
}
