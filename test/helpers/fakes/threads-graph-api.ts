import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../../../src/lib/clock.js';
import {
  CONTAINER_FIELDS,
  type ContainerSpec,
  type CreateType,
  type FakeEndpoint,
  GraphFault,
  graphError,
  graphTimestamp,
  INSIGHT_METRICS,
  invalidParam,
  LIMIT_FIELDS,
  MEDIA_FIELDS,
  type MediaRef,
  notFound,
  OAuthFlatFault,
  type Params,
  PROFILE_FIELDS,
  parseContainerSpec,
  pick,
  type ReadType,
  rejectUnknownParams,
  requestedFields,
  type Spoiler,
  type SpoilerUnit,
  USER_INSIGHT_METRICS,
} from './threads-graph-rules.js';

export type { FakeEndpoint } from './threads-graph-rules.js';

/**
 * A local stand-in for graph.threads.net, as strict as Meta where docs/reference/threads-api.md says how Meta
 * behaves (§10 "Notes for a faithful local fake"). Time comes from an injected clock, so tests
 * move container processing, token expiry and quota windows by advancing it.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CODE_LIFETIME_MS = HOUR;
const SHORT_TOKEN_MS = HOUR;
const LONG_TOKEN_MS = 60 * DAY;
const MIN_REFRESH_AGE_MS = DAY;
const CONTAINER_LIFETIME_MS = DAY;
const MAX_BODY_BYTES = 1 << 20;

export interface FakeGraphApiOptions {
  clock?: Clock;
  appId?: string;
  appSecret?: string;
  /** How long containers of each kind stay IN_PROGRESS (a carousel also waits for its children). */
  processingMs?: Partial<Record<CreateType, number>>;
  /** Published posts per rolling 24 h (carousel = 1); Meta's is 250. */
  postQuota?: number;
  /** Replies per rolling 24 h; Meta's is 1,000. */
  replyQuota?: number;
  /** Meta does not say what spoiler offsets count (docs/reference/threads-api.md §4.6); UTF-16 by default. */
  spoilerUnit?: SpoilerUnit;
  /**
   * What Meta does with a second repost of the same post is not documented (docs/reference/threads-api.md
   * §4.8): answer the existing repost (default), or refuse it as an invalid request.
   */
  secondRepost?: 'existing' | 'refused';
  /** Meta's listings are eventually consistent: a post shows in /me/threads and /me/replies this long after it is published. */
  listingLagMs?: number;
  /** Every answer (faults included) is sent this long after the request was read, like a network round trip; 0 by default. */
  latencyMs?: number;
  /**
   * Meta downloads `image_url` / `video_url` itself when a container is made; so does the fake
   * (true by default): a URL that cannot be fetched, or whose bytes are not an image (a video),
   * makes the container ERROR, as on Meta.
   */
  fetchMedia?: boolean;
}

/** Faults for the next calls to an endpoint. */
export type Fault =
  | { kind: 'http500' }
  | { kind: 'http429'; retryAfterSec: number }
  /** No answer ever; the request is not carried out. The client has to time out. */
  | { kind: 'hang' }
  /** The request is carried out on Meta's side, then the connection is cut without an answer. */
  | { kind: 'dropResponse' }
  | { kind: 'graphError'; status: number; error: Record<string, unknown> };

/** One published post (or repost) as Meta stores it: what tests assert exactly-once on. */
export interface PublishedPost {
  id: string;
  containerId: string | null;
  ownerId: string;
  username: string;
  mediaType: ReadType;
  text: string | null;
  replyToId: string | null;
  rootId: string | null;
  quotePostId: string | null;
  /** reply_control as sent, null when not sent. */
  replyControl: string | null;
  poll: string[] | null;
  topicTag: string | null;
  media: MediaRef[];
  childIds: string[];
  spoilers: Spoiler[];
  isSpoilerMedia: boolean;
  shortcode: string;
  publishedAt: number;
  repostOf: string | null;
  deleted: boolean;
}

export interface RecordedRequest {
  method: string;
  endpoint: FakeEndpoint | null;
  path: string;
  /** Without access_token. */
  params: Params;
}

interface User {
  id: string;
  username: string;
}

interface Token {
  userId: string;
  kind: 'short' | 'long';
  issuedAt: number;
  expiresAt: number;
  revoked: boolean;
}

interface AuthCode {
  userId: string;
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

interface Container {
  id: string;
  ownerId: string;
  spec: ContainerSpec;
  createdAt: number;
  readyAt: number;
  failure: string | null;
  mediaId: string | null;
}

interface ContainerState {
  status: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
  errorMessage: string | null;
}

interface Route {
  endpoint: FakeEndpoint;
  node: string | null;
}

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

const DEFAULT_PROCESSING_MS: Record<CreateType, number> = { TEXT: 0, IMAGE: 3_000, VIDEO: 30_000, CAROUSEL: 0 };
const READ_TYPES: Record<CreateType, ReadType> = { TEXT: 'TEXT_POST', IMAGE: 'IMAGE', VIDEO: 'VIDEO', CAROUSEL: 'CAROUSEL_ALBUM' };

export class FakeGraphApi {
  /** Every post published, in order (reposts are in `reposts`). */
  readonly published: PublishedPost[] = [];
  /**
   * Publish times per user and bucket ("posts" / "replies"), kept sorted: the quota counts a
   * window of them by binary search, not by scanning every post (the bench publishes 10,000s).
   */
  readonly #publishTimes = new Map<string, number[]>();
  readonly reposts: PublishedPost[] = [];
  readonly requests: RecordedRequest[] = [];
  /** Publish calls refused because the container was already published. */
  duplicatePublishAttempts = 0;
  readonly appId: string;
  readonly appSecret: string;
  readonly #server: http.Server;
  readonly #clock: Clock;
  readonly #processingMs: Record<CreateType, number>;
  readonly #postQuota: number;
  readonly #replyQuota: number;
  readonly #spoilerUnit: SpoilerUnit;
  readonly #secondRepost: 'existing' | 'refused';
  readonly #listingLagMs: number;
  readonly #latencyMs: number;
  readonly #users = new Map<string, User>();
  readonly #tokens = new Map<string, Token>();
  readonly #codes = new Map<string, AuthCode>();
  readonly #containers = new Map<string, Container>();
  readonly #media = new Map<string, PublishedPost>();
  /** The replies to each post, by its id: `has_replies` looks there, not through every post (the bench publishes 10,000s). */
  readonly #replies = new Map<string, PublishedPost[]>();
  readonly #insights = new Map<string, Record<string, number>>();
  readonly #followers = new Map<string, number>();
  readonly #faults = new Map<FakeEndpoint, Fault[]>();
  readonly #pendingFailures: string[] = [];
  readonly #fetchMedia: boolean;
  /** Media downloads under way; every request waits for them, so what it reads is settled. */
  readonly #downloads = new Set<Promise<void>>();
  #nextObjectId = 17889615691921648n;
  // Odd and above 2^53, so JSON.parse always corrupts a user id sent as a number.
  #nextUserId = 17841405793187219n;
  #url = '';

  private constructor(options: FakeGraphApiOptions) {
    this.#clock = options.clock ?? systemClock;
    this.appId = options.appId ?? '1234567890123456';
    this.appSecret = options.appSecret ?? 'fake-app-secret';
    this.#processingMs = { ...DEFAULT_PROCESSING_MS, ...options.processingMs };
    this.#postQuota = options.postQuota ?? 250;
    this.#replyQuota = options.replyQuota ?? 1000;
    this.#spoilerUnit = options.spoilerUnit ?? 'utf16';
    this.#secondRepost = options.secondRepost ?? 'existing';
    this.#listingLagMs = options.listingLagMs ?? 0;
    this.#latencyMs = options.latencyMs ?? 0;
    this.#fetchMedia = options.fetchMedia ?? true;
    this.#server = http.createServer((req, res) => {
      this.#onRequest(req, res).catch((err: unknown) => {
        // A bug in the fake, not a Meta behaviour: make it loud rather than a quiet 500.
        console.error('fake Graph API crashed:', err);
        res.destroy();
      });
    });
  }

  static async start(options: FakeGraphApiOptions = {}): Promise<FakeGraphApi> {
    const fake = new FakeGraphApi(options);
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.#url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** Base URL, the equivalent of https://graph.threads.net. */
  get url(): string {
    return this.#url;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---- test hooks ----

  /** A user who has already connected: returns a long-lived token. */
  createAccount(username = `user${this.#users.size + 1}`): { userId: string; accessToken: string } {
    const user = this.#addUser(username);
    return { userId: user.id, accessToken: this.#issueToken(user.id, 'long') };
  }

  /** A token from the User Token Generator of the app's dashboard: short-lived (1 hour), for a new or known user. */
  createShortLivedToken(input: { username?: string; userId?: string } = {}): { userId: string; accessToken: string } {
    const user = input.userId ? this.#users.get(input.userId)! : this.#addUser(input.username ?? `user${this.#users.size + 1}`);
    return { userId: user.id, accessToken: this.#issueToken(user.id, 'short') };
  }

  /** The user approves the app in the authorization window; returns the code Meta redirects with. */
  authorize(input: { username?: string; userId?: string; redirectUri: string }): { code: string; userId: string } {
    const user = input.userId ? this.#users.get(input.userId)! : this.#addUser(input.username ?? `user${this.#users.size + 1}`);
    const code = `AQ${randomBytes(24).toString('base64url')}`;
    this.#codes.set(code, { userId: user.id, redirectUri: input.redirectUri, expiresAt: this.#now() + CODE_LIFETIME_MS, used: false });
    return { code, userId: user.id };
  }

  revokeToken(token: string): void {
    this.#tokens.get(token)!.revoked = true;
  }

  /** Makes the container's processing fail, e.g. with FAILED_DOWNLOADING_VIDEO or UNKNOWN. */
  failContainer(containerId: string, errorMessage: string): void {
    this.#containers.get(containerId)!.failure = errorMessage;
  }

  /** The next container created will fail processing with this error_message. */
  failNextContainer(errorMessage: string): void {
    this.#pendingFailures.push(errorMessage);
  }

  containerStatus(containerId: string): ContainerState['status'] {
    return this.#stateOf(this.#containers.get(containerId)!).status;
  }

  setInsights(mediaId: string, counts: Partial<Record<string, number>>): void {
    this.#insights.set(mediaId, counts as Record<string, number>);
  }

  /** The user's follower count, as the followers_count user insight answers it (0 until set). */
  setFollowers(userId: string, count: number): void {
    this.#followers.set(userId, count);
  }

  failNext(endpoint: FakeEndpoint, fault: Fault, times = 1): void {
    const queue = this.#faults.get(endpoint) ?? [];
    for (let i = 0; i < times; i++) queue.push(fault);
    this.#faults.set(endpoint, queue);
  }

  callsTo(endpoint: FakeEndpoint): RecordedRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }

  // ---- transport ----

  async #onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = req.method ?? 'GET';
    const route = routeOf(method, url.pathname);
    let params: Params;
    try {
      params = await readParams(req, url);
    } catch (err) {
      return send(res, errorAnswer(err));
    }
    if (this.#latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.#latencyMs));
    await Promise.all(this.#downloads);
    const { access_token: _token, ...loggable } = params;
    this.requests.push({ method, endpoint: route?.endpoint ?? null, path: url.pathname, params: loggable });
    const fault = route ? this.#faults.get(route.endpoint)?.shift() : undefined;
    if (fault?.kind === 'hang') return; // closeAllConnections() ends it on close()
    if (fault && fault.kind !== 'dropResponse') return send(res, faultAnswer(fault));
    const answer = this.#answer(route, method, url.pathname, params);
    if (fault?.kind === 'dropResponse') {
      req.socket.destroy();
      return;
    }
    send(res, answer);
  }

  #answer(route: Route | null, method: string, path: string, params: Params): Answer {
    try {
      if (!route) throw graphError(2500, `Unknown path components: ${path} (${method})`);
      rejectUnknownParams(route.endpoint, params);
      const body = this.#dispatch(route, method, params);
      return typeof body === 'string' ? { status: 200, body } : json(200, body);
    } catch (err) {
      return errorAnswer(err);
    }
  }

  #dispatch(route: Route, method: string, params: Params): Record<string, unknown> | string {
    switch (route.endpoint) {
      case 'oauth.access_token':
        return this.#exchangeCode(params);
      case 'access_token':
        return this.#exchangeForLongLived(params);
      case 'refresh_access_token':
        return this.#refresh(params);
    }
    const user = this.#authenticate(params);
    const node = route.node!;
    switch (route.endpoint) {
      case 'me':
        return this.#profile(user, params);
      case 'object.get':
        return this.#readObject(user, node, params);
      case 'object.delete':
        return this.#delete(user, node);
      case 'repost':
        return this.#repost(user, node);
      case 'insights':
        return this.#readInsights(user, node, params);
    }
    this.#requireSelf(user, node, method);
    switch (route.endpoint) {
      case 'threads.create':
        return this.#createContainer(user, params);
      case 'threads.list':
        return this.#list(user, params, false);
      case 'replies.list':
        return this.#list(user, params, true);
      case 'threads_publish':
        return this.#publish(user, params);
      case 'threads_publishing_limit':
        return this.#publishingLimit(user, params);
      case 'threads_insights':
        return this.#readUserInsights(user, params);
    }
  }

  // ---- OAuth (docs/reference/threads-api.md §2) ----

  #exchangeCode(params: Params): string {
    if (params.grant_type !== 'authorization_code') throw new OAuthFlatFault('Invalid grant_type');
    if (params.client_id !== this.appId) throw new OAuthFlatFault('Invalid platform app');
    if (params.client_secret !== this.appSecret) throw new OAuthFlatFault('Error validating client secret');
    const code = this.#codes.get(params.code ?? '');
    if (!code || code.used || code.expiresAt <= this.#now()) throw new OAuthFlatFault('Matching code was not found or was already used');
    if (code.redirectUri !== params.redirect_uri)
      throw new OAuthFlatFault(
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      );
    code.used = true;
    const token = this.#issueToken(code.userId, 'short');
    // Written by hand: user_id is a bare JSON number too large for a double, as Meta sends it.
    return `{"access_token":${JSON.stringify(token)},"user_id":${code.userId}}`;
  }

  #exchangeForLongLived(params: Params): Record<string, unknown> {
    if (params.grant_type !== 'th_exchange_token') throw invalidParam('Param grant_type must be th_exchange_token');
    if (params.client_secret !== this.appSecret) throw graphError(101, 'Error validating client secret.');
    const { token } = this.#authenticateToken(params);
    if (token.kind !== 'short') throw invalidParam('Only a short-lived token can be exchanged');
    return this.#longLivedAnswer(this.#issueToken(token.userId, 'long'));
  }

  #refresh(params: Params): Record<string, unknown> {
    if (params.grant_type !== 'th_refresh_token') throw invalidParam('Param grant_type must be th_refresh_token');
    const { token } = this.#authenticateToken(params);
    if (token.kind !== 'long') throw invalidParam('Only a long-lived token can be refreshed');
    if (this.#now() - token.issuedAt < MIN_REFRESH_AGE_MS) throw invalidParam('The access token must be at least 24 hours old to be refreshed');
    return this.#longLivedAnswer(this.#issueToken(token.userId, 'long'));
  }

  #longLivedAnswer(accessToken: string): Record<string, unknown> {
    return { access_token: accessToken, token_type: 'bearer', expires_in: LONG_TOKEN_MS / 1000 };
  }

  #issueToken(userId: string, kind: Token['kind']): string {
    const value = `TH${kind === 'short' ? 'S' : 'L'}${randomBytes(24).toString('base64url')}`;
    const now = this.#now();
    this.#tokens.set(value, { userId, kind, issuedAt: now, expiresAt: now + (kind === 'short' ? SHORT_TOKEN_MS : LONG_TOKEN_MS), revoked: false });
    return value;
  }

  #authenticate(params: Params): User {
    return this.#authenticateToken(params).user;
  }

  #authenticateToken(params: Params): { user: User; token: Token } {
    const value = params.access_token;
    if (!value) throw graphError(104, 'An access token is required to request this resource.');
    const token = this.#tokens.get(value);
    if (!token) throw graphError(190, 'Invalid OAuth access token - Cannot parse access token');
    if (token.revoked) throw graphError(190, 'Error validating access token: The user has not authorized application.', { subcode: 458 });
    if (token.expiresAt <= this.#now()) {
      throw graphError(190, `Error validating access token: Session has expired on ${new Date(token.expiresAt).toUTCString()}.`, { subcode: 463 });
    }
    return { user: this.#users.get(token.userId)!, token };
  }

  #requireSelf(user: User, node: string, method: string): void {
    if (node !== 'me' && node !== user.id) throw notFound(node, method);
  }

  #profile(user: User, params: Params): Record<string, unknown> {
    const fields = requestedFields(params, PROFILE_FIELDS, 'ThreadsUser');
    return pick({ id: user.id, username: user.username, name: user.username, is_verified: false }, fields);
  }

  // ---- containers and publishing (docs/reference/threads-api.md §4) ----

  #createContainer(user: User, params: Params): Record<string, unknown> {
    const spec = parseContainerSpec(params, this.#spoilerUnit);
    if (spec.replyToId) this.#requirePublished(spec.replyToId, 'reply_to_id');
    if (spec.quotePostId) this.#requirePublished(spec.quotePostId, 'quote_post_id');
    for (const childId of spec.childIds) this.#checkCarouselChild(user, childId);
    const now = this.#now();
    const failure = this.#pendingFailures.shift() ?? null;
    const container: Container = {
      id: this.#newId(),
      ownerId: user.id,
      spec,
      createdAt: now,
      readyAt: now + this.#processingMs[spec.type],
      failure,
      mediaId: null,
    };
    this.#containers.set(container.id, container);
    if (spec.media && this.#fetchMedia && !failure) this.#download(container, spec.media);
    if (spec.autoPublish) return { id: this.#publishContainer(user, container).id };
    return { id: container.id };
  }

  /**
   * Fetches the container's media as Meta's servers would (any address: the tests' media servers
   * are local), and fails the container when that does not give an image (a video). Meta
   * documents FAILED_DOWNLOADING_VIDEO and FAILED_PROCESSING_VIDEO; the image names follow them.
   */
  #download(container: Container, media: MediaRef): void {
    const download = downloadFault(media).then((failure) => {
      if (failure) container.failure ??= failure;
    });
    this.#downloads.add(download);
    void download.finally(() => this.#downloads.delete(download));
  }

  /** A reply target must be a published media id: a container id here is the classic bug. */
  #requirePublished(mediaId: string, param: string): void {
    const media = this.#media.get(mediaId);
    if (!media || media.deleted || media.repostOf) throw invalidParam(`Param ${param} must be the id of a published Threads post`);
  }

  #checkCarouselChild(user: User, childId: string): void {
    const child = this.#containers.get(childId);
    if (!child || child.ownerId !== user.id) throw invalidParam(`Carousel child ${childId} is not a media container of this user`);
    if (!child.spec.isCarouselItem) throw invalidParam(`Carousel child ${childId} was not created with is_carousel_item=true`);
    const { status } = this.#stateOf(child);
    if (status === 'ERROR' || status === 'EXPIRED') throw invalidParam(`Carousel child ${childId} is ${status}`);
  }

  #stateOf(container: Container): ContainerState {
    if (container.mediaId) return { status: 'PUBLISHED', errorMessage: null };
    if (container.failure) return { status: 'ERROR', errorMessage: container.failure };
    const now = this.#now();
    if (now - container.createdAt >= CONTAINER_LIFETIME_MS) return { status: 'EXPIRED', errorMessage: null };
    if (now < container.readyAt) return { status: 'IN_PROGRESS', errorMessage: null };
    for (const childId of container.spec.childIds) {
      const child = this.#stateOf(this.#containers.get(childId)!);
      if (child.status !== 'FINISHED') return child;
    }
    return { status: 'FINISHED', errorMessage: null };
  }

  #publish(user: User, params: Params): Record<string, unknown> {
    const containerId = params.creation_id;
    if (!containerId) throw invalidParam('The parameter creation_id is required');
    const container = this.#containers.get(containerId);
    if (!container || container.ownerId !== user.id) throw notFound(containerId, 'POST');
    if (container.spec.isCarouselItem) throw invalidParam('A carousel item cannot be published on its own; publish the CAROUSEL container');
    const { status } = this.#stateOf(container);
    if (status === 'IN_PROGRESS') throw graphError(24, 'The requested resource does not exist', { subcode: 4279009 });
    if (status === 'PUBLISHED') {
      this.duplicatePublishAttempts++;
      throw invalidParam('This media container has already been published');
    }
    if (status !== 'FINISHED') throw invalidParam(`The media container is ${status} and cannot be published`);
    return { id: this.#publishContainer(user, container).id };
  }

  #publishContainer(user: User, container: Container): PublishedPost {
    const { spec } = container;
    this.#enforceQuota(user, spec.replyToId !== null);
    const parent = spec.replyToId ? this.#media.get(spec.replyToId)! : null;
    const media = spec.type === 'CAROUSEL' ? spec.childIds.map((id) => this.#containers.get(id)!.spec.media!) : spec.media ? [spec.media] : [];
    const post: PublishedPost = {
      id: this.#newId(),
      containerId: container.id,
      ownerId: user.id,
      username: user.username,
      mediaType: READ_TYPES[spec.type],
      text: spec.text,
      replyToId: spec.replyToId,
      rootId: parent ? (parent.rootId ?? parent.id) : null,
      quotePostId: spec.quotePostId,
      replyControl: spec.replyControl,
      poll: spec.poll,
      topicTag: spec.topicTag,
      media,
      childIds: spec.type === 'CAROUSEL' ? spec.childIds.map(() => this.#newId()) : [],
      spoilers: spec.spoilers,
      isSpoilerMedia: spec.isSpoilerMedia,
      shortcode: randomBytes(8).toString('base64url'),
      publishedAt: this.#now(),
      repostOf: null,
      deleted: false,
    };
    this.#media.set(post.id, post);
    if (post.replyToId !== null) {
      const siblings = this.#replies.get(post.replyToId) ?? [];
      this.#replies.set(post.replyToId, siblings);
      siblings.push(post);
    }
    this.published.push(post);
    this.#recordPublishTime(post.ownerId, post.replyToId !== null, post.publishedAt);
    container.mediaId = post.id;
    return post;
  }

  /** Rolling 24 h buckets: top-level posts (carousel = 1) and replies (docs/reference/threads-api.md §7.1). */
  #enforceQuota(user: User, isReply: boolean): void {
    const limit = isReply ? this.#replyQuota : this.#postQuota;
    if (this.#usage(user, isReply) >= limit) {
      throw graphError(4, `The ${isReply ? 'reply' : 'publishing'} limit for this profile has been reached (${limit} per 24 hours)`, { subcode: 2207042 });
    }
  }

  #usage(user: User, replies: boolean): number {
    const times = this.#publishTimes.get(`${replies ? 'replies' : 'posts'}:${user.id}`) ?? [];
    return times.length - firstAbove(times, this.#now() - DAY);
  }

  #recordPublishTime(ownerId: string, reply: boolean, at: number): void {
    const key = `${reply ? 'replies' : 'posts'}:${ownerId}`;
    const times = this.#publishTimes.get(key) ?? [];
    this.#publishTimes.set(key, times);
    // A test clock may move back: insert in order rather than assume it only grows.
    times.splice(firstAbove(times, at), 0, at);
  }

  #publishingLimit(user: User, params: Params): Record<string, unknown> {
    const fields = requestedFields(params, LIMIT_FIELDS, 'ThreadsPublishingLimit', ['quota_usage']);
    const config = (total: number) => ({ quota_total: total, quota_duration: DAY / 1000 });
    const deletes = () => [...this.#media.values()].filter((m) => m.ownerId === user.id && m.deleted).length;
    const values = {
      quota_usage: this.#usage(user, false),
      config: config(this.#postQuota),
      reply_quota_usage: this.#usage(user, true),
      reply_config: config(this.#replyQuota),
      delete_quota_usage: fields.includes('delete_quota_usage') ? deletes() : 0,
      delete_config: config(100),
      location_search_quota_usage: 0,
      location_search_config: config(500),
    };
    return { data: [pick(values, fields)] };
  }

  // ---- reading (docs/reference/threads-api.md §4.4, §5, §6) ----

  #readObject(user: User, id: string, params: Params): Record<string, unknown> {
    if (id === user.id) return this.#profile(user, params);
    const container = this.#containers.get(id);
    if (container && container.ownerId === user.id) {
      const fields = requestedFields(params, CONTAINER_FIELDS, 'ThreadsMediaContainer');
      const state = this.#stateOf(container);
      return pick({ id, status: state.status, error_message: state.errorMessage }, fields);
    }
    const fields = requestedFields(params, MEDIA_FIELDS, 'ThreadsMedia');
    return pick(this.#mediaValues(this.#ownMedia(user, id, 'GET')), fields);
  }

  #ownMedia(user: User, id: string, method: string): PublishedPost {
    const media = this.#media.get(id);
    if (!media || media.deleted || media.ownerId !== user.id) throw notFound(id, method);
    return media;
  }

  #mediaValues(m: PublishedPost): Record<string, unknown> {
    const single = m.media.length === 1 ? m.media[0]! : null;
    const ref = (id: string | null) => (id ? { id } : undefined);
    return {
      id: m.id,
      media_product_type: 'THREADS',
      media_type: m.mediaType,
      media_url: single?.url,
      permalink: `https://www.threads.net/@${m.username}/post/${m.shortcode}`,
      owner: m.replyToId === null ? { id: m.ownerId } : undefined,
      username: m.username,
      text: m.text,
      timestamp: graphTimestamp(m.publishedAt),
      shortcode: m.shortcode,
      children: m.childIds.length ? { data: m.childIds.map((id) => ({ id })) } : undefined,
      is_quote_post: m.quotePostId !== null,
      quoted_post: ref(m.quotePostId),
      reposted_post: ref(m.repostOf),
      alt_text: single?.altText,
      has_replies: (this.#replies.get(m.id) ?? []).some((r) => !r.deleted),
      is_reply: m.replyToId !== null,
      is_reply_owned_by_me: m.replyToId !== null ? true : undefined,
      root_post: ref(m.rootId),
      replied_to: ref(m.replyToId),
      topic_tag: m.topicTag,
      reply_audience: m.replyControl ?? undefined,
      poll_attachment: m.poll ? Object.fromEntries(m.poll.map((o, i) => [`option_${'abcd'[i]}`, o])) : undefined,
      is_spoiler_media: m.isSpoilerMedia,
      text_entities: m.spoilers.length ? m.spoilers.map((s) => ({ entity_type: 'SPOILER', ...s })) : undefined,
      is_verified: false,
    };
  }

  /** /me/threads (top-level posts and reposts) or /me/replies, newest first, cursor-paged. */
  #list(user: User, params: Params, replies: boolean): Record<string, unknown> {
    const fields = requestedFields(params, MEDIA_FIELDS, 'ThreadsMedia');
    const limit = params.limit === undefined ? 25 : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidParam('Param limit must be an integer between 1 and 100');
    if (params.before !== undefined && params.after !== undefined) throw invalidParam('Params before and after cannot be used together');
    let items = [...this.#media.values()]
      .filter((m) => m.ownerId === user.id && !m.deleted && (m.replyToId !== null) === replies && this.#now() - m.publishedAt >= this.#listingLagMs)
      .filter((m) => inWindow(m.publishedAt, params.since, params.until))
      .sort((a, b) => b.publishedAt - a.publishedAt || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
    if (params.after !== undefined) items = items.slice(cursorIndex(items, params.after) + 1);
    if (params.before !== undefined) items = items.slice(0, Math.max(0, cursorIndex(items, params.before)));
    const page = items.slice(0, limit);
    const cursors = page.length ? { cursors: { before: cursor(page[0]!.id), after: cursor(page[page.length - 1]!.id) } } : {};
    return { data: page.map((m) => pick(this.#mediaValues(m), fields)), paging: cursors };
  }

  #readInsights(user: User, mediaId: string, params: Params): Record<string, unknown> {
    const media = this.#ownMedia(user, mediaId, 'GET');
    if (!params.metric) throw invalidParam('The parameter metric is required');
    const metrics = params.metric.split(',').map((m) => m.trim());
    const unknown = metrics.find((m) => !INSIGHT_METRICS.includes(m));
    if (unknown) throw invalidParam(`Param metric must be one of {${INSIGHT_METRICS.join(', ')}}; got ${unknown}`);
    if (media.repostOf) return { data: [] };
    const counts = this.#insights.get(mediaId) ?? {};
    return {
      data: metrics.map((name) => ({
        name,
        period: 'lifetime',
        values: [{ value: counts[name] ?? 0 }],
        title: name[0]!.toUpperCase() + name.slice(1),
        description: `The number of ${name} on your post.`,
        id: `${mediaId}/insights/${name}/lifetime`,
      })),
    };
  }

  /**
   * User insights. Only `followers_count` is answered, in Meta's documented shape: a total
   * (`total_value.value`), not a time series. The other metrics exist but this fake does not
   * keep them, so asking for one is loud rather than answered with made-up data.
   */
  #readUserInsights(user: User, params: Params): Record<string, unknown> {
    if (!params.metric) throw invalidParam('The parameter metric is required');
    const metrics = params.metric.split(',').map((m) => m.trim());
    const unknown = metrics.find((m) => !USER_INSIGHT_METRICS.includes(m));
    if (unknown) throw invalidParam(`Param metric must be one of {${USER_INSIGHT_METRICS.join(', ')}}; got ${unknown}`);
    if (metrics.some((m) => m !== 'followers_count')) throw new Error(`fake Graph API: user insight ${params.metric} is not modelled`);
    return {
      data: [
        {
          name: 'followers_count',
          period: 'day',
          title: 'followers_count',
          description: 'This is the total number of followers on Threads.',
          total_value: { value: this.#followers.get(user.id) ?? 0 },
          id: `${user.id}/insights/followers_count/day`,
        },
      ],
    };
  }

  // ---- reposts and deletion (docs/reference/threads-api.md §4.8) ----

  /** Reposting the same post again returns the existing repost or is refused (`secondRepost`); tests count `reposts`. */
  #repost(user: User, mediaId: string): Record<string, unknown> {
    const target = this.#media.get(mediaId);
    if (!target || target.deleted || target.repostOf) throw notFound(mediaId, 'POST');
    const existing = this.reposts.find((r) => r.ownerId === user.id && r.repostOf === mediaId && !r.deleted);
    if (existing && this.#secondRepost === 'refused') throw invalidParam('This post has already been reposted');
    if (existing) return { id: existing.id };
    const repost: PublishedPost = {
      ...target,
      id: this.#newId(),
      containerId: null,
      ownerId: user.id,
      username: user.username,
      mediaType: 'REPOST_FACADE',
      replyToId: null,
      rootId: null,
      publishedAt: this.#now(),
      repostOf: mediaId,
    };
    this.#media.set(repost.id, repost);
    this.reposts.push(repost);
    return { id: repost.id };
  }

  #delete(user: User, mediaId: string): Record<string, unknown> {
    const media = this.#ownMedia(user, mediaId, 'DELETE');
    media.deleted = true;
    return { success: true, deleted_id: mediaId };
  }

  // ---- helpers ----

  #addUser(username: string): User {
    const user = { id: String(this.#nextUserId), username };
    this.#nextUserId += 2n;
    this.#users.set(user.id, user);
    return user;
  }

  #newId(): string {
    return String(this.#nextObjectId++);
  }

  #now(): number {
    return this.#clock.now().getTime();
  }
}

function routeOf(method: string, pathname: string): Route | null {
  if (pathname === '/oauth/access_token') return method === 'POST' ? { endpoint: 'oauth.access_token', node: null } : null;
  if (pathname === '/access_token') return method === 'GET' ? { endpoint: 'access_token', node: null } : null;
  if (pathname === '/refresh_access_token') return method === 'GET' ? { endpoint: 'refresh_access_token', node: null } : null;
  const match = /^\/v1\.0\/([^/]+)(?:\/([^/]+))?\/?$/.exec(pathname);
  if (!match) return null;
  const node = decodeURIComponent(match[1]!);
  const endpoint = graphEndpoint(method, node, match[2]);
  return endpoint ? { endpoint, node } : null;
}

function graphEndpoint(method: string, node: string, edge: string | undefined): FakeEndpoint | null {
  const table: Record<string, FakeEndpoint> = {
    'GET ': node === 'me' ? 'me' : 'object.get',
    'DELETE ': 'object.delete',
    'POST threads': 'threads.create',
    'GET threads': 'threads.list',
    'GET replies': 'replies.list',
    'POST threads_publish': 'threads_publish',
    'GET threads_publishing_limit': 'threads_publishing_limit',
    'POST repost': 'repost',
    'GET insights': 'insights',
    'GET threads_insights': 'threads_insights',
  };
  return table[`${method} ${edge ?? ''}`] ?? null;
}

/** Parameters come from the query string and a form-encoded body, as Meta accepts both. */
async function readParams(req: IncomingMessage, url: URL): Promise<Params> {
  const params: Params = Object.fromEntries(url.searchParams);
  const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
  if (bearer && params.access_token === undefined) params.access_token = bearer[1]!;
  const body = await readBody(req);
  if (body.length === 0) return params;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw invalidParam(`This fake reads form-encoded bodies only, not ${type || 'an untyped body'}`);
  return { ...params, ...Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw invalidParam('Request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function inWindow(ms: number, since: string | undefined, until: string | undefined): boolean {
  const seconds = ms / 1000;
  return (since === undefined || seconds >= Number(since)) && (until === undefined || seconds <= Number(until));
}

function cursor(id: string): string {
  return Buffer.from(id).toString('base64url');
}

function cursorIndex(items: PublishedPost[], value: string): number {
  const id = Buffer.from(value, 'base64url').toString('utf8');
  const index = items.findIndex((m) => m.id === id);
  if (index < 0) throw invalidParam('Invalid paging cursor');
  return index;
}

function faultAnswer(fault: Exclude<Fault, { kind: 'hang' } | { kind: 'dropResponse' }>): Answer {
  if (fault.kind === 'graphError') return json(fault.status, { error: fault.error });
  if (fault.kind === 'http429') {
    const answer = json(429, {
      error: { message: '(#4) Application request limit reached', type: 'OAuthException', code: 4, is_transient: true, fbtrace_id: 'FakeRateLimit' },
    });
    return { ...answer, headers: { 'retry-after': String(fault.retryAfterSec) } };
  }
  return json(500, {
    error: {
      message: 'An unexpected error has occurred. Please retry your request later.',
      type: 'OAuthException',
      code: 2,
      is_transient: true,
      fbtrace_id: 'FakeServerError',
    },
  });
}

function errorAnswer(err: unknown): Answer {
  if (err instanceof GraphFault) return json(err.status, { error: err.error });
  if (err instanceof OAuthFlatFault) return json(400, { error_type: 'OAuthException', code: 400, error_message: err.message });
  throw err;
}

const DOWNLOAD_TIMEOUT_MS = 10_000;

/** Why Meta would fail the container for this media, or null when it is an image (a video). */
async function downloadFault(media: MediaRef): Promise<string | null> {
  const what = media.type === 'VIDEO' ? 'VIDEO' : 'IMAGE';
  let bytes: Buffer;
  try {
    const res = await fetch(media.url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    if (!res.ok) {
      await res.body?.cancel();
      return `FAILED_DOWNLOADING_${what}`;
    }
    bytes = Buffer.from(await res.arrayBuffer());
  } catch {
    return `FAILED_DOWNLOADING_${what}`;
  }
  return (what === 'VIDEO' ? isVideo(bytes) : isImage(bytes)) ? null : `FAILED_PROCESSING_${what}`;
}

/** JPEG, PNG, GIF or WebP by their first bytes (Threads takes JPEG and PNG; the others are converted). */
function isImage(b: Buffer): boolean {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return true;
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return true;
  const head = b.toString('latin1', 0, 12);
  return head.startsWith('GIF8') || (head.startsWith('RIFF') && head.slice(8) === 'WEBP');
}

/** MP4 or QuickTime: an ISO base media file starts with a box, `ftyp` (or `moov`/`wide` for old MOVs). */
function isVideo(b: Buffer): boolean {
  return ['ftyp', 'moov', 'wide', 'mdat'].includes(b.toString('latin1', 4, 8));
}

function json(status: number, body: unknown): Answer {
  return { status, body: JSON.stringify(body) };
}

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8', ...answer.headers });
  res.end(answer.body);
}

/** Index of the first element of the ascending `sorted` greater than `value` (its length if none). */
function firstAbove(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
