import type { LookupAll } from '../../lib/guarded-fetch.js';
import { readPageCard } from '../bluesky/link-card.js';
import { downloadImageBytes } from '../bluesky/media.js';
import type { StoredMediaSource } from '../bluesky/stored-media.js';
import {
  type Analytics,
  ContainerNotReady,
  type Platform,
  type PlatformAccount,
  PublishError,
  type PublishedRef,
  type PublishInput,
  type ThreadOptions,
} from '../platform.js';
import { DuplicatePostError, type LinkedInClient, type LinkedInComment, type LinkedInContent, type LinkedInPost } from './client.js';
import { cleanImage, type MediaSource, readMedia } from './media.js';
import { escapeCommentary, LINKEDIN } from './rules.js';

/**
 * Publishes a thread to LinkedIn (decisions.md "LinkedIn"): the first post is a post, each later
 * one a comment of the same author on it. LinkedIn takes no idempotency key, so the post's
 * `containerId` is an attempt marker (`li:` and JSON: the uploaded media, the article card, and,
 * saved right before the call that can create the post or comment, when that call was sent). A
 * retry whose marker says a call was sent looks among the author's recent posts, or the post's
 * comments, for one with the same text made since, before it sends anything again.
 */

/** A post LinkedIn dates this long before the attempt began cannot be it (clocks may disagree). */
const STARTED_AT_MARGIN_MS = 10 * 60_000;
const POSTS_PAGE = 50;
const POSTS_PAGES = 3;
const COMMENTS_PAGE = 100;
const COMMENTS_PAGES = 10;
const COME_BACK = { firstDelayMs: 5_000, maxDelayMs: 60_000, maxWaitMs: 10 * 60_000 };
const POLLING = { firstDelayMs: 1_000, maxDelayMs: 15_000, maxWaitMs: 5 * 60_000 };
/** How long after their upload images a token may not read are taken to be processing. */
const UNREADABLE_MEDIA_WAIT_MS = 5_000;
/**
 * A member's post resent this soon after the lost attempt meets LinkedIn's duplicate check
 * (10 minutes for ugcPosts, unconfirmed for /rest/posts, §9): half of it, to be safe.
 */
const DUPLICATE_CHECK_MS = 5 * 60_000;
const MARKER_PREFIX = 'li:';
const LINK = /https?:\/\/[^\s<>"]+/i;
const FEED = 'https://www.linkedin.com/feed/update/';

export interface LinkedInPlatformOptions {
  client: LinkedInClient;
  /** This server's uploads, read from the media storage; any other URL is downloaded through the guarded fetch. */
  uploads: StoredMediaSource | null;
  allowPrivateMedia: boolean;
  lookup?: LookupAll;
  sleep?: (ms: number) => Promise<void>;
}

/** What an attempt saved: its uploads, then, before the call that can create its post or comment, when it made that call. */
interface Marker {
  /** When the uploads were made (ms). */
  t: number;
  /** When the create call was last sent (ms); absent: never, so nothing can be on LinkedIn. */
  s?: number;
  /** The uploaded media's URNs, in order. */
  m: string[];
  /** The article card of a first post with a link and no media. */
  a?: { source: string; title: string; description?: string; thumbnail?: string };
}

type Sent = Marker & { s: number };

export class LinkedInPlatform implements Platform<'LINKEDIN'> {
  readonly kind = 'LINKEDIN' as const;
  readonly #client: LinkedInClient;
  readonly #media: MediaSource;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: LinkedInPlatformOptions) {
    this.#client = options.client;
    this.#media = { uploads: options.uploads, allowPrivateMedia: options.allowPrivateMedia, ...(options.lookup ? { lookup: options.lookup } : {}) };
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async publishPost(input: PublishInput): Promise<PublishedRef> {
    const token = tokenOf(input.account);
    const known = input.progress.networkPostId;
    if (known) return refOf(known, input.replyTo?.root.networkPostId);
    let marker = markerOf(input.progress.containerId);
    if (marker?.s !== undefined) {
      const found = await this.#findPublished(token, input, marker as Sent);
      if (found) return this.#record(input, marker, found);
    } else if (!marker) {
      marker = { t: this.#client.now(), m: await this.#uploadAll(token, input) };
      if (!input.replyTo && marker.m.length === 0) {
        const card = await this.#articleCard(token, input);
        if (card) marker.a = card;
      }
      await input.onProgress({ containerId: MARKER_PREFIX + JSON.stringify(marker), networkPostId: null, cid: null });
    }
    await this.#waitForMedia(token, input, marker);
    const resent = marker.s !== undefined;
    // From here the post may be on LinkedIn: a retry looks for it first.
    const sending: Sent = { ...marker, s: this.#client.now() };
    await input.onProgress({ containerId: MARKER_PREFIX + JSON.stringify(sending), networkPostId: null, cid: null });
    await input.confirmLease();
    return this.#record(input, sending, await this.#send(token, input, sending, resent));
  }

  /** A `replyControl: nobody` thread's comments close once its own comments are out (closing twice is harmless). */
  async afterThread(account: PlatformAccount, root: PublishedRef, options: ThreadOptions): Promise<void> {
    if (options.replyControl === 'nobody') await this.closeComments(account, root);
  }

  /** Closes the post's comments. */
  async closeComments(account: PlatformAccount, root: PublishedRef): Promise<void> {
    await this.#client.closeComments(tokenOf(account), account.providerUserId, root.networkPostId);
  }

  /** A reshare. A page's recent posts are read first, so a lost answer is not reshared twice; a member's cannot be read. */
  async repost(account: PlatformAccount, ref: PublishedRef): Promise<void> {
    const token = tokenOf(account);
    const author = account.providerUserId;
    const recent = await this.#recentPosts(token, author, 0);
    if (recent?.some((p) => p.reshareOf === ref.networkPostId)) return;
    await this.#client.createPost(token, { author, commentary: '', reshareOf: ref.networkPostId });
  }

  /**
   * A page's share statistics, a member's post analytics (vetted products); else the likes and
   * comments of socialActions; else null: what LinkedIn lets this token read.
   */
  async fetchAnalytics(account: PlatformAccount, ref: PublishedRef): Promise<Analytics> {
    const token = tokenOf(account);
    const post = ref.networkPostId;
    const none: Analytics = { views: null, likes: null, replies: null, reposts: null, quotes: null, shares: null };
    if (isOrganization(account.providerUserId)) {
      const stats = await this.#client.shareStatistics(token, account.providerUserId, post);
      if (stats) return { ...none, views: stats.impressions, likes: stats.likes, replies: stats.comments, reposts: stats.reshares };
    } else {
      const views = await this.#client.memberPostMetric(token, post, 'IMPRESSION');
      if (views !== null) {
        const [likes, replies, reposts] = await Promise.all(
          (['REACTION', 'COMMENT', 'RESHARE'] as const).map((metric) => this.#client.memberPostMetric(token, post, metric)),
        );
        return { ...none, views, likes: likes ?? null, replies: replies ?? null, reposts: reposts ?? null };
      }
    }
    const actions = await this.#client.socialActions(token, post);
    return { ...none, likes: actions.likes, replies: actions.comments };
  }

  /** A page's followers; a member's only with `r_member_profileAnalytics`, else LinkedIn's refusal (LINKEDIN_ACCESS_DENIED). */
  async fetchFollowers(account: PlatformAccount): Promise<number> {
    const token = tokenOf(account);
    if (isOrganization(account.providerUserId)) return this.#client.organizationFollowers(token, account.providerUserId);
    return this.#client.memberFollowers(token);
  }

  async lookUpPermalink(_account: PlatformAccount, ref: PublishedRef): Promise<string | null> {
    return refOf(ref.networkPostId).permalink;
  }

  // ---- sending ----

  async #send(token: string, input: PublishInput, marker: Marker, resent: boolean): Promise<string> {
    const author = input.account.providerUserId;
    if (input.replyTo) {
      const comment = await this.#client.createComment(token, {
        actor: author,
        post: input.replyTo.root.networkPostId,
        text: input.post.text,
        image: marker.m[0],
      });
      return comment.commentUrn;
    }
    try {
      return await this.#client.createPost(token, { author, commentary: escapeCommentary(input.post.text), ...contentOf(input, marker) });
    } catch (err) {
      // A retry after a lost answer that LinkedIn calls a duplicate: the first attempt landed (§3.3).
      if (err instanceof DuplicatePostError && resent) return err.existing;
      throw err;
    }
  }

  async #record(input: PublishInput, marker: Marker, urn: string): Promise<PublishedRef> {
    await input.onProgress({ containerId: MARKER_PREFIX + JSON.stringify(marker), networkPostId: urn, cid: null });
    return refOf(urn, input.replyTo?.root.networkPostId);
  }

  // ---- a lost answer ----

  /** The post or comment an earlier attempt made, or null when there is none. */
  async #findPublished(token: string, input: PublishInput, marker: Sent): Promise<string | null> {
    const author = input.account.providerUserId;
    const earliest = marker.s - STARTED_AT_MARGIN_MS;
    if (input.replyTo) {
      const comment = await this.#findComment(
        token,
        input.replyTo.root.networkPostId,
        (c) => c.actor === author && c.createdAt >= earliest && c.text === input.post.text,
      );
      return comment?.commentUrn ?? null;
    }
    const commentary = escapeCommentary(input.post.text);
    for (let page = 0; page < POSTS_PAGES; page++) {
      const posts = await this.#recentPosts(token, author, page * POSTS_PAGE);
      // A member's posts cannot be listed: a resend soon after meets LinkedIn's duplicate check
      // instead (§3.3); later than that, nothing would stop a second post.
      if (posts === null) {
        if (this.#client.now() - marker.s <= DUPLICATE_CHECK_MS) return null;
        throw outcomeUnknown('post', "this account's posts");
      }
      const found = posts.find((p) => !p.reshareOf && p.createdAt >= earliest && sameCommentary(p.commentary, commentary));
      if (found) return found.id;
      if (posts.length < POSTS_PAGE || (posts.at(-1)?.createdAt ?? 0) < earliest) return null;
    }
    return null;
  }

  /** The author's recent posts, or null when LinkedIn lets this token read none (a member without `r_member_social`). */
  async #recentPosts(token: string, author: string, start: number): Promise<LinkedInPost[] | null> {
    try {
      return await this.#client.postsByAuthor(token, author, start, POSTS_PAGE);
    } catch (err) {
      if (err instanceof PublishError && err.code === 'LINKEDIN_ACCESS_DENIED') return null;
      throw err;
    }
  }

  /** Comments carry no duplicate check: one that cannot be looked up is never sent again blindly. */
  async #findComment(token: string, post: string, matches: (c: LinkedInComment) => boolean): Promise<LinkedInComment | null> {
    for (let page = 0; page < COMMENTS_PAGES; page++) {
      let comments: LinkedInComment[];
      try {
        comments = await this.#client.comments(token, post, page * COMMENTS_PAGE, COMMENTS_PAGE);
      } catch (err) {
        if (!(err instanceof PublishError && err.code === 'LINKEDIN_ACCESS_DENIED')) throw err;
        throw outcomeUnknown('comment', "the post's comments");
      }
      const found = comments.find(matches);
      if (found) return found;
      if (comments.length < COMMENTS_PAGE) return null;
    }
    return null;
  }

  // ---- media ----

  async #uploadAll(token: string, input: PublishInput): Promise<string[]> {
    const owner = input.account.providerUserId;
    const limits = input.replyTo ? LINKEDIN.laterPosts : LINKEDIN.limits;
    // Refused before anything is uploaded; the content rules refuse it at create already.
    if (input.post.media.length > limits.mediaPerPost)
      throw new PublishError('permanent', 'INVALID_MEDIA', `A LinkedIn ${input.replyTo ? 'comment' : 'post'} takes at most ${limits.mediaPerPost} media.`);
    const urns: string[] = [];
    for (const item of input.post.media) {
      const { type, bytes } = await readMedia(item, this.#media);
      if (type === 'VIDEO' && input.replyTo) throw new PublishError('permanent', 'INVALID_MEDIA', 'A LinkedIn comment takes one image, not a video.');
      urns.push(type === 'VIDEO' ? await this.#client.uploadVideo(token, owner, bytes) : await this.#client.uploadImage(token, owner, bytes));
    }
    return urns;
  }

  /** The card of the text's first link (§3.1: LinkedIn does not read the page itself); null when the page gives none. */
  async #articleCard(token: string, input: PublishInput): Promise<Marker['a'] | null> {
    const link = LINK.exec(input.post.text)?.[0];
    if (!link || input.post.linkPreview === false || input.post.options?.poll) return null;
    const options = { allowPrivate: this.#media.allowPrivateMedia, ...(this.#media.lookup ? { lookup: this.#media.lookup } : {}) };
    const page = await readPageCard(link, options).catch(() => null);
    if (!page) return null;
    const card: NonNullable<Marker['a']> = { source: page.uri, title: page.title || page.uri, ...(page.description ? { description: page.description } : {}) };
    if (page.image) {
      try {
        const bytes = await cleanImage(await downloadImageBytes(page.image, options), page.image);
        card.thumbnail = await this.#client.uploadImage(token, input.account.providerUserId, bytes);
      } catch (err) {
        // A card without its thumbnail rather than no post; the lease and the token still matter.
        if (err instanceof PublishError && err.kind === 'auth') throw err;
      }
    }
    return card;
  }

  /** Waits until LinkedIn has every upload AVAILABLE, or tells a caller that can come back later when to look again. */
  async #waitForMedia(token: string, input: PublishInput, marker: Marker): Promise<void> {
    const urns = [...marker.m, ...(marker.a?.thumbnail ? [marker.a.thumbnail] : [])];
    const pending = async () => {
      for (const urn of urns) {
        const status = await this.#client.mediaStatus(token, urn);
        if (status === 'PROCESSING_FAILED') throw new PublishError('permanent', 'LINKEDIN_MEDIA_FAILED', `LinkedIn could not process the upload ${urn}.`);
        // null: a member token may not read its images (§4). They are given a while after the
        // upload; past it, LinkedIn's "waiting upload" refusal of the post is retried.
        if (status === null ? this.#client.now() - marker.t < UNREADABLE_MEDIA_WAIT_MS : status !== 'AVAILABLE') return urn;
      }
      return null;
    };
    if (urns.length === 0 || (await pending()) === null) return;
    const now = this.#client.now();
    if (input.comeBackLater) {
      const waited = Math.max(0, now - (input.comeBackLater.containerSavedAt?.getTime() ?? now));
      if (waited >= COME_BACK.maxWaitMs) throw notProcessed(waited);
      const step = Math.min(Math.max(waited, COME_BACK.firstDelayMs), COME_BACK.maxDelayMs, COME_BACK.maxWaitMs - waited);
      throw new ContainerNotReady(input.progress.containerId ?? MARKER_PREFIX + JSON.stringify(marker), new Date(now + step));
    }
    let waited = 0;
    for (let delay = POLLING.firstDelayMs; waited < POLLING.maxWaitMs; delay = Math.min(delay * 2, POLLING.maxDelayMs)) {
      await this.#sleep(delay);
      await input.confirmLease();
      waited += delay;
      if ((await pending()) === null) return;
    }
    throw notProcessed(waited);
  }
}

/** The first post's `content`: its media, else its poll, else its article card. */
function contentOf(input: PublishInput, marker: Marker): { content?: LinkedInContent } {
  const { media, options } = input.post;
  const alt = (i: number) => (media[i]?.altText ? { altText: media[i].altText } : {});
  const [first] = marker.m;
  if (first && marker.m.length === 1) return { content: { media: { id: first, ...(first.startsWith('urn:li:video:') ? {} : alt(0)) } } };
  if (marker.m.length > 1) {
    if (marker.m.some((urn) => urn.startsWith('urn:li:video:')))
      throw new PublishError('permanent', 'INVALID_MEDIA', 'A LinkedIn post takes up to 20 images or one video.');
    return { content: { multiImage: { images: marker.m.map((id, i) => ({ id, ...alt(i) })) } } };
  }
  if (options?.poll) {
    const question = options.poll.question?.trim();
    if (!question) throw new PublishError('permanent', 'INVALID_POLL', 'A LinkedIn poll needs a question.');
    return { content: { poll: { question, options: options.poll.options.map((text) => ({ text })), settings: { duration: 'SEVEN_DAYS' } } } };
  }
  return marker.a ? { content: { article: marker.a } } : {};
}

function outcomeUnknown(what: 'post' | 'comment', where: string): PublishError {
  return new PublishError(
    'permanent',
    'LINKEDIN_OUTCOME_UNKNOWN',
    `An earlier attempt to publish this ${what} got no answer, and LinkedIn does not let this account read ${where} to check: look on LinkedIn before publishing it again.`,
  );
}

function notProcessed(waitedMs: number): PublishError {
  return new PublishError(
    'transient',
    'LINKEDIN_MEDIA_NOT_READY',
    `LinkedIn was still processing the media ${Math.round(waitedMs / 1000)} s after the upload.`,
    {
      outcomeUnknown: false,
    },
  );
}

function tokenOf(account: PlatformAccount): string {
  if (!account.accessToken)
    throw new PublishError('auth', 'LINKEDIN_NOT_CONNECTED', `The LinkedIn account ${account.username} has no access token; reconnect it.`);
  return account.accessToken;
}

function isOrganization(urn: string): boolean {
  return urn.startsWith('urn:li:organization:');
}

function markerOf(containerId: string | null): Marker | null {
  if (!containerId?.startsWith(MARKER_PREFIX)) return null;
  return JSON.parse(containerId.slice(MARKER_PREFIX.length)) as Marker;
}

/** A post's feed address; a comment's is its post's, with the comment named (`urn:li:comment:(<activity>,<id>)`). */
function refOf(urn: string, root?: string): PublishedRef {
  const onPost = root ?? /^urn:li:comment:\((urn:li:[a-zA-Z]+:[^,]+),/.exec(urn)?.[1];
  const permalink = urn.startsWith('urn:li:comment:') ? `${FEED}${onPost}/?commentUrn=${encodeURIComponent(urn)}` : `${FEED}${urn}/`;
  return { networkPostId: urn, cid: null, permalink };
}

/** LinkedIn may read a hashtag back as its template `{hashtag|\#|word}` (§3.2). */
function sameCommentary(read: string, sent: string): boolean {
  return read.replace(/\{hashtag\|\\#\|([^}]*)\}/g, '#$1') === sent;
}
