import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../../../src/lib/clock.js';
import {
  accessDenied,
  duplicateFault,
  fieldError,
  LinkedInFault,
  notFound,
  oauthError,
  type Rendered,
  renderLittleText,
  restError,
  utcDay,
  withHashtagTemplates,
} from './linkedin-rules.js';

/**
 * A local stand-in for LinkedIn's OAuth, `/v2/userinfo` and `/rest` APIs, as strict as
 * ../shared/reference/linkedin-api.md says LinkedIn is (§10 "what a faithful fake must enforce"):
 * version headers, bearer tokens and scopes, page roles, the little text format (an unescaped
 * reserved character silently cuts the post), uploads and their states, duplicates, daily rate
 * limits on the injected clock, and faults (a create carried out whose answer is lost).
 */

const DAY = 86_400_000;
const CODE_LIFETIME_MS = 30 * 60_000;
const ACCESS_SECONDS = 5_184_000;
const REFRESH_SECONDS = 31_536_000;
const VIDEO_PART_BYTES = 4_194_304;
const POLL_DURATIONS = new Set(['ONE_DAY', 'THREE_DAYS', 'SEVEN_DAYS', 'FOURTEEN_DAYS']);
const REACTION_TYPES = new Set(['LIKE', 'PRAISE', 'EMPATHY', 'INTEREST', 'APPRECIATION', 'ENTERTAINMENT']);
const METRIC_TYPE_V1 = 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1';
const POSTING_ROLES = new Set(['ADMINISTRATOR', 'CONTENT_ADMIN', 'DIRECT_SPONSORED_CONTENT_POSTER']);

export type FakeEndpoint =
  | 'oauth.authorize'
  | 'oauth.token'
  | 'oauth.introspect'
  | 'oauth.revoke'
  | 'reactions.create'
  | 'userinfo'
  | 'organizationAcls'
  | 'organizations.get'
  | 'posts.create'
  | 'posts.get'
  | 'posts.finder'
  | 'posts.update'
  | 'posts.delete'
  | 'comments.create'
  | 'comments.list'
  | 'socialActions.get'
  | 'socialMetadata.get'
  | 'socialMetadata.update'
  | 'images.init'
  | 'images.get'
  | 'videos.init'
  | 'videos.finalize'
  | 'videos.get'
  | 'upload.put'
  | 'shareStatistics'
  | 'memberPostAnalytics'
  | 'networkSizes'
  | 'memberFollowers';

export type Fault =
  | { kind: 'http500' | 'http503' | 'http429' }
  /** The request is carried out, then the connection is cut without an answer. */
  | { kind: 'dropResponse' }
  /** The request is carried out, then a 504 answers it. */
  | { kind: 'http504After' }
  /** Postiz's "Unable to obtain activity" on a comment to a post just made (§5), nothing carried out. */
  | { kind: 'unableToObtainActivity' };

export interface FakeLinkedInOptions {
  clock?: Clock;
  /** The versions LinkedIn still serves (YYYYMM); 202510 to 202609 by default. */
  activeVersions?: readonly string[];
  /** Commentary and comment limits (§3.2, §5: LinkedIn's unit is unconfirmed; UTF-16 units here). */
  commentaryChars?: number;
  commentChars?: number;
  /** Same author, same content within this window: 422 DUPLICATE_POST (10 minutes). */
  duplicateWindowMs?: number;
  /** How long an upload stays PROCESSING once its bytes are in. */
  processingMs?: { image?: number; video?: number };
  /** Daily `POST /rest/posts` calls per member and per app (150 / 100,000). */
  postsPerDay?: { member?: number; app?: number };
  /** Whether apps get refresh tokens (§1: only apps LinkedIn enabled for it). */
  refreshTokens?: boolean;
}

interface Member {
  id: string;
  name: string;
  followers: number;
}

interface Organization {
  id: string;
  name: string;
  followers: number;
  roles: Map<string, string>;
}

interface App {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

interface Token {
  memberId: string;
  clientId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

export interface FakePost {
  urn: string;
  author: string;
  /** As sent, in the little text format. */
  commentary: string;
  rendered: Rendered;
  content: Record<string, unknown> | null;
  reshareOf: string | null;
  createdAt: number;
  lastModifiedAt: number;
  commentsState: 'OPEN' | 'CLOSED';
  edited: boolean;
  deleted: boolean;
  reshareDisabled: boolean;
  /** One per actor (§6). */
  reactions: Map<string, string>;
  counts: { likes: number; reshares: number; impressions: number };
}

export interface FakeComment {
  id: string;
  commentUrn: string;
  post: string;
  actor: string;
  /** Verbatim: comments are plain text (§5). */
  text: string;
  image: string | null;
  createdAt: number;
}

export interface FakeMedia {
  urn: string;
  owner: string;
  kind: 'image' | 'video';
  uploadedAt: number | null;
  /** Video: the parts' ETags in order, once each is PUT. */
  parts: Array<{ first: number; last: number; etag: string | null }>;
  finalized: boolean;
  bytes: number;
  /** An image's format, read from its first bytes when it is PUT. */
  format: 'jpeg' | 'png' | 'gif' | 'webp' | 'other' | null;
  failed: boolean;
}

export interface RecordedRequest {
  method: string;
  endpoint: FakeEndpoint | null;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

interface Request {
  method: string;
  url: URL;
  key: string | null;
  headers: IncomingMessage['headers'];
  json: Record<string, unknown> | null;
  form: URLSearchParams | null;
  bytes: Buffer;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export class FakeLinkedInApi {
  readonly posts: FakePost[] = [];
  readonly comments: FakeComment[] = [];
  readonly media = new Map<string, FakeMedia>();
  readonly requests: RecordedRequest[] = [];
  readonly #server: http.Server;
  readonly #clock: Clock;
  readonly #versions: Set<string>;
  readonly #options: Required<Pick<FakeLinkedInOptions, 'commentaryChars' | 'commentChars' | 'duplicateWindowMs' | 'refreshTokens'>>;
  readonly #processingMs: { image: number; video: number };
  readonly #postsPerDay: { member: number; app: number };
  readonly #members = new Map<string, Member>();
  readonly #organizations = new Map<string, Organization>();
  readonly #apps: App[] = [];
  readonly #tokens = new Map<string, Token>();
  readonly #refreshTokens = new Map<string, { memberId: string; clientId: string; scopes: string[]; expiresAt: number }>();
  readonly #codes = new Map<string, { memberId: string; clientId: string; redirectUri: string; scopes: string[]; expiresAt: number; used: boolean }>();
  readonly #counters = new Map<string, number>();
  readonly #faults = new Map<FakeEndpoint, Fault[]>();
  /** Whether GET /rest/posts answers hashtags as templates (§3.2). */
  hashtagTemplates = false;
  #signedIn: Member | null = null;
  #nextId = 7_045_020_441_609_936_000n;
  #url = '';

  private constructor(options: FakeLinkedInOptions) {
    this.#clock = options.clock ?? systemClock;
    this.#versions = new Set(
      options.activeVersions ?? ['202510', '202511', '202512', '202601', '202602', '202603', '202604', '202605', '202606', '202607', '202608', '202609'],
    );
    this.#options = {
      commentaryChars: options.commentaryChars ?? 3000,
      commentChars: options.commentChars ?? 1250,
      duplicateWindowMs: options.duplicateWindowMs ?? 10 * 60_000,
      refreshTokens: options.refreshTokens ?? true,
    };
    this.#processingMs = { image: 1_000, video: 30_000, ...options.processingMs };
    this.#postsPerDay = { member: 150, app: 100_000, ...options.postsPerDay };
    this.#server = http.createServer((req, res) => {
      this.#onRequest(req, res).catch((err: unknown) => {
        console.error('fake LinkedIn API crashed:', err);
        res.destroy();
      });
    });
  }

  static async start(options: FakeLinkedInOptions = {}): Promise<FakeLinkedInApi> {
    const fake = new FakeLinkedInApi(options);
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.#url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** Both https://api.linkedin.com and https://www.linkedin.com (OAuth). */
  get url(): string {
    return this.#url;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---- test hooks ----

  /** A member with a token of these scopes (default: what a self-serve app gets). */
  createMember(name: string, scopes: readonly string[] = ['openid', 'profile', 'w_member_social']): { urn: string; accessToken: string } {
    const member = { id: randomBytes(6).toString('base64url'), name, followers: 0 };
    this.#members.set(member.id, member);
    return { urn: `urn:li:person:${member.id}`, accessToken: this.#issue(member.id, 'test-app', [...scopes]) };
  }

  /** A page; `admin` (a member URN) holds `role` on it. */
  createOrganization(name: string, admin: string, role = 'ADMINISTRATOR'): string {
    const id = String(this.#organizations.size + 2_414_183);
    this.#organizations.set(id, { id, name, followers: 0, roles: new Map([[admin, role]]) });
    return `urn:li:organization:${id}`;
  }

  registerApp(redirectUri: string): { clientId: string; clientSecret: string } {
    const app = { clientId: randomBytes(8).toString('hex'), clientSecret: randomBytes(12).toString('base64url'), redirectUris: [redirectUri] };
    this.#apps.push(app);
    return app;
  }

  /** Who approves at /oauth/v2/authorization (auto-approved). */
  signIn(memberUrn: string): void {
    this.#signedIn = this.#members.get(idOf(memberUrn))!;
  }

  revokeToken(token: string): void {
    this.#tokens.get(token)!.revoked = true;
  }

  /** Whether an access token was revoked (by the member, or through /oauth/v2/revoke), or a refresh token is gone. */
  isRevoked(token: string): boolean {
    const access = this.#tokens.get(token);
    return access ? access.revoked : !this.#refreshTokens.has(token);
  }

  setCounts(post: string, counts: Partial<FakePost['counts']>): void {
    Object.assign(this.#post(post).counts, counts);
  }

  setFollowers(urn: string, count: number): void {
    const target = urn.startsWith('urn:li:organization:') ? this.#organizations.get(idOf(urn)) : this.#members.get(idOf(urn));
    target!.followers = count;
  }

  /** The next `times` calls to the endpoint meet `fault`. */
  failNext(endpoint: FakeEndpoint, fault: Fault, times = 1): void {
    const queue = this.#faults.get(endpoint) ?? [];
    for (let i = 0; i < times; i++) queue.push(fault);
    this.#faults.set(endpoint, queue);
  }

  /** An upload's processing fails. */
  failProcessing(urn: string): void {
    this.media.get(urn)!.failed = true;
  }

  callsTo(endpoint: FakeEndpoint): RecordedRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }

  postsBy(author: string): FakePost[] {
    return this.posts.filter((p) => p.author === author && !p.reshareOf && !p.deleted);
  }

  resharesBy(author: string): FakePost[] {
    return this.posts.filter((p) => p.author === author && p.reshareOf);
  }

  commentsOn(post: string): FakeComment[] {
    return this.comments.filter((c) => c.post === post);
  }

  // ---- transport ----

  async #onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = req.method ?? 'GET';
    const route = routeOf(method, url);
    const bytes = await readBody(req);
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
    let json: Record<string, unknown> | null = null;
    try {
      if (type === 'application/json' && bytes.length) json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    } catch {
      return send(res, { status: 400, body: 'Malformed JSON (fake: LinkedIn answers non-JSON bodies too)' });
    }
    const form = type === 'application/x-www-form-urlencoded' ? new URLSearchParams(bytes.toString('utf8')) : null;
    const request: Request = { method, url, key: route?.key ?? null, headers: req.headers, json, form, bytes };
    this.requests.push({
      method,
      endpoint: route?.endpoint ?? null,
      path: url.pathname + url.search,
      headers: req.headers,
      body: json ?? form?.toString() ?? null,
    });
    const fault = route ? this.#faults.get(route.endpoint)?.shift() : undefined;
    if (fault?.kind === 'http500') return send(res, { status: 500, body: { status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error' } });
    if (fault?.kind === 'http503') return send(res, { status: 503, body: 'Service Unavailable' });
    if (fault?.kind === 'http429') return send(res, errorAnswer(throttled()));
    if (fault?.kind === 'unableToObtainActivity')
      return send(res, errorAnswer(restError(400, 'INVALID_VALUE_FOR_FIELD', `Unable to obtain activity for ${request.key}`)));
    const answer = this.#answer(route, request);
    if (fault?.kind === 'dropResponse') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'http504After') return send(res, { status: 504, body: 'Gateway Timeout' });
    send(res, answer);
  }

  #answer(route: Route | null, request: Request): Answer {
    try {
      if (!route) throw notFound('Resource');
      if (route.endpoint === 'oauth.authorize') return this.#authorize(request.url.searchParams);
      if (route.endpoint === 'oauth.token') return ok(this.#token(request.form));
      if (route.endpoint === 'oauth.introspect') return ok(this.#introspect(request.form));
      if (route.endpoint === 'oauth.revoke') return this.#revoke(request.form);
      if (request.url.pathname.startsWith('/rest/')) checkVersion(request.headers, this.#versions);
      // A video part's upload URL is its own credential (§4); an image's PUT needs the token.
      if (route.endpoint === 'upload.put' && this.media.get(route.key!)?.kind === 'video') return this.#receiveUpload(route.key!, request);
      const token = this.#authenticate(request.headers.authorization);
      return this.#dispatch(route.endpoint, request, token);
    } catch (err) {
      return errorAnswer(err);
    }
  }

  #dispatch(endpoint: FakeEndpoint, request: Request, token: Token): Answer {
    const member = this.#members.get(token.memberId)!;
    const { key, url, json } = request;
    const q = url.searchParams;
    switch (endpoint) {
      case 'userinfo':
        return ok({ sub: member.id, name: member.name, given_name: member.name, family_name: '', locale: { country: 'US', language: 'en' } });
      case 'organizationAcls':
        return ok(this.#acls(token, q));
      case 'organizations.get': {
        const org = this.#organizations.get(key!);
        if (!org) throw notFound('Organization');
        return ok({ id: Number(org.id), localizedName: org.name, vanityName: org.name.toLowerCase() });
      }
      case 'posts.create':
        return this.#createPost(token, json ?? {});
      case 'posts.get':
        return ok(this.#postJson(this.#post(key!)));
      case 'posts.finder':
        return ok(this.#findPosts(token, q));
      case 'reactions.create':
        return this.#react(token, q.get('actor') ?? '', json ?? {});
      case 'posts.update':
        return this.#editPost(token, request);
      case 'posts.delete': {
        const post = this.#post(key!);
        if (!this.#mayAuthor(token, post.author, 'write')) throw accessDenied('partnerApiPostsExternal.DELETE');
        post.deleted = true;
        return { status: 204, body: null };
      }
      case 'comments.create':
        return this.#createComment(token, key!, json ?? {});
      case 'comments.list':
        return ok(this.#listComments(token, key!, q));
      case 'socialActions.get':
        return ok(this.#socialActions(token, key!));
      case 'socialMetadata.get':
        return ok(this.#socialMetadata(key!));
      case 'socialMetadata.update':
        return this.#updateSocialMetadata(token, request);
      case 'images.init':
      case 'videos.init':
        return ok(this.#initializeUpload(token, endpoint === 'images.init' ? 'image' : 'video', json));
      case 'upload.put':
        return this.#receiveUpload(key!, request);
      case 'videos.finalize':
        return ok(this.#finalize(json));
      case 'images.get':
      case 'videos.get':
        return ok(this.#mediaJson(token, key!));
      case 'shareStatistics':
        return ok(this.#shareStatistics(token, q));
      case 'memberPostAnalytics':
        return ok(this.#memberPostAnalytics(token, q, String(request.headers['linkedin-version'])));
      case 'networkSizes':
        return ok(this.#networkSize(token, key!));
      case 'memberFollowers':
        if (!token.scopes.includes('r_member_profileAnalytics')) throw accessDenied('memberFollowersCount.FINDER-me');
        return ok({ paging: { start: 0, count: 10, links: [] }, elements: [{ memberFollowersCount: member.followers }] });
      default:
        throw notFound('Resource');
    }
  }

  // ---- OAuth (§1) ----

  #authorize(params: URLSearchParams): Answer {
    const app = this.#apps.find((a) => a.clientId === params.get('client_id'));
    if (!app) throw oauthError(401, 'invalid_client', 'Client_id doesn\u2019t match');
    const redirectUri = params.get('redirect_uri') ?? '';
    if (!app.redirectUris.includes(redirectUri)) throw oauthError(401, 'invalid_redirect_uri', 'Redirect_uri doesn\u2019t match');
    if (params.get('response_type') !== 'code') throw oauthError(400, 'invalid_request', 'response_type must be code');
    const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0) throw oauthError(401, 'invalid_scope', 'Invalid scope');
    const member = this.#signedIn ?? [...this.#members.values()][0];
    if (!member) throw oauthError(400, 'user_cancelled_login', 'No member is signed in (fake)');
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, { memberId: member.id, clientId: app.clientId, redirectUri, scopes, expiresAt: this.#now() + CODE_LIFETIME_MS, used: false });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    const state = params.get('state');
    if (state !== null) target.searchParams.set('state', state);
    return { status: 302, body: null, headers: { location: target.toString() } };
  }

  #token(form: URLSearchParams | null): Record<string, unknown> {
    if (!form) throw oauthError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded');
    for (const name of ['grant_type', 'client_id', 'client_secret'])
      if (!form.get(name)) throw oauthError(400, 'invalid_request', `A required parameter "${name}" is missing`);
    const app = this.#apps.find((a) => a.clientId === form.get('client_id') && a.clientSecret === form.get('client_secret'));
    if (!app) throw oauthError(401, 'invalid_client', 'Client authentication failed');
    if (form.get('grant_type') === 'refresh_token') return this.#refresh(app, form.get('refresh_token') ?? '');
    const code = this.#codes.get(form.get('code') ?? '');
    if (!code) throw oauthError(401, 'invalid_request', 'Unable to retrieve access token: authorization code not found');
    if (code.used || code.expiresAt <= this.#now() || code.clientId !== app.clientId || code.redirectUri !== form.get('redirect_uri'))
      throw oauthError(
        400,
        'invalid_redirect_uri',
        'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.',
      );
    code.used = true;
    // A new scope set invalidates the member's earlier tokens for this app (§1).
    for (const token of this.#tokens.values())
      if (token.memberId === code.memberId && token.clientId === app.clientId && token.scopes.join(' ') !== code.scopes.join(' ')) token.revoked = true;
    const accessToken = this.#issue(code.memberId, app.clientId, code.scopes);
    const answer: Record<string, unknown> = { access_token: accessToken, expires_in: ACCESS_SECONDS, scope: code.scopes.join(',') };
    if (this.#options.refreshTokens) {
      const refresh = randomBytes(24).toString('base64url');
      this.#refreshTokens.set(refresh, {
        memberId: code.memberId,
        clientId: app.clientId,
        scopes: code.scopes,
        expiresAt: this.#now() + REFRESH_SECONDS * 1000,
      });
      Object.assign(answer, { refresh_token: refresh, refresh_token_expires_in: REFRESH_SECONDS });
    }
    return answer;
  }

  /** The same refresh token back, its 365 days counted from the first grant (§1). */
  #refresh(app: App, refreshToken: string): Record<string, unknown> {
    const grant = this.#refreshTokens.get(refreshToken);
    if (!grant || grant.clientId !== app.clientId || grant.expiresAt <= this.#now())
      throw oauthError(400, 'invalid_request', 'The provided authorization grant or refresh token is invalid, expired or revoked');
    return {
      access_token: this.#issue(grant.memberId, app.clientId, grant.scopes),
      expires_in: ACCESS_SECONDS,
      refresh_token: refreshToken,
      refresh_token_expires_in: Math.floor((grant.expiresAt - this.#now()) / 1000),
      scope: grant.scopes.join(','),
    };
  }

  /**
   * `POST /oauth/v2/revoke` (form `token`, `client_id`, `client_secret`; as LinkedIn's clients
   * call it): 200 with an empty body. The app's access token is revoked, its refresh token
   * forgotten; another app's token, or an unknown one, is left as it is, answered 200 too
   * (RFC 7009's reading; LinkedIn's own answer [unconfirmed]).
   */
  #revoke(form: URLSearchParams | null): Answer {
    if (!form) throw oauthError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded');
    for (const name of ['token', 'client_id', 'client_secret'])
      if (!form.get(name)) throw oauthError(400, 'invalid_request', `A required parameter "${name}" is missing`);
    const app = this.#apps.find((a) => a.clientId === form.get('client_id') && a.clientSecret === form.get('client_secret'));
    if (!app) throw oauthError(401, 'invalid_client', 'Client authentication failed');
    const value = form.get('token')!;
    const access = this.#tokens.get(value);
    if (access?.clientId === app.clientId) access.revoked = true;
    if (this.#refreshTokens.get(value)?.clientId === app.clientId) this.#refreshTokens.delete(value);
    return { status: 200, body: null };
  }

  /** Epoch seconds; another app's token is `active: false` (§1). */
  #introspect(form: URLSearchParams | null): Record<string, unknown> {
    const value = form?.get('token');
    if (!value) throw oauthError(400, 'invalid_request', 'A required parameter "token" is missing');
    const app = this.#apps.find((a) => a.clientId === form?.get('client_id'));
    if (!app) throw oauthError(400, 'invalid_request', 'Invalid client_id');
    if (app.clientSecret !== form?.get('client_secret')) throw oauthError(401, 'invalid_client', 'Client authentication failed');
    const token = this.#tokens.get(value);
    if (!token || token.clientId !== app.clientId) return { active: false };
    const status = token.revoked ? 'revoked' : token.expiresAt <= this.#now() ? 'expired' : 'active';
    const issuedAt = Math.floor((token.expiresAt - ACCESS_SECONDS * 1000) / 1000);
    return {
      active: status === 'active',
      client_id: app.clientId,
      authorized_at: issuedAt,
      created_at: issuedAt,
      status,
      expires_at: Math.floor(token.expiresAt / 1000),
      scope: token.scopes.join(','),
      auth_type: '3L',
    };
  }

  #authenticate(header: string | undefined): Token {
    const bearer = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (!bearer) throw restError(401, 'EMPTY_ACCESS_TOKEN', 'Empty oauth2_access_token', 401);
    const token = this.#tokens.get(bearer);
    if (!token) throw restError(401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);
    if (token.revoked) throw restError(401, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user', 65601);
    if (token.expiresAt <= this.#now()) throw restError(401, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired', 65602);
    return token;
  }

  #acls(token: Token, q: URLSearchParams): Record<string, unknown> {
    if (!token.scopes.some((s) => /organization/.test(s))) throw accessDenied('organizationAcls.FINDER-roleAssignee');
    const member = `urn:li:person:${token.memberId}`;
    const role = q.get('role');
    const elements = [...this.#organizations.values()]
      .filter((o) => o.roles.has(member) && (!role || o.roles.get(member) === role))
      .map((o) => ({ organization: `urn:li:organization:${o.id}`, roleAssignee: member, role: o.roles.get(member), state: 'APPROVED' }));
    return { paging: { start: 0, count: 10, links: [], total: elements.length }, elements };
  }

  // ---- posts (§3, §6) ----

  /** Whether the token may act as `author`: the member itself, or a page where it holds a posting role. */
  #mayAuthor(token: Token, author: string, scope: 'write' | 'read'): boolean {
    const member = `urn:li:person:${token.memberId}`;
    if (author.startsWith('urn:li:person:')) return author === member && token.scopes.includes(scope === 'write' ? 'w_member_social' : 'r_member_social');
    const org = this.#organizations.get(idOf(author));
    const role = org?.roles.get(member);
    return !!role && POSTING_ROLES.has(role) && token.scopes.includes(scope === 'write' ? 'w_organization_social' : 'r_organization_social');
  }

  #createPost(token: Token, body: Record<string, unknown>): Answer {
    for (const field of ['author', 'lifecycleState', 'visibility', 'distribution'])
      if (body[field] === undefined) throw fieldError('MISSING_FIELD', `/${field}`, `Field /${field} is required`);
    const author = String(body.author);
    if (!/^urn:li:(person|organization):[^:]+$/.test(author)) throw fieldError('INVALID_URN_TYPE', '/author', `Invalid URN type for /author: ${author}`);
    if (body.lifecycleState !== 'PUBLISHED')
      throw fieldError('INVALID_VALUE_FOR_FIELD', '/lifecycleState', 'PUBLISHED is the only accepted value during creation');
    if (!this.#mayAuthor(token, author, 'write')) throw accessDenied('partnerApiPostsExternal.CREATE');
    this.#countPostCall(token);
    const commentary = typeof body.commentary === 'string' ? body.commentary : '';
    const reshareOf = (body.reshareContext as { parent?: string } | undefined)?.parent ?? null;
    if (!commentary.trim() && !reshareOf) throw fieldError('INVALID_VALUE_BLANK_FIELD', '/commentary', 'Field /commentary must not be blank');
    if (commentary.length > this.#options.commentaryChars)
      throw fieldError('FIELD_LENGTH_TOO_LONG', '/commentary', '/commentary length exceeds the allowed maximum');
    if (reshareOf && this.#post(reshareOf).reshareDisabled)
      throw fieldError('INVALID_VALUE_FOR_FIELD', '/reshareContext/parent', 'The author of the parent post disabled resharing');
    const content = (body.content as Record<string, unknown> | undefined) ?? null;
    if (content) this.#checkContent(author, content);
    const duplicate = this.posts.find(
      (p) =>
        !reshareOf &&
        p.author === author &&
        p.commentary === commentary &&
        JSON.stringify(p.content) === JSON.stringify(content) &&
        this.#now() - p.createdAt < this.#options.duplicateWindowMs,
    );
    if (duplicate) throw duplicateFault(duplicate.urn);
    const now = this.#now();
    const post: FakePost = {
      urn: `urn:li:share:${this.#newId()}`,
      author,
      commentary,
      rendered: renderLittleText(commentary),
      content,
      reshareOf,
      createdAt: now,
      lastModifiedAt: now,
      commentsState: 'OPEN',
      edited: false,
      deleted: false,
      reshareDisabled: body.isReshareDisabledByAuthor === true,
      reactions: new Map(),
      counts: { likes: 0, reshares: 0, impressions: 0 },
    };
    this.posts.push(post);
    if (reshareOf) this.#post(reshareOf).counts.reshares += 1;
    return { status: 201, body: null, headers: { 'x-restli-id': post.urn, 'x-linkedin-id': post.urn.split(':').pop()! } };
  }

  #checkContent(author: string, content: Record<string, unknown>): void {
    const kinds = Object.keys(content);
    if (kinds.length !== 1) throw fieldError('INVALID_VALUE_FOR_FIELD', '/content', 'content takes exactly one of media, multiImage, article, poll');
    const media = content.media as { id?: string; altText?: string; title?: string } | undefined;
    const multi = content.multiImage as { images?: Array<{ id?: string; altText?: string }> } | undefined;
    const article = content.article as { source?: string; title?: string; thumbnail?: string } | undefined;
    const poll = content.poll as { question?: string; options?: Array<{ text?: string }>; settings?: { duration?: string } } | undefined;
    if (media) this.#usable(author, media.id, media.altText, '/content/media');
    else if (multi) {
      const images = multi.images ?? [];
      if (images.length < 2 || images.length > 20) throw fieldError('INVALID_VALUE_FOR_FIELD', '/content/multiImage/images', 'multiImage takes 2 to 20 images');
      images.forEach((image, i) => {
        this.#usable(author, image.id, image.altText, `/content/multiImage/images/${i}`);
        if (!image.id?.startsWith('urn:li:image:')) throw fieldError('INVALID_URN_TYPE', `/content/multiImage/images/${i}/id`, 'multiImage takes images');
      });
    } else if (article) {
      if (!article.source || !article.title) throw fieldError('MISSING_FIELD', '/content/article', 'article needs source and title');
      if (article.thumbnail) this.#usable(author, article.thumbnail, undefined, '/content/article/thumbnail');
    } else if (poll) {
      const options = poll.options ?? [];
      if (!poll.question || poll.question.length > 140) throw fieldError('INVALID_VALUE_FOR_FIELD', '/content/poll/question', 'question: 1 to 140 characters');
      if (options.length < 2 || options.length > 4 || options.some((o) => !o.text || o.text.length > 30))
        throw fieldError('INVALID_VALUE_FOR_FIELD', '/content/poll/options', 'a poll takes 2 to 4 options of up to 30 characters');
      if (!POLL_DURATIONS.has(poll.settings?.duration ?? ''))
        throw fieldError('INVALID_VALUE_FOR_FIELD', '/content/poll/settings/duration', 'unknown duration');
    } else throw fieldError('INVALID_VALUE_FOR_FIELD', '/content', `unknown content ${kinds[0]}`);
  }

  /** Media a post may use: the author's own, AVAILABLE, alt text not blank (§3.1, §4). */
  #usable(author: string, urn: string | undefined, altText: string | undefined, field: string): void {
    const item = urn ? this.media.get(urn) : undefined;
    if (!item || item.owner !== author) throw fieldError('INVALID_URN_ID', `${field}/id`, `Invalid media ${urn ?? '(none)'}`);
    if (altText !== undefined && !altText.trim()) throw fieldError('INVALID_VALUE_BLANK_FIELD', `${field}/altText`, 'altText must not be blank');
    if (this.#statusOf(item) !== 'AVAILABLE') throw fieldError('MEDIA_ASSET_WAITING_UPLOAD', `${field}/id`, `Media ${urn} is not AVAILABLE yet`);
  }

  #countPostCall(token: Token): void {
    const day = utcDay(this.#now());
    const memberKey = `posts:${token.memberId}:${day}`;
    const appKey = `posts:app:${token.clientId}:${day}`;
    const member = this.#counters.get(memberKey) ?? 0;
    const app = this.#counters.get(appKey) ?? 0;
    if (member >= this.#postsPerDay.member || app >= this.#postsPerDay.app) throw throttled();
    this.#counters.set(memberKey, member + 1);
    this.#counters.set(appKey, app + 1);
  }

  /** PARTIAL_UPDATE of the commentary (§3.4); a poll's content cannot change. */
  #editPost(token: Token, request: Request): Answer {
    if (request.headers['x-restli-method'] !== 'PARTIAL_UPDATE') throw restError(400, 'INVALID_VALUE_FOR_FIELD', 'X-RestLi-Method: PARTIAL_UPDATE is required');
    const post = this.#post(request.key!);
    if (!this.#mayAuthor(token, post.author, 'write')) throw accessDenied('partnerApiPostsExternal.PARTIAL_UPDATE');
    const set = (request.json as { patch?: { $set?: Record<string, unknown> } } | null)?.patch?.$set ?? {};
    if ('content' in set && post.content && 'poll' in post.content)
      throw fieldError('INVALID_VALUE_FOR_FIELD', '/content', 'Updating poll content is not allowed');
    const unknown = Object.keys(set).find((k) => !['commentary', 'contentCallToActionLabel', 'contentLandingPage', 'lifecycleState'].includes(k));
    if (unknown) throw fieldError('INVALID_VALUE_FOR_FIELD', `/${unknown}`, `${unknown} cannot be edited`);
    if (typeof set.commentary === 'string') {
      post.commentary = set.commentary;
      post.rendered = renderLittleText(set.commentary);
    }
    post.edited = true;
    post.lastModifiedAt = this.#now();
    return { status: 204, body: null };
  }

  #findPosts(token: Token, q: URLSearchParams): Record<string, unknown> {
    if (q.get('q') !== 'author') throw restError(400, 'INVALID_VALUE_FOR_FIELD', 'Unknown finder');
    const author = q.get('author') ?? '';
    if (!this.#mayAuthor(token, author, 'read')) throw accessDenied('partnerApiPostsExternal.FINDER-author');
    const start = Number(q.get('start') ?? 0);
    const count = Math.min(Number(q.get('count') ?? 10), 100);
    const sortKey = q.get('sortBy') === 'CREATED' ? 'createdAt' : 'lastModifiedAt';
    const all = this.posts.filter((p) => p.author === author && !p.deleted).sort((a, b) => b[sortKey] - a[sortKey]);
    return { paging: { start, count, links: [], total: all.length }, elements: all.slice(start, start + count).map((p) => this.#postJson(p)) };
  }

  #postJson(post: FakePost): Record<string, unknown> {
    return {
      id: post.urn,
      author: post.author,
      commentary: this.hashtagTemplates ? withHashtagTemplates(post.commentary) : post.commentary,
      visibility: 'PUBLIC',
      lifecycleState: 'PUBLISHED',
      lifecycleStateInfo: { isEditedByAuthor: post.edited },
      isReshareDisabledByAuthor: post.reshareDisabled,
      createdAt: post.createdAt,
      publishedAt: post.createdAt,
      lastModifiedAt: post.lastModifiedAt,
      distribution: { feedDistribution: 'MAIN_FEED', thirdPartyDistributionChannels: [] },
      ...(post.content ? { content: post.content } : {}),
      ...(post.reshareOf ? { reshareContext: { parent: post.reshareOf, root: post.reshareOf } } : {}),
    };
  }

  /** Six types, `MAYBE` refused; one per actor and post (a second replaces the first). Likes count in socialActions. */
  #react(token: Token, actor: string, body: Record<string, unknown>): Answer {
    if (!token.scopes.includes('w_member_social_feed') && !token.scopes.includes('w_organization_social_feed'))
      throw accessDenied('partnerApiReactions.CREATE.20250101');
    if (!this.#mayAuthor(token, actor, 'write') && actor !== `urn:li:person:${token.memberId}`) throw accessDenied('partnerApiReactions.CREATE');
    const post = this.#post(String(body.root ?? ''));
    const type = String(body.reactionType ?? '');
    if (!REACTION_TYPES.has(type)) throw fieldError('INVALID_VALUE_FOR_FIELD', '/reactionType', `Unknown reaction type ${type}`);
    const had = post.reactions.get(actor);
    post.reactions.set(actor, type);
    if (type === 'LIKE' && had !== 'LIKE') post.counts.likes += 1;
    if (had === 'LIKE' && type !== 'LIKE') post.counts.likes -= 1;
    return { status: 201, body: { root: post.urn, reactionType: type, created: { actor, time: this.#now() } } };
  }

  // ---- comments (§5) ----

  #createComment(token: Token, postUrn: string, body: Record<string, unknown>): Answer {
    const post = this.#post(postUrn);
    const actor = String(body.actor ?? '');
    if (!this.#mayAuthor(token, actor, 'write')) throw accessDenied('socialActionsV2.CREATE');
    if (body.object !== post.urn) throw fieldError('INVALID_VALUE_FOR_FIELD', '/object', 'object must be the post the path names');
    if (post.commentsState === 'CLOSED') throw restError(403, 'ACCESS_DENIED', 'Comments are disabled on this post', 100);
    const text = (body.message as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string' || !text.trim()) throw fieldError('INVALID_VALUE_BLANK_FIELD', '/message/text', 'message text must not be blank');
    if (text.length > this.#options.commentChars)
      throw fieldError('FIELD_LENGTH_TOO_LONG', '/message/text', '/message/text length exceeds the allowed maximum');
    const entities = (body.content as Array<{ entity?: { image?: string } }> | undefined) ?? [];
    if (entities.length > 1) throw fieldError('INVALID_VALUE_FOR_FIELD', '/content', 'a comment takes one image');
    const image = entities[0]?.entity?.image ?? null;
    if (image) this.#usable(actor, image, undefined, '/content/0/entity');
    const id = String(this.#newId());
    const comment: FakeComment = {
      id,
      commentUrn: `urn:li:comment:(urn:li:activity:${post.urn.split(':').pop()},${id})`,
      post: post.urn,
      actor,
      text,
      image,
      createdAt: this.#now(),
    };
    this.comments.push(comment);
    return { status: 201, body: this.#commentJson(comment), headers: { 'x-restli-id': id } };
  }

  #listComments(token: Token, postUrn: string, q: URLSearchParams): Record<string, unknown> {
    const post = this.#post(postUrn);
    if (!this.#mayRead(token, post.author)) throw accessDenied('socialActionsV2.GET_ALL.20230401');
    const start = Number(q.get('start') ?? 0);
    const count = Math.min(Number(q.get('count') ?? 10), 100);
    const all = this.commentsOn(post.urn);
    return { paging: { start, count, links: [], total: all.length }, elements: all.slice(start, start + count).map((c) => this.#commentJson(c)) };
  }

  #commentJson(comment: FakeComment): Record<string, unknown> {
    return {
      actor: comment.actor,
      object: comment.post,
      message: { text: comment.text, attributes: [] },
      ...(comment.image ? { content: [{ entity: { image: comment.image } }] } : {}),
      id: comment.id,
      commentUrn: comment.commentUrn,
      created: { actor: comment.actor, time: comment.createdAt },
      lastModified: { actor: comment.actor, time: comment.createdAt },
    };
  }

  /** Reading a post's social data needs a read scope for its author (§5, §7). */
  #mayRead(token: Token, author: string): boolean {
    return this.#mayAuthor(token, author, 'read') || token.scopes.includes('r_member_social_feed') || token.scopes.includes('r_organization_social_feed');
  }

  #socialActions(token: Token, postUrn: string): Record<string, unknown> {
    const post = this.#post(postUrn);
    if (!this.#mayRead(token, post.author)) throw accessDenied('socialActionsV2.GET');
    const comments = this.commentsOn(post.urn).length;
    return {
      likesSummary: { totalLikes: post.counts.likes, likedByCurrentUser: false },
      commentsSummary: { totalFirstLevelComments: comments, aggregatedTotalComments: comments },
    };
  }

  #socialMetadata(postUrn: string): Record<string, unknown> {
    const post = this.#post(postUrn);
    const comments = this.commentsOn(post.urn).length;
    return {
      reactionSummaries: post.counts.likes ? { LIKE: { reactionType: 'LIKE', count: post.counts.likes } } : {},
      commentSummary: { count: comments, topLevelCount: comments },
      commentsState: post.commentsState,
    };
  }

  #updateSocialMetadata(token: Token, request: Request): Answer {
    if (request.headers['x-restli-method'] !== 'PARTIAL_UPDATE') throw restError(400, 'INVALID_VALUE_FOR_FIELD', 'X-RestLi-Method: PARTIAL_UPDATE is required');
    const post = this.#post(request.key!);
    const actor = request.url.searchParams.get('actor') ?? '';
    if (actor !== post.author || !this.#mayAuthor(token, actor, 'write')) throw accessDenied('socialMetadata.PARTIAL_UPDATE');
    const state = (request.json as { patch?: { $set?: { commentsState?: string } } } | null)?.patch?.$set?.commentsState;
    if (state !== 'OPEN' && state !== 'CLOSED') throw fieldError('INVALID_VALUE_FOR_FIELD', '/patch/$set/commentsState', 'OPEN or CLOSED');
    post.commentsState = state;
    return { status: 204, body: null };
  }

  // ---- media (§4) ----

  #initializeUpload(token: Token, kind: 'image' | 'video', json: Record<string, unknown> | null): Record<string, unknown> {
    const request = (json?.initializeUploadRequest ?? {}) as { owner?: string; fileSizeBytes?: number };
    const owner = request.owner ?? '';
    if (!this.#mayAuthor(token, owner, 'write')) throw accessDenied(`${kind}s.ACTION-initializeUpload`);
    const urn = `urn:li:${kind}:C4E10AQ${randomBytes(6).toString('hex')}`;
    const item: FakeMedia = { urn, owner, kind, uploadedAt: null, parts: [], finalized: kind === 'image', bytes: 0, format: null, failed: false };
    this.media.set(urn, item);
    const expiresAt = this.#now() + DAY;
    if (kind === 'image') return { value: { uploadUrlExpiresAt: expiresAt, uploadUrl: `${this.#url}/dms-uploads/${enc(urn)}`, image: urn } };
    const size = Number(request.fileSizeBytes);
    if (!Number.isInteger(size) || size < 1) throw fieldError('MISSING_FIELD', '/initializeUploadRequest/fileSizeBytes', 'fileSizeBytes is required');
    if (size > 500_000_000) throw fieldError('INVALID_VALUE_FOR_FIELD', '/initializeUploadRequest/fileSizeBytes', 'A video is at most 500 MB');
    for (let first = 0; first < size; first += VIDEO_PART_BYTES) item.parts.push({ first, last: Math.min(first + VIDEO_PART_BYTES, size) - 1, etag: null });
    item.bytes = size;
    return {
      value: {
        uploadUrlsExpireAt: expiresAt,
        video: urn,
        uploadToken: '',
        uploadInstructions: item.parts.map((p, i) => ({ uploadUrl: `${this.#url}/dms-uploads/${enc(urn)}?part=${i}`, firstByte: p.first, lastByte: p.last })),
      },
    };
  }

  #receiveUpload(urn: string, request: Request): Answer {
    const item = this.media.get(urn);
    if (!item) throw restError(400, 'EXPIRED_UPLOAD_URL', 'The upload URL is unknown or expired');
    if (item.kind === 'image') {
      item.bytes = request.bytes.length;
      item.format = imageFormat(request.bytes);
      // LinkedIn takes JPG, PNG and GIF (§4): anything else fails in processing.
      if (!['jpeg', 'png', 'gif'].includes(item.format)) item.failed = true;
      item.uploadedAt = this.#now();
      return { status: 201, body: null };
    }
    const part = item.parts[Number(request.url.searchParams.get('part'))];
    if (!part || request.bytes.length !== part.last - part.first + 1) throw restError(400, 'INVALID_VALUE_FOR_FIELD', 'The part does not match its byte range');
    part.etag = `/ambry-video/signedId/${randomBytes(8).toString('hex')}`;
    return { status: 200, body: null, headers: { etag: part.etag } };
  }

  #finalize(json: Record<string, unknown> | null): Record<string, unknown> {
    const request = (json?.finalizeUploadRequest ?? {}) as { video?: string; uploadToken?: string; uploadedPartIds?: string[] };
    const item = this.media.get(request.video ?? '');
    if (item?.kind !== 'video') throw notFound('Video');
    if (request.uploadToken !== '') throw fieldError('INVALID_VALUE_FOR_FIELD', '/finalizeUploadRequest/uploadToken', 'uploadToken does not match');
    const etags = item.parts.map((p) => p.etag);
    if (JSON.stringify(etags) !== JSON.stringify(request.uploadedPartIds ?? []) || etags.includes(null))
      throw fieldError('INVALID_VALUE_FOR_FIELD', '/finalizeUploadRequest/uploadedPartIds', 'uploadedPartIds must list every part ETag in order');
    item.finalized = true;
    item.uploadedAt = this.#now();
    return {};
  }

  #statusOf(item: FakeMedia): 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED' {
    if (item.uploadedAt === null || !item.finalized) return 'WAITING_UPLOAD';
    if (item.failed) return 'PROCESSING_FAILED';
    return this.#now() - item.uploadedAt >= this.#processingMs[item.kind] ? 'AVAILABLE' : 'PROCESSING';
  }

  #mediaJson(token: Token, urn: string): Record<string, unknown> {
    const item = this.media.get(urn);
    if (!item) throw notFound('Media');
    // A w_member_social-only token may not read images (§4).
    if (item.kind === 'image' && !this.#mayRead(token, item.owner))
      throw restError(403, 'ACCESS_DENIED', 'Accessing this image resource is forbidden. Please check your permissions for this resource', 100);
    if (!this.#mayAuthor(token, item.owner, 'write') && !this.#mayRead(token, item.owner))
      throw restError(403, 'ACCESS_DENIED', 'Accessing this video resource is forbidden. Please check your permissions for this resource', 100);
    return { id: urn, owner: item.owner, status: this.#statusOf(item), ...(item.failed ? { processingFailureReason: 'Unsupported media (fake)' } : {}) };
  }

  // ---- analytics (§7) ----

  #shareStatistics(token: Token, q: URLSearchParams): Record<string, unknown> {
    if (!token.scopes.includes('rw_organization_admin')) throw accessDenied('organizationalEntityShareStatistics.FINDER-organizationalEntity');
    const org = q.get('organizationalEntity') ?? '';
    if (!this.#organizations.get(idOf(org))?.roles.has(`urn:li:person:${token.memberId}`)) throw accessDenied('organizationalEntityShareStatistics');
    const list = /^List\((.*)\)$/.exec(q.get('shares') ?? q.get('ugcPosts') ?? '')?.[1];
    const urns = list ? list.split(',').map(decodeURIComponent) : [];
    const elements = urns
      .map((urn) => this.posts.find((p) => p.urn === urn && p.author === org))
      .filter((p): p is FakePost => !!p)
      .map((p) => ({
        organizationalEntity: org,
        share: p.urn,
        totalShareStatistics: {
          impressionCount: p.counts.impressions,
          uniqueImpressionsCount: p.counts.impressions,
          clickCount: 0,
          likeCount: p.counts.likes,
          commentCount: this.commentsOn(p.urn).length,
          shareCount: p.counts.reshares,
          engagement: 0,
        },
      }));
    return { paging: { start: 0, count: 10, links: [] }, elements };
  }

  /** Before 202605 `metricType` was an object keyed by its Rest.li type (§7). */
  #memberPostAnalytics(token: Token, q: URLSearchParams, version: string): Record<string, unknown> {
    if (!token.scopes.includes('r_member_postAnalytics')) throw accessDenied('memberCreatorPostAnalytics.FINDER-entity');
    const entity = /^\((share|ugc):(.+)\)$/.exec(q.get('entity') ?? '');
    const post = this.#post(entity ? decodeURIComponent(entity[2]!) : '');
    const comments = this.commentsOn(post.urn).length;
    const metric = q.get('queryType') ?? '';
    const counts: Record<string, number> = {
      IMPRESSION: post.counts.impressions,
      REACTION: post.counts.likes,
      COMMENT: comments,
      RESHARE: post.counts.reshares,
    };
    if (!(metric in counts)) throw restError(400, 'INVALID_VALUE_FOR_FIELD', 'queryType must name one metric');
    return {
      paging: { start: 0, count: 10, links: [] },
      elements: [{ count: counts[metric], metricType: version < '202605' ? { [METRIC_TYPE_V1]: metric } : metric, targetEntity: { share: post.urn } }],
    };
  }

  #networkSize(token: Token, urn: string): Record<string, unknown> {
    const org = this.#organizations.get(idOf(urn));
    if (!org) throw notFound('Organization');
    if (!org.roles.has(`urn:li:person:${token.memberId}`)) throw accessDenied('networkSizes.GET');
    return { firstDegreeSize: org.followers };
  }

  // ---- helpers ----

  #issue(memberId: string, clientId: string, scopes: string[]): string {
    const token = `AQ${randomBytes(48).toString('base64url')}`;
    this.#tokens.set(token, { memberId, clientId, scopes, expiresAt: this.#now() + ACCESS_SECONDS * 1000, revoked: false });
    return token;
  }

  #post(urn: string): FakePost {
    const post = this.posts.find((p) => p.urn === urn && !p.deleted);
    if (!post) throw notFound(`Post ${urn}`);
    return post;
  }

  #newId(): bigint {
    this.#nextId += BigInt(1 + Math.floor(Math.random() * 1000));
    return this.#nextId;
  }

  #now(): number {
    return this.#clock.now().getTime();
  }
}

interface Route {
  endpoint: FakeEndpoint;
  /** The decoded key of the path (a URN, an id). */
  key: string | null;
}

/** The route of a request; a URN key must be encoded whole, as Rest.li 2.0 wants it (§0). */
function routeOf(method: string, url: URL): Route | null {
  const path = url.pathname;
  const action = url.searchParams.get('action');
  const fixed: Record<string, FakeEndpoint> = {
    'GET /oauth/v2/authorization': 'oauth.authorize',
    'POST /oauth/v2/accessToken': 'oauth.token',
    'POST /oauth/v2/introspectToken': 'oauth.introspect',
    'POST /oauth/v2/revoke': 'oauth.revoke',
    'POST /rest/reactions': 'reactions.create',
    'GET /v2/userinfo': 'userinfo',
    'GET /rest/organizationAcls': 'organizationAcls',
    'POST /rest/posts': 'posts.create',
    'GET /rest/posts': 'posts.finder',
    'GET /rest/organizationalEntityShareStatistics': 'shareStatistics',
    'GET /rest/memberCreatorPostAnalytics': 'memberPostAnalytics',
    'GET /rest/memberFollowersCount': 'memberFollowers',
  };
  if (method === 'POST' && path === '/rest/images' && action === 'initializeUpload') return { endpoint: 'images.init', key: null };
  if (method === 'POST' && path === '/rest/videos' && action === 'initializeUpload') return { endpoint: 'videos.init', key: null };
  if (method === 'POST' && path === '/rest/videos' && action === 'finalizeUpload') return { endpoint: 'videos.finalize', key: null };
  const endpoint = fixed[`${method} ${path}`];
  if (endpoint) return { endpoint, key: null };
  const patterns: Array<[string, RegExp, FakeEndpoint]> = [
    ['GET', /^\/rest\/organizations\/(\d+)$/, 'organizations.get'],
    ['GET', /^\/rest\/posts\/([^/]+)$/, 'posts.get'],
    ['POST', /^\/rest\/posts\/([^/]+)$/, 'posts.update'],
    ['DELETE', /^\/rest\/posts\/([^/]+)$/, 'posts.delete'],
    ['POST', /^\/rest\/socialActions\/([^/]+)\/comments$/, 'comments.create'],
    ['GET', /^\/rest\/socialActions\/([^/]+)\/comments$/, 'comments.list'],
    ['GET', /^\/rest\/socialActions\/([^/]+)$/, 'socialActions.get'],
    ['GET', /^\/rest\/socialMetadata\/([^/]+)$/, 'socialMetadata.get'],
    ['POST', /^\/rest\/socialMetadata\/([^/]+)$/, 'socialMetadata.update'],
    ['GET', /^\/rest\/images\/([^/]+)$/, 'images.get'],
    ['GET', /^\/rest\/videos\/([^/]+)$/, 'videos.get'],
    ['GET', /^\/rest\/networkSizes\/([^/]+)$/, 'networkSizes'],
    ['PUT', /^\/dms-uploads\/([^/]+)$/, 'upload.put'],
  ];
  for (const [m, pattern, name] of patterns) {
    const raw = m === method ? pattern.exec(path)?.[1] : undefined;
    if (raw === undefined) continue;
    // An unencoded URN (`urn:li:…` with raw colons or parentheses) is not a Rest.li 2.0 key.
    if (/[:()]/.test(raw)) return null;
    return { endpoint: name, key: decodeURIComponent(raw) };
  }
  return null;
}

function checkVersion(headers: IncomingMessage['headers'], active: Set<string>): void {
  const version = headers['linkedin-version'];
  if (typeof version !== 'string' || !version)
    throw restError(400, 'VERSION_MISSING', 'A version must be present. Please specify a version by adding the LinkedIn-Version header.');
  if (!active.has(version)) throw restError(426, 'NONEXISTENT_VERSION', `Requested version ${version}01 is not active`);
  if (headers['x-restli-protocol-version'] !== '2.0.0')
    throw restError(400, 'INVALID_VALUE_FOR_FIELD', 'X-Restli-Protocol-Version 2.0.0 is required (fake: protocol 1.0 keys are not served)');
}

function throttled(): LinkedInFault {
  return restError(429, 'TOO_MANY_REQUESTS', 'Resource level throttle limit for calls to this resource is reached.');
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function ok(body: unknown): Answer {
  return { status: 200, body };
}

function errorAnswer(err: unknown): Answer {
  if (err instanceof LinkedInFault) return { status: err.status, body: err.body, headers: err.headers };
  throw err;
}

function send(res: ServerResponse, answer: Answer): void {
  const text = answer.body === null ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const type = typeof answer.body === 'string' ? 'text/plain' : 'application/json';
  res.writeHead(answer.status, { 'content-type': type, 'x-li-uuid': randomBytes(8).toString('hex'), ...answer.headers });
  res.end(text);
}

function idOf(urn: string): string {
  return urn.slice(urn.lastIndexOf(':') + 1);
}

function enc(urn: string): string {
  return encodeURIComponent(urn);
}

/** An image's format by its signature. */
function imageFormat(bytes: Buffer): NonNullable<FakeMedia['format']> {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return 'other';
}
