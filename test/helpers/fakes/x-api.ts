import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../../../src/lib/clock.js';
import {
  cashtagCount,
  DUPLICATE,
  duplicateKey,
  type FakeEndpoint,
  forbidden,
  imageTypeOf,
  invalidCode,
  invalidRequest,
  invalidToken,
  MEDIA_INVALID,
  mentions,
  missingScope,
  notFoundRoute,
  oauthError,
  PARENT_GONE,
  type ProblemHost,
  pkceMatches,
  problemType,
  readBackText,
  TOO_LONG,
  tooManyRequests,
  unauthorized,
  unauthorizedClient,
  weightedLength,
  XFault,
} from './x-rules.js';

export type { FakeEndpoint } from './x-rules.js';

/**
 * A local stand-in for the X API v2, as strict as ../shared/reference/x-api.md §11 says a fake
 * must be: OAuth 2.0 with PKCE and rotating refresh tokens, 2-hour access tokens, scopes, the
 * weighted count, duplicate refusals, deleted parents, the media state machine, rate-limit
 * headers and windows, the 24-hour posting cap, the credits switch, and answers lost after the
 * post was made. Time comes from an injected clock (codes, tokens, processing, windows).
 */

const MINUTE = 60_000;
const WINDOW_MS = 15 * MINUTE;
const DAY = 24 * 60 * MINUTE;
const ACCESS_TOKEN_SECONDS = 7200;
const CODE_LIFETIME_MS = 30_000;
const MEDIA_EXPIRY_SECONDS = 86_400;
const MAX_BODY_BYTES = 64 << 20;
const ALT_TEXT_CHARS = 1000;
/** Twitter's snowflake epoch: ids are time-ordered 19-digit strings. */
const SNOWFLAKE_EPOCH = 1_288_834_974_657n;
const ALL_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access', 'like.read', 'follows.read'];
const READ = ['tweet.read', 'users.read'];
const WRITE = ['tweet.read', 'tweet.write', 'users.read'];
const MEDIA = ['media.write'];
const REPLY_SETTINGS = ['following', 'mentionedUsers', 'subscribers', 'verified'];
const CREATE_FIELDS = ['text', 'reply', 'quote_tweet_id', 'media', 'poll', 'reply_settings', 'for_super_followers_only', 'nullcast', 'community_id'];

/** Requests per 15 minutes per user (§8, pay-per-use). */
const WINDOW_LIMITS: Record<string, number> = {
  'users.me': 75,
  'tweets.create': 100,
  'tweets.delete': 50,
  'tweets.lookup': 5000,
  'tweets.get': 5000,
  'users.tweets': 900,
  'retweets.create': 50,
  'retweets.delete': 50,
  'media.upload': 500,
  'media.initialize': 1875,
  'media.append': 1875,
  'media.finalize': 1875,
  'media.status': 1000,
  'media.metadata': 500,
};

const CATEGORY_BYTES: Record<string, number> = { tweet_image: 5_000_000, tweet_gif: 15_000_000, tweet_video: 512_000_000 };

export interface FakeXOptions {
  clock?: Clock;
  clientId?: string;
  /** Null: a public client (no secret; `client_id` in the body). */
  clientSecret?: string | null;
  redirectUris?: string[];
  /** How long X processes a GIF or a video before it is `succeeded` (2 s and 10 s). */
  processingMs?: { gif?: number; video?: number };
  /** How long an identical text from one account is refused as a duplicate (a day). */
  duplicateWindowMs?: number;
  /** Requests per 15 minutes per endpoint and user (§8), over the defaults. */
  windowLimits?: Partial<Record<FakeEndpoint, number>>;
  /** Posts per 24 hours per user (x-user-limit-24hour-*); 100 (legacy Basic) by default. */
  userDailyPosts?: number;
  /** Self-serve rules of 2026 (§0): quotes refused, replies only where summoned, one cashtag. */
  selfServe?: boolean;
  problemHost?: ProblemHost;
  /** Every answer held back this long (the bench's network latency). */
  latencyMs?: number;
}

/** Faults for the next calls to an endpoint. */
export type Fault =
  | { kind: 'http500' }
  | { kind: 'http503' }
  /** No answer ever; nothing is done. */
  | { kind: 'hang' }
  /** The request is carried out, then the connection is cut without an answer. */
  | { kind: 'dropResponse' }
  /** The request is carried out, then X answers 503 (its gateway lost the answer). */
  | { kind: 'http503AfterCommit' };

export interface FakeTweet {
  id: string;
  authorId: string;
  text: string;
  createdAt: number;
  inReplyToId: string | null;
  conversationId: string;
  quoteId: string | null;
  mediaIds: string[];
  poll: { options: string[]; durationMinutes: number } | null;
  replySettings: string | null;
  deleted: boolean;
  metrics: { like_count: number; retweet_count: number; reply_count: number; quote_count: number; bookmark_count: number; impression_count: number };
}

export interface FakeMedia {
  id: string;
  ownerId: string;
  category: string;
  mediaType: string;
  totalBytes: number;
  segments: Map<number, number>;
  /** Null until finalized (or a simple upload). */
  readyAt: number | null;
  processingMs: number;
  fails: boolean;
  expiresAt: number;
  altText: string | null;
}

export interface RecordedRequest {
  method: string;
  endpoint: FakeEndpoint | null;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

interface User {
  id: string;
  username: string;
  name: string;
  followers: number;
  subscription: 'None' | 'Basic' | 'Premium' | 'PremiumPlus';
}

interface Token {
  kind: 'access' | 'refresh' | 'app';
  userId: string;
  scopes: string[];
  expiresAt: number;
  dead: boolean;
}

interface AuthCode {
  userId: string;
  redirectUri: string;
  scopes: string[];
  challenge: string;
  method: 'S256' | 'plain';
  expiresAt: number;
  used: boolean;
}

interface Request {
  method: string;
  query: Record<string, string>;
  json: Record<string, unknown> | null;
  form: Record<string, string>;
  file: Buffer | null;
  token: string | null;
  basic: { id: string; secret: string } | null;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Route {
  endpoint: FakeEndpoint;
  ids: string[];
}

export class FakeXApi {
  readonly tweets: FakeTweet[] = [];
  /** The tweets by id, and by author and duplicate key (`duplicateKeyOf`): the bench's publisher row posts thousands, each checked against the rest. */
  readonly #tweetsById = new Map<string, FakeTweet>();
  readonly #tweetsByDuplicateKey = new Map<string, FakeTweet[]>();
  readonly media = new Map<string, FakeMedia>();
  readonly requests: RecordedRequest[] = [];
  readonly retweets = new Set<string>();
  readonly #server: http.Server;
  readonly #clock: Clock;
  readonly clientId: string;
  readonly clientSecret: string | null;
  readonly #redirectUris: string[];
  readonly #processingMs: { gif: number; video: number };
  readonly #duplicateWindowMs: number;
  readonly #windowLimits: Record<string, number>;
  readonly #userDailyPosts: number;
  readonly #selfServe: boolean;
  readonly #host: ProblemHost;
  readonly #latencyMs: number;
  readonly #users = new Map<string, User>();
  readonly #tokens = new Map<string, Token>();
  readonly #codes = new Map<string, AuthCode>();
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #daily = new Map<string, { count: number; resetAt: number }>();
  readonly #faults = new Map<FakeEndpoint, Array<Fault | null>>();
  #signedIn: User | null = null;
  #denyNext = false;
  #creditsExhausted = false;
  #usageCapped = false;
  #failNextProcessing = false;
  #sequence = 0n;
  #url = '';

  private constructor(options: FakeXOptions) {
    this.#clock = options.clock ?? systemClock;
    this.clientId = options.clientId ?? 'fake-x-client-id';
    this.clientSecret = options.clientSecret === undefined ? 'fake-x-client-secret' : options.clientSecret;
    this.#redirectUris = options.redirectUris ?? ['http://skein.test/api/v1/providers/x/callback'];
    this.#processingMs = { gif: 2_000, video: 10_000, ...options.processingMs };
    this.#duplicateWindowMs = options.duplicateWindowMs ?? DAY;
    this.#windowLimits = { ...WINDOW_LIMITS, ...options.windowLimits };
    this.#userDailyPosts = options.userDailyPosts ?? 100;
    this.#selfServe = options.selfServe ?? false;
    this.#host = options.problemHost ?? 'api.x.com';
    this.#latencyMs = options.latencyMs ?? 0;
    this.#server = http.createServer((req, res) => {
      this.#onRequest(req, res).catch((err: unknown) => {
        console.error('fake X API crashed:', err);
        res.destroy();
      });
    });
  }

  static async start(options: FakeXOptions = {}): Promise<FakeXApi> {
    const fake = new FakeXApi(options);
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.#url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** The API's base URL, the equivalent of https://api.x.com. */
  get url(): string {
    return this.#url;
  }

  /** Where people approve an app, the equivalent of https://x.com/i/oauth2/authorize. */
  get authorizeUrl(): string {
    return `${this.#url}/i/oauth2/authorize`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---- test hooks ----

  /** An account and a token pair minted for it (as after a sign-in), with every scope Skein asks for unless told. */
  createAccount(
    username = `user${this.#users.size + 1}`,
    options: { subscription?: User['subscription']; scopes?: string[]; followers?: number } = {},
  ): { userId: string; accessToken: string; refreshToken: string | null } {
    const user = this.#addUser(username);
    user.subscription = options.subscription ?? 'None';
    user.followers = options.followers ?? 0;
    const scopes = options.scopes ?? ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];
    return { userId: user.id, ...this.#issuePair(user.id, scopes) };
  }

  /** An app-only bearer token: it cannot act as a user (§1). */
  createAppToken(): string {
    const token = randomBytes(24).toString('base64url');
    this.#tokens.set(token, { kind: 'app', userId: '', scopes: [], expiresAt: Number.POSITIVE_INFINITY, dead: false });
    return token;
  }

  /** Who is signed in in the browser: the authorize page approves as this account (made when new). */
  signIn(username: string): string {
    this.#signedIn = [...this.#users.values()].find((u) => u.username === username) ?? this.#addUser(username);
    return this.#signedIn.id;
  }

  /** The next authorization is denied (`error=access_denied`). */
  denyNextAuthorization(): void {
    this.#denyNext = true;
  }

  /** The app's pay-per-use credits are spent (402 on every call) or topped up again. */
  setCreditsExhausted(exhausted: boolean): void {
    this.#creditsExhausted = exhausted;
  }

  /** The app's monthly product cap is reached (a 429 of its own, not a window: §8). */
  setUsageCapped(capped: boolean): void {
    this.#usageCapped = capped;
  }

  /** The next GIF or video finalized fails X's processing. */
  failNextProcessing(): void {
    this.#failNextProcessing = true;
  }

  setMetrics(tweetId: string, metrics: Partial<FakeTweet['metrics']>): void {
    Object.assign(this.#tweet(tweetId).metrics, metrics);
  }

  /** The account subscribes to X Premium (or lets it lapse): its posts' limit follows at once. */
  setSubscription(userId: string, subscription: User['subscription']): void {
    this.#users.get(userId)!.subscription = subscription;
  }

  setFollowers(userId: string, count: number): void {
    this.#users.get(userId)!.followers = count;
  }

  /** A post deleted on X (by its author, in X's app). */
  deleteTweet(tweetId: string): void {
    this.#tweet(tweetId).deleted = true;
  }

  /** A post made elsewhere (another app, X's own): in the timeline, a duplicate for what follows. */
  postAs(userId: string, text: string, inReplyToId: string | null = null): FakeTweet {
    return this.#addTweet(this.#users.get(userId)!, { text, inReplyToId, quoteId: null, mediaIds: [], poll: null, replySettings: null });
  }

  /** The next `times` calls to the endpoint meet `fault`, after `after` calls answered normally. */
  failNext(endpoint: FakeEndpoint, fault: Fault, times = 1, after = 0): void {
    const queue = this.#faults.get(endpoint) ?? [];
    for (let i = 0; i < after; i++) queue.push(null);
    for (let i = 0; i < times; i++) queue.push(fault);
    this.#faults.set(endpoint, queue);
  }

  callsTo(endpoint: FakeEndpoint): RecordedRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }

  /** An account's posts (not deleted), oldest first: what tests assert exactly-once on. */
  postsBy(userId: string): FakeTweet[] {
    return this.tweets.filter((t) => t.authorId === userId && !t.deleted);
  }

  retweetsBy(userId: string): string[] {
    return [...this.retweets].filter((r) => r.startsWith(`${userId}:`)).map((r) => r.slice(userId.length + 1));
  }

  isTokenDead(token: string): boolean {
    return this.#tokens.get(token)?.dead ?? true;
  }

  // ---- transport ----

  async #onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = req.method ?? 'GET';
    const route = routeOf(method, url.pathname, url.searchParams);
    let request: Request;
    try {
      request = await readRequest(req, url);
    } catch (err) {
      return send(res, this.#errorAnswer(err));
    }
    this.requests.push({ method, endpoint: route?.endpoint ?? null, path: url.pathname, query: request.query, body: request.json ?? request.form });
    if (this.#latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.#latencyMs));
    const fault = route ? (this.#faults.get(route.endpoint)?.shift() ?? undefined) : undefined;
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'http500') return send(res, this.#serverError(500));
    if (fault?.kind === 'http503') return send(res, this.#serverError(503));
    const answer = this.#answer(route, request);
    if (fault?.kind === 'dropResponse') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'http503AfterCommit') return send(res, this.#serverError(503));
    send(res, answer);
  }

  #serverError(status: 500 | 503): Answer {
    return status === 500
      ? { status, body: { title: 'Internal Server Error', detail: 'Something is broken. Please try again later.', type: 'about:blank', status } }
      : { status, body: { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status } };
  }

  #answer(route: Route | null, request: Request): Answer {
    try {
      if (!route) throw notFoundRoute();
      return this.#dispatch(route, request);
    } catch (err) {
      return this.#errorAnswer(err);
    }
  }

  #errorAnswer(err: unknown): Answer {
    if (err instanceof XFault) return { status: err.status, body: err.body, headers: err.headers };
    throw err;
  }

  #dispatch(route: Route, request: Request): Answer {
    switch (route.endpoint) {
      case 'oauth.authorize':
        return this.#authorize(request.query);
      case 'oauth.token':
        return { status: 200, body: this.#token(request) };
      case 'oauth.revoke':
        return { status: 200, body: this.#revoke(request) };
      default:
        break;
    }
    const { user } = this.#authenticate(request.token, route.endpoint);
    if (this.#creditsExhausted) {
      throw new XFault(402, { detail: 'credits depleted', status: 402, title: 'Payment Required', type: problemType(this.#host, 'credits-depleted') });
    }
    if (this.#usageCapped) {
      throw new XFault(429, {
        account_id: 1,
        product_name: 'standard-basic',
        title: 'UsageCapExceeded',
        period: 'Monthly',
        scope: 'Product',
        detail: 'Usage cap exceeded: Monthly product cap',
        type: problemType(this.#host, 'usage-capped'),
      });
    }
    const headers = this.#takeFromWindow(user.id, route.endpoint);
    const answer = this.#userCall(route, request, user, headers);
    return { ...answer, headers: { ...headers, ...answer.headers } };
  }

  #userCall(route: Route, request: Request, user: User, headers: Record<string, string>): Answer {
    const [id, second] = route.ids;
    switch (route.endpoint) {
      case 'users.me':
        return ok(this.#userJson(user, request.query));
      case 'tweets.create':
        return this.#createTweet(user, request.json, headers);
      case 'tweets.delete': {
        const tweet = this.#visibleTweet(id!);
        if (tweet.authorId !== user.id) throw forbidden('You are not authorized to delete this Tweet.');
        tweet.deleted = true;
        return ok({ data: { deleted: true } });
      }
      case 'tweets.lookup':
        return ok(this.#lookup((request.query.ids ?? '').split(',').filter(Boolean), request.query, user));
      case 'tweets.get':
        return ok(this.#lookup([id!], request.query, user, true));
      case 'users.tweets':
        return ok(this.#timeline(id!, request.query, user));
      case 'retweets.create':
        return ok(this.#retweet(user, id!, request.json));
      case 'retweets.delete':
        if (id !== user.id) throw forbidden('You are not allowed to undo a Retweet on behalf of another user.');
        this.retweets.delete(`${user.id}:${second}`);
        return ok({ data: { retweeted: false } });
      case 'media.upload':
        return ok(this.#simpleUpload(user, request));
      case 'media.initialize':
        return ok(this.#initialize(user, request.json));
      case 'media.append':
        return ok(this.#append(user, id!, request));
      case 'media.finalize':
        return ok(this.#finalize(user, id!));
      case 'media.status':
        return ok({ data: this.#mediaJson(this.#ownMedia(user, request.query.media_id ?? '')) });
      case 'media.metadata':
        return ok(this.#metadata(user, request.json));
      default:
        throw notFoundRoute();
    }
  }

  // ---- OAuth 2.0 with PKCE (§1) ----

  #authorize(query: Record<string, string>): Answer {
    if (query.client_id !== this.clientId) throw oauthError('invalid_request', 'Invalid client_id (fake).');
    const redirectUri = query.redirect_uri ?? '';
    if (!this.#redirectUris.includes(redirectUri)) throw oauthError('invalid_request', 'redirect_uri does not match a registered callback (fake).');
    if (query.response_type !== 'code') throw oauthError('invalid_request', 'response_type must be code (fake).');
    const method = query.code_challenge_method;
    if (!query.code_challenge || (method !== 'S256' && method !== 'plain')) throw oauthError('invalid_request', 'PKCE code_challenge is required (fake).');
    const scopes = (query.scope ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !ALL_SCOPES.includes(s))) throw oauthError('invalid_scope', 'Invalid scope (fake).');
    if ((query.state ?? '').length > 500) throw oauthError('invalid_request', 'state is too long (fake).');
    const target = new URL(redirectUri);
    if (query.state !== undefined) target.searchParams.set('state', query.state);
    if (this.#denyNext) {
      this.#denyNext = false;
      target.searchParams.set('error', 'access_denied');
      return { status: 302, body: null, headers: { location: target.toString() } };
    }
    const user = this.#signedIn ?? this.#addUser('alice');
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, {
      userId: user.id,
      redirectUri,
      scopes,
      challenge: query.code_challenge,
      method,
      expiresAt: this.#now() + CODE_LIFETIME_MS,
      used: false,
    });
    target.searchParams.set('code', code);
    return { status: 302, body: null, headers: { location: target.toString() } };
  }

  #token(request: Request): Record<string, unknown> {
    this.#authenticateClient(request);
    const { form } = request;
    if (form.grant_type === 'authorization_code') {
      const code = this.#codes.get(form.code ?? '');
      if (!code || code.used || code.expiresAt <= this.#now() || code.redirectUri !== form.redirect_uri) throw invalidCode();
      if (!form.code_verifier || !pkceMatches(form.code_verifier, code.challenge, code.method)) throw invalidCode();
      code.used = true;
      return this.#tokenAnswer(code.userId, code.scopes);
    }
    if (form.grant_type === 'refresh_token') {
      const old = this.#tokens.get(form.refresh_token ?? '');
      if (old?.kind !== 'refresh' || old.dead) throw invalidToken();
      // Rotation: the refresh token used dies at once.
      old.dead = true;
      return this.#tokenAnswer(old.userId, old.scopes);
    }
    throw oauthError('invalid_request', 'Invalid grant_type (fake).');
  }

  #revoke(request: Request): Record<string, unknown> {
    this.#authenticateClient(request);
    const token = this.#tokens.get(request.form.token ?? '');
    if (token) token.dead = true;
    return { revoked: true };
  }

  /** Confidential: the Basic header with the secret; public: `client_id` in the body. */
  #authenticateClient(request: Request): void {
    if (this.clientSecret !== null) {
      if (request.basic?.id !== this.clientId || request.basic.secret !== this.clientSecret) throw unauthorizedClient();
    } else if (request.form.client_id !== this.clientId) throw oauthError('invalid_request', 'Missing required parameter [client_id].');
  }

  #tokenAnswer(userId: string, scopes: string[]): Record<string, unknown> {
    const pair = this.#issuePair(userId, scopes);
    return {
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      access_token: pair.accessToken,
      scope: scopes.join(' '),
      ...(pair.refreshToken ? { refresh_token: pair.refreshToken } : {}),
    };
  }

  #issuePair(userId: string, scopes: string[]): { accessToken: string; refreshToken: string | null } {
    const accessToken = randomBytes(32).toString('base64url');
    this.#tokens.set(accessToken, { kind: 'access', userId, scopes, expiresAt: this.#now() + ACCESS_TOKEN_SECONDS * 1000, dead: false });
    if (!scopes.includes('offline.access')) return { accessToken, refreshToken: null };
    const refreshToken = randomBytes(32).toString('base64url');
    this.#tokens.set(refreshToken, { kind: 'refresh', userId, scopes, expiresAt: Number.POSITIVE_INFINITY, dead: false });
    return { accessToken, refreshToken };
  }

  #authenticate(bearer: string | null, endpoint: FakeEndpoint): { user: User; token: Token } {
    const token = bearer ? this.#tokens.get(bearer) : undefined;
    if (token?.kind === 'app') {
      throw new XFault(403, {
        title: 'Unsupported Authentication',
        detail:
          'Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].',
        type: problemType(this.#host, 'unsupported-authentication'),
        status: 403,
      });
    }
    if (token?.kind !== 'access' || token.dead || token.expiresAt <= this.#now()) throw unauthorized();
    const needed = endpoint.startsWith('media.')
      ? MEDIA
      : ['tweets.create', 'tweets.delete', 'retweets.create', 'retweets.delete'].includes(endpoint)
        ? WRITE
        : READ;
    if (needed.some((s) => !token.scopes.includes(s))) throw missingScope();
    return { user: this.#users.get(token.userId)!, token };
  }

  // ---- rate limits (§8) ----

  /** Counts the call in its 15-minute window; a used-up window is a 429 (nothing done). */
  #takeFromWindow(userId: string, endpoint: FakeEndpoint): Record<string, string> {
    const limit = this.#windowLimits[endpoint] ?? 900;
    const key = `${userId} ${endpoint}`;
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= this.#now()) {
      window = { count: 0, resetAt: this.#now() + WINDOW_MS };
      this.#windows.set(key, window);
    }
    const headers = (remaining: number) => ({
      'x-rate-limit-limit': String(limit),
      'x-rate-limit-remaining': String(remaining),
      'x-rate-limit-reset': String(Math.ceil(window.resetAt / 1000)),
    });
    if (window.count >= limit) throw tooManyRequests(headers(0));
    window.count++;
    return headers(limit - window.count);
  }

  #dailyWindow(userId: string): { count: number; resetAt: number } {
    let day = this.#daily.get(userId);
    if (!day || day.resetAt <= this.#now()) {
      day = { count: 0, resetAt: this.#now() + DAY };
      this.#daily.set(userId, day);
    }
    return day;
  }

  #dailyHeaders(day: { count: number; resetAt: number }): Record<string, string> {
    const reset = String(Math.ceil(day.resetAt / 1000));
    const remaining = String(Math.max(0, this.#userDailyPosts - day.count));
    return {
      'x-user-limit-24hour-limit': String(this.#userDailyPosts),
      'x-user-limit-24hour-remaining': remaining,
      'x-user-limit-24hour-reset': reset,
      'x-app-limit-24hour-limit': '10000',
      'x-app-limit-24hour-remaining': String(10_000 - day.count),
      'x-app-limit-24hour-reset': reset,
    };
  }

  // ---- posts (§3) ----

  #createTweet(user: User, json: Record<string, unknown> | null, windowHeaders: Record<string, string>): Answer {
    const day = this.#dailyWindow(user.id);
    if (day.count >= this.#userDailyPosts) throw tooManyRequests({ ...windowHeaders, ...this.#dailyHeaders(day) });
    const input = this.#validateTweet(user, json ?? {});
    const tweet = this.#addTweet(user, input);
    day.count++;
    return {
      status: 201,
      body: { data: { id: tweet.id, text: readBackText(tweet.text, tweet.mediaIds.length > 0).text, edit_history_tweet_ids: [tweet.id] } },
      headers: this.#dailyHeaders(day),
    };
  }

  #validateTweet(user: User, body: Record<string, unknown>) {
    const bad = (message: string, field: string) => invalidRequest(this.#host, message, { [field]: [] });
    for (const key of Object.keys(body))
      if (!CREATE_FIELDS.includes(key)) throw bad(`The \`${key}\` field is not allowed (fake: additionalProperties false).`, key);
    const text = body.text === undefined ? '' : body.text;
    if (typeof text !== 'string') throw bad('text must be a string', 'text');
    const media = body.media as { media_ids?: unknown } | undefined;
    const poll = body.poll as { options?: unknown; duration_minutes?: unknown } | undefined;
    const quote = body.quote_tweet_id;
    if ([media, poll, quote].filter((v) => v !== undefined).length > 1) {
      throw bad('You can only provide one of poll or quote_tweet_id or direct_message_deep_link or media or card_uri.', 'media');
    }
    if (text.trim() === '' && !media && !poll) throw bad('Post text is required without media (fake).', 'text');
    const max = user.subscription === 'Premium' || user.subscription === 'PremiumPlus' ? 25_000 : 280;
    if (weightedLength(text) > max) throw bad(TOO_LONG, 'text');
    const replySettings = body.reply_settings ?? null;
    if (replySettings !== null && !REPLY_SETTINGS.includes(String(replySettings)))
      throw bad(`Invalid reply_settings: ${String(replySettings)}`, 'reply_settings');
    const mediaIds = media ? this.#checkMediaIds(user, media.media_ids) : [];
    const pollInput = poll ? this.#checkPoll(poll) : null;
    const reply = body.reply as { in_reply_to_tweet_id?: unknown } | undefined;
    const inReplyToId = reply ? String(reply.in_reply_to_tweet_id ?? '') : null;
    if (inReplyToId !== null) this.#checkReply(user, inReplyToId, bad);
    if (quote !== undefined) {
      if (typeof quote !== 'string' || !/^\d{1,19}$/.test(quote)) throw bad('quote_tweet_id must be an id', 'quote_tweet_id');
      if (this.#selfServe) throw forbidden('Quoting posts is not available to self-serve apps since 2026-04-20 (fake).', 'Authorization Error');
      this.#visibleTweetOr(quote, () => forbidden('You attempted to quote a Tweet that is deleted or not visible to you.'));
    }
    if (this.#selfServe && cashtagCount(text) > 1) throw forbidden('Posts are limited to a maximum of one cashtag ($SYMBOL)');
    const key = duplicateKey(text);
    const since = this.#now() - this.#duplicateWindowMs;
    const twins = key ? (this.#tweetsByDuplicateKey.get(duplicateKeyOf(user.id, key)) ?? []) : [];
    if (twins.some((t) => !t.deleted && t.createdAt > since)) throw forbidden(DUPLICATE);
    return { text, inReplyToId, quoteId: (quote as string | undefined) ?? null, mediaIds, poll: pollInput, replySettings: replySettings as string | null };
  }

  #checkReply(user: User, parentId: string, bad: (message: string, field: string) => XFault): void {
    if (!/^\d{1,19}$/.test(parentId)) throw bad('in_reply_to_tweet_id must be an id', 'reply.in_reply_to_tweet_id');
    const parent = this.#visibleTweetOr(parentId, () => forbidden(PARENT_GONE));
    if (parent.authorId === user.id) return;
    const summoned = mentions(parent.text, user.username);
    if (this.#selfServe && !summoned) throw forbidden('You can only reply to or quote posts where you are mentioned or are the author.', 'Authorization Error');
    if (parent.replySettings && parent.replySettings !== 'everyone' && !summoned) {
      throw forbidden(
        'Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.',
      );
    }
  }

  #checkMediaIds(user: User, ids: unknown): string[] {
    const invalid = () => invalidRequest(this.#host, MEDIA_INVALID, { 'media.media_ids': [] });
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > 4 || ids.some((id) => typeof id !== 'string' || !/^\d{1,19}$/.test(id))) throw invalid();
    const items = ids.map((id: string) => this.media.get(id));
    for (const item of items) {
      if (!item || item.ownerId !== user.id || item.readyAt === null || item.readyAt > this.#now() || item.fails || item.expiresAt <= this.#now())
        throw invalid();
    }
    // 4 photos, or 1 GIF, or 1 video.
    if (items.length > 1 && items.some((m) => m!.category !== 'tweet_image')) throw invalid();
    return ids as string[];
  }

  #checkPoll(poll: { options?: unknown; duration_minutes?: unknown }) {
    const options = poll.options;
    const minutes = poll.duration_minutes;
    if (!Array.isArray(options) || options.length < 2 || options.length > 4 || options.some((o) => typeof o !== 'string' || o.length < 1 || o.length > 25)) {
      throw invalidRequest(this.#host, 'poll.options must hold 2 to 4 options of 1 to 25 characters', { 'poll.options': [] });
    }
    if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 5 || minutes > 10080) {
      throw invalidRequest(this.#host, 'poll.duration_minutes must be between 5 and 10080', { 'poll.duration_minutes': [] });
    }
    return { options: options as string[], durationMinutes: minutes };
  }

  #addTweet(user: User, input: Omit<FakeTweet, 'id' | 'authorId' | 'createdAt' | 'conversationId' | 'deleted' | 'metrics'>): FakeTweet {
    const id = this.#nextId();
    const parent = input.inReplyToId ? this.#tweetsById.get(input.inReplyToId) : undefined;
    if (parent) parent.metrics.reply_count++;
    const tweet: FakeTweet = {
      ...input,
      id,
      authorId: user.id,
      createdAt: this.#now(),
      conversationId: parent?.conversationId ?? id,
      deleted: false,
      metrics: { like_count: 0, retweet_count: 0, reply_count: 0, quote_count: 0, bookmark_count: 0, impression_count: 0 },
    };
    this.tweets.push(tweet);
    this.#tweetsById.set(id, tweet);
    const twinsKey = duplicateKeyOf(user.id, duplicateKey(tweet.text));
    const twins = this.#tweetsByDuplicateKey.get(twinsKey);
    if (twins) twins.push(tweet);
    else this.#tweetsByDuplicateKey.set(twinsKey, [tweet]);
    return tweet;
  }

  #retweet(user: User, pathUserId: string, json: Record<string, unknown> | null): Record<string, unknown> {
    if (pathUserId !== user.id) throw forbidden('You are not allowed to Retweet on behalf of another user.');
    const tweetId = json?.tweet_id;
    if (typeof tweetId !== 'string' || !/^\d{1,19}$/.test(tweetId)) throw invalidRequest(this.#host, 'tweet_id must be an id', { tweet_id: [] });
    const tweet = this.#visibleTweetOr(tweetId, () => forbidden('You cannot retweet a Tweet that is deleted or not visible to you.'));
    const key = `${user.id}:${tweetId}`;
    // A repeat answers as the first (X's playground does; the real API is unconfirmed, §6).
    if (!this.retweets.has(key)) {
      this.retweets.add(key);
      tweet.metrics.retweet_count++;
    }
    return { data: { retweeted: true } };
  }

  // ---- reading back (§5, §7) ----

  #lookup(ids: string[], query: Record<string, string>, viewer: User, single = false): Record<string, unknown> {
    if (ids.length === 0 || ids.length > 100 || ids.some((id) => !/^\d{1,19}$/.test(id)))
      throw invalidRequest(this.#host, 'ids must be 1 to 100 ids', { ids: [] });
    const data: unknown[] = [];
    const errors: unknown[] = [];
    for (const id of ids) {
      const tweet = this.#tweetsById.get(id);
      if (tweet && !tweet.deleted) data.push(this.#tweetJson(tweet, query, viewer));
      else
        errors.push({
          value: id,
          detail: `Could not find tweet with ${single ? 'id' : 'ids'}: [${id}].`,
          title: 'Not Found Error',
          resource_type: 'tweet',
          parameter: single ? 'id' : 'ids',
          resource_id: id,
          type: problemType(this.#host, 'resource-not-found'),
        });
    }
    if (single) return data.length ? { data: data[0] } : { errors };
    return { ...(data.length ? { data } : {}), ...(errors.length ? { errors } : {}) };
  }

  #timeline(userId: string, query: Record<string, string>, viewer: User): Record<string, unknown> {
    if (!this.#users.has(userId)) throw invalidRequest(this.#host, `Could not find user with id: [${userId}].`, { id: [userId] });
    const max = query.max_results === undefined ? 10 : Number(query.max_results);
    if (!Number.isInteger(max) || max < 5 || max > 100)
      throw invalidRequest(this.#host, 'The `max_results` query parameter value is not between 5 and 100', { max_results: [] });
    const start = query.start_time ? Date.parse(query.start_time) : Number.NEGATIVE_INFINITY;
    const end = query.end_time ? Date.parse(query.end_time) : Number.POSITIVE_INFINITY;
    let posts = this.tweets
      .filter((t) => t.authorId === userId && !t.deleted)
      .filter((t) => (query.since_id ? BigInt(t.id) > BigInt(query.since_id) : t.createdAt >= start && t.createdAt <= end))
      .reverse();
    if (query.pagination_token) {
      const after = posts.findIndex((t) => t.id === query.pagination_token);
      posts = after < 0 ? [] : posts.slice(after);
    }
    const page = posts.slice(0, max);
    if (page.length === 0) return { meta: { result_count: 0 } };
    const meta: Record<string, unknown> = { result_count: page.length, newest_id: page[0]!.id, oldest_id: page.at(-1)!.id };
    if (posts.length > max) meta.next_token = posts[max]!.id;
    return { data: page.map((t) => this.#tweetJson(t, query, viewer)), meta };
  }

  /** Only the fields asked for (§0): `id`, `text`, `edit_history_tweet_ids` by default. */
  #tweetJson(tweet: FakeTweet, query: Record<string, string>, viewer: User): Record<string, unknown> {
    const fields = (query['tweet.fields'] ?? '').split(',');
    const expansions = (query.expansions ?? '').split(',');
    const read = readBackText(tweet.text, tweet.mediaIds.length > 0);
    const json: Record<string, unknown> = { id: tweet.id, text: read.text, edit_history_tweet_ids: [tweet.id] };
    if (fields.includes('created_at')) json.created_at = new Date(tweet.createdAt).toISOString();
    if (fields.includes('author_id')) json.author_id = tweet.authorId;
    if (fields.includes('conversation_id')) json.conversation_id = tweet.conversationId;
    const parent = tweet.inReplyToId ? this.#tweetsById.get(tweet.inReplyToId) : undefined;
    if (fields.includes('in_reply_to_user_id') && parent) json.in_reply_to_user_id = parent.authorId;
    const references = [
      ...(tweet.inReplyToId ? [{ type: 'replied_to', id: tweet.inReplyToId }] : []),
      ...(tweet.quoteId ? [{ type: 'quoted', id: tweet.quoteId }] : []),
    ];
    if (fields.includes('referenced_tweets') && references.length) json.referenced_tweets = references;
    if (fields.includes('public_metrics')) json.public_metrics = { ...tweet.metrics };
    if (fields.includes('note_tweet') && read.note) json.note_tweet = { text: read.note };
    if (fields.includes('reply_settings')) json.reply_settings = tweet.replySettings ?? 'everyone';
    if ((fields.includes('attachments') || expansions.includes('attachments.media_keys')) && tweet.mediaIds.length) {
      json.attachments = { media_keys: tweet.mediaIds.map((id) => mediaKeyOf(this.media.get(id))) };
    }
    const recent = this.#now() - tweet.createdAt < 30 * DAY;
    if (fields.includes('non_public_metrics') && tweet.authorId === viewer.id && recent) {
      json.non_public_metrics = { impression_count: tweet.metrics.impression_count, url_link_clicks: 0, user_profile_clicks: 0, engagements: 0 };
    }
    return json;
  }

  #userJson(user: User, query: Record<string, string>): Record<string, unknown> {
    const fields = (query['user.fields'] ?? '').split(',');
    const data: Record<string, unknown> = { id: user.id, name: user.name, username: user.username };
    if (fields.includes('public_metrics'))
      data.public_metrics = { followers_count: user.followers, following_count: 0, tweet_count: this.postsBy(user.id).length, listed_count: 0 };
    if (fields.includes('subscription_type')) data.subscription_type = user.subscription;
    if (fields.includes('verified')) data.verified = user.subscription !== 'None';
    return { data };
  }

  // ---- media (§4) ----

  #simpleUpload(user: User, request: Request): Record<string, unknown> {
    const category = request.form.media_category ?? 'tweet_image';
    if (category !== 'tweet_image') throw invalidRequest(this.#host, `${category} needs the chunked upload (fake)`, { media_category: [category] });
    const file = request.file;
    if (!file) throw invalidRequest(this.#host, 'media is required', { media: [] });
    const type = imageTypeOf(file);
    if (!type) throw invalidRequest(this.#host, 'media type unrecognized.', { media: [] });
    if (file.length > CATEGORY_BYTES.tweet_image!) throw invalidRequest(this.#host, 'File size exceeds 5242880 bytes.', { media: [] });
    const media = this.#addMedia(user, category, type, file.length);
    media.segments.set(0, file.length);
    media.readyAt = this.#now();
    return { data: this.#mediaJson(media) };
  }

  #initialize(user: User, json: Record<string, unknown> | null): Record<string, unknown> {
    const mediaType = String(json?.media_type ?? '');
    const totalBytes = json?.total_bytes;
    const category = String(json?.media_category ?? '');
    const limit = CATEGORY_BYTES[category];
    if (!limit) throw invalidRequest(this.#host, `Invalid media_category: ${category}`, { media_category: [category] });
    const fits =
      category === 'tweet_video'
        ? ['video/mp4', 'video/quicktime'].includes(mediaType)
        : category === 'tweet_gif'
          ? mediaType === 'image/gif'
          : mediaType.startsWith('image/');
    if (!fits) throw invalidRequest(this.#host, `media_type ${mediaType} does not fit ${category}`, { media_type: [mediaType] });
    if (typeof totalBytes !== 'number' || !Number.isInteger(totalBytes) || totalBytes < 1)
      throw invalidRequest(this.#host, 'total_bytes is required', { total_bytes: [] });
    if (totalBytes > limit) throw invalidRequest(this.#host, `File size exceeds ${limit} bytes.`, { total_bytes: [String(totalBytes)] });
    const media = this.#addMedia(user, category, mediaType, totalBytes);
    return { data: { id: media.id, media_key: mediaKeyOf(media), expires_after_secs: 1_295_999 } };
  }

  #append(user: User, id: string, request: Request): Record<string, unknown> {
    const media = this.#ownMedia(user, id);
    if (media.readyAt !== null) throw invalidRequest(this.#host, 'The upload is finalized already.', { id: [id] });
    const index = Number(request.form.segment_index);
    if (!Number.isInteger(index) || index < 0 || index > 999) throw invalidRequest(this.#host, 'segment_index must be 0 to 999', { segment_index: [] });
    if (!request.file?.length) throw invalidRequest(this.#host, 'media is required', { media: [] });
    media.segments.set(index, request.file.length);
    return { data: { expires_at: Math.floor(media.expiresAt / 1000) } };
  }

  #finalize(user: User, id: string): Record<string, unknown> {
    const media = this.#ownMedia(user, id);
    if (media.readyAt !== null) throw invalidRequest(this.#host, 'The upload is finalized already.', { id: [id] });
    const received = [...media.segments.values()].reduce((a, b) => a + b, 0);
    if (received !== media.totalBytes) throw invalidRequest(this.#host, `File size mismatch: ${received} of ${media.totalBytes} bytes received.`, { id: [id] });
    if (media.category === 'tweet_image') media.processingMs = 0;
    else {
      media.processingMs = media.category === 'tweet_gif' ? this.#processingMs.gif : this.#processingMs.video;
      media.fails = this.#failNextProcessing;
      this.#failNextProcessing = false;
    }
    media.readyAt = this.#now() + media.processingMs;
    media.expiresAt = this.#now() + MEDIA_EXPIRY_SECONDS * 1000;
    return { data: this.#mediaJson(media) };
  }

  #metadata(user: User, json: Record<string, unknown> | null): Record<string, unknown> {
    const media = this.#ownMedia(user, String(json?.id ?? ''));
    const text = (json?.metadata as { alt_text?: { text?: unknown } } | undefined)?.alt_text?.text;
    if (typeof text !== 'string' || text.length > ALT_TEXT_CHARS)
      throw invalidRequest(this.#host, 'alt_text.text must be up to 1000 characters', { alt_text: [] });
    media.altText = text;
    return { data: { id: media.id, associated_metadata: true, alt_text: { text } } };
  }

  /** The upload as X tells it: no `processing_info` for a ready image; a GIF or video pending → in_progress → succeeded | failed. */
  #mediaJson(media: FakeMedia): Record<string, unknown> {
    const json: Record<string, unknown> = {
      id: media.id,
      media_key: mediaKeyOf(media),
      size: media.totalBytes,
      expires_after_secs: Math.max(0, Math.floor((media.expiresAt - this.#now()) / 1000)),
    };
    if (media.category === 'tweet_image') return { ...json, image: { image_type: media.mediaType } };
    if (media.readyAt === null) return { ...json, processing_info: { state: 'pending', check_after_secs: 1 } };
    const left = media.readyAt - this.#now();
    if (left <= 0) {
      json.processing_info = media.fails
        ? { state: 'failed', progress_percent: 100, error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video format' } }
        : { state: 'succeeded', progress_percent: 100 };
      return json;
    }
    const done = media.processingMs - left;
    const state = done < media.processingMs / 4 ? 'pending' : 'in_progress';
    json.processing_info = {
      state,
      check_after_secs: Math.max(1, Math.min(5, Math.ceil(left / 1000))),
      progress_percent: Math.floor((done / media.processingMs) * 100),
    };
    return json;
  }

  #addMedia(user: User, category: string, mediaType: string, totalBytes: number): FakeMedia {
    const media: FakeMedia = {
      id: this.#nextId(),
      ownerId: user.id,
      category,
      mediaType,
      totalBytes,
      segments: new Map(),
      readyAt: null,
      processingMs: 0,
      fails: false,
      expiresAt: this.#now() + MEDIA_EXPIRY_SECONDS * 1000,
      altText: null,
    };
    this.media.set(media.id, media);
    return media;
  }

  #ownMedia(user: User, id: string): FakeMedia {
    const media = this.media.get(id);
    if (!media || media.ownerId !== user.id || media.expiresAt <= this.#now()) throw invalidRequest(this.#host, MEDIA_INVALID, { media_id: [id] });
    return media;
  }

  // ---- helpers ----

  #visibleTweet(id: string): FakeTweet {
    return this.#visibleTweetOr(id, () => forbidden('You attempted to act on a Tweet that is deleted or not visible to you.'));
  }

  #visibleTweetOr(id: string, fault: () => XFault): FakeTweet {
    const tweet = this.#tweetsById.get(id);
    if (!tweet || tweet.deleted) throw fault();
    return tweet;
  }

  #tweet(id: string): FakeTweet {
    const tweet = this.#tweetsById.get(id);
    if (!tweet) throw new Error(`fake X: no post ${id}`);
    return tweet;
  }

  #addUser(username: string): User {
    const user: User = { id: this.#nextId(), username, name: username, followers: 0, subscription: 'None' };
    this.#users.set(user.id, user);
    return user;
  }

  /** A snowflake: milliseconds since Twitter's epoch, then a sequence. */
  #nextId(): string {
    this.#sequence++;
    return ((BigInt(this.#now()) - SNOWFLAKE_EPOCH) * 4_194_304n + (this.#sequence % 4_194_304n)).toString();
  }

  #now(): number {
    return this.#clock.now().getTime();
  }
}

function mediaKeyOf(media: FakeMedia | undefined): string {
  const prefix = media?.category === 'tweet_video' ? '7' : media?.category === 'tweet_gif' ? '16' : '3';
  return `${prefix}_${media?.id ?? '0'}`;
}

function ok(body: unknown): Answer {
  return { status: 200, body };
}

function routeOf(method: string, path: string, query: URLSearchParams): Route | null {
  const table: Array<[string, RegExp, FakeEndpoint]> = [
    ['GET', /^\/i\/oauth2\/authorize$/, 'oauth.authorize'],
    ['POST', /^\/2\/oauth2\/token$/, 'oauth.token'],
    ['POST', /^\/2\/oauth2\/revoke$/, 'oauth.revoke'],
    ['GET', /^\/2\/users\/me$/, 'users.me'],
    ['POST', /^\/2\/tweets$/, 'tweets.create'],
    ['GET', /^\/2\/tweets$/, 'tweets.lookup'],
    ['GET', /^\/2\/tweets\/(\d{1,19})$/, 'tweets.get'],
    ['DELETE', /^\/2\/tweets\/(\d{1,19})$/, 'tweets.delete'],
    ['GET', /^\/2\/users\/(\d{1,19})\/tweets$/, 'users.tweets'],
    ['POST', /^\/2\/users\/(\d{1,19})\/retweets$/, 'retweets.create'],
    ['DELETE', /^\/2\/users\/(\d{1,19})\/retweets\/(\d{1,19})$/, 'retweets.delete'],
    ['POST', /^\/2\/media\/upload$/, 'media.upload'],
    ['POST', /^\/2\/media\/upload\/initialize$/, 'media.initialize'],
    ['POST', /^\/2\/media\/upload\/(\d{1,19})\/append$/, 'media.append'],
    ['POST', /^\/2\/media\/upload\/(\d{1,19})\/finalize$/, 'media.finalize'],
    ['POST', /^\/2\/media\/metadata$/, 'media.metadata'],
  ];
  if (method === 'GET' && path === '/2/media/upload' && query.get('command') === 'STATUS') return { endpoint: 'media.status', ids: [] };
  for (const [m, pattern, endpoint] of table) {
    const match = m === method ? pattern.exec(path) : null;
    if (match) return { endpoint, ids: match.slice(1) };
  }
  return null;
}

async function readRequest(req: IncomingMessage, url: URL): Promise<Request> {
  const query = Object.fromEntries(url.searchParams);
  const auth = req.headers.authorization ?? '';
  const bearer = /^Bearer (.+)$/i.exec(auth)?.[1] ?? null;
  const basicRaw = /^Basic (.+)$/i.exec(auth)?.[1];
  let basic: Request['basic'] = null;
  if (basicRaw) {
    const [id, secret] = Buffer.from(basicRaw, 'base64').toString('utf8').split(':');
    basic = { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(secret ?? '') };
  }
  const body = await readBody(req);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const request: Request = { method: req.method ?? 'GET', query, json: null, form: {}, file: null, token: bearer, basic };
  if (body.length === 0) return request;
  if (type === 'application/json') {
    try {
      const value = JSON.parse(body.toString('utf8'));
      request.json = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
    } catch {
      throw new XFault(400, { title: 'Invalid Request', detail: 'Request body is not valid JSON (fake).', type: 'about:blank', status: 400 });
    }
  } else if (type === 'application/x-www-form-urlencoded') {
    request.form = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
  } else if (type === 'multipart/form-data') {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type']! } }).formData();
    for (const [name, value] of form) {
      if (typeof value === 'string') request.form[name] = value;
      else if (name === 'media') request.file = Buffer.from(await value.arrayBuffer());
    }
  } else throw new XFault(415, { title: 'Unsupported Media Type', detail: `Unsupported body type ${type} (fake)`, type: 'about:blank', status: 415 });
  return request;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new XFault(413, { title: 'Payload Too Large', detail: 'Payload Too Large', type: 'about:blank', status: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
  res.end(answer.body === null ? '' : JSON.stringify(answer.body));
}

/** An author's posts that X would call duplicates of each other share this key. */
function duplicateKeyOf(authorId: string, key: string): string {
  return `${authorId}\u0000${key}`;
}
