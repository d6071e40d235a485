import { GuardedFetchError, guardedFetch, type LookupAll } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { readStoredUpload, type StoredMediaSource } from '../bluesky/stored-media.js';
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
import type { InstanceLimits, MastodonClient, MastodonStatus } from './client.js';

/**
 * Publishes to any Mastodon server (decisions.md "Mastodon"): each post a status, each reply
 * `in_reply_to_id` the previous one. The uploads' ids are saved (`containerId` = `m:<ids>`)
 * before the status call, so a retry knows a status may be out: it looks among the account's
 * own recent statuses first, and only then sends again, with the same Idempotency-Key (derived
 * from the post id, which the server honours for an hour).
 */

/** A post written this long after a status cannot be that status (clocks may disagree). */
const WRITTEN_AT_MARGIN_MS = 10 * 60_000;
/** How many pages of 40 recent statuses the lookup of a lost answer reads. */
const LOOKUP_PAGES = 3;
/** Media still processing is looked at again after as long as it has waited (5 s…60 s), up to 10 minutes after the upload. */
const COME_BACK = { firstDelayMs: 5_000, maxDelayMs: 60_000, maxWaitMs: 10 * 60_000 };
/** A caller that cannot come back polls in-process: today none with media (the plug has none; a thread's posts and follow-up replies come back through their queues). */
const POLLING = { firstDelayMs: 1_000, maxDelayMs: 15_000, maxWaitMs: 5 * 60_000 };
const MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 60_000;
const CONTAINER_PREFIX = 'm:';

export interface MastodonPlatformOptions {
  client: MastodonClient;
  /** This server's uploads, read from the media storage; any other URL is downloaded through the guarded fetch. */
  uploads: StoredMediaSource | null;
  allowPrivateMedia: boolean;
  lookup?: LookupAll;
  sleep?: (ms: number) => Promise<void>;
}

export class MastodonPlatform implements Platform {
  readonly kind = 'MASTODON' as const;
  readonly #client: MastodonClient;
  readonly #uploads: StoredMediaSource | null;
  readonly #allowAddress: (address: string) => boolean;
  readonly #lookup: LookupAll | undefined;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: MastodonPlatformOptions) {
    this.#client = options.client;
    this.#uploads = options.uploads;
    this.#allowAddress = addressPolicy(options.allowPrivateMedia);
    this.#lookup = options.lookup;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async publishPost(input: PublishInput): Promise<PublishedRef> {
    const { instance, token } = credentials(input.account);
    const known = input.progress.networkPostId;
    if (known) return this.#describe(instance, token, known);
    let mediaIds: string[];
    const saved = input.progress.containerId;
    if (saved?.startsWith(CONTAINER_PREFIX)) {
      // An earlier attempt may have sent the status: look before sending again.
      mediaIds = mediaIdsOf(saved);
      const found = await this.#findPublished(instance, token, input, mediaIds);
      if (found) return this.#record(input, saved, found);
    } else {
      mediaIds = await this.#uploadAll(instance, token, input);
      await input.onProgress({ containerId: containerOf(mediaIds), networkPostId: null, cid: null });
    }
    const container = containerOf(mediaIds);
    await this.#waitForMedia(instance, token, input, mediaIds, container);
    await input.confirmLease();
    const { post, replyTo } = input;
    const status = await this.#client.createStatus(instance, token, {
      status: post.text,
      inReplyToId: replyTo?.parent.networkPostId ?? null,
      mediaIds,
      spoilerText: post.options?.contentWarning ?? null,
      // Mastodon takes an ISO 639 code: a tag's language subtag (`pt-BR` → `pt`).
      language: post.options?.langs[0]?.split('-')[0]?.toLowerCase() ?? null,
      sensitive: post.isSpoilerMedia && mediaIds.length > 0,
      idempotencyKey: idempotencyKeyOf(post.id),
    });
    return this.#record(input, container, status);
  }

  async repost(account: PlatformAccount, ref: PublishedRef): Promise<void> {
    const { instance, token } = credentials(account);
    await this.#client.reblog(instance, token, ref.networkPostId);
  }

  async fetchAnalytics(account: PlatformAccount, ref: PublishedRef): Promise<Analytics> {
    const { instance, token } = credentials(account);
    const status = await this.#client.getStatus(instance, token, ref.networkPostId);
    return { views: null, likes: status.counts.favourites, replies: status.counts.replies, reposts: status.counts.reblogs, quotes: null, shares: null };
  }

  async fetchFollowers(account: PlatformAccount): Promise<number> {
    const { instance, token } = credentials(account);
    return (await this.#client.account(instance, token, account.providerUserId)).followersCount;
  }

  async fetchLimits(account: PlatformAccount): Promise<InstanceLimits> {
    return this.#client.instanceLimits(credentials(account).instance);
  }

  async lookUpPermalink(account: PlatformAccount, ref: PublishedRef): Promise<string | null> {
    const { instance, token } = credentials(account);
    return (await this.#client.getStatus(instance, token, ref.networkPostId)).url;
  }

  async #record(input: PublishInput, container: string, status: MastodonStatus): Promise<PublishedRef> {
    await input.onProgress({ containerId: container, networkPostId: status.id, cid: null });
    return { networkPostId: status.id, cid: null, permalink: status.url };
  }

  async #describe(instance: string, token: string, id: string): Promise<PublishedRef> {
    const url = await this.#client
      .getStatus(instance, token, id)
      .then((s) => s.url)
      .catch(() => null);
    return { networkPostId: id, cid: null, permalink: url };
  }

  /**
   * The status among the account's newest ones that this post became, or null: one carrying the
   * post's uploads (ids are the server's, so certain), or without media one replying to the same
   * status with the same text and content warning, not older than the post itself.
   */
  async #findPublished(instance: string, token: string, input: PublishInput, mediaIds: string[]): Promise<MastodonStatus | null> {
    const earliest = input.post.writtenAt.getTime() - WRITTEN_AT_MARGIN_MS;
    const parent = input.replyTo?.parent.networkPostId ?? null;
    let maxId: string | null = null;
    for (let page = 0; page < LOOKUP_PAGES; page++) {
      const statuses = await this.#client.recentStatuses(instance, token, input.account.providerUserId, maxId);
      for (const status of statuses) {
        if (mediaIds.length > 0 ? mediaIds.every((id) => status.mediaIds.includes(id)) : matchesText(status, input, parent)) return status;
      }
      const last = statuses.at(-1);
      if (!last || Date.parse(last.createdAt) < earliest) return null;
      maxId = last.id;
    }
    return null;
  }

  async #uploadAll(instance: string, token: string, input: PublishInput): Promise<string[]> {
    const ids: string[] = [];
    for (const [index, item] of input.post.media.entries()) {
      const file = await this.#readMedia(item);
      const uploaded = await this.#client.uploadMedia(instance, token, {
        ...file,
        name: `media-${index + 1}.${extensionOf(file.mimeType)}`,
        description: item.altText,
      });
      ids.push(uploaded.id);
    }
    return ids;
  }

  async #readMedia(item: MediaItem): Promise<{ bytes: Uint8Array; mimeType: string }> {
    const stored = await readStoredUpload(item.url, this.#uploads);
    if (stored) return { bytes: stored.bytes, mimeType: stored.row.mime_type };
    try {
      const res = await guardedFetch(item.url, { allowAddress: this.#allowAddress, timeoutMs: DOWNLOAD_TIMEOUT_MS, maxRedirects: 3, lookup: this.#lookup });
      if (res.status !== 200) {
        res.close();
        throw new PublishError(res.status >= 500 ? 'transient' : 'permanent', 'MEDIA_UNAVAILABLE', `downloading ${item.url} answered HTTP ${res.status}`);
      }
      return { bytes: await res.read(MAX_DOWNLOAD_BYTES), mimeType: res.contentType || 'application/octet-stream' };
    } catch (err) {
      if (err instanceof PublishError) throw err;
      const permanent = err instanceof GuardedFetchError && ['bad-url', 'refused-address', 'not-found', 'too-large'].includes(err.fault);
      throw new PublishError(permanent ? 'permanent' : 'transient', 'MEDIA_UNAVAILABLE', `downloading ${item.url} failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  /**
   * Waits until the server has processed every upload. A caller that can come back later is not
   * kept waiting: it is told when to look again (ContainerNotReady), up to COME_BACK.maxWaitMs
   * after the upload; other callers poll here, renewing the lease.
   */
  async #waitForMedia(instance: string, token: string, input: PublishInput, ids: string[], container: string): Promise<void> {
    const pending = async () => {
      for (const id of ids) if (!(await this.#client.mediaReady(instance, token, id))) return id;
      return null;
    };
    if (ids.length === 0 || (await pending()) === null) return;
    const now = this.#client.now();
    if (input.comeBackLater) {
      const savedAt = input.comeBackLater.containerSavedAt?.getTime() ?? now;
      const waited = Math.max(0, now - savedAt);
      if (waited >= COME_BACK.maxWaitMs) throw notProcessed(waited);
      const step = Math.min(Math.max(waited, COME_BACK.firstDelayMs), COME_BACK.maxDelayMs, COME_BACK.maxWaitMs - waited);
      throw new ContainerNotReady(container, new Date(now + step));
    }
    let waited = 0;
    let delay = POLLING.firstDelayMs;
    while (waited < POLLING.maxWaitMs) {
      await this.#sleep(delay);
      await input.confirmLease();
      waited += delay;
      if ((await pending()) === null) return;
      delay = Math.min(delay * 2, POLLING.maxDelayMs);
    }
    throw notProcessed(waited);
  }
}

function notProcessed(waitedMs: number): PublishError {
  return new PublishError(
    'transient',
    'MASTODON_MEDIA_NOT_READY',
    `The server was still processing the media ${Math.round(waitedMs / 1000)} s after the upload.`,
    {
      outcomeUnknown: false,
    },
  );
}

function credentials(account: PlatformAccount): { instance: string; token: string } {
  if (!account.accessToken || !account.serviceUrl) {
    throw new PublishError('auth', 'MASTODON_NOT_CONNECTED', `The Mastodon account ${account.username} has no access token; reconnect it.`);
  }
  return { instance: account.serviceUrl, token: account.accessToken };
}

/** One key per Skein post, the same on every attempt (the server remembers it for an hour). */
function idempotencyKeyOf(postId: string): string {
  return `skein-post-${postId}`;
}

function containerOf(mediaIds: string[]): string {
  return CONTAINER_PREFIX + mediaIds.join(',');
}

function mediaIdsOf(container: string): string[] {
  return container.slice(CONTAINER_PREFIX.length).split(',').filter(Boolean);
}

function matchesText(status: MastodonStatus, input: PublishInput, parent: string | null): boolean {
  if (status.inReplyToId !== parent || status.mediaIds.length > 0) return false;
  if (Date.parse(status.createdAt) < input.post.writtenAt.getTime() - WRITTEN_AT_MARGIN_MS) return false;
  return sameText(textOfHtml(status.content), input.post.text) && sameText(status.spoilerText, input.post.options?.contentWarning ?? '');
}

/** The status's HTML as text: paragraphs and line breaks back to newlines, tags dropped, entities decoded. */
function textOfHtml(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z0-9]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (/^#\d+$/.test(name)) return String.fromCodePoint(Number(name.slice(1)));
      return entities[name.toLowerCase()] ?? whole;
    });
}

/** The server rewrites whitespace when it formats a status; nothing else is forgiven. */
function sameText(a: string, b: string): boolean {
  const normalise = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();
  return normalise(a) === normalise(b);
}

function extensionOf(mimeType: string): string {
  const known: Record<string, string> = {
    'image/jpeg': 'jpg',
    'image/png': 'png',
    'image/gif': 'gif',
    'image/webp': 'webp',
    'video/mp4': 'mp4',
    'video/quicktime': 'mov',
  };
  return known[mimeType] ?? 'bin';
}
