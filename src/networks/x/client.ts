import { createHash, randomBytes } from 'node:crypto';
import { PublishError } from '../platform.js';

/**
 * A thin client for the X API v2 (reference: ../shared/reference/x-api.md). It speaks HTTP,
 * honours X's rate-limit headers and turns every failure into a PublishError; the publishing
 * order and the exactly-once rules live in platform.ts. Tokens travel in the Authorization header
 * only; messages are built from X's answer and the action's name, never from a URL or a body.
 */

const DEFAULT_API_URL = 'https://api.x.com';
const DEFAULT_AUTHORIZE_URL = 'https://x.com/i/oauth2/authorize';
const DEFAULT_TIMEOUT_MS = 30_000;
const MEDIA_TIMEOUT_MS = 5 * 60_000;
/** A 429 without a usable reset header: X's windows are 15 minutes. */
const DEFAULT_RATE_WAIT_MS = 15 * 60_000;
/** A chunk of a chunked upload (xurl's size; X takes segments 0 to 999). */
const X_CHUNK_BYTES = 4 * 1024 * 1024;
/** What Skein asks for (decisions.md "X"). */
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'] as const;

export interface XClientOptions {
  /** The API host, https://api.x.com (X_API_URL). */
  apiUrl?: string;
  /** Where people approve the app; https://x.com/i/oauth2/authorize. */
  authorizeUrl?: string;
  clientId: string | null;
  /** Null for a public client (Native or Single page App): it sends its id in the body only. */
  clientSecret: string | null;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  /** Epoch milliseconds: turns `expires_in` and the rate-limit resets into waits. */
  now: () => number;
}

/**
 * Who a call is made for: a bare access token (connect, before the account is known), or the
 * token with the account's X user id. X's rate limits are per user, so the holds they teach are
 * kept per user when the id is known: a refreshed token (a new one every two hours) still meets
 * the hold its predecessor learnt.
 */
export type XAuth = string | { token: string; userId: string };

export interface XTokens {
  accessToken: string;
  /** Null when `offline.access` was not granted. */
  refreshToken: string | null;
  expiresAt: Date;
  scope: string;
}

export interface XUser {
  id: string;
  username: string;
  name: string;
  followersCount: number;
  /** `Basic`, `Premium`, `PremiumPlus` or `None`. */
  subscriptionType: string;
}

export interface XPost {
  id: string;
  text: string;
  createdAt: string | null;
  /** The post it replies to (`referenced_tweets` replied_to), null for a root. */
  inReplyToId: string | null;
  /** Media ids of its attachments (from the `media_keys`). */
  mediaIds: string[];
  metrics: { likes: number; reposts: number; replies: number; quotes: number; views: number | null } | null;
}

export interface NewXPost {
  text: string;
  inReplyToId: string | null;
  mediaIds: string[];
  quoteId: string | null;
  poll: { options: string[]; durationMinutes: number } | null;
  /** X's value (`following`, `mentionedUsers`); null: everyone. */
  replySettings: string | null;
}

export type MediaCategory = 'tweet_image' | 'tweet_gif' | 'tweet_video';

/** A GIF or video for the chunked upload, read as it is sent (up to 512 MB: never whole in memory). */
export interface MediaStream {
  totalBytes: number;
  chunks: AsyncIterable<Uint8Array>;
}

export interface MediaState {
  id: string;
  /** Null: X did not say it processes the media, so it is ready. */
  state: 'pending' | 'in_progress' | 'succeeded' | 'failed' | null;
  checkAfterSecs: number | null;
  error: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: X's JSON answer, read field by field with a check of each
type Json = Record<string, any>;

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  token?: XAuth;
  json?: unknown;
  form?: FormData | URLSearchParams;
  basicAuth?: boolean;
  /** Whether a request that got no answer may still have changed something on X. */
  writes?: boolean;
  /** The rate-limit bucket (X counts per endpoint and user). */
  bucket: string;
  timeoutMs?: number;
  action: string;
}

export class XClient {
  readonly #apiUrl: string;
  readonly #authorizeUrl: string;
  readonly #clientId: string | null;
  readonly #clientSecret: string | null;
  readonly #fetch: typeof globalThis.fetch;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  /** Per user (or bare token) and endpoint: the instant before which X said no more calls (x-rate-limit-*, 429, the 24-hour cap). */
  readonly #blockedUntil = new Map<string, { until: number; daily: boolean }>();
  /** Whose each token is, once users/me said so (a connect): a hold learnt on the bare token then binds its user too. */
  readonly #userOfToken = new Map<string, string>();

  constructor(options: XClientOptions) {
    this.#apiUrl = (options.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, '');
    this.#authorizeUrl = options.authorizeUrl ?? DEFAULT_AUTHORIZE_URL;
    this.#clientId = options.clientId;
    this.#clientSecret = options.clientSecret;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#now = options.now;
  }

  now(): number {
    return this.#now();
  }

  // ---- OAuth 2.0 with PKCE (§1) ----

  authorizeUrl(input: { redirectUri: string; state: string; codeChallenge: string; scopes?: readonly string[] }): string {
    const url = new URL(this.#authorizeUrl);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.#requireClientId(),
      redirect_uri: input.redirectUri,
      scope: (input.scopes ?? X_SCOPES).join(' '),
      state: input.state,
      code_challenge: input.codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  exchangeCode(input: { code: string; redirectUri: string; codeVerifier: string }): Promise<XTokens> {
    return this.#token('exchanging the authorization code', {
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
      code_verifier: input.codeVerifier,
    });
  }

  /** X answers a new pair and the refresh token used dies at once: the caller stores both before anything else. */
  refresh(refreshToken: string): Promise<XTokens> {
    return this.#token('refreshing the token', { grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  async revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
    await this.#call({
      method: 'POST',
      path: '/2/oauth2/revoke',
      form: new URLSearchParams({ token, token_type_hint: hint, client_id: this.#requireClientId() }),
      basicAuth: true,
      bucket: 'oauth',
      action: 'revoking the token',
    });
  }

  async #token(action: string, params: Record<string, string>): Promise<XTokens> {
    // Confidential clients send Basic and the id in the body too: one report met "Missing required parameter [client_id]".
    const form = new URLSearchParams({ ...params, client_id: this.#requireClientId() });
    const body = await this.#call({ method: 'POST', path: '/2/oauth2/token', form, basicAuth: true, bucket: 'oauth', action });
    if (typeof body?.access_token !== 'string') throw badAnswer(action);
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 7200;
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
      expiresAt: new Date(this.#now() + expiresIn * 1000),
      scope: String(body.scope ?? ''),
    };
  }

  #requireClientId(): string {
    if (!this.#clientId) throw new PublishError('permanent', 'X_NOT_CONFIGURED', 'X_CLIENT_ID is not set.');
    return this.#clientId;
  }

  // ---- the account (§2) ----

  async me(token: XAuth): Promise<XUser> {
    const body = await this.#call({
      method: 'GET',
      path: '/2/users/me?user.fields=public_metrics,subscription_type',
      token,
      bucket: 'users.me',
      action: 'reading the account',
    });
    const user = body?.data;
    if (typeof user?.id !== 'string' || typeof user.username !== 'string') throw badAnswer('reading the account');
    // A bare token (a connect) is bound to its user; publishing's calls say their user themselves.
    if (typeof token === 'string') this.#userOfToken.set(token, user.id);
    return {
      id: user.id,
      username: user.username,
      name: String(user.name ?? user.username),
      followersCount: Number(user.public_metrics?.followers_count ?? 0),
      subscriptionType: typeof user.subscription_type === 'string' ? user.subscription_type : 'None',
    };
  }

  // ---- posts (§3, §5, §6, §7) ----

  /** The one call that creates a post. X takes no idempotency key: a lost answer is looked up by the caller. */
  async createPost(token: XAuth, input: NewXPost): Promise<{ id: string }> {
    const json: Json = { text: input.text };
    if (input.inReplyToId) json.reply = { in_reply_to_tweet_id: input.inReplyToId };
    if (input.mediaIds.length) json.media = { media_ids: input.mediaIds };
    if (input.quoteId) json.quote_tweet_id = input.quoteId;
    if (input.poll) json.poll = { options: input.poll.options, duration_minutes: input.poll.durationMinutes };
    if (input.replySettings) json.reply_settings = input.replySettings;
    const body = await this.#call({ method: 'POST', path: '/2/tweets', token, json, writes: true, bucket: 'tweets.create', action: 'publishing a post' });
    if (typeof body?.data?.id !== 'string') {
      throw new PublishError('transient', 'X_BAD_ANSWER', 'X answered the post without its id.', { outcomeUnknown: true });
    }
    return { id: body.data.id };
  }

  async deletePost(token: XAuth, id: string): Promise<void> {
    await this.#call({ method: 'DELETE', path: `/2/tweets/${idPath(id)}`, token, writes: true, bucket: 'tweets.delete', action: 'deleting a post' });
  }

  /** A post with its counts; null when X says it is gone (deleted, or not visible to the account). */
  async getPost(token: XAuth, id: string): Promise<XPost | null> {
    const body = await this.#call({
      method: 'GET',
      path: `/2/tweets?ids=${idPath(id)}&${POST_FIELDS}`,
      token,
      bucket: 'tweets.lookup',
      action: 'reading a post',
    });
    const found = Array.isArray(body?.data) ? body.data.find((p: Json) => p?.id === id) : undefined;
    return found ? postOf(found) : null;
  }

  /** The account's posts created from `startTime` on, newest first, a page at a time. */
  async recentPosts(token: XAuth, userId: string, input: { startTime: Date; pageToken: string | null }): Promise<{ posts: XPost[]; next: string | null }> {
    const query = new URLSearchParams({ max_results: '100', start_time: input.startTime.toISOString() });
    if (input.pageToken) query.set('pagination_token', input.pageToken);
    const body = await this.#call({
      method: 'GET',
      path: `/2/users/${idPath(userId)}/tweets?${query}&${POST_FIELDS}`,
      token,
      bucket: 'users.tweets',
      action: "reading the account's posts",
    });
    const posts = Array.isArray(body?.data) ? body.data.map(postOf) : [];
    return { posts, next: typeof body?.meta?.next_token === 'string' ? body.meta.next_token : null };
  }

  async retweet(token: XAuth, userId: string, postId: string): Promise<void> {
    await this.#call({
      method: 'POST',
      path: `/2/users/${idPath(userId)}/retweets`,
      token,
      json: { tweet_id: postId },
      writes: true,
      bucket: 'retweets',
      action: 'reposting',
    });
  }

  // ---- media (§4) ----

  /** An image in one call; ready when X answers. */
  async uploadImage(token: XAuth, bytes: Uint8Array, mimeType: string): Promise<string> {
    const form = new FormData();
    form.set('media', new Blob([new Uint8Array(bytes)], { type: mimeType }), 'media');
    form.set('media_category', 'tweet_image');
    const body = await this.#call({
      method: 'POST',
      path: '/2/media/upload',
      token,
      form,
      bucket: 'media.upload',
      timeoutMs: MEDIA_TIMEOUT_MS,
      action: 'uploading an image',
    });
    return mediaIdOf(body, 'uploading an image');
  }

  /**
   * A GIF or video in chunks (initialize, append each, finalize); X may go on processing it after.
   * One segment at a time is held, cut from the stream as it comes.
   */
  async uploadChunked(token: XAuth, media: MediaStream, mimeType: string, category: MediaCategory): Promise<MediaState> {
    const started = await this.#call({
      method: 'POST',
      path: '/2/media/upload/initialize',
      token,
      json: { media_type: mimeType, total_bytes: media.totalBytes, media_category: category },
      bucket: 'media.chunked',
      action: 'starting a media upload',
    });
    const id = mediaIdOf(started, 'starting a media upload');
    let index = 0;
    let sent = 0;
    for await (const segment of segmentsOf(media.chunks, X_CHUNK_BYTES)) {
      const form = new FormData();
      form.set('segment_index', String(index++));
      sent += segment.length;
      form.set('media', new Blob([segment]), 'chunk');
      await this.#call({
        method: 'POST',
        path: `/2/media/upload/${idPath(id)}/append`,
        token,
        form,
        bucket: 'media.chunked',
        timeoutMs: MEDIA_TIMEOUT_MS,
        action: 'uploading media',
      });
    }
    if (sent !== media.totalBytes) {
      throw new PublishError('transient', 'MEDIA_UNAVAILABLE', `the media read ${sent} bytes where ${media.totalBytes} were announced to X.`, {
        outcomeUnknown: false,
      });
    }
    const done = await this.#call({
      method: 'POST',
      path: `/2/media/upload/${idPath(id)}/finalize`,
      token,
      bucket: 'media.chunked',
      action: 'finishing a media upload',
    });
    return mediaStateOf(done?.data, id);
  }

  async mediaStatus(token: XAuth, id: string): Promise<MediaState> {
    const body = await this.#call({
      method: 'GET',
      path: `/2/media/upload?command=STATUS&media_id=${idPath(id)}`,
      token,
      bucket: 'media.status',
      action: 'reading an upload',
    });
    return mediaStateOf(body?.data, id);
  }

  async setAltText(token: XAuth, id: string, text: string): Promise<void> {
    await this.#call({
      method: 'POST',
      path: '/2/media/metadata',
      token,
      json: { id, metadata: { alt_text: { text } } },
      bucket: 'media.metadata',
      action: 'setting alt text',
    });
  }

  // ---- transport ----

  async #call(call: Call): Promise<Json | null> {
    const holders = call.token ? this.#holdersOf(call.token) : [];
    const key = holders.length ? `${holders[0]} ${call.bucket}` : null;
    const blocked = holders
      .map((holder) => this.#blockedUntil.get(`${holder} ${call.bucket}`))
      .reduce<{ until: number; daily: boolean } | undefined>((latest, hold) => (hold && (!latest || hold.until > latest.until) ? hold : latest), undefined);
    if (blocked && blocked.until > this.#now()) throw this.#rateLimited(call, blocked, null);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.token) headers.authorization = `Bearer ${tokenOfAuth(call.token)}`;
    if (call.basicAuth && this.#clientSecret) {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(this.#requireClientId())}:${encodeURIComponent(this.#clientSecret)}`).toString('base64')}`;
    }
    let body: string | FormData | URLSearchParams | undefined;
    if (call.form) body = call.form;
    else if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.json);
    }
    let res: Response;
    let text: string;
    try {
      res = await this.#fetch(this.#apiUrl + call.path, {
        method: call.method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(call.timeoutMs ?? this.#timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new PublishError('transient', 'X_NETWORK', `${call.action} got no answer from X: ${message}`, { outcomeUnknown: call.writes === true, cause: err });
    }
    if (key) this.#noteRateLimit(key, res);
    let parsed: Json | null = null;
    try {
      parsed = text ? (JSON.parse(text) as Json) : null;
    } catch {
      // A gateway's HTML page (502/504): the status says enough.
    }
    if (res.status >= 200 && res.status < 300) return parsed;
    throw this.#refusal(res.status, parsed, call, key);
  }

  /**
   * Whose holds a call meets, the one its answer teaches first: the user's when known (given, or
   * learnt from users/me), and the bare token's (a hold learnt at a connect, before the user was known).
   */
  #holdersOf(auth: XAuth): string[] {
    const token = tokenOfAuth(auth);
    const userId = typeof auth === 'string' ? this.#userOfToken.get(token) : auth.userId;
    return [...(userId ? [`user:${userId}`] : []), `token:${token}`];
  }

  #noteRateLimit(key: string, res: Response): void {
    const epoch = (name: string) => {
      const value = Number(res.headers.get(name));
      return res.headers.get(name) !== null && Number.isFinite(value) ? value * 1000 : null;
    };
    const dailyLeft = res.headers.get('x-user-limit-24hour-remaining');
    const dailyReset = epoch('x-user-limit-24hour-reset');
    if (dailyLeft !== null && Number(dailyLeft) <= 0 && dailyReset !== null) {
      this.#blockedUntil.set(key, { until: dailyReset, daily: true });
      return;
    }
    const left = res.headers.get('x-rate-limit-remaining');
    const reset = epoch('x-rate-limit-reset');
    if (res.status === 429) this.#blockedUntil.set(key, { until: reset ?? this.#now() + DEFAULT_RATE_WAIT_MS, daily: false });
    else if (left !== null && Number(left) <= 0 && reset !== null) this.#blockedUntil.set(key, { until: reset, daily: false });
  }

  #rateLimited(call: Call, blocked: { until: number; daily: boolean }, said: string | null): PublishError {
    const until = new Date(blocked.until).toISOString();
    const what = blocked.daily ? "the account's 24-hour posting limit on X is used up" : "X's rate limit is used up";
    return new PublishError(
      'transient',
      blocked.daily ? 'X_DAILY_LIMIT' : 'X_RATE_LIMITED',
      `${call.action}: ${what} until ${until}${said ? ` (${said})` : ''}.`,
      {
        retryAfterMs: Math.max(0, blocked.until - this.#now()),
        outcomeUnknown: false,
      },
    );
  }

  #refusal(status: number, body: Json | null, call: Call, key: string | null): PublishError {
    const said = reasonOf(body);
    const message = `X refused ${call.action} (HTTP ${status})${said ? `: ${said}` : ''}`;
    const type = String(body?.type ?? '');
    if (status === 429) {
      if (type.endsWith('/usage-capped')) return new PublishError('permanent', 'X_USAGE_CAPPED', message, { outcomeUnknown: false });
      const blocked = (key ? this.#blockedUntil.get(key) : undefined) ?? { until: this.#now() + DEFAULT_RATE_WAIT_MS, daily: false };
      return this.#rateLimited(call, blocked, said);
    }
    if (status === 402) return new PublishError('permanent', 'X_CREDITS_EXHAUSTED', message, { outcomeUnknown: false });
    if (status >= 500) return new PublishError('transient', 'X_SERVER_ERROR', message, { outcomeUnknown: call.writes === true });
    if (call.path.startsWith('/2/oauth2/')) {
      // The refresh token used or revoked, a code gone stale, the app's secret wrong: a new sign-in.
      return new PublishError('auth', 'X_GRANT_INVALID', message, { outcomeUnknown: false });
    }
    if (status === 401) return new PublishError('auth', 'X_TOKEN_INVALID', message, { outcomeUnknown: false });
    if (status === 403) return forbidden(message, said, type);
    return new PublishError('permanent', status === 400 ? 'X_INVALID_REQUEST' : `X_HTTP_${status}`, message, { outcomeUnknown: false });
  }
}

/** The stream cut into segments of `size` bytes (the last one shorter): only one is held at a time. */
async function* segmentsOf(chunks: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  let parts: Uint8Array[] = [];
  let held = 0;
  for await (const chunk of chunks) {
    for (let offset = 0; offset < chunk.length; ) {
      const take = Math.min(size - held, chunk.length - offset);
      parts.push(chunk.subarray(offset, offset + take));
      held += take;
      offset += take;
      if (held === size) {
        yield new Uint8Array(Buffer.concat(parts));
        parts = [];
        held = 0;
      }
    }
  }
  if (held > 0) yield new Uint8Array(Buffer.concat(parts));
}

/** Whose holds a call meets: the user's when known, else the token's. */
function tokenOfAuth(auth: XAuth): string {
  return typeof auth === 'string' ? auth : auth.token;
}

const POST_FIELDS = 'tweet.fields=created_at,referenced_tweets,public_metrics,note_tweet,attachments&expansions=attachments.media_keys';

/** X's 403s: a missing scope or an app-only token needs a new sign-in; a content rule fails the post with X's reason. */
function forbidden(message: string, said: string | null, type: string): PublishError {
  if (type.endsWith('/unsupported-authentication') || type.endsWith('/client-forbidden') || said === 'Forbidden') {
    return new PublishError('auth', 'X_FORBIDDEN', message, { outcomeUnknown: false });
  }
  if (said && /duplicate content/i.test(said)) return new PublishError('permanent', 'X_DUPLICATE', message, { outcomeUnknown: false });
  if (said && /deleted or not visible/i.test(said)) return new PublishError('permanent', 'X_PARENT_GONE', message, { outcomeUnknown: false });
  return new PublishError('permanent', 'X_REFUSED', message, { outcomeUnknown: false });
}

/** X's words: the invalid-request messages, else the problem's detail, else an OAuth description. */
function reasonOf(body: Json | null): string | null {
  if (!body) return null;
  const messages = Array.isArray(body.errors) ? body.errors.map((e: Json) => e?.message).filter((m: unknown) => typeof m === 'string') : [];
  if (messages.length) return messages.join(' ');
  if (typeof body.detail === 'string') return body.detail;
  if (typeof body.error_description === 'string') return body.error_description;
  if (typeof body.title === 'string') return body.title;
  return null;
}

function badAnswer(action: string): PublishError {
  return new PublishError('transient', 'X_BAD_ANSWER', `X answered ${action} with something unexpected.`, { outcomeUnknown: false });
}

/** X's ids are digits (up to 19, never read as numbers); anything else is not put in a path. */
function idPath(id: string): string {
  if (!/^\d{1,19}$/.test(id)) throw new PublishError('permanent', 'X_BAD_ID', `"${id}" is not an X id.`);
  return id;
}

function mediaIdOf(body: Json | null, action: string): string {
  const id = body?.data?.id;
  if (typeof id !== 'string') throw badAnswer(action);
  return id;
}

function mediaStateOf(data: Json | undefined, id: string): MediaState {
  const info = data?.processing_info;
  if (!info) return { id, state: null, checkAfterSecs: null, error: null };
  const state = ['pending', 'in_progress', 'succeeded', 'failed'].includes(info.state) ? info.state : 'in_progress';
  const error = info.error ? String(info.error.message ?? info.error.name ?? 'failed') : null;
  return { id, state, checkAfterSecs: typeof info.check_after_secs === 'number' ? info.check_after_secs : null, error };
}

function postOf(post: Json): XPost {
  const replied = Array.isArray(post.referenced_tweets) ? post.referenced_tweets.find((r: Json) => r?.type === 'replied_to') : undefined;
  const keys: unknown[] = Array.isArray(post.attachments?.media_keys) ? post.attachments.media_keys : [];
  const m = post.public_metrics;
  return {
    id: String(post.id),
    // A long post's `text` is cut short; its whole text is the note's.
    text: String(post.note_tweet?.text ?? post.text ?? ''),
    createdAt: typeof post.created_at === 'string' ? post.created_at : null,
    inReplyToId: replied ? String(replied.id) : null,
    mediaIds: keys.map((k) => String(k).replace(/^\d+_/, '')),
    metrics: m
      ? {
          likes: Number(m.like_count ?? 0),
          reposts: Number(m.retweet_count ?? 0),
          replies: Number(m.reply_count ?? 0),
          quotes: Number(m.quote_count ?? 0),
          views: typeof m.impression_count === 'number' ? m.impression_count : null,
        }
      : null,
  };
}

/** A PKCE pair (RFC 7636, S256): the verifier stays with Skein, the challenge goes in the authorize URL. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
