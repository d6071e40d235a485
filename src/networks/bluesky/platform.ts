import type {
  $Typed,
  AppBskyEmbedImages,
  AppBskyEmbedRecordWithMedia,
  AppBskyEmbedVideo,
  AppBskyFeedPost,
  AppBskyFeedRepost,
  AtpAgent,
  ComAtprotoRepoStrongRef,
} from '@atproto/api';
import { parseBlueskyPostRef } from '../../lib/bluesky-refs.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import type { LookupAll } from '../../lib/guarded-fetch.js';
import { mediaTypeOfUrl } from '../../lib/media-type.js';
import {
  type Analytics,
  LeaseLostError,
  type MediaItem,
  type Platform,
  type PlatformAccount,
  type PostOptions,
  type PostProgress,
  type PostToPublish,
  PublishError,
  type PublishedRef,
  type PublishInput,
  type QuoteTarget,
  type ReplyTarget,
} from '../platform.js';
import { type BlueskyAddressPolicy, blueskyFetch, requirePdsAllowed } from './address-policy.js';
import { isXrpcError, toPublishError } from './errors.js';
import { agentHandleResolver, buildFacets, type Facet } from './facets.js';
import { type ExternalEmbed, firstLink, type LinkCardOptions, linkCard } from './link-card.js';
import { downloadImageBytes, type MediaFetchOptions, prepareForBluesky } from './media.js';
import { postRkey, repostRkey } from './rkey.js';
import { AgentPool, type BlueskySessions, DEFAULT_REQUEST_TIMEOUT_MS, withTimeout } from './sessions.js';
import { readStoredImage, readStoredVideo, type StoredMediaSource } from './stored-media.js';
import { downloadVideo } from './video.js';

export { type BlueskySession, type BlueskySessions, type ConnectedAccount, connectBluesky } from './sessions.js';

const POST = 'app.bsky.feed.post';
const REPOST = 'app.bsky.feed.repost';
const THREADGATE = 'app.bsky.feed.threadgate';
const POSTGATE = 'app.bsky.feed.postgate';
const MAX_IMAGES = 4;
const DEFAULT_SERVICE_URL = 'https://bsky.social';

export interface BlueskyPlatformOptions {
  sessions: BlueskySessions;
  /** SKEIN_ALLOW_PRIVATE_MEDIA. */
  allowPrivateMedia: boolean;
  /** For accounts without a serviceUrl (BLUESKY_SERVICE_URL). */
  defaultServiceUrl?: string;
  /** The HTTP client for XRPC calls (tests count logins with it); the guarded fetch by default. */
  fetch?: typeof globalThis.fetch;
  /** Name resolution for the guarded fetch, the PDS check, media downloads and link cards (ctx.dnsLookup). */
  lookup?: LookupAll;
  requestTimeoutMs?: number;
  media?: Omit<MediaFetchOptions, 'allowPrivate'>;
  /** Link cards (link-card.ts): page fetch timeout and name resolution; told why a link got no card. */
  linkCards?: Omit<LinkCardOptions, 'allowPrivate'>;
  /** This server's uploads, read from the media storage rather than downloaded. */
  uploads?: StoredMediaSource;
  clock?: Clock;
  /** A failed session save costs at most a login later, so it is reported, not thrown. */
  onSessionSaveError?: (err: unknown) => void;
}

interface RecordKey {
  repo: string;
  collection: string;
  rkey: string;
}

interface StoredRecord {
  uri: string;
  cid: string;
  value: Record<string, unknown>;
}

/**
 * Publishes to Bluesky. Every record Skein writes has a key derived from the Skein post id and
 * is written with putRecord + swapRecord: null ("create only if absent"), so a retry after any
 * failure either creates the record or finds the one an earlier attempt created: never two.
 */
export class BlueskyPlatform implements Platform {
  readonly kind = 'BLUESKY' as const;
  readonly #pool: AgentPool;
  readonly #clock: Clock;
  readonly #media: MediaFetchOptions;
  readonly #linkCards: LinkCardOptions;
  readonly #uploads: StoredMediaSource | null;

  constructor(options: BlueskyPlatformOptions) {
    this.#uploads = options.uploads ?? null;
    this.#clock = options.clock ?? systemClock;
    // Media downloads and link-card pages resolve names with the same resolver as the agent.
    const lookup = options.lookup ? { lookup: options.lookup } : {};
    this.#media = { ...lookup, ...options.media, allowPrivate: options.allowPrivateMedia };
    this.#linkCards = { ...lookup, ...options.linkCards, allowPrivate: options.allowPrivateMedia };
    const defaultServiceUrl = options.defaultServiceUrl ?? DEFAULT_SERVICE_URL;
    const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const policy: BlueskyAddressPolicy = {
      allowPrivate: options.allowPrivateMedia,
      trustedServiceUrl: defaultServiceUrl,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    };
    this.#pool = new AgentPool({
      sessions: options.sessions,
      defaultServiceUrl,
      fetch: withTimeout(options.fetch ?? blueskyFetch(policy, timeoutMs), timeoutMs),
      onSaveError: options.onSessionSaveError ?? (() => {}),
      checkService: (service) => requirePdsAllowed(policy, service),
    });
  }

  async publishPost(input: PublishInput): Promise<PublishedRef> {
    const rkey = recordKeyFor(input.post.id);
    return this.#call('publish', () => this.#pool.withAgent(input.account, (agent) => this.#publish(agent, rkey, input)));
  }

  async repost(account: PlatformAccount, ref: PublishedRef): Promise<void> {
    await this.#call('repost', () =>
      this.#pool.withAgent(account, async (agent) => {
        const subject = await strongRef(agent, ref);
        const key = { repo: agent.assertDid, collection: REPOST, rkey: repostRkey(subject.uri) };
        const record: AppBskyFeedRepost.Record = { $type: REPOST, subject, createdAt: this.#now() };
        await putOnce(agent, key, record, (existing) => (existing.value.subject as { uri?: string } | undefined)?.uri === subject.uri);
      }),
    );
  }

  /** Bluesky's permalink follows from the record's URI; no call is needed. */
  async lookUpPermalink(_account: PlatformAccount, ref: PublishedRef): Promise<string | null> {
    return permalinkOf(ref.networkPostId);
  }

  async fetchAnalytics(account: PlatformAccount, ref: PublishedRef): Promise<Analytics> {
    const view = await this.#call('analytics', () =>
      this.#pool.withAgent(account, async (agent) => {
        const res = await agent.app.bsky.feed.getPosts({ uris: [ref.networkPostId] });
        const found = res.data.posts.find((post) => post.uri === ref.networkPostId);
        if (found) return found;
        // Absent from the AppView: deleted (for good: skip it from now on), or not indexed yet.
        const key = parseAtUri(ref.networkPostId);
        if (key && !(await getStored(agent, key))) throw new PublishError('permanent', 'POST_DELETED', `Bluesky post ${ref.networkPostId} was deleted`);
        throw new PublishError('transient', 'POST_NOT_FOUND', `Bluesky has not indexed post ${ref.networkPostId} yet`);
      }),
    );
    return {
      views: null,
      likes: view.likeCount ?? 0,
      replies: view.replyCount ?? 0,
      reposts: view.repostCount ?? 0,
      quotes: view.quoteCount ?? 0,
      shares: null,
    };
  }

  /** The profile's `followersCount`, as the AppView counts it (app.bsky.actor.getProfile). */
  async fetchFollowers(account: PlatformAccount): Promise<number> {
    const profile = await this.#call('followers', () =>
      this.#pool.withAgent(account, async (agent) => (await agent.app.bsky.actor.getProfile({ actor: agent.assertDid })).data),
    );
    return profile.followersCount ?? 0;
  }

  /**
   * The record key is saved as pending (`containerId`) before the write, so Skein knows a write
   * may have happened (and refuses edits) until the outcome is known. With a pending key or
   * media, the PDS is asked first, so a retry neither writes again nor uploads again.
   */
  async #publish(agent: AtpAgent, rkey: string, input: PublishInput): Promise<PublishedRef> {
    const { post, progress } = input;
    if (progress.networkPostId) {
      const confirmed = await confirmPublished(agent, progress);
      await this.#writeGates(agent, rkey, confirmed.networkPostId, input);
      return confirmed;
    }
    const key = { repo: agent.assertDid, collection: POST, rkey };
    const sameText = (existing: StoredRecord) => existing.value.text === post.text;
    const earlier = progress.containerId !== null || post.media.length > 0 ? await getStored(agent, key) : null;
    let written: StoredRecord;
    if (earlier) {
      written = checkSame(earlier, sameText);
    } else {
      const record = await this.#postRecord(agent, post, input.replyTo);
      await input.confirmLease();
      await input.onProgress({ containerId: rkey, networkPostId: null, cid: null });
      written = await this.#writeOnce(agent, key, record, sameText, input);
    }
    // Before the post counts as published: a run that stops in between finds the post pending
    // (or published with its saved URI, above) and writes its gates on the next attempt.
    await this.#writeGates(agent, rkey, written.uri, input);
    await input.onProgress({ containerId: rkey, networkPostId: written.uri, cid: written.cid });
    return publishedRef(written.uri, written.cid);
  }

  /** putOnce; a refusal that certainly wrote nothing clears the pending key (the post is editable again). */
  async #writeOnce(
    agent: AtpAgent,
    key: RecordKey,
    record: Record<string, unknown>,
    isOurs: (existing: StoredRecord) => boolean,
    input: PublishInput,
  ): Promise<StoredRecord> {
    try {
      return await putOnce(agent, key, record, isOurs);
    } catch (err) {
      const mapped = err instanceof LeaseLostError ? null : toPublishError(err, 'publish', this.#clock.now().getTime());
      if (mapped && mapped.options.outcomeUnknown !== true && mapped.code !== 'RKEY_CONFLICT') {
        await input.onProgress({ containerId: null, networkPostId: null, cid: null });
      }
      throw err;
    }
  }

  /**
   * The thread's gates, each at the record key of its post (the lexicon's rule), written with
   * putRecord: writing one again after a crash or a lost answer replaces it with the same
   * record, so there is never a second one, and never none once the post counts as published.
   * The threadgate goes on the root (`everyone`: none); the postgate, with quotes disabled, on
   * every post.
   */
  async #writeGates(agent: AtpAgent, rkey: string, uri: string, input: PublishInput): Promise<void> {
    const options = input.post.options;
    if (!options) return;
    const repo = agent.assertDid;
    const createdAt = this.#now();
    if (input.replyTo === null && options.replyControl !== 'everyone') {
      await input.confirmLease();
      const record = { $type: THREADGATE, post: uri, allow: threadgateRules(options.replyControl), createdAt };
      await agent.com.atproto.repo.putRecord({ repo, collection: THREADGATE, rkey, record });
    }
    if (options.quotesDisabled) {
      await input.confirmLease();
      const record = { $type: POSTGATE, post: uri, embeddingRules: [{ $type: `${POSTGATE}#disableRule` }], createdAt };
      await agent.com.atproto.repo.putRecord({ repo, collection: POSTGATE, rkey, record });
    }
  }

  async #postRecord(agent: AtpAgent, post: PostToPublish, replyTo: ReplyTarget | null): Promise<AppBskyFeedPost.Record> {
    const options = post.options;
    const [facets, media, reply, quote] = await Promise.all([
      buildFacets(post.text, agentHandleResolver(agent)),
      this.#mediaEmbed(agent, post.media),
      replyTo ? replyRef(agent, replyTo) : undefined,
      options?.quote ? quoteRef(agent, options.quote) : undefined,
    ]);
    // One embed a post: a quote (with or without media) leaves no room for a link card.
    const card = media === null && !quote && post.linkPreview !== false ? await this.#linkCard(agent, facets) : null;
    // spoilerRanges and isSpoilerMedia are accepted and ignored: Bluesky has no spoilers (decisions.md).
    return {
      $type: POST,
      text: post.text,
      createdAt: this.#now(),
      ...(facets.length > 0 ? { facets } : {}),
      ...(reply ? { reply } : {}),
      ...(options && options.langs.length > 0 ? { langs: options.langs } : {}),
      ...(card ? { embed: card } : withQuote(media ?? undefined, quote)),
    };
  }

  /** The card of the text's first link, or null (no link, or a page that gives none). */
  async #linkCard(agent: AtpAgent, facets: Facet[]): Promise<ExternalEmbed | null> {
    const url = firstLink(facets);
    if (!url) return null;
    return linkCard(url, this.#linkCards, async (image) => (await agent.uploadBlob(image.bytes, { encoding: image.mimeType })).data.blob);
  }

  /** The post's images, or its one video, as an embed; null without media. */
  async #mediaEmbed(agent: AtpAgent, media: MediaItem[]): Promise<$Typed<AppBskyEmbedImages.Main> | $Typed<AppBskyEmbedVideo.Main> | null> {
    if (media.length === 0) return null;
    if (!media.some((item) => mediaTypeOfUrl(item.url) === 'VIDEO')) return { $type: 'app.bsky.embed.images', images: await this.#uploadImages(agent, media) };
    const [item, ...rest] = media;
    if (rest.length > 0) throw new PublishError('permanent', 'INVALID_MEDIA', 'Bluesky takes one video a post and then no image');
    return this.#uploadVideo(agent, item!);
  }

  /**
   * The video goes to the account's server as a blob (decisions.md: the contract's path, not
   * the video service) and is embedded with its alt text and the size read from the file: an
   * upload's from its row, an outside URL's from the download (video.ts).
   */
  async #uploadVideo(agent: AtpAgent, item: MediaItem): Promise<$Typed<AppBskyEmbedVideo.Main>> {
    const video = (await readStoredVideo(item.url, this.#uploads)) ?? (await downloadVideo(item.url, this.#media));
    try {
      const uploaded = await agent.uploadBlob(video.data, { encoding: video.mimeType });
      return {
        $type: 'app.bsky.embed.video',
        video: uploaded.data.blob,
        ...(item.altText ? { alt: item.altText } : {}),
        ...(video.width && video.height ? { aspectRatio: { width: video.width, height: video.height } } : {}),
      };
    } finally {
      await video.dispose();
    }
  }

  async #uploadImages(agent: AtpAgent, media: MediaItem[]): Promise<AppBskyEmbedImages.Image[]> {
    if (media.length > MAX_IMAGES) throw new PublishError('permanent', 'INVALID_MEDIA', `Bluesky posts take at most ${MAX_IMAGES} images`);
    return Promise.all(
      media.map(async (item) => {
        const bytes = (await readStoredImage(item.url, this.#uploads)) ?? (await downloadImageBytes(item.url, this.#media));
        const image = await prepareForBluesky(bytes, item.url);
        const uploaded = await agent.uploadBlob(image.bytes, { encoding: image.mimeType });
        return {
          image: uploaded.data.blob,
          alt: item.altText ?? '',
          aspectRatio: { width: image.width, height: image.height },
        };
      }),
    );
  }

  async #call<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof LeaseLostError) throw err;
      throw toPublishError(err, action, this.#clock.now().getTime());
    }
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }
}

/** `https://bsky.app/profile/<did>/post/<rkey>`: the DID form survives handle changes. */
function permalinkOf(uri: string): string | null {
  const parts = parseAtUri(uri);
  return parts && parts.collection === POST ? `https://bsky.app/profile/${parts.repo}/post/${parts.rkey}` : null;
}

function recordKeyFor(postId: string): string {
  try {
    return postRkey(postId);
  } catch (err) {
    throw new PublishError('permanent', 'INVALID_POST_ID', `cannot derive a Bluesky record key: ${(err as Error).message}`);
  }
}

/**
 * Creates the record only if its key is free. InvalidSwap means an earlier attempt already
 * wrote it: that record is the result, provided it is really ours (`isOurs`).
 */
async function putOnce(agent: AtpAgent, key: RecordKey, record: Record<string, unknown>, isOurs: (existing: StoredRecord) => boolean): Promise<StoredRecord> {
  try {
    const res = await agent.com.atproto.repo.putRecord({ ...key, record, swapRecord: null });
    return { uri: res.data.uri, cid: res.data.cid, value: record };
  } catch (err) {
    if (!isXrpcError(err, 'InvalidSwap')) throw err;
  }
  const existing = await getStored(agent, key);
  if (!existing) throw new PublishError('transient', 'BLUESKY_UNAVAILABLE', `record ${key.rkey} neither writable nor readable`, { outcomeUnknown: true });
  return checkSame(existing, isOurs);
}

function checkSame(existing: StoredRecord, isOurs: (existing: StoredRecord) => boolean): StoredRecord {
  if (isOurs(existing)) return existing;
  throw new PublishError('permanent', 'RKEY_CONFLICT', `another record already uses the key of ${existing.uri}`);
}

async function getStored(agent: AtpAgent, key: RecordKey): Promise<StoredRecord | null> {
  try {
    const res = await agent.com.atproto.repo.getRecord(key);
    return { uri: res.data.uri, cid: res.data.cid ?? '', value: res.data.value as Record<string, unknown> };
  } catch (err) {
    if (isXrpcError(err, 'RecordNotFound')) return null;
    throw err;
  }
}

/**
 * An earlier attempt finished the write and saved its URI. The record's current CID is read
 * back; if the user deleted the post since, the saved reference still stands: it was
 * published once, and publishing it again would break that.
 */
async function confirmPublished(agent: AtpAgent, progress: PostProgress): Promise<PublishedRef> {
  const uri = progress.networkPostId!;
  const key = parseAtUri(uri);
  if (!key) throw new PublishError('permanent', 'INVALID_PROGRESS', `saved Bluesky post id is not an at:// URI: ${uri}`);
  const existing = await getStored(agent, key);
  return publishedRef(uri, existing?.cid ?? progress.cid);
}

async function replyRef(agent: AtpAgent, replyTo: ReplyTarget): Promise<AppBskyFeedPost.ReplyRef> {
  const [root, parent] = await Promise.all([strongRef(agent, replyTo.root), strongRef(agent, replyTo.parent)]);
  return { root, parent };
}

/** {uri, cid} of a published post; the CID is read from the PDS if Skein did not keep it. */
async function strongRef(agent: AtpAgent, ref: PublishedRef): Promise<ComAtprotoRepoStrongRef.Main> {
  if (ref.cid) return { uri: ref.networkPostId, cid: ref.cid };
  const key = parseAtUri(ref.networkPostId);
  const stored = key ? await getStored(agent, key) : null;
  if (!stored) throw new PublishError('permanent', 'PARENT_NOT_FOUND', `cannot find the Bluesky post ${ref.networkPostId}`);
  return { uri: stored.uri, cid: stored.cid };
}

/** Who may reply when not everyone may: the rules of the threadgate's `allow` (none: nobody). */
function threadgateRules(control: Exclude<PostOptions['replyControl'], 'everyone'>): Array<{ $type: string }> {
  const rule = { following: 'followingRule', followers: 'followerRule', mentioned: 'mentionRule', nobody: null }[control];
  return rule ? [{ $type: `${THREADGATE}#${rule}` }] : [];
}

/** The post's embed with the quote: the record alone, or the record with the post's media. */
function withQuote(
  media: AppBskyEmbedRecordWithMedia.Main['media'] | undefined,
  quote: ComAtprotoRepoStrongRef.Main | undefined,
): Pick<AppBskyFeedPost.Record, 'embed'> {
  if (!quote) return media ? { embed: media } : {};
  const record = { $type: 'app.bsky.embed.record' as const, record: quote };
  return { embed: media ? { $type: 'app.bsky.embed.recordWithMedia' as const, record, media } : record };
}

/**
 * The quoted post as a strong reference. A Skein post comes with its URI and CID; a reference
 * the user gave is read now: a bsky.app URL's handle resolved to its DID, the CID read from
 * the record itself, so a quote names the record as it is.
 */
async function quoteRef(agent: AtpAgent, quote: QuoteTarget): Promise<ComAtprotoRepoStrongRef.Main> {
  if (quote.cid) return { uri: quote.networkPostId, cid: quote.cid };
  const ref = parseBlueskyPostRef(quote.networkPostId);
  if (!ref) throw new PublishError('permanent', 'QUOTE_NOT_FOUND', `not a Bluesky post: ${quote.networkPostId}`);
  const did = ref.repo.startsWith('did:') ? ref.repo : (await agent.com.atproto.identity.resolveHandle({ handle: ref.repo })).data.did;
  const stored = await getStored(agent, { repo: did, collection: POST, rkey: ref.rkey });
  if (!stored) throw new PublishError('permanent', 'QUOTE_NOT_FOUND', `cannot find the quoted Bluesky post ${quote.networkPostId}`);
  return { uri: stored.uri, cid: stored.cid };
}

function publishedRef(uri: string, cid: string | null): PublishedRef {
  return { networkPostId: uri, cid, permalink: permalinkOf(uri) };
}

function parseAtUri(uri: string): RecordKey | null {
  const match = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  return match ? { repo: match[1]!, collection: match[2]!, rkey: match[3]! } : null;
}
