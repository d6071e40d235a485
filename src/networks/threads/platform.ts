import type { ReplyControl } from '../../db/schema/index.js';
import { mediaTypeOfUrl } from '../../lib/media-type.js';
import {
  type Analytics,
  ContainerNotReady,
  type MediaItem,
  type Platform,
  type PlatformAccount,
  type PostOptions,
  PublishError,
  type PublishedRef,
  type PublishInput,
} from '../platform.js';
import type { ContainerState, ThreadsAccountApi, ThreadsClient } from './client.js';
import { checkMediaReachable, type MediaCheckOptions } from './media-check.js';

export { ThreadsClient } from './client.js';

/** How long to wait for Meta to process a container (docs/reference/threads-api.md §4.4: at most ~5 min). */
export interface ContainerPolling {
  firstDelayMs: number;
  maxDelayMs: number;
  maxWaitMs: number;
}

const DEFAULT_POLLING: ContainerPolling = { firstDelayMs: 2_000, maxDelayMs: 60_000, maxWaitMs: 5 * 60_000 };
/**
 * A video container is looked at again after as long as it has waited so far (5 s, 10 s, 20 s…
 * at most 60 s), by a caller that comes back later, until 10 minutes after it was saved
 * (decisions.md "Media").
 */
const COME_BACK: ContainerPolling = { firstDelayMs: 5_000, maxDelayMs: 60_000, maxWaitMs: 10 * 60_000 };
/** Publishing a container Meta calls ready can still answer "not ready" (code 24); retried this often. */
const MAX_PUBLISH_TRIES = 3;
/** /me/threads and /me/replies answer at most 100 items per page. */
const RECENT_POSTS_LIMIT = 100;
const QUOTA_RETRY_MS = 60 * 60_000;
/** A quota reading is reused for this long (see QuotaReadings). */
const QUOTA_READING_TTL_MS = 60_000;
/** ...and only while at least this share of the quota is left after the posts counted since. */
const QUOTA_HEADROOM = 0.1;
/**
 * A post published this long before the Skein post was written cannot be it. Generous, because
 * the server's clock and Meta's may disagree, and missing the real post would be worse.
 */
const WRITTEN_AT_MARGIN_MS = 10 * 60_000;

export interface ThreadsPlatformOptions {
  client: ThreadsClient;
  /** Defaults to the client's sleep; tests pass one that moves a fake clock. */
  sleep?: (ms: number) => Promise<void>;
  polling?: Partial<ContainerPolling>;
  /** Each media URL is requested once before its container is made (media-check.ts); off when absent. */
  mediaCheck?: MediaCheckOptions;
}

/**
 * Publishes to Threads through media containers (create → wait until FINISHED → publish).
 * The container id is saved through `onProgress` before the publish call, and a retry asks Meta
 * about that container before doing anything else, so a post is never published twice.
 */
export class ThreadsPlatform implements Platform {
  readonly kind = 'THREADS' as const;
  readonly #client: ThreadsClient;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #polling: ContainerPolling;
  readonly #quotaReadings = new QuotaReadings();
  readonly #mediaCheck: MediaCheckOptions | null;

  constructor(options: ThreadsPlatformOptions) {
    this.#client = options.client;
    this.#mediaCheck = options.mediaCheck ?? null;
    this.#sleep = options.sleep ?? options.client.sleep;
    this.#polling = { ...DEFAULT_POLLING, ...options.polling };
  }

  async publishPost(input: PublishInput): Promise<PublishedRef> {
    const api = this.#api(input.account);
    const known = input.progress.networkPostId;
    if (known) return this.#describe(api, known);
    const resumed = input.progress.containerId ? await this.#resume(api, input, input.progress.containerId) : null;
    const mediaId = resumed ?? (await this.#publishNew(api, input));
    return this.#describe(api, mediaId);
  }

  /**
   * What Meta does with a second repost of one post is not documented, so a repost whose answer
   * was lost must not be sent again blindly: the account's recent posts are looked at first.
   */
  async repost(account: PlatformAccount, ref: PublishedRef): Promise<void> {
    const api = this.#api(account);
    const recent = await api.listRecentPosts({ replies: false, limit: RECENT_POSTS_LIMIT });
    if (recent.some((item) => item.mediaType === 'REPOST_FACADE' && item.repostedId === ref.networkPostId)) return;
    await api.repost(ref.networkPostId);
  }

  async lookUpPermalink(account: PlatformAccount, ref: PublishedRef): Promise<string | null> {
    return this.#api(account).getPermalink(ref.networkPostId);
  }

  async fetchAnalytics(account: PlatformAccount, ref: PublishedRef): Promise<Analytics> {
    const counts = await this.#api(account).getInsights(ref.networkPostId);
    return {
      views: counts.views ?? null,
      likes: counts.likes ?? null,
      replies: counts.replies ?? null,
      reposts: counts.reposts ?? null,
      quotes: counts.quotes ?? null,
      shares: counts.shares ?? null,
    };
  }

  async fetchFollowers(account: PlatformAccount): Promise<number> {
    return this.#api(account).getFollowersCount();
  }

  #api(account: PlatformAccount): ThreadsAccountApi {
    if (!account.accessToken)
      throw new PublishError('auth', 'THREADS_NOT_CONNECTED', `The Threads account @${account.username} has no access token; reconnect it.`);
    return this.#client.forAccount(account.accessToken);
  }

  /**
   * An earlier attempt saved a container: ask Meta what became of it. Returns the media id when
   * the post is (now) published, or null when the container expired and a new one is needed; a
   * container in ERROR fails the post with Meta's reason.
   */
  async #resume(api: ThreadsAccountApi, input: PublishInput, containerId: string): Promise<string | null> {
    // A container saved before its time was recorded is given the whole wait from now.
    const savedAt = input.comeBackLater?.containerSavedAt?.getTime() ?? this.#client.now();
    const items = savedItems(containerId);
    if (items) return this.#resumeItems(api, input, items, savedAt);
    const state = await this.#settledState(api, containerId, input, savedAt);
    if (state.status === 'PUBLISHED') return this.#recordPublished(input, containerId, await this.#findPublished(api, input));
    if (state.status === 'FINISHED') return this.#publishContainer(api, input, containerId);
    // Meta's reason is the post's error (a video waited for across claims ends here); only an
    // expired container is simply replaced.
    if (state.status === 'ERROR') await this.#requireFinished(input, state);
    await this.#dropDeadContainer(input);
    return null;
  }

  /**
   * The saved container is ERROR or EXPIRED: nothing was or ever will be posted from it. Saying
   * so makes the post editable again (edits are refused while a container is saved).
   */
  async #dropDeadContainer(input: PublishInput): Promise<void> {
    await input.onProgress({ containerId: null, networkPostId: null, cid: null });
  }

  /** Throws unless the saved container is FINISHED, dropping it first when it is dead. */
  async #requireFinished(input: PublishInput, state: ContainerState): Promise<void> {
    if (state.status === 'ERROR' || state.status === 'EXPIRED') await this.#dropDeadContainer(input);
    throwUnlessFinished(state);
  }

  async #publishNew(api: ThreadsAccountApi, input: PublishInput): Promise<string> {
    await this.#checkQuota(api, input);
    const check = this.#mediaCheck;
    if (check) await Promise.all(input.post.media.map((item) => checkMediaReachable(item.url, check)));
    const startedAt = this.#client.now();
    const containerId = await this.#createContainer(api, input, startedAt);
    return this.#publishCreated(api, input, containerId, startedAt);
  }

  /** A new container (single, or the carousel once its items are ready): saved, waited for, published. */
  async #publishCreated(api: ThreadsAccountApi, input: PublishInput, containerId: string, savedAt: number): Promise<string> {
    // Throws LeaseLostError if another worker took over meanwhile: this container then stays
    // unpublished (Meta expires it after 24 h), and the other worker's is the post.
    await input.onProgress({ containerId, networkPostId: null, cid: null });
    // A text container is ready at once in practice; publishing it straight away saves a status
    // call, and a "not ready" (code 24) answer is waited out below exactly as after a poll.
    if (input.post.media.length === 0) return this.#publishContainer(api, input, containerId);
    const state = await this.#settledState(api, containerId, input, savedAt);
    if (state.status === 'PUBLISHED') return this.#recordPublished(input, containerId, await this.#findPublished(api, input));
    await this.#requireFinished(input, state);
    return this.#publishContainer(api, input, containerId);
  }

  /**
   * Meta asks schedulers to enforce the rolling 24 h quotas themselves (§7.1): 250 posts, and
   * 1,000 replies in a bucket of their own (a thread's second and later posts, and the plug).
   * A recent reading far from the limit is reused (QuotaReadings), so an account publishing a
   * burst pays one quota call a minute instead of one per post.
   */
  async #checkQuota(api: ThreadsAccountApi, input: PublishInput): Promise<void> {
    const bucket = input.replyTo !== null ? 'reply' : 'post';
    const now = this.#client.now();
    if (this.#quotaReadings.take(input.account.providerId, bucket, now)) return;
    const limit = await api.getPublishingLimit();
    const [used, total, what] =
      bucket === 'reply' ? [limit.replyQuotaUsage, limit.replyQuotaTotal, 'reply'] : [limit.quotaUsage, limit.quotaTotal, 'publishing'];
    this.#quotaReadings.record(input.account.providerId, bucket, { at: now, used, total });
    if (used >= total) {
      throw new PublishError('transient', 'THREADS_QUOTA_EXHAUSTED', `Threads ${what} quota used up (${used}/${total} in 24 h).`, {
        retryAfterMs: QUOTA_RETRY_MS,
        outcomeUnknown: false,
      });
    }
  }

  async #createContainer(api: ThreadsAccountApi, input: PublishInput, startedAt: number): Promise<string> {
    const { post, replyTo } = input;
    const common = {
      replyToId: replyTo?.parent.networkPostId ?? null,
      topicTag: post.topic,
      spoilers: post.spoilerRanges,
      ...networkOptionFields(post.options),
    };
    const [single, ...rest] = post.media;
    // Meta refuses is_spoiler_media on TEXT posts; with no media there is nothing to blur.
    if (!single) return api.createTextContainer(post.text, common);
    const media = { ...common, text: post.text, isSpoilerMedia: post.isSpoilerMedia };
    if (rest.length === 0) {
      const options = { ...media, altText: single.altText };
      return mediaKind(single) === 'VIDEO' ? api.createVideoContainer(single.url, options) : api.createImageContainer(single.url, options);
    }
    const children = await this.#createCarouselItems(api, input, startedAt);
    return this.#createCarousel(api, input, children);
  }

  async #createCarousel(api: ThreadsAccountApi, input: PublishInput, children: string[]): Promise<string> {
    const { post, replyTo } = input;
    return api.createCarouselContainer(children, {
      replyToId: replyTo?.parent.networkPostId ?? null,
      topicTag: post.topic,
      spoilers: post.spoilerRanges,
      ...networkOptionFields(post.options),
      text: post.text,
      isSpoilerMedia: post.isSpoilerMedia,
    });
  }

  /**
   * A caller that comes back later gets the item containers saved, as the post's container
   * (`items:<id>,<id>…`, compare-and-set under the lease like any container), before they are
   * waited for: a video item is then waited for across claims and a restart resumes on the same
   * items (#resumeItems). Without it (a follow-up reply, a plug), they are not saved and are
   * waited for here: a crash leaves unpublished containers that Meta expires after 24 h.
   */
  async #createCarouselItems(api: ThreadsAccountApi, input: PublishInput, startedAt: number): Promise<string[]> {
    const ids: string[] = [];
    for (const item of input.post.media) ids.push(await api.createCarouselItemContainer({ kind: mediaKind(item), url: item.url, altText: item.altText }));
    if (input.comeBackLater) {
      await input.onProgress({ containerId: itemsRef(ids), networkPostId: null, cid: null });
      await this.#itemsSettled(api, input, ids, startedAt);
      return ids;
    }
    for (const id of ids) throwUnlessFinished(await this.#waitWhileInProgress(api, id, input));
    return ids;
  }

  /**
   * The saved item containers of a carousel: once all are FINISHED the carousel container is
   * made and published; an expired item means new items (null); an ERROR fails the post with
   * Meta's reason; a video still processing sends the caller away until its next look.
   */
  async #resumeItems(api: ThreadsAccountApi, input: PublishInput, ids: string[], savedAt: number): Promise<string | null> {
    if (ids.length !== input.post.media.length) {
      await this.#dropDeadContainer(input);
      return null;
    }
    if (!(await this.#itemsSettled(api, input, ids, savedAt))) return null;
    return this.#publishCreated(api, input, await this.#createCarousel(api, input, ids), savedAt);
  }

  /**
   * True when every saved item is FINISHED. An image item is waited for here (seconds); a video
   * item is looked at once, and while one is processing the caller is told when to come back
   * (the wait bounded from `savedAt`, as for a single video). Any ERROR fails the post with
   * Meta's message; an EXPIRED item drops the items (false: new ones are made).
   */
  async #itemsSettled(api: ThreadsAccountApi, input: PublishInput, ids: string[], savedAt: number): Promise<boolean> {
    let processing: string | null = null;
    for (const [i, id] of ids.entries()) {
      const video = mediaKind(input.post.media[i]!) === 'VIDEO';
      const state = video ? await api.getContainerStatus(id) : await this.#waitWhileInProgress(api, id, input);
      if (state.status === 'IN_PROGRESS') {
        processing ??= id;
        continue;
      }
      if (state.status === 'FINISHED') continue;
      await this.#dropDeadContainer(input);
      if (state.status === 'EXPIRED') return false;
      throwUnlessFinished(state);
    }
    if (processing) this.#comeBack(processing, savedAt);
    return true;
  }

  /**
   * The post's saved container once Meta is done with it. A video can take minutes: a caller
   * that can come back later (`comeBackLater`) is not kept waiting, it is told when to look again
   * (ContainerNotReady), and after COME_BACK.maxWaitMs from `savedAt` the post fails. An image
   * is ready in seconds and is waited for here, as for a caller that cannot come back.
   */
  async #settledState(api: ThreadsAccountApi, containerId: string, input: PublishInput, savedAt: number): Promise<ContainerState> {
    if (!input.comeBackLater || !input.post.media.some((item) => mediaKind(item) === 'VIDEO')) return this.#waitWhileInProgress(api, containerId, input);
    const state = await api.getContainerStatus(containerId);
    if (state.status !== 'IN_PROGRESS') return state;
    this.#comeBack(containerId, savedAt);
  }

  /** A container still processing: come back later, or give up COME_BACK.maxWaitMs after `savedAt`. */
  #comeBack(containerId: string, savedAt: number): never {
    const now = this.#client.now();
    const waited = Math.max(0, now - savedAt);
    if (waited >= COME_BACK.maxWaitMs) {
      // The container stays saved: a retry looks at it again rather than making another.
      throw new PublishError(
        'permanent',
        'THREADS_CONTAINER_NOT_READY',
        `Threads was still processing container ${containerId} ${Math.round(waited / 1000)} s after it was made (at most ${COME_BACK.maxWaitMs / 60_000} minutes are waited).`,
        { outcomeUnknown: false },
      );
    }
    const step = Math.min(Math.max(waited, COME_BACK.firstDelayMs), COME_BACK.maxDelayMs, COME_BACK.maxWaitMs - waited);
    throw new ContainerNotReady(containerId, new Date(now + step));
  }

  /**
   * Polls with doubling delays while Meta processes the container; gives up after maxWaitMs.
   * Each round renews the lease: a video can take longer to process than a lease lasts.
   */
  async #waitWhileInProgress(api: ThreadsAccountApi, containerId: string, input: PublishInput): Promise<ContainerState> {
    let waited = 0;
    let delay = this.#polling.firstDelayMs;
    for (;;) {
      const state = await api.getContainerStatus(containerId);
      if (state.status !== 'IN_PROGRESS') return state;
      if (waited >= this.#polling.maxWaitMs) {
        // The saved container id lets the next attempt pick up where this one stopped.
        throw new PublishError(
          'transient',
          'THREADS_CONTAINER_NOT_READY',
          `Threads was still processing container ${containerId} after ${Math.round(waited / 1000)} s.`,
          { outcomeUnknown: false },
        );
      }
      const step = Math.min(delay, this.#polling.maxWaitMs - waited);
      await this.#sleep(step);
      await input.confirmLease();
      waited += step;
      delay = Math.min(delay * 2, this.#polling.maxDelayMs);
    }
  }

  /**
   * The one call that creates a post. Code 24 means "not ready" and nothing was posted. Any
   * other refusal may mean the container went out already (a lost answer, or another worker that
   * took the thread over published it): Meta publishes a container once, so its status decides.
   */
  async #publishContainer(api: ThreadsAccountApi, input: PublishInput, containerId: string): Promise<string> {
    for (let tries = 1; ; tries++) {
      await input.confirmLease();
      try {
        return await this.#recordPublished(input, containerId, await api.publish(containerId));
      } catch (err) {
        if (!(err instanceof PublishError)) throw err;
        if (err.code !== 'THREADS_CONTAINER_NOT_READY') {
          if (err.kind !== 'permanent') throw err;
          const state = await this.#stateAfterRefusal(api, containerId);
          const status = state?.status ?? null;
          if (status === 'ERROR' || status === 'EXPIRED') {
            await this.#dropDeadContainer(input);
            // What Meta says of the container (a text one is published unpolled) beats the refusal.
            throwUnlessFinished(state!);
          }
          if (status !== 'PUBLISHED') throw err;
          return this.#recordPublished(input, containerId, await this.#findPublished(api, input));
        }
        if (tries >= MAX_PUBLISH_TRIES) throw err;
      }
      const state = await this.#waitWhileInProgress(api, containerId, input);
      if (state.status === 'PUBLISHED') return this.#recordPublished(input, containerId, await this.#findPublished(api, input));
      await this.#requireFinished(input, state);
    }
  }

  /** The container's state after a refused publish; null when even that cannot be read (the refusal stands). */
  async #stateAfterRefusal(api: ThreadsAccountApi, containerId: string): Promise<ContainerState | null> {
    try {
      return await api.getContainerStatus(containerId);
    } catch {
      return null;
    }
  }

  /** The media id is saved before anything else can fail (e.g. the permalink lookup). */
  async #recordPublished(input: PublishInput, containerId: string, mediaId: string): Promise<string> {
    await input.onProgress({ containerId, networkPostId: mediaId, cid: null });
    return mediaId;
  }

  /**
   * The container says PUBLISHED but Meta's container status never names the media it became
   * (docs/reference/threads-api.md §4.4 lists only id, status, error_message). The most reliable lookup the API
   * offers is the account's own newest posts: /me/replies for a reply (matched on text and the
   * replied-to post, which is unique in practice) or /me/threads for a top-level post (matched
   * on text and media type; if the same text was posted twice, the newest is taken, which is the
   * one a just-interrupted publish produced, and posts from well before the Skein post was written
   * are never taken). Not found: transient, so the post is retried later and never published a
   * second time.
   */
  async #findPublished(api: ThreadsAccountApi, input: PublishInput): Promise<string> {
    const { post, replyTo } = input;
    const recent = await api.listRecentPosts({ replies: replyTo !== null, limit: RECENT_POSTS_LIMIT });
    const wantedType = readBackMediaType(post.media);
    const earliest = post.writtenAt.getTime() - WRITTEN_AT_MARGIN_MS;
    const match = recent.find(
      (item) =>
        sameText(item.text, post.text) &&
        (item.mediaType === null || item.mediaType === wantedType) &&
        (replyTo === null || item.repliedToId === replyTo.parent.networkPostId) &&
        // An older post with the same text (a daily "good morning") while Meta's listing lags.
        !(item.timestamp && Date.parse(item.timestamp) < earliest),
    );
    if (!match) {
      throw new PublishError(
        'transient',
        'THREADS_PUBLISHED_POST_NOT_FOUND',
        "Threads reports the post as published but it is not in the account's recent posts yet.",
        { outcomeUnknown: true },
      );
    }
    return match.id;
  }

  /** A permalink is nice to have; the post is published either way, so a failed lookup is not an error. */
  async #describe(api: ThreadsAccountApi, mediaId: string): Promise<PublishedRef> {
    const permalink = await api.getPermalink(mediaId).catch(() => null);
    return { networkPostId: mediaId, cid: null, permalink };
  }
}

interface QuotaReading {
  /** When Meta was asked (the client's clock, ms). */
  at: number;
  /** Meta's usage then, plus the posts this process counted against it since. */
  used: number;
  total: number;
}

/**
 * The last quota reading per account and bucket, with the posts this process started since
 * counted on top (a post is counted when its quota check passes, before it is published, so a
 * failed publish over-counts: the safe side). A reading is reused only while it is younger
 * than QUOTA_READING_TTL_MS and leaves QUOTA_HEADROOM of the quota free; near the limit every
 * post asks Meta again. The headroom covers posts made meanwhile in the Threads app or by
 * another worker (25 posts a minute on one account is far beyond what people schedule), and
 * Meta still enforces the quota at the publish call itself.
 */
class QuotaReadings {
  readonly #readings = new Map<string, QuotaReading>();

  /** Counts one post against a fresh reading with room to spare; false when Meta must be asked. */
  take(providerId: string, bucket: 'post' | 'reply', now: number): boolean {
    const reading = this.#readings.get(`${bucket}:${providerId}`);
    if (!reading || now - reading.at >= QUOTA_READING_TTL_MS || now < reading.at) return false;
    if (reading.used + 1 > reading.total * (1 - QUOTA_HEADROOM)) return false;
    reading.used += 1;
    return true;
  }

  record(providerId: string, bucket: 'post' | 'reply', reading: QuotaReading): void {
    const key = `${bucket}:${providerId}`;
    // Only a post that may go ahead is counted on top of Meta's figure.
    if (reading.used >= reading.total) this.#readings.delete(key);
    else this.#readings.set(key, { ...reading, used: reading.used + 1 });
  }
}

/**
 * A carousel's item containers, saved as the post's container until the carousel container is
 * made (Meta ids are digits, so the prefix cannot be one).
 */
const ITEMS_PREFIX = 'items:';
function itemsRef(ids: string[]): string {
  return `${ITEMS_PREFIX}${ids.join(',')}`;
}
function savedItems(containerId: string): string[] | null {
  return containerId.startsWith(ITEMS_PREFIX) ? containerId.slice(ITEMS_PREFIX.length).split(',') : null;
}

/** MediaItem carries no type, so the URL's extension decides; Threads accepts MP4 and MOV video. */
function mediaKind(item: MediaItem): 'IMAGE' | 'VIDEO' {
  return mediaTypeOfUrl(item.url);
}

/** Read-back names differ from create names (docs/reference/threads-api.md §5.1). */
function readBackMediaType(media: MediaItem[]): string {
  if (media.length > 1) return 'CAROUSEL_ALBUM';
  const [single] = media;
  if (!single) return 'TEXT_POST';
  return mediaKind(single);
}

/** Meta may normalise line endings and trailing space; nothing else is forgiven. */
function sameText(published: string | null, wanted: string): boolean {
  const normalise = (text: string) => text.replace(/\r\n?/g, '\n').normalize('NFC').trim();
  return published !== null && normalise(published) === normalise(wanted);
}

function throwUnlessFinished(state: ContainerState): void {
  if (state.status === 'FINISHED') return;
  const reason = state.errorMessage ?? state.status;
  // UNKNOWN is Meta's catch-all; a fresh container may well succeed.
  const kind = state.status === 'ERROR' && state.errorMessage !== 'UNKNOWN' && state.errorMessage !== null ? 'permanent' : 'transient';
  throw new PublishError(kind, 'THREADS_MEDIA_FAILED', `Threads could not process container ${state.id}: ${reason}.`, { outcomeUnknown: false });
}

/** Who may reply, in Meta's words (decisions.md "Network options"). */
const REPLY_CONTROL: Record<ReplyControl, string> = {
  everyone: 'everyone',
  following: 'accounts_you_follow',
  followers: 'followers_only',
  mentioned: 'mentioned_only',
  nobody: 'parent_post_author_only',
};

/** reply_control on every post of the thread, the quote and the poll; Bluesky's options are not Meta's. */
function networkOptionFields(options: PostOptions | undefined) {
  if (!options) return {};
  return { replyControl: REPLY_CONTROL[options.replyControl], quotePostId: options.quote?.networkPostId ?? null, pollOptions: options.poll?.options ?? null };
}
