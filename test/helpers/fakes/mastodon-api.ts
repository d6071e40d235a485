import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../../../src/lib/clock.js';
import {
  type Bucket,
  checkAttachmentMix,
  type FakeEndpoint,
  invalidToken,
  MastodonFault,
  type MediaType,
  many,
  mediaTypeOfBytes,
  notFound,
  oauthError,
  one,
  type Params,
  parseStatusSpec,
  pkceMatches,
  rejectUnknownParams,
  type StatusSpec,
  scopesAllowed,
  scopesOf,
  takeFromBucket,
  unprocessable,
} from './mastodon-rules.js';

export type { FakeEndpoint } from './mastodon-rules.js';

/**
 * A local stand-in for one Mastodon server, as strict as the server where
 * ../shared/reference/mastodon-api.md says how it behaves (§7 "Notes for a local fake"). Each
 * fake is its own server with its own limits (one at 1,000 characters, another at 500), time
 * from an injected clock (media processing, idempotency keys and rate-limit windows move with it).
 */

const HOUR = 3_600_000;
const IDEMPOTENCY_MS = HOUR;
const CODE_LIFETIME_MS = 10 * 60_000;
const MAX_BODY_BYTES = 64 << 20;
const DESCRIPTION_LIMIT = 1500;

/** configuration.media_attachments.video_size_limit (mastodon.social's, about 99 MB). */
const VIDEO_SIZE_LIMIT = 103_809_024;

export interface FakeMastodonOptions {
  clock?: Clock;
  /** configuration.statuses.max_characters; 500 by default. */
  maxCharacters?: number;
  /** configuration.statuses.max_media_attachments; 4 by default. */
  maxMediaAttachments?: number;
  /** configuration.media_attachments.image_size_limit in bytes; 16 MiB by default, as mastodon.social. */
  imageSizeLimit?: number;
  /** How long an upload stays processing (206) before it is ready; images 1 s, video 30 s by default. */
  processingMs?: Partial<Record<MediaType, number>>;
  /** Calls per access token per 5 minutes (300) and media uploads per 30 minutes (30). */
  rateLimits?: { calls?: number; media?: number };
}

/** Faults for the next calls to an endpoint. */
export type Fault =
  | { kind: 'http500' }
  | { kind: 'http503' }
  /** No answer ever; the request is not carried out. */
  | { kind: 'hang' }
  /** The request is carried out on the server, then the connection is cut without an answer. */
  | { kind: 'dropResponse' };

export interface FakeStatus {
  id: string;
  accountId: string;
  text: string;
  spoilerText: string;
  sensitive: boolean;
  visibility: string;
  language: string | null;
  inReplyToId: string | null;
  mediaIds: string[];
  reblogOf: string | null;
  idempotencyKey: string | null;
  createdAt: number;
  deleted: boolean;
  counts: { favourites: number; reblogs: number; replies: number };
}

export interface FakeMedia {
  id: string;
  accountId: string;
  type: MediaType;
  bytes: number;
  description: string | null;
  readyAt: number;
  statusId: string | null;
}

export interface RecordedRequest {
  method: string;
  endpoint: FakeEndpoint | null;
  path: string;
  params: Params;
  idempotencyKey: string | null;
}

interface App {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
}

interface Account {
  id: string;
  username: string;
  followers: number;
}

interface Token {
  accountId: string;
  clientId: string | null;
  revoked: boolean;
}

interface AuthCode {
  accountId: string;
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  expiresAt: number;
  used: boolean;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Request {
  method: string;
  path: string;
  params: Params;
  token: string | null;
  idempotencyKey: string | null;
  file: Buffer | null;
}

export class FakeMastodonApi {
  readonly statuses: FakeStatus[] = [];
  readonly media = new Map<string, FakeMedia>();
  readonly requests: RecordedRequest[] = [];
  readonly apps: App[] = [];
  readonly #server: http.Server;
  readonly #clock: Clock;
  #maxCharacters: number;
  readonly #maxMedia: number;
  readonly #imageSizeLimit: number;
  readonly #processingMs: Record<MediaType, number>;
  readonly #callLimit: number;
  readonly #mediaLimit: number;
  readonly #accounts = new Map<string, Account>();
  readonly #tokens = new Map<string, Token>();
  readonly #codes = new Map<string, AuthCode>();
  readonly #buckets = new Map<string, Bucket>();
  readonly #idempotency = new Map<string, { statusId: string; at: number }>();
  /** Per endpoint, what its next calls meet: a fault, or null for a normal answer. */
  readonly #faults = new Map<FakeEndpoint, Array<Fault | null>>();
  #signedIn: Account | null = null;
  #nextId = 113_000_000_000_000_000n;
  #url = '';

  private constructor(options: FakeMastodonOptions) {
    this.#clock = options.clock ?? systemClock;
    this.#maxCharacters = options.maxCharacters ?? 500;
    this.#maxMedia = options.maxMediaAttachments ?? 4;
    this.#imageSizeLimit = options.imageSizeLimit ?? 16_777_216;
    this.#processingMs = { image: 1_000, video: 30_000, ...options.processingMs };
    this.#callLimit = options.rateLimits?.calls ?? 300;
    this.#mediaLimit = options.rateLimits?.media ?? 30;
    this.#server = http.createServer((req, res) => {
      this.#onRequest(req, res).catch((err: unknown) => {
        console.error('fake Mastodon API crashed:', err);
        res.destroy();
      });
    });
  }

  static async start(options: FakeMastodonOptions = {}): Promise<FakeMastodonApi> {
    const fake = new FakeMastodonApi(options);
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.#url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** The instance's base URL, the equivalent of https://mastodon.social. */
  get url(): string {
    return this.#url;
  }

  /** The server's domain, as in `user@domain`. */
  get domain(): string {
    return new URL(this.#url).host;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---- test hooks ----

  /** An account with a token made in its settings ("Development" → new application): for the token path. */
  createAccount(username = `user${this.#accounts.size + 1}`): { accountId: string; accessToken: string } {
    const account = this.#addAccount(username);
    return { accountId: account.id, accessToken: this.#issueToken(account.id, null) };
  }

  /** Who is signed in in the browser: /oauth/authorize approves as this account (made when new). */
  signIn(username: string): string {
    const known = [...this.#accounts.values()].find((a) => a.username === username);
    this.#signedIn = known ?? this.#addAccount(username);
    return this.#signedIn.id;
  }

  revokeToken(token: string): void {
    this.#tokens.get(token)!.revoked = true;
  }

  isRevoked(token: string): boolean {
    return this.#tokens.get(token)?.revoked ?? true;
  }

  setCounts(statusId: string, counts: Partial<FakeStatus['counts']>): void {
    Object.assign(this.#status(statusId).counts, counts);
  }

  /** The server changes its configuration.statuses.max_characters (as an admin can). */
  setMaxCharacters(max: number): void {
    this.#maxCharacters = max;
  }

  setFollowers(accountId: string, count: number): void {
    this.#accounts.get(accountId)!.followers = count;
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

  /** Statuses of an account (not boosts, not deleted), oldest first: what tests assert exactly-once on. */
  postsBy(accountId: string): FakeStatus[] {
    return this.statuses.filter((s) => s.accountId === accountId && !s.reblogOf && !s.deleted);
  }

  reblogsBy(accountId: string): FakeStatus[] {
    return this.statuses.filter((s) => s.accountId === accountId && s.reblogOf && !s.deleted);
  }

  // ---- transport ----

  async #onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = req.method ?? 'GET';
    const route = routeOf(method, url.pathname);
    let request: Request;
    try {
      request = await readRequest(req, url);
    } catch (err) {
      return send(res, errorAnswer(err));
    }
    this.requests.push({ method, endpoint: route?.endpoint ?? null, path: url.pathname, params: request.params, idempotencyKey: request.idempotencyKey });
    const fault = route ? (this.#faults.get(route.endpoint)?.shift() ?? undefined) : undefined;
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'http500') return send(res, { status: 500, body: { error: 'We are sorry, but something went wrong on our end.' } });
    if (fault?.kind === 'http503') return send(res, { status: 503, body: { error: 'Service Unavailable' } });
    const answer = this.#answer(route, request);
    if (fault?.kind === 'dropResponse') {
      req.socket.destroy();
      return;
    }
    send(res, answer);
  }

  #answer(route: Route | null, request: Request): Answer {
    try {
      if (!route) throw notFound();
      rejectUnknownParams(route.endpoint, request.params);
      return this.#dispatch(route, request);
    } catch (err) {
      return errorAnswer(err);
    }
  }

  #dispatch(route: Route, request: Request): Answer {
    const { params } = request;
    switch (route.endpoint) {
      case 'apps':
        return ok(this.#registerApp(params));
      case 'oauth.authorize':
        return this.#authorize(params);
      case 'oauth.token':
        return ok(this.#exchangeCode(params));
      case 'oauth.revoke':
        return ok(this.#revoke(params));
      case 'instance':
        return ok(this.#instance());
      case 'statuses.get':
        // Public statuses need no token (§3 "View").
        return ok(this.#statusJson(this.#visibleStatus(route.id!)));
      case 'accounts.get':
        return ok(this.#accountJson(this.#account(route.id!)));
    }
    const account = this.#authenticate(request.token);
    const headers = takeFromBucket(this.#bucket(`calls:${request.token}`, this.#callLimit, 5 * 60_000), this.#now());
    const withHeaders = (answer: Answer): Answer => ({ ...answer, headers: { ...headers, ...answer.headers } });
    switch (route.endpoint) {
      case 'verify_credentials':
        return withHeaders(ok(this.#accountJson(account)));
      case 'statuses.create':
        return withHeaders(ok(this.#createStatus(account, params, request.idempotencyKey)));
      case 'statuses.delete':
        return withHeaders(ok(this.#deleteStatus(account, route.id!)));
      case 'statuses.reblog':
        return withHeaders(ok(this.#reblog(account, route.id!)));
      case 'accounts.statuses':
        return withHeaders(ok(this.#listStatuses(route.id!, params)));
      case 'media.create': {
        const mediaHeaders = takeFromBucket(this.#bucket(`media:${account.id}`, this.#mediaLimit, 30 * 60_000), this.#now());
        return { ...this.#upload(account, params, request.file), headers: { ...headers, ...mediaHeaders } };
      }
      case 'media.get':
        return withHeaders(this.#readMedia(account, route.id!));
    }
  }

  // ---- apps and OAuth (§1) ----

  #registerApp(params: Params): Record<string, unknown> {
    const name = one(params, 'client_name');
    const redirectUris = many(params, 'redirect_uris')
      .flatMap((u) => u.split(/\s+/))
      .filter(Boolean);
    if (!name) throw unprocessable("Application name can't be blank");
    if (redirectUris.length === 0) throw unprocessable("Redirect URI can't be blank");
    for (const uri of redirectUris) {
      if (uri !== 'urn:ietf:wg:oauth:2.0:oob' && !/^https?:\/\/[^\s]+$/.test(uri)) throw unprocessable('Redirect URI must be an absolute URI.');
    }
    const app: App = {
      clientId: randomBytes(24).toString('base64url'),
      clientSecret: randomBytes(24).toString('base64url'),
      redirectUris,
      scopes: scopesOf(one(params, 'scopes')),
    };
    this.apps.push(app);
    return {
      id: String(this.apps.length),
      name,
      website: one(params, 'website') ?? null,
      scopes: app.scopes,
      redirect_uri: redirectUris.join('\n'),
      redirect_uris: redirectUris,
      client_id: app.clientId,
      client_secret: app.clientSecret,
      client_secret_expires_at: 0,
    };
  }

  /** The user approves at once (as `signIn` chose) and the browser is sent back with a code. */
  #authorize(params: Params): Answer {
    const app = this.apps.find((a) => a.clientId === one(params, 'client_id'));
    if (!app) throw oauthError('invalid_client', 'Client authentication failed due to unknown client.', 401);
    const redirectUri = one(params, 'redirect_uri') ?? '';
    if (!app.redirectUris.includes(redirectUri)) throw oauthError('invalid_redirect_uri', 'The redirect uri included is not valid.');
    if (one(params, 'response_type') !== 'code') throw oauthError('unsupported_response_type', 'The authorization server does not support this response type.');
    if (!scopesAllowed(scopesOf(one(params, 'scope')), app.scopes)) throw oauthError('invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
    const challenge = one(params, 'code_challenge') ?? null;
    if (challenge !== null && one(params, 'code_challenge_method') !== 'S256') throw oauthError('invalid_request', 'Code challenge method must be S256.');
    const account = this.#signedIn ?? this.#addAccount('alice');
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, { accountId: account.id, clientId: app.clientId, redirectUri, challenge, expiresAt: this.#now() + CODE_LIFETIME_MS, used: false });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    const state = one(params, 'state');
    if (state !== undefined) target.searchParams.set('state', state);
    return { status: 302, body: null, headers: { location: target.toString() } };
  }

  #exchangeCode(params: Params): Record<string, unknown> {
    if (one(params, 'grant_type') !== 'authorization_code') throw oauthError('unsupported_grant_type', 'The authorization grant type is not supported.');
    const app = this.apps.find((a) => a.clientId === one(params, 'client_id') && a.clientSecret === one(params, 'client_secret'));
    if (!app) throw oauthError('invalid_client', 'Client authentication failed due to unknown client.', 401);
    const code = this.#codes.get(one(params, 'code') ?? '');
    const invalidGrant = oauthError(
      'invalid_grant',
      'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
    );
    if (!code || code.used || code.expiresAt <= this.#now() || code.clientId !== app.clientId) throw invalidGrant;
    if (code.redirectUri !== one(params, 'redirect_uri')) throw invalidGrant;
    if (code.challenge !== null) {
      const verifier = one(params, 'code_verifier');
      if (!verifier || !pkceMatches(verifier, code.challenge)) throw invalidGrant;
    }
    code.used = true;
    return {
      access_token: this.#issueToken(code.accountId, app.clientId),
      token_type: 'Bearer',
      scope: app.scopes.join(' '),
      created_at: Math.floor(this.#now() / 1000),
    };
  }

  #revoke(params: Params): Record<string, unknown> {
    const app = this.apps.find((a) => a.clientId === one(params, 'client_id') && a.clientSecret === one(params, 'client_secret'));
    if (!app) throw oauthError('unauthorized_client', 'You are not authorized to revoke this token', 403);
    const token = this.#tokens.get(one(params, 'token') ?? '');
    if (token && token.clientId === app.clientId) token.revoked = true;
    return {};
  }

  #instance(): Record<string, unknown> {
    return {
      domain: this.domain,
      title: 'Fake Mastodon',
      version: '4.3.0',
      source_url: 'https://github.com/mastodon/mastodon',
      configuration: {
        urls: { streaming: `ws://${this.domain}` },
        statuses: { max_characters: this.#maxCharacters, max_media_attachments: this.#maxMedia, characters_reserved_per_url: 23 },
        media_attachments: {
          supported_mime_types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime'],
          description_limit: DESCRIPTION_LIMIT,
          image_size_limit: this.#imageSizeLimit,
          image_matrix_limit: 33_177_600,
          video_size_limit: VIDEO_SIZE_LIMIT,
          video_frame_rate_limit: 120,
          video_matrix_limit: 8_294_400,
        },
        polls: { max_options: 4, max_characters_per_option: 50, min_expiration: 300, max_expiration: 2_629_746 },
      },
    };
  }

  // ---- statuses (§3) ----

  /** The same Idempotency-Key within an hour answers the status it made, and makes no second one. */
  #createStatus(account: Account, params: Params, key: string | null): Record<string, unknown> {
    const now = this.#now();
    const remembered = key ? this.#idempotency.get(`${account.id}:${key}`) : undefined;
    if (remembered && now - remembered.at < IDEMPOTENCY_MS) return this.#statusJson(this.#status(remembered.statusId));
    const spec = parseStatusSpec(params, { maxCharacters: this.#maxCharacters, maxMedia: this.#maxMedia, reservedPerUrl: 23 });
    this.#checkReply(account, spec);
    const media = this.#attachable(account, spec.mediaIds);
    const status = this.#addStatus(account, spec, null, key);
    for (const item of media) item.statusId = status.id;
    if (key) this.#idempotency.set(`${account.id}:${key}`, { statusId: status.id, at: now });
    if (spec.inReplyToId) this.#status(spec.inReplyToId).counts.replies += 1;
    return this.#statusJson(status);
  }

  #checkReply(account: Account, spec: StatusSpec): void {
    if (spec.inReplyToId === null) return;
    const parent = this.statuses.find((s) => s.id === spec.inReplyToId && !s.deleted && !s.reblogOf);
    if (!parent || (parent.visibility === 'direct' && parent.accountId !== account.id)) throw notFound();
  }

  #attachable(account: Account, ids: string[]): FakeMedia[] {
    const items = ids.map((id) => {
      const item = this.media.get(id);
      if (!item || item.accountId !== account.id || item.statusId !== null) throw unprocessable('Media attachments are invalid');
      if (item.readyAt > this.#now()) throw unprocessable('Cannot attach files that have not finished processing. Try again in a moment!');
      return item;
    });
    checkAttachmentMix(items.map((i) => i.type));
    return items;
  }

  #deleteStatus(account: Account, id: string): Record<string, unknown> {
    const status = this.#visibleStatus(id);
    if (status.accountId !== account.id) throw notFound();
    status.deleted = true;
    return this.#statusJson(status);
  }

  /** A second boost of the same status answers the existing one (Mastodon's ReblogService). */
  #reblog(account: Account, id: string): Record<string, unknown> {
    const target = this.#visibleStatus(id);
    if (target.reblogOf) throw notFound();
    const existing = this.statuses.find((s) => s.accountId === account.id && s.reblogOf === id && !s.deleted);
    if (existing) return this.#statusJson(existing);
    const spec: StatusSpec = { text: '', mediaIds: [], inReplyToId: null, sensitive: false, spoilerText: '', visibility: 'public', language: null };
    target.counts.reblogs += 1;
    return this.#statusJson(this.#addStatus(account, spec, id, null));
  }

  /** Newest first, at most `limit` (default 20, max 40), paged by `max_id` (§3; the lookup of a lost answer reads it). */
  #listStatuses(accountId: string, params: Params): unknown[] {
    this.#account(accountId);
    const limit = Math.min(Math.max(Number(one(params, 'limit') ?? 20) || 20, 1), 40);
    const maxId = one(params, 'max_id');
    const excludeReblogs = one(params, 'exclude_reblogs') === 'true';
    const excludeReplies = one(params, 'exclude_replies') === 'true';
    return this.statuses
      .filter((s) => s.accountId === accountId && !s.deleted)
      .filter((s) => !(excludeReblogs && s.reblogOf) && !(excludeReplies && s.inReplyToId))
      .filter((s) => maxId === undefined || BigInt(s.id) < BigInt(maxId))
      .reverse()
      .slice(0, limit)
      .map((s) => this.#statusJson(s));
  }

  // ---- media (§2) ----

  #upload(account: Account, params: Params, file: Buffer | null): Answer {
    if (!file) throw unprocessable("File can't be blank");
    const type = mediaTypeOfBytes(file);
    if (!type) throw unprocessable('File content type is invalid');
    // Mastodon's Paperclip validation: the server's own size limits, in whole MB in the message.
    const limit = type === 'video' ? VIDEO_SIZE_LIMIT : this.#imageSizeLimit;
    if (file.length > limit) throw unprocessable(`Validation failed: File file size must be less than ${Math.floor(limit / 1_048_576)} MB`);
    const description = one(params, 'description') ?? null;
    if (description !== null && [...description].length > DESCRIPTION_LIMIT)
      throw unprocessable(`Description is too long (maximum is ${DESCRIPTION_LIMIT} characters)`);
    const item: FakeMedia = {
      id: this.#newId(),
      accountId: account.id,
      type,
      bytes: file.length,
      description,
      readyAt: this.#now() + this.#processingMs[type],
      statusId: null,
    };
    this.media.set(item.id, item);
    return { status: item.readyAt > this.#now() ? 202 : 200, body: this.#mediaJson(item) };
  }

  #readMedia(account: Account, id: string): Answer {
    const item = this.media.get(id);
    if (!item || item.accountId !== account.id) throw notFound();
    return { status: item.readyAt > this.#now() ? 206 : 200, body: this.#mediaJson(item) };
  }

  // ---- reading back ----

  #statusJson(status: FakeStatus): Record<string, unknown> {
    const account = this.#accounts.get(status.accountId)!;
    const reblog = status.reblogOf ? this.#statusJson(this.#status(status.reblogOf)) : null;
    return {
      id: status.id,
      created_at: new Date(status.createdAt).toISOString(),
      in_reply_to_id: status.inReplyToId,
      in_reply_to_account_id: status.inReplyToId ? this.#status(status.inReplyToId).accountId : null,
      sensitive: status.sensitive,
      spoiler_text: status.spoilerText,
      visibility: status.visibility,
      language: status.language,
      uri: `${this.#url}/users/${account.username}/statuses/${status.id}`,
      url: status.reblogOf ? null : `${this.#url}/@${account.username}/${status.id}`,
      replies_count: status.counts.replies,
      reblogs_count: status.counts.reblogs,
      favourites_count: status.counts.favourites,
      content: status.text ? `<p>${escapeHtml(status.text).replace(/\n/g, '<br />')}</p>` : '',
      reblog,
      account: this.#accountJson(account),
      media_attachments: status.mediaIds.map((id) => this.#mediaJson(this.media.get(id)!)),
      mentions: [],
      tags: [],
      emojis: [],
      poll: null,
    };
  }

  #mediaJson(item: FakeMedia): Record<string, unknown> {
    const ready = item.readyAt <= this.#now();
    return {
      id: item.id,
      type: item.type,
      url: ready ? `${this.#url}/system/media/${item.id}` : null,
      preview_url: `${this.#url}/system/media/${item.id}/small`,
      remote_url: null,
      description: item.description,
      blurhash: null,
      meta: {},
    };
  }

  #accountJson(account: Account): Record<string, unknown> {
    return {
      id: account.id,
      username: account.username,
      acct: account.username,
      display_name: account.username,
      url: `${this.#url}/@${account.username}`,
      followers_count: account.followers,
      following_count: 0,
      statuses_count: this.postsBy(account.id).length,
    };
  }

  // ---- helpers ----

  #authenticate(token: string | null): Account {
    const entry = token ? this.#tokens.get(token) : undefined;
    if (!entry || entry.revoked) throw invalidToken();
    return this.#accounts.get(entry.accountId)!;
  }

  #bucket(key: string, limit: number, periodMs: number): Bucket {
    const bucket = this.#buckets.get(key) ?? { limit, periodMs, hits: [] };
    this.#buckets.set(key, bucket);
    return bucket;
  }

  #addAccount(username: string): Account {
    const account = { id: this.#newId(), username, followers: 0 };
    this.#accounts.set(account.id, account);
    return account;
  }

  #account(id: string): Account {
    const account = this.#accounts.get(id);
    if (!account) throw notFound();
    return account;
  }

  #issueToken(accountId: string, clientId: string | null): string {
    const token = randomBytes(32).toString('base64url');
    this.#tokens.set(token, { accountId, clientId, revoked: false });
    return token;
  }

  #addStatus(account: Account, spec: StatusSpec, reblogOf: string | null, key: string | null): FakeStatus {
    const status: FakeStatus = {
      id: this.#newId(),
      accountId: account.id,
      text: spec.text,
      spoilerText: spec.spoilerText,
      sensitive: spec.sensitive,
      visibility: spec.visibility,
      language: spec.language,
      inReplyToId: spec.inReplyToId,
      mediaIds: spec.mediaIds,
      reblogOf,
      idempotencyKey: key,
      createdAt: this.#now(),
      deleted: false,
      counts: { favourites: 0, reblogs: 0, replies: 0 },
    };
    this.statuses.push(status);
    return status;
  }

  #status(id: string): FakeStatus {
    const status = this.statuses.find((s) => s.id === id);
    if (!status) throw notFound();
    return status;
  }

  #visibleStatus(id: string): FakeStatus {
    const status = this.#status(id);
    if (status.deleted) throw notFound();
    return status;
  }

  #newId(): string {
    this.#nextId += BigInt(1 + Math.floor(Math.random() * 1000));
    return String(this.#nextId);
  }

  #now(): number {
    return this.#clock.now().getTime();
  }
}

interface Route {
  endpoint: FakeEndpoint;
  id: string | null;
}

function routeOf(method: string, pathname: string): Route | null {
  const fixed: Record<string, FakeEndpoint> = {
    'POST /api/v1/apps': 'apps',
    'GET /oauth/authorize': 'oauth.authorize',
    'POST /oauth/token': 'oauth.token',
    'POST /oauth/revoke': 'oauth.revoke',
    'GET /api/v1/accounts/verify_credentials': 'verify_credentials',
    'GET /api/v2/instance': 'instance',
    'POST /api/v1/statuses': 'statuses.create',
    'POST /api/v2/media': 'media.create',
  };
  const endpoint = fixed[`${method} ${pathname}`];
  if (endpoint) return { endpoint, id: null };
  const patterns: Array<[string, RegExp, FakeEndpoint]> = [
    ['GET', /^\/api\/v1\/statuses\/(\d+)$/, 'statuses.get'],
    ['DELETE', /^\/api\/v1\/statuses\/(\d+)$/, 'statuses.delete'],
    ['POST', /^\/api\/v1\/statuses\/(\d+)\/reblog$/, 'statuses.reblog'],
    ['GET', /^\/api\/v1\/accounts\/(\d+)$/, 'accounts.get'],
    ['GET', /^\/api\/v1\/accounts\/(\d+)\/statuses$/, 'accounts.statuses'],
    ['GET', /^\/api\/v1\/media\/(\d+)$/, 'media.get'],
  ];
  for (const [m, pattern, name] of patterns) {
    const match = m === method ? pattern.exec(pathname) : null;
    if (match) return { endpoint: name, id: match[1]! };
  }
  return null;
}

/** Query string, and a JSON, form or multipart body (Mastodon takes all three); `name[]` is an array. */
async function readRequest(req: IncomingMessage, url: URL): Promise<Request> {
  const params: Params = {};
  const add = (rawName: string, value: string) => {
    const isArray = rawName.endsWith('[]');
    const name = isArray ? rawName.slice(0, -2) : rawName;
    const known = params[name];
    if (isArray) params[name] = [...(Array.isArray(known) ? known : known === undefined ? [] : [known]), value];
    else params[name] = value;
  };
  for (const [name, value] of url.searchParams) add(name, value);
  const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
  const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
  const body = await readBody(req);
  let file: Buffer | null = null;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (body.length > 0) {
    if (type === 'application/json') {
      let value: unknown;
      try {
        value = JSON.parse(body.toString('utf8'));
      } catch {
        throw new MastodonFault(400, { error: 'Error occurred while parsing request parameters' });
      }
      for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
        if (Array.isArray(v)) params[name] = v.map(String);
        else if (v !== null && v !== undefined) params[name] = String(v);
      }
    } else if (type === 'application/x-www-form-urlencoded') {
      for (const [name, value] of new URLSearchParams(body.toString('utf8'))) add(name, value);
    } else if (type === 'multipart/form-data') {
      const form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type']! } }).formData();
      for (const [name, value] of form) {
        if (typeof value === 'string') add(name, value);
        else if (name === 'file') {
          if (!value.type) throw new MastodonFault(422, { error: 'Validation failed: File content type is invalid' });
          file = Buffer.from(await value.arrayBuffer());
          params.file = value.name;
        } else throw new MastodonFault(400, { error: `Unexpected file field ${name} (fake)` });
      }
    } else throw new MastodonFault(415, { error: `Unsupported body type ${type || '(none)'} (fake)` });
  }
  return { method: req.method ?? 'GET', path: url.pathname, params, token: bearer ? bearer[1]! : null, idempotencyKey, file };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new MastodonFault(413, { error: 'Request body too large' });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function ok(body: unknown): Answer {
  return { status: 200, body };
}

function errorAnswer(err: unknown): Answer {
  if (err instanceof MastodonFault) return { status: err.status, body: err.body, headers: err.headers };
  throw err;
}

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...answer.headers });
  res.end(answer.body === null ? '' : JSON.stringify(answer.body));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
