import http from 'node:http';
import https from 'node:https';
import { PublishError, type SpoilerRange } from '../platform.js';

/**
 * A thin client for Meta's Threads Graph API (reference: docs/reference/threads-api.md). It only speaks HTTP
 * and turns every failure into a PublishError; the publishing order and the exactly-once rules
 * live in platform.ts.
 *
 * Tokens travel as the `access_token` parameter (what every Meta example uses). Error messages
 * are built from Meta's answer and the action name only, never from the URL or the form, so a
 * token cannot leak into logs through them.
 */

const GRAPH_VERSION = 'v1.0';
const DEFAULT_AUTHORIZE_BASE_URL = 'https://threads.net/oauth/authorize';
const DEFAULT_TIMEOUT_MS = 30_000;
/** The rolling 24 h publishing quota frees up gradually; an hour is a sensible first wait. */
const QUOTA_RETRY_MS = 60 * 60_000;
/** Code 368 (temporarily blocked for policy reasons): Meta says "retry much later". */
const POLICY_BLOCK_RETRY_MS = 6 * 60 * 60_000;

type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
export type InsightMetric = 'views' | 'likes' | 'replies' | 'reposts' | 'quotes' | 'shares';
const INSIGHT_METRICS: readonly InsightMetric[] = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];

export interface ThreadsClientOptions {
  /** Graph host without version, e.g. https://graph.threads.net (THREADS_API_URL). */
  apiUrl: string;
  appId: string | null;
  appSecret: string | null;
  /** Where users approve the app; Meta's docs show threads.net and, since 2026, threads.com. */
  authorizeBaseUrl?: string;
  /**
   * Calls go through this fetch instead of the client's own keep-alive HTTP transport (tests
   * that look at or answer each call in-process).
   */
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
  /** Epoch milliseconds; turns `expires_in` into an instant. */
  now?: () => number;
}

export interface LongLivedToken {
  accessToken: string;
  expiresAt: Date;
}

export interface ContainerState {
  id: string;
  status: ContainerStatus;
  errorMessage: string | null;
}

/** Fields shared by every container kind (docs/reference/threads-api.md §4.2). */
export interface ContainerOptions {
  replyToId?: string | null;
  topicTag?: string | null;
  /** UTF-16 offsets, sent to Meta as is (decisions.md). */
  spoilers?: SpoilerRange[];
  /** Meta's own value: `everyone`, `accounts_you_follow`, … (docs/reference/threads-api.md §4.2). */
  replyControl?: string | null;
  quotePostId?: string | null;
  /** 2 to 4 options; text posts only. */
  pollOptions?: string[] | null;
}

export interface MediaContainerOptions extends ContainerOptions {
  text?: string | null;
  altText?: string | null;
  isSpoilerMedia?: boolean;
}

export interface PublishingLimit {
  quotaUsage: number;
  quotaTotal: number;
  quotaDurationSec: number;
  /** Replies count against a bucket of their own (docs/reference/threads-api.md §7.1). */
  replyQuotaUsage: number;
  replyQuotaTotal: number;
}

/** A published post as listed by /me/threads or /me/replies. */
export interface RecentPost {
  id: string;
  text: string | null;
  mediaType: string | null;
  repliedToId: string | null;
  /** For a REPOST_FACADE: the post it reposts. */
  repostedId: string | null;
  timestamp: string | null;
}

type Params = Record<string, string>;
type Json = Record<string, unknown>;

export class ThreadsClient {
  readonly sleep: (ms: number) => Promise<void>;
  readonly #apiUrl: string;
  readonly #transport: Transport;
  readonly #appId: string | null;
  readonly #appSecret: string | null;
  readonly #authorizeBaseUrl: string;
  readonly #timeoutMs: number;
  readonly #now: () => number;

  constructor(options: ThreadsClientOptions) {
    this.#apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.#appId = options.appId;
    this.#appSecret = options.appSecret;
    this.#authorizeBaseUrl = options.authorizeBaseUrl ?? DEFAULT_AUTHORIZE_BASE_URL;
    this.#transport = options.fetch ? fetchTransport(this.#apiUrl, options.fetch) : httpTransport(this.#apiUrl);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The client's clock (milliseconds), so callers measure ages as the client does. */
  now(): number {
    return this.#now();
  }

  // ---- OAuth (docs/reference/threads-api.md §2) ----

  authorizeUrl(input: { redirectUri: string; state: string; scopes: readonly string[] }): string {
    const url = new URL(this.#authorizeBaseUrl);
    url.searchParams.set('client_id', this.#requireAppId());
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('scope', input.scopes.join(','));
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('state', input.state);
    return url.toString();
  }

  /**
   * Code → short-lived token. The answer's `user_id` is a JSON number above 2^53 that
   * JSON.parse corrupts, so it is deliberately not read: call getMe for the id.
   */
  async exchangeCode(code: string, redirectUri: string): Promise<{ accessToken: string }> {
    const body = await this.#send('exchange the authorization code', 'POST', '/oauth/access_token', {
      client_id: this.#requireAppId(),
      client_secret: this.#requireAppSecret(),
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
      // Meta appends `#_` to the redirect; it is not part of the code.
      code: code.replace(/#_$/, ''),
    });
    return { accessToken: readString(body, 'access_token', 'exchange the authorization code') };
  }

  async exchangeForLongLived(shortToken: string): Promise<LongLivedToken> {
    const action = 'exchange for a long-lived token';
    const body = await this.#send(action, 'GET', '/access_token', {
      grant_type: 'th_exchange_token',
      client_secret: this.#requireAppSecret(),
      access_token: shortToken,
    });
    return this.#longLived(body, action);
  }

  /** Works only on a token at least 24 h old and not expired (docs/reference/threads-api.md §2.5). */
  async refreshLongLived(token: string): Promise<LongLivedToken> {
    const action = 'refresh the token';
    const body = await this.#send(action, 'GET', '/refresh_access_token', { grant_type: 'th_refresh_token', access_token: token });
    return this.#longLived(body, action);
  }

  /** The account's id comes from here, as a string: never from the code exchange's number. */
  async getMe(token: string): Promise<{ id: string; username: string }> {
    const action = 'read the profile';
    const body = await this.#send(action, 'GET', graphPath('me'), { fields: 'id,username', access_token: token });
    return { id: readString(body, 'id', action), username: readString(body, 'username', action) };
  }

  /** The Graph calls made on behalf of one connected account. */
  forAccount(accessToken: string): ThreadsAccountApi {
    return new ThreadsAccountApi((action, method, path, params) => this.#send(action, method, graphPath(path), { ...params, access_token: accessToken }));
  }

  #longLived(body: Json, action: string): LongLivedToken {
    const expiresIn = readNumber(body, 'expires_in', action);
    return { accessToken: readString(body, 'access_token', action), expiresAt: new Date(this.#now() + expiresIn * 1000) };
  }

  #requireAppId(): string {
    if (!this.#appId) throw new PublishError('permanent', 'THREADS_NOT_CONFIGURED', 'THREADS_APP_ID is not set.');
    return this.#appId;
  }

  #requireAppSecret(): string {
    if (!this.#appSecret) throw new PublishError('permanent', 'THREADS_NOT_CONFIGURED', 'THREADS_APP_SECRET is not set.');
    return this.#appSecret;
  }

  // ---- transport ----

  async #send(action: string, method: 'GET' | 'POST', path: string, params: Params): Promise<Json> {
    const form = new URLSearchParams(params).toString();
    let answer: Answer;
    try {
      answer = await this.#transport(method === 'GET' ? { method, path: `${path}?${form}`, form: null } : { method, path, form }, this.#timeoutMs);
    } catch (err) {
      throw networkError(action, err);
    }
    const { status, text } = answer;
    if (status < 200 || status > 299) throw responseError(action, status, answer.retryAfter, text, this.#now());
    const body = parseObject(text);
    if (!body) throw new PublishError('transient', 'THREADS_BAD_RESPONSE', `Threads ${action} failed: the answer was not JSON.`, { outcomeUnknown: true });
    return body;
  }
}

// ---- transport ----

/** One call: `path` (with its query) under the API's URL, and a form body for a POST. */
interface Call {
  method: 'GET' | 'POST';
  path: string;
  form: string | null;
}

/** What the client reads of an answer. */
interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
}

/**
 * Makes one call and reads the whole answer within `timeoutMs`. Throws when no answer came: an
 * error named TimeoutError when the time ran out, else one with the socket's `code` (on itself
 * or its `cause`), which networkError reads.
 */
type Transport = (call: Call, timeoutMs: number) => Promise<Answer>;

const FORM_TYPE = 'application/x-www-form-urlencoded;charset=UTF-8';

/**
 * Node's own HTTP client over keep-alive connections, one pool per client. The publisher makes
 * three or four Graph calls per post; through fetch (undici's WHATWG streams, a Request and a
 * Response object, an AbortSignal per call) they were about a quarter of a worker's CPU
 * (docs/benchmarks.md, "pubcpu"). Redirects are not followed: the Graph API answers in place.
 */
function httpTransport(apiUrl: string): Transport {
  // Read at the first call: a client made only for its authorization URL needs no API URL.
  let target: { request: typeof http.request; agent: http.Agent; hostname: string; port: string; prefix: string } | null = null;
  const targetOf = () => {
    if (target) return target;
    const base = new URL(apiUrl);
    const secure = base.protocol === 'https:';
    target = {
      request: secure ? https.request : http.request,
      agent: secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true }),
      // http.request takes an IPv6 literal without its brackets.
      hostname: base.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: base.port,
      prefix: base.pathname.replace(/\/+$/, ''),
    };
    return target;
  };
  return (call, timeoutMs) =>
    new Promise<Answer>((resolve, reject) => {
      const { request, agent, hostname, port, prefix } = targetOf();
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(err);
      };
      const headers: http.OutgoingHttpHeaders = { accept: 'application/json' };
      if (call.form !== null) {
        headers['content-type'] = FORM_TYPE;
        headers['content-length'] = Buffer.byteLength(call.form);
      }
      const req = request({ hostname, port, path: prefix + call.path, method: call.method, agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('error', fail);
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, text });
        });
        // The connection closed before the answer's end (no 'end' came).
        res.on('close', () => fail(Object.assign(new Error('the connection closed before the answer ended'), { code: 'ECONNRESET' })));
      });
      const timer = setTimeout(() => fail(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' })), timeoutMs);
      req.on('error', fail);
      req.end(call.form ?? undefined);
    });
}

/** The same calls through a fetch function (ThreadsClientOptions.fetch). */
function fetchTransport(apiUrl: string, fetch: typeof globalThis.fetch): Transport {
  return async (call, timeoutMs) => {
    const response = await fetch(apiUrl + call.path, {
      method: call.method,
      signal: AbortSignal.timeout(timeoutMs),
      headers: call.form === null ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': FORM_TYPE },
      ...(call.form === null ? {} : { body: call.form }),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() };
  };
}

type Send = (action: string, method: 'GET' | 'POST', path: string, params: Params) => Promise<Json>;

/**
 * Graph calls for one account. Paths use Meta's `me` alias, so the token alone decides whose
 * account is used and a stale stored user id cannot send a post elsewhere.
 */
export class ThreadsAccountApi {
  constructor(readonly send: Send) {}

  createTextContainer(text: string, options: ContainerOptions = {}): Promise<string> {
    return this.#create('TEXT', { text, ...commonFields(options) });
  }

  createImageContainer(imageUrl: string, options: MediaContainerOptions = {}): Promise<string> {
    return this.#create('IMAGE', { image_url: imageUrl, ...mediaFields(options) });
  }

  createVideoContainer(videoUrl: string, options: MediaContainerOptions = {}): Promise<string> {
    return this.#create('VIDEO', { video_url: videoUrl, ...mediaFields(options) });
  }

  /** One image or video of a carousel; alt text belongs here, not on the carousel. */
  createCarouselItemContainer(item: { kind: 'IMAGE' | 'VIDEO'; url: string; altText?: string | null }): Promise<string> {
    const urlField = item.kind === 'IMAGE' ? 'image_url' : 'video_url';
    return this.#create(item.kind, { is_carousel_item: 'true', [urlField]: item.url, ...optional('alt_text', item.altText) });
  }

  /** Text, reply target, topic and both kinds of spoiler go on the carousel container itself. */
  createCarouselContainer(childIds: readonly string[], options: MediaContainerOptions = {}): Promise<string> {
    return this.#create('CAROUSEL', { children: childIds.join(','), ...mediaFields({ ...options, altText: null }) });
  }

  async getContainerStatus(containerId: string): Promise<ContainerState> {
    const action = 'read the container status';
    const body = await this.send(action, 'GET', containerId, { fields: 'id,status,error_message' });
    const status = readString(body, 'status', action);
    if (!isContainerStatus(status)) throw badResponse(action, `unknown container status ${status}`);
    return { id: readString(body, 'id', action), status, errorMessage: optionalString(body, 'error_message') };
  }

  /** Returns the published media id, which differs from the container id. */
  async publish(containerId: string): Promise<string> {
    const action = 'publish';
    return readString(await this.send(action, 'POST', 'me/threads_publish', { creation_id: containerId }), 'id', action);
  }

  /** Meta may omit `permalink` (copyright-flagged media); then it is rebuilt from the shortcode. */
  async getPermalink(mediaId: string): Promise<string | null> {
    const body = await this.send('read the permalink', 'GET', mediaId, { fields: 'permalink,shortcode,username' });
    const permalink = optionalString(body, 'permalink');
    if (permalink) return permalink;
    const shortcode = optionalString(body, 'shortcode');
    const username = optionalString(body, 'username');
    return shortcode && username ? `https://www.threads.com/@${username}/post/${shortcode}` : null;
  }

  async repost(mediaId: string): Promise<string> {
    return readString(await this.send('repost', 'POST', `${mediaId}/repost`, {}), 'id', 'repost');
  }

  /** Counts by metric name; a metric Meta leaves out is absent (its answer order is not fixed). */
  async getInsights(mediaId: string, metrics: readonly InsightMetric[] = INSIGHT_METRICS): Promise<Partial<Record<InsightMetric, number>>> {
    const action = 'read insights';
    const body = await this.send(action, 'GET', `${mediaId}/insights`, { metric: metrics.join(',') });
    const counts: Partial<Record<InsightMetric, number>> = {};
    for (const entry of readArray(body, 'data', action)) {
      const name = isObject(entry) ? entry.name : undefined;
      const value = isObject(entry) && Array.isArray(entry.values) && isObject(entry.values[0]) ? entry.values[0].value : undefined;
      if (typeof name === 'string' && (metrics as readonly string[]).includes(name) && typeof value === 'number') counts[name as InsightMetric] = value;
    }
    return counts;
  }

  /**
   * The account's follower count: the `followers_count` user insight (docs/reference/threads-api.md §6), a
   * total, answered as `data[].total_value.value` (not a time series).
   */
  async getFollowersCount(): Promise<number> {
    const action = 'read the follower count';
    const body = await this.send(action, 'GET', 'me/threads_insights', { metric: 'followers_count' });
    const entry = readArray(body, 'data', action).find((item) => isObject(item) && item.name === 'followers_count');
    const value = isObject(entry) && isObject(entry.total_value) ? entry.total_value.value : undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw badResponse(action, 'no followers_count total_value');
    return value;
  }

  /** The 250 posts / 24 h quota; replies are on a separate bucket (docs/reference/threads-api.md §7.1). */
  async getPublishingLimit(): Promise<PublishingLimit> {
    const action = 'read the publishing limit';
    const body = await this.send(action, 'GET', 'me/threads_publishing_limit', { fields: 'quota_usage,config,reply_quota_usage,reply_config' });
    const row = readArray(body, 'data', action)[0];
    if (!isObject(row) || !isObject(row.config) || !isObject(row.reply_config)) throw badResponse(action, 'no data[0].config or data[0].reply_config');
    return {
      quotaUsage: readNumber(row, 'quota_usage', action),
      quotaTotal: readNumber(row.config, 'quota_total', action),
      quotaDurationSec: readNumber(row.config, 'quota_duration', action),
      replyQuotaUsage: readNumber(row, 'reply_quota_usage', action),
      replyQuotaTotal: readNumber(row.reply_config, 'quota_total', action),
    };
  }

  /** The account's newest top-level posts (`replies: false`) or replies, newest first. */
  async listRecentPosts(input: { replies: boolean; limit: number }): Promise<RecentPost[]> {
    const action = input.replies ? 'list recent replies' : 'list recent posts';
    const fields = input.replies ? 'id,text,media_type,timestamp,replied_to' : 'id,text,media_type,timestamp,reposted_post';
    const body = await this.send(action, 'GET', input.replies ? 'me/replies' : 'me/threads', { fields, limit: String(input.limit) });
    return readArray(body, 'data', action)
      .filter(isObject)
      .map((item) => ({
        id: readString(item, 'id', action),
        text: optionalString(item, 'text'),
        mediaType: optionalString(item, 'media_type'),
        repliedToId: isObject(item.replied_to) ? optionalString(item.replied_to, 'id') : null,
        repostedId: isObject(item.reposted_post) ? optionalString(item.reposted_post, 'id') : null,
        timestamp: optionalString(item, 'timestamp'),
      }));
  }

  async #create(mediaType: 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL', fields: Params): Promise<string> {
    const action = 'create a container';
    return readString(await this.send(action, 'POST', 'me/threads', { media_type: mediaType, ...fields }), 'id', action);
  }
}

// ---- request building ----

function graphPath(path: string): string {
  return `/${GRAPH_VERSION}/${path}`;
}

function commonFields(options: ContainerOptions): Params {
  const spoilers = options.spoilers ?? [];
  return {
    ...optional('reply_to_id', options.replyToId),
    ...optional('topic_tag', options.topicTag),
    ...optional('reply_control', options.replyControl),
    ...optional('quote_post_id', options.quotePostId),
    ...(options.pollOptions?.length ? { poll_attachment: JSON.stringify(pollAttachment(options.pollOptions)) } : {}),
    // A JSON-encoded string inside the form field (docs/reference/threads-api.md §0, §4.6).
    ...(spoilers.length ? { text_entities: JSON.stringify(spoilers.map((s) => ({ entity_type: 'SPOILER', offset: s.offset, length: s.length }))) } : {}),
  };
}

/** `{ option_a, option_b, option_c?, option_d? }`, a JSON-encoded string in the form (§4.2). */
function pollAttachment(options: readonly string[]): Record<string, string> {
  return Object.fromEntries(options.map((text, i) => [`option_${String.fromCharCode(97 + i)}`, text]));
}

function mediaFields(options: MediaContainerOptions): Params {
  return {
    ...optional('text', options.text),
    ...optional('alt_text', options.altText),
    ...(options.isSpoilerMedia ? { is_spoiler_media: 'true' } : {}),
    ...commonFields(options),
  };
}

function optional(name: string, value: string | null | undefined): Params {
  return value === null || value === undefined || value === '' ? {} : { [name]: value };
}

// ---- answers ----

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseObject(text: string): Json | null {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isContainerStatus(value: string): value is ContainerStatus {
  return ['IN_PROGRESS', 'FINISHED', 'PUBLISHED', 'ERROR', 'EXPIRED'].includes(value);
}

function badResponse(action: string, detail: string): PublishError {
  return new PublishError('transient', 'THREADS_BAD_RESPONSE', `Threads ${action} failed: unexpected answer (${detail}).`, { outcomeUnknown: true });
}

function readString(body: Json, key: string, action: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value === '') throw badResponse(action, `no ${key}`);
  return value;
}

function optionalString(body: Json, key: string): string | null {
  const value = body[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

function readNumber(body: Json, key: string, action: string): number {
  const value = body[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badResponse(action, `no ${key}`);
  return value;
}

function readArray(body: Json, key: string, action: string): unknown[] {
  const value = body[key];
  if (!Array.isArray(value)) throw badResponse(action, `no ${key} list`);
  return value;
}

// ---- errors (docs/reference/threads-api.md §9) ----

/** Graph codes meaning "too many calls or posts for now". */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 341, 613]);
/** Graph codes for a token that is expired, revoked or otherwise invalid. */
const TOKEN_CODES = new Set([102, 190]);
/** Instagram's "publishing limit reached" subcode, which Threads is expected to share [unconfirmed]. */
const QUOTA_SUBCODE = 2207042;
/** Publishing a container that is not ready yet (docs/reference/threads-api.md §4.4). */
const NOT_READY = { code: 24, subcode: 4279009 };

interface GraphError {
  message: string;
  code: number | string | null;
  subcode: number | null;
  isTransient: boolean;
  traceId: string | null;
  /** The flat shape of the OAuth token endpoints (docs/reference/threads-api.md §2.3). */
  oauth: boolean;
}

/** The call got no answer. Only a refused connection proves the request never reached Meta. */
function networkError(action: string, err: unknown): PublishError {
  const name = err instanceof Error ? err.name : '';
  // Node's HTTP client puts the socket's code on the error; fetch on its cause.
  const causeCode = err instanceof Error ? ((err as { code?: unknown }).code ?? (isObject(err.cause) ? err.cause.code : undefined)) : undefined;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new PublishError('transient', 'THREADS_TIMEOUT', `Threads ${action} failed: no answer in time.`, { outcomeUnknown: true, cause: err });
  }
  const refused = causeCode === 'ECONNREFUSED' || causeCode === 'ENOTFOUND';
  return new PublishError('transient', 'THREADS_UNAVAILABLE', `Threads ${action} failed: ${refused ? 'could not connect' : 'the connection failed'}.`, {
    outcomeUnknown: !refused,
    cause: err,
  });
}

function responseError(action: string, status: number, retryAfterHeader: string | null, text: string, nowMs: number): PublishError {
  const error = readGraphError(text);
  const detail = error ? describeGraphError(error) : `HTTP ${status}`;
  const message = `Threads ${action} failed: ${detail}`;
  const retryAfter = retryAfterMs(retryAfterHeader, nowMs);
  if (status === 429 || (error && isRateLimit(error))) {
    const quota = error !== null && isQuota(error);
    return new PublishError('transient', quota ? 'THREADS_QUOTA_EXHAUSTED' : 'THREADS_RATE_LIMITED', message, {
      retryAfterMs: retryAfter ?? (quota ? QUOTA_RETRY_MS : undefined),
      outcomeUnknown: false,
    });
  }
  if (status >= 500 && !(error && isPermanentCode(error))) {
    // The request reached Meta and may have been carried out before the failure.
    return new PublishError('transient', 'THREADS_UNAVAILABLE', message, { retryAfterMs: retryAfter, outcomeUnknown: true });
  }
  if (!error) return new PublishError('permanent', 'THREADS_REJECTED', message);
  return classifyGraphError(error, message, retryAfter);
}

function classifyGraphError(error: GraphError, message: string, retryAfter: number | undefined): PublishError {
  const { code, subcode } = error;
  // A refused code or token exchange: only a new authorization helps.
  if (error.oauth) return new PublishError('auth', 'THREADS_OAUTH_FAILED', message);
  if (typeof code === 'number' && TOKEN_CODES.has(code)) return new PublishError('auth', 'THREADS_TOKEN_INVALID', message);
  if (code === 10 || (typeof code === 'number' && code >= 200 && code <= 299)) return new PublishError('auth', 'THREADS_PERMISSION_DENIED', message);
  if (code === NOT_READY.code && subcode === NOT_READY.subcode)
    return new PublishError('transient', 'THREADS_CONTAINER_NOT_READY', message, { outcomeUnknown: false });
  if (code === 368)
    return new PublishError('transient', 'THREADS_TEMPORARILY_BLOCKED', message, { retryAfterMs: retryAfter ?? POLICY_BLOCK_RETRY_MS, outcomeUnknown: false });
  if (code === 1 || code === 2 || error.isTransient)
    return new PublishError('transient', 'THREADS_UNAVAILABLE', message, { retryAfterMs: retryAfter, outcomeUnknown: true });
  if (code === 506) return new PublishError('permanent', 'THREADS_DUPLICATE_POST', message);
  if (code === 100) return new PublishError('permanent', 'THREADS_INVALID_PARAMETER', message);
  if (typeof code === 'string') return new PublishError('permanent', code.replace(/^THREADS_API__/, 'THREADS_'), message);
  return new PublishError('permanent', 'THREADS_REJECTED', message);
}

function isRateLimit(error: GraphError): boolean {
  return (typeof error.code === 'number' && RATE_LIMIT_CODES.has(error.code)) || isQuota(error);
}

function isQuota(error: GraphError): boolean {
  return error.subcode === QUOTA_SUBCODE;
}

function isPermanentCode(error: GraphError): boolean {
  return typeof error.code === 'number' && (TOKEN_CODES.has(error.code) || error.code === 100 || error.code === 10);
}

/** Reads Meta's Graph envelope `{error:{...}}` or the flat OAuth shape of §2.3. */
function readGraphError(text: string): GraphError | null {
  const body = parseObject(text);
  if (!body) return null;
  const inner = isObject(body.error) ? body.error : typeof body.error_message === 'string' ? body : null;
  if (!inner) return null;
  const code = typeof inner.code === 'number' || typeof inner.code === 'string' ? inner.code : null;
  return {
    message: String(inner.message ?? inner.error_message ?? 'unknown error'),
    code,
    subcode: typeof inner.error_subcode === 'number' ? inner.error_subcode : null,
    isTransient: inner.is_transient === true,
    traceId: typeof inner.fbtrace_id === 'string' ? inner.fbtrace_id : null,
    oauth: inner === body,
  };
}

function describeGraphError(error: GraphError): string {
  const code = error.code === null ? '' : ` (code ${error.code}${error.subcode ? `/${error.subcode}` : ''})`;
  const trace = error.traceId ? ` [fbtrace_id ${error.traceId}]` : '';
  return `${error.message}${code}${trace}`;
}

/** `Retry-After` is either seconds or an HTTP date. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
