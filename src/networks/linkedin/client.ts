import { PublishError } from '../platform.js';

/**
 * A thin client for LinkedIn's REST API (reference: ../shared/reference/linkedin-api.md). Every
 * `/rest` call sends the pinned `LinkedIn-Version` and `X-Restli-Protocol-Version: 2.0.0` (§2);
 * URNs in paths are encoded whole (§0). Every failure becomes a PublishError; the publishing
 * order and the exactly-once rules live in platform.ts. Tokens travel in the Authorization
 * header only, never in a URL or a message.
 */

/** The version Skein speaks (§2: each lives a year; a retired one answers 426). */
const LINKEDIN_VERSION = '202609';
const TIMEOUT_MS = 30_000;
const UPLOAD_TIMEOUT_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

export interface LinkedInClientOptions {
  /** `https://api.linkedin.com` (LINKEDIN_API_URL); a fake's URL in tests. */
  apiUrl: string;
  /** `https://www.linkedin.com`, where OAuth lives; the API URL when absent (a fake serves both). */
  authUrl?: string;
  version?: string;
  now: () => number;
  timeoutMs?: number;
}

export interface LinkedInApp {
  clientId: string;
  clientSecret: string;
}

export interface TokenSet {
  accessToken: string;
  expiresAt: Date;
  /** Only for apps LinkedIn enabled for programmatic refresh (§1). */
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
}

export interface LinkedInMember {
  /** `urn:li:person:{sub}`. */
  urn: string;
  name: string;
}

export interface LinkedInOrganization {
  urn: string;
  name: string;
}

export type LinkedInContent =
  | { media: { id: string; altText?: string; title?: string } }
  | { multiImage: { images: Array<{ id: string; altText?: string }> } }
  | { article: { source: string; title: string; description?: string; thumbnail?: string } }
  | { poll: { question: string; options: Array<{ text: string }>; settings: { duration: 'ONE_DAY' | 'THREE_DAYS' | 'SEVEN_DAYS' | 'FOURTEEN_DAYS' } } };

export interface NewPost {
  author: string;
  /** Already in the little text format (rules.ts escapeCommentary). */
  commentary: string;
  content?: LinkedInContent;
  /** A reshare's parent post. */
  reshareOf?: string;
}

export interface LinkedInPost {
  id: string;
  author: string;
  commentary: string;
  createdAt: number;
  reshareOf: string | null;
}

export interface LinkedInComment {
  /** `urn:li:comment:(…)`. */
  commentUrn: string;
  actor: string;
  text: string;
  createdAt: number;
}

export type MediaStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

/** A post's counts; null where this token may not read them. */
export interface LinkedInCounts {
  impressions: number | null;
  likes: number | null;
  comments: number | null;
  reshares: number | null;
}

// biome-ignore lint/suspicious/noExplicitAny: LinkedIn's JSON answer, read field by field with a check of each
type Json = Record<string, any>;

interface Call {
  method: 'GET' | 'POST' | 'PUT';
  /** A path on the API URL, or an absolute upload URL. */
  path: string;
  token: string;
  json?: unknown;
  form?: Record<string, string>;
  bytes?: Uint8Array;
  /** X-RestLi-Method, for the calls that need it (edits). */
  restliMethod?: string;
  /** Whether a request that may have reached LinkedIn but got no answer may have changed something. */
  writes?: boolean;
  /** Whether it is a `/rest` call (the version headers). */
  rest?: boolean;
  timeoutMs?: number;
  action: string;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Json | null;
}

export class LinkedInClient {
  readonly #apiUrl: string;
  readonly #authUrl: string;
  readonly #version: string;
  readonly #now: () => number;
  readonly #timeoutMs: number;

  constructor(options: LinkedInClientOptions) {
    this.#apiUrl = options.apiUrl;
    this.#authUrl = options.authUrl ?? options.apiUrl;
    this.#version = options.version ?? LINKEDIN_VERSION;
    this.#now = options.now;
    this.#timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  }

  now(): number {
    return this.#now();
  }

  // ---- OAuth and identity (§1) ----

  authorizeUrl(input: { clientId: string; redirectUri: string; state: string; scopes: readonly string[] }): string {
    const url = new URL('/oauth/v2/authorization', this.#authUrl);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      state: input.state,
      scope: input.scopes.join(' '),
    }).toString();
    return url.toString();
  }

  async exchangeCode(app: LinkedInApp, input: { code: string; redirectUri: string }): Promise<TokenSet> {
    return this.#token(
      { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, client_id: app.clientId, client_secret: app.clientSecret },
      'exchanging the authorization code',
    );
  }

  /** A refused refresh token is an auth fault: the account must be connected again. */
  async refresh(app: LinkedInApp, refreshToken: string): Promise<TokenSet> {
    return this.#token(
      { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: app.clientId, client_secret: app.clientSecret },
      'refreshing the token',
    );
  }

  /**
   * Revokes a token of the app (`POST /oauth/v2/revoke`, form `token`, `client_id`,
   * `client_secret`, as LinkedIn's clients call it; its answer: 200).
   */
  async revoke(app: LinkedInApp, token: string): Promise<void> {
    const form = { token, client_id: app.clientId, client_secret: app.clientSecret };
    await this.#call({ method: 'POST', path: new URL('/oauth/v2/revoke', this.#authUrl).toString(), token: '', form, action: 'revoking the token' });
  }

  async member(token: string): Promise<LinkedInMember> {
    const { body } = await this.#call({ method: 'GET', path: '/v2/userinfo', token, action: 'reading the member' });
    if (typeof body?.sub !== 'string') throw badAnswer('the member (no sub)');
    return { urn: `urn:li:person:${body.sub}`, name: typeof body.name === 'string' ? body.name : body.sub };
  }

  /** The pages this token administers (§0: an approved ADMINISTRATOR role), with their names. */
  async administeredOrganizations(token: string): Promise<LinkedInOrganization[]> {
    const { body } = await this.#call({
      method: 'GET',
      path: '/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED',
      token,
      rest: true,
      action: 'reading the pages the member administers',
    });
    const urns = elementsOf(body)
      .map((e) => e.organization)
      .filter((u): u is string => typeof u === 'string');
    const pages: LinkedInOrganization[] = [];
    for (const urn of urns) {
      const { body: org } = await this.#call({ method: 'GET', path: `/rest/organizations/${idOf(urn)}`, token, rest: true, action: 'reading a page' });
      pages.push({ urn, name: typeof org?.localizedName === 'string' ? org.localizedName : urn });
    }
    return pages;
  }

  // ---- posts (§3, §6) ----

  /** The one call that creates a post; its URN is in the `x-restli-id` header (201, empty body). */
  async createPost(token: string, input: NewPost): Promise<string> {
    const json: Json = {
      author: input.author,
      commentary: input.commentary,
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    };
    if (input.content) json.content = input.content;
    if (input.reshareOf) json.reshareContext = { parent: input.reshareOf };
    const { headers } = await this.#call({ method: 'POST', path: '/rest/posts', token, json, rest: true, writes: true, action: 'publishing a post' });
    const urn = headers.get('x-restli-id');
    if (!urn) throw badAnswer('a new post (no x-restli-id)', true);
    return urn;
  }

  async post(token: string, urn: string): Promise<LinkedInPost> {
    const { body } = await this.#call({ method: 'GET', path: `/rest/posts/${enc(urn)}?viewContext=AUTHOR`, token, rest: true, action: 'reading a post' });
    return postOf(body);
  }

  /** The author's newest posts, newest first (§3.3; LinkedIn refuses it for a member without `r_member_social`). */
  async postsByAuthor(token: string, author: string, start: number, count: number): Promise<LinkedInPost[]> {
    const { body } = await this.#call({
      method: 'GET',
      path: `/rest/posts?author=${enc(author)}&q=author&sortBy=CREATED&start=${start}&count=${count}`,
      token,
      rest: true,
      restliMethod: 'FINDER',
      action: "reading the author's posts",
    });
    return elementsOf(body).map(postOf);
  }

  // ---- comments (§5) ----

  async createComment(token: string, input: { actor: string; post: string; text: string; image?: string }): Promise<LinkedInComment> {
    const json: Json = { actor: input.actor, object: input.post, message: { text: input.text } };
    if (input.image) json.content = [{ entity: { image: input.image } }];
    const { body } = await this.#call({
      method: 'POST',
      path: `/rest/socialActions/${enc(input.post)}/comments`,
      token,
      json,
      rest: true,
      writes: true,
      action: 'publishing a comment',
    });
    return commentOf(body, true);
  }

  /** A post's comments, oldest first (LinkedIn refuses it without a read scope). */
  async comments(token: string, post: string, start: number, count: number): Promise<LinkedInComment[]> {
    const { body } = await this.#call({
      method: 'GET',
      path: `/rest/socialActions/${enc(post)}/comments?start=${start}&count=${count}`,
      token,
      rest: true,
      action: "reading the post's comments",
    });
    return elementsOf(body).map((e) => commentOf(e, false));
  }

  /** Closes the post's comments (decisions.md "LinkedIn": `replyControl: nobody`); closing twice is harmless. */
  async closeComments(token: string, actor: string, post: string): Promise<void> {
    await this.#call({
      method: 'POST',
      path: `/rest/socialMetadata/${enc(post)}?actor=${enc(actor)}`,
      token,
      json: { patch: { $set: { commentsState: 'CLOSED' } } },
      restliMethod: 'PARTIAL_UPDATE',
      rest: true,
      writes: true,
      action: "closing the post's comments",
    });
  }

  // ---- media (§4) ----

  /** Uploads an image (one PUT of the whole file); its URN is usable once AVAILABLE. */
  async uploadImage(token: string, owner: string, bytes: Uint8Array): Promise<string> {
    const { body } = await this.#call({
      method: 'POST',
      path: '/rest/images?action=initializeUpload',
      token,
      json: { initializeUploadRequest: { owner } },
      rest: true,
      action: 'starting an image upload',
    });
    const { uploadUrl, image } = body?.value ?? {};
    if (typeof uploadUrl !== 'string' || typeof image !== 'string') throw badAnswer('an image upload');
    await this.#call({ method: 'PUT', path: uploadUrl, token, bytes, timeoutMs: UPLOAD_TIMEOUT_MS, action: 'uploading an image' });
    return image;
  }

  /** Uploads a video in the parts LinkedIn names, then finalizes it with their ETags in order. */
  async uploadVideo(token: string, owner: string, bytes: Uint8Array): Promise<string> {
    const { body } = await this.#call({
      method: 'POST',
      path: '/rest/videos?action=initializeUpload',
      token,
      json: { initializeUploadRequest: { owner, fileSizeBytes: bytes.length, uploadCaptions: false, uploadThumbnail: false } },
      rest: true,
      action: 'starting a video upload',
    });
    const value = body?.value ?? {};
    if (typeof value.video !== 'string' || !Array.isArray(value.uploadInstructions)) throw badAnswer('a video upload');
    const etags: string[] = [];
    for (const part of value.uploadInstructions as Json[]) {
      const { headers } = await this.#call({
        method: 'PUT',
        path: String(part.uploadUrl),
        token,
        bytes: bytes.subarray(Number(part.firstByte), Number(part.lastByte) + 1),
        timeoutMs: UPLOAD_TIMEOUT_MS,
        action: 'uploading a video part',
      });
      const etag = headers.get('etag');
      if (!etag) throw badAnswer('a video part (no ETag)');
      etags.push(etag);
    }
    await this.#call({
      method: 'POST',
      path: '/rest/videos?action=finalizeUpload',
      token,
      json: { finalizeUploadRequest: { video: value.video, uploadToken: String(value.uploadToken ?? ''), uploadedPartIds: etags } },
      rest: true,
      action: 'finishing a video upload',
    });
    return value.video;
  }

  /** Where LinkedIn is with an upload; null when this token may not read it (member images, §4). */
  async mediaStatus(token: string, urn: string): Promise<MediaStatus | null> {
    const kind = urn.startsWith('urn:li:video:') ? 'videos' : 'images';
    const body = await this.#readable({ method: 'GET', path: `/rest/${kind}/${enc(urn)}`, token, rest: true, action: 'reading an upload' });
    if (body === undefined) return null;
    return String(body?.status ?? 'PROCESSING') as MediaStatus;
  }

  // ---- counts (§7) ----

  /** Likes and comments (socialActions); null where the token may not read them. */
  async socialActions(token: string, post: string): Promise<Pick<LinkedInCounts, 'likes' | 'comments'>> {
    const body = await this.#readable({ method: 'GET', path: `/rest/socialActions/${enc(post)}`, token, rest: true, action: "reading the post's likes" });
    if (body === undefined) return { likes: null, comments: null };
    return { likes: numberOr(body?.likesSummary?.totalLikes), comments: numberOr(body?.commentsSummary?.aggregatedTotalComments) };
  }

  /** A page post's statistics; null when the token may not read them. */
  async shareStatistics(token: string, organization: string, post: string): Promise<LinkedInCounts | null> {
    const list = post.startsWith('urn:li:ugcPost:') ? 'ugcPosts' : 'shares';
    const body = await this.#readable({
      method: 'GET',
      path: `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${enc(organization)}&${list}=List(${enc(post)})`,
      token,
      rest: true,
      action: "reading the page post's statistics",
    });
    const stats = body === undefined ? undefined : elementsOf(body)[0]?.totalShareStatistics;
    if (!stats) return null;
    return {
      impressions: numberOr(stats.impressionCount),
      likes: numberOr(stats.likeCount),
      comments: numberOr(stats.commentCount),
      reshares: numberOr(stats.shareCount),
    };
  }

  /** A member post's count of one metric (one `queryType` per call); null when the token may not read it. */
  async memberPostMetric(token: string, post: string, queryType: 'IMPRESSION' | 'REACTION' | 'COMMENT' | 'RESHARE'): Promise<number | null> {
    const entity = post.startsWith('urn:li:ugcPost:') ? `(ugc:${enc(post)})` : `(share:${enc(post)})`;
    const body = await this.#readable({
      method: 'GET',
      path: `/rest/memberCreatorPostAnalytics?q=entity&entity=${entity}&queryType=${queryType}&aggregation=TOTAL`,
      token,
      rest: true,
      action: "reading the member post's analytics",
    });
    if (body === undefined) return null;
    return numberOr(elementsOf(body)[0]?.count) ?? 0;
  }

  async organizationFollowers(token: string, organization: string): Promise<number> {
    const { body } = await this.#call({
      method: 'GET',
      path: `/rest/networkSizes/${enc(organization)}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`,
      token,
      rest: true,
      action: "reading the page's followers",
    });
    return numberOr(body?.firstDegreeSize) ?? 0;
  }

  /** Needs `r_member_profileAnalytics` (a vetted product): refused otherwise. */
  async memberFollowers(token: string): Promise<number> {
    const { body } = await this.#call({ method: 'GET', path: '/rest/memberFollowersCount?q=me', token, rest: true, action: "reading the member's followers" });
    return numberOr(elementsOf(body)[0]?.memberFollowersCount) ?? 0;
  }

  // ---- transport ----

  async #token(form: Record<string, string>, action: string): Promise<TokenSet> {
    const { body } = await this.#call({ method: 'POST', path: new URL('/oauth/v2/accessToken', this.#authUrl).toString(), token: '', form, action });
    if (typeof body?.access_token !== 'string' || typeof body.expires_in !== 'number') throw badAnswer('the token request');
    const now = this.#now();
    const refreshIn = numberOr(body.refresh_token_expires_in);
    return {
      accessToken: body.access_token,
      expiresAt: new Date(now + body.expires_in * 1000),
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
      refreshTokenExpiresAt: refreshIn === null ? null : new Date(now + refreshIn * 1000),
      // Documented space-delimited, seen comma-separated (§1): both.
      scopes: String(body.scope ?? '')
        .split(/[\s,]+/)
        .filter(Boolean),
    };
  }

  /** A read that LinkedIn may refuse this token (403): its body, or undefined when refused. */
  async #readable(call: Call): Promise<Json | null | undefined> {
    try {
      return (await this.#call(call)).body;
    } catch (err) {
      if (err instanceof PublishError && err.code === 'LINKEDIN_ACCESS_DENIED') return undefined;
      throw err;
    }
  }

  async #call(call: Call): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.rest) {
      headers['linkedin-version'] = this.#version;
      headers['x-restli-protocol-version'] = '2.0.0';
    }
    if (call.restliMethod) headers['x-restli-method'] = call.restliMethod;
    let body: string | Uint8Array | undefined;
    if (call.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(call.form).toString();
    } else if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.json);
    } else if (call.bytes) {
      headers['content-type'] = 'application/octet-stream';
      body = call.bytes;
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(new URL(call.path, this.#apiUrl), {
        method: call.method,
        headers,
        body: body as BodyInit | undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(call.timeoutMs ?? this.#timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new PublishError('transient', 'LINKEDIN_NETWORK', `${call.action} got no answer: ${message}`, { outcomeUnknown: call.writes === true, cause: err });
    }
    let parsed: Json | null = null;
    try {
      parsed = text ? (JSON.parse(text) as Json) : null;
    } catch {
      // LinkedIn's bodies may be non-JSON (§9): the status says enough.
    }
    if (res.status >= 200 && res.status < 300) return { status: res.status, headers: res.headers, body: parsed };
    throw this.#refusal(res, parsed, text, call);
  }

  #refusal(res: Response, body: Json | null, text: string, call: Call): PublishError {
    const status = res.status;
    const said = linkedInMessage(body) ?? (text.trim().slice(0, 200) || null);
    const message = `LinkedIn refused ${call.action} (HTTP ${status})${said ? `: ${said}` : ''}`;
    if (status === 429) {
      // No Retry-After is documented (§8): LinkedIn's daily quotas reset at 00:00 UTC.
      const retryAfter = Number(res.headers.get('retry-after'));
      const now = this.#now();
      const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : Math.ceil((now + 1) / DAY_MS) * DAY_MS - now;
      return new PublishError('transient', 'LINKEDIN_RATE_LIMITED', message, { retryAfterMs, outcomeUnknown: false });
    }
    if (status === 401 || (status === 400 && typeof body?.error === 'string' && /refresh|grant/i.test(String(body.error_description ?? ''))))
      return new PublishError('auth', 'LINKEDIN_TOKEN_INVALID', message);
    if (status >= 500 || status === 409) return new PublishError('transient', 'LINKEDIN_SERVER_ERROR', message, { outcomeUnknown: call.writes === true });
    if (status === 403) return new PublishError('permanent', 'LINKEDIN_ACCESS_DENIED', message);
    if (status === 426) return new PublishError('permanent', 'LINKEDIN_VERSION_RETIRED', message);
    // A comment on a post made a moment ago (§5): LinkedIn has not made its activity yet; nothing was created.
    if (status === 400 && said?.includes('Unable to obtain activity'))
      return new PublishError('transient', 'LINKEDIN_POST_NOT_READY', message, { retryAfterMs: 5_000, outcomeUnknown: false });
    if (JSON.stringify(body ?? '').includes('MEDIA_ASSET_WAITING_UPLOAD'))
      return new PublishError('transient', 'LINKEDIN_MEDIA_NOT_READY', message, { retryAfterMs: 10_000, outcomeUnknown: false });
    const duplicateOf = duplicateUrn(body);
    if (duplicateOf) return new DuplicatePostError(message, duplicateOf);
    return new PublishError('permanent', `LINKEDIN_HTTP_${status}`, message);
  }
}

/** LinkedIn's "Content is a duplicate of urn:li:share:…" (422, §9): the post it already has. */
export class DuplicatePostError extends PublishError {
  constructor(
    message: string,
    readonly existing: string,
  ) {
    super('permanent', 'LINKEDIN_DUPLICATE', message);
  }
}

/** The numeric or opaque id of a URN (`urn:li:organization:5` → `5`), for the resources keyed by it. */
function idOf(urn: string): string {
  return encodeURIComponent(urn.slice(urn.lastIndexOf(':') + 1));
}

/** A URN as a Rest.li 2.0 path or query key: encoded whole, parentheses and commas included (§0). */
function enc(urn: string): string {
  return encodeURIComponent(urn).replace(/\(/g, '%28').replace(/\)/g, '%29');
}

function linkedInMessage(body: Json | null): string | null {
  if (typeof body?.message === 'string') return body.message;
  if (typeof body?.error_description === 'string') return `${body.error}: ${body.error_description}`;
  return null;
}

function duplicateUrn(body: Json | null): string | null {
  if (body?.status !== 422 || typeof body.message !== 'string') return null;
  return /duplicate of (urn:li:[a-zA-Z]+:\d+)/.exec(body.message)?.[1] ?? null;
}

function badAnswer(what: string, outcomeUnknown = false): PublishError {
  return new PublishError('transient', 'LINKEDIN_BAD_ANSWER', `LinkedIn answered ${what} in a shape Skein does not know.`, { outcomeUnknown });
}

function elementsOf(body: Json | null): Json[] {
  return Array.isArray(body?.elements) ? body.elements : [];
}

function numberOr(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function postOf(body: Json | null): LinkedInPost {
  if (typeof body?.id !== 'string') throw badAnswer('a post');
  return {
    id: body.id,
    author: String(body.author ?? ''),
    commentary: String(body.commentary ?? ''),
    createdAt: Number(body.createdAt ?? 0),
    reshareOf: typeof body.reshareContext?.parent === 'string' ? body.reshareContext.parent : null,
  };
}

function commentOf(body: Json | null, created: boolean): LinkedInComment {
  if (typeof body?.commentUrn !== 'string') throw badAnswer('a comment', created);
  return { commentUrn: body.commentUrn, actor: String(body.actor ?? ''), text: String(body.message?.text ?? ''), createdAt: Number(body.created?.time ?? 0) };
}
