import { GuardedFetchError, type GuardedResponse, guardedFetch, type LookupAll } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { PublishError } from '../platform.js';

/**
 * A thin client for one Mastodon server's API (reference: ../shared/reference/mastodon-api.md).
 * Every request goes through the guarded fetch, so the instance a user named is held to the
 * address policy of media and webhooks (private and loopback only with SKEIN_ALLOW_PRIVATE_MEDIA=1).
 * Every failure becomes a PublishError; the publishing order and exactly-once rules live in
 * platform.ts. Tokens travel in the Authorization header only, never in a URL or a message.
 */

const TIMEOUT_MS = 30_000;
const MEDIA_TIMEOUT_MS = 5 * 60_000;
const MAX_ANSWER_BYTES = 4 << 20;
/** A 429 without a usable reset header: the server's shortest window is 5 minutes. */
const DEFAULT_RATE_WAIT_MS = 5 * 60_000;
const MEDIA_UPLOAD_PATH = '/api/v2/media';

export interface MastodonClientOptions {
  allowPrivate: boolean;
  lookup?: LookupAll;
  now: () => number;
}

export interface InstanceLimits {
  maxCharacters: number;
  maxMediaAttachments: number;
  charactersReservedPerUrl: number;
  imageSizeLimit: number | null;
  videoSizeLimit: number | null;
  descriptionLimit: number | null;
}

export interface MastodonApp {
  clientId: string;
  clientSecret: string;
}

export interface MastodonAccountInfo {
  id: string;
  username: string;
  followersCount: number;
}

export interface MastodonStatus {
  id: string;
  url: string | null;
  createdAt: string;
  content: string;
  spoilerText: string;
  inReplyToId: string | null;
  mediaIds: string[];
  reblogOfId: string | null;
  counts: { favourites: number; reblogs: number; replies: number };
}

export interface NewStatus {
  status: string;
  inReplyToId: string | null;
  mediaIds: string[];
  spoilerText: string | null;
  language: string | null;
  sensitive: boolean;
  idempotencyKey: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a server's JSON answer, read field by field with a check of each
type Json = Record<string, any>;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  token?: string | null;
  json?: unknown;
  form?: FormData;
  idempotencyKey?: string;
  /** Whether a request that may have reached the server but got no answer may have changed something. */
  writes?: boolean;
  timeoutMs?: number;
  action: string;
}

interface Answer {
  status: number;
  body: Json | Json[] | null;
}

export class MastodonClient {
  readonly #allowAddress: (address: string) => boolean;
  readonly #lookup: LookupAll | undefined;
  readonly #now: () => number;
  /** Per instance and token (and its uploads apart): the instant before which the server said no more calls (X-RateLimit-*, 429). */
  readonly #blockedUntil = new Map<string, number>();

  constructor(options: MastodonClientOptions) {
    this.#allowAddress = addressPolicy(options.allowPrivate);
    this.#lookup = options.lookup;
    this.#now = options.now;
  }

  now(): number {
    return this.#now();
  }

  // ---- the server and its app (§1) ----

  /** The server's limits; a server that answers anything but Mastodon's instance document is not a Mastodon API. */
  async instanceLimits(instance: string): Promise<InstanceLimits> {
    const { body } = await this.#call(instance, { method: 'GET', path: '/api/v2/instance', action: 'reading the server' });
    const statuses = (body as Json | null)?.configuration?.statuses;
    if (!statuses || typeof statuses.max_characters !== 'number') {
      throw new PublishError('permanent', 'NOT_MASTODON', `${instance} does not answer as a Mastodon server (no /api/v2/instance configuration).`);
    }
    const media = (body as Json).configuration.media_attachments ?? {};
    const num = (v: unknown) => (typeof v === 'number' ? v : null);
    return {
      maxCharacters: statuses.max_characters,
      maxMediaAttachments: num(statuses.max_media_attachments) ?? 4,
      charactersReservedPerUrl: num(statuses.characters_reserved_per_url) ?? 23,
      imageSizeLimit: num(media.image_size_limit),
      videoSizeLimit: num(media.video_size_limit),
      descriptionLimit: num(media.description_limit),
    };
  }

  async registerApp(instance: string, input: { name: string; redirectUri: string; scopes: string; website: string }): Promise<MastodonApp> {
    const { body } = await this.#call(instance, {
      method: 'POST',
      path: '/api/v1/apps',
      json: { client_name: input.name, redirect_uris: input.redirectUri, scopes: input.scopes, website: input.website },
      action: 'registering Skein on the server',
    });
    const app = body as Json;
    if (typeof app?.client_id !== 'string' || typeof app.client_secret !== 'string') {
      throw new PublishError('permanent', 'NOT_MASTODON', `${instance} did not answer the app registration as Mastodon does.`);
    }
    return { clientId: app.client_id, clientSecret: app.client_secret };
  }

  authorizeUrl(instance: string, input: { clientId: string; redirectUri: string; scopes: string; state: string; codeChallenge: string }): string {
    const url = new URL('/oauth/authorize', instance);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      scope: input.scopes,
      state: input.state,
      code_challenge: input.codeChallenge,
      code_challenge_method: 'S256',
      // The server's sign-in form even when the browser is signed in there: the person sees, and
      // chooses, which account they approve (Mastodon 3.5+; older servers ignore it).
      force_login: 'true',
    }).toString();
    return url.toString();
  }

  async exchangeCode(instance: string, app: MastodonApp, input: { code: string; redirectUri: string; codeVerifier: string }): Promise<string> {
    const { body } = await this.#call(instance, {
      method: 'POST',
      path: '/oauth/token',
      json: {
        grant_type: 'authorization_code',
        code: input.code,
        client_id: app.clientId,
        client_secret: app.clientSecret,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
      },
      action: 'exchanging the authorization code',
    });
    const token = (body as Json | null)?.access_token;
    if (typeof token !== 'string') throw new PublishError('permanent', 'MASTODON_BAD_ANSWER', 'The server answered the token exchange without a token.');
    return token;
  }

  async revokeToken(instance: string, app: MastodonApp, token: string): Promise<void> {
    await this.#call(instance, {
      method: 'POST',
      path: '/oauth/revoke',
      json: { client_id: app.clientId, client_secret: app.clientSecret, token },
      action: 'revoking the token',
    });
  }

  // ---- an account (§1, §3) ----

  async verifyCredentials(instance: string, token: string): Promise<MastodonAccountInfo> {
    const { body } = await this.#call(instance, { method: 'GET', path: '/api/v1/accounts/verify_credentials', token, action: 'reading the account' });
    return accountOf(body as Json);
  }

  async account(instance: string, token: string, accountId: string): Promise<MastodonAccountInfo> {
    const { body } = await this.#call(instance, {
      method: 'GET',
      path: `/api/v1/accounts/${encodeURIComponent(accountId)}`,
      token,
      action: 'reading the account',
    });
    return accountOf(body as Json);
  }

  /** The one call that creates a status; the Idempotency-Key makes a resend within the hour answer the first. */
  async createStatus(instance: string, token: string, input: NewStatus): Promise<MastodonStatus> {
    const json: Json = { status: input.status, visibility: 'public', sensitive: input.sensitive };
    if (input.inReplyToId) json.in_reply_to_id = input.inReplyToId;
    if (input.mediaIds.length) json.media_ids = input.mediaIds;
    if (input.spoilerText) json.spoiler_text = input.spoilerText;
    if (input.language) json.language = input.language;
    const { body } = await this.#call(instance, {
      method: 'POST',
      path: '/api/v1/statuses',
      token,
      json,
      idempotencyKey: input.idempotencyKey,
      writes: true,
      action: 'publishing a status',
    });
    return statusOf(body as Json);
  }

  async getStatus(instance: string, token: string, id: string): Promise<MastodonStatus> {
    const { body } = await this.#call(instance, { method: 'GET', path: `/api/v1/statuses/${encodeURIComponent(id)}`, token, action: 'reading a status' });
    return statusOf(body as Json);
  }

  /** A second boost of one status answers the first (the server's ReblogService), so a lost answer can be resent. */
  async reblog(instance: string, token: string, id: string): Promise<void> {
    await this.#call(instance, {
      method: 'POST',
      path: `/api/v1/statuses/${encodeURIComponent(id)}/reblog`,
      token,
      json: {},
      writes: true,
      action: 'boosting',
    });
  }

  /** The account's newest statuses (boosts left out), newest first, older than `maxId` when given. */
  async recentStatuses(instance: string, token: string, accountId: string, maxId: string | null): Promise<MastodonStatus[]> {
    const query = new URLSearchParams({ limit: '40', exclude_reblogs: 'true' });
    if (maxId) query.set('max_id', maxId);
    const { body } = await this.#call(instance, {
      method: 'GET',
      path: `/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?${query}`,
      token,
      action: "reading the account's statuses",
    });
    if (!Array.isArray(body)) throw new PublishError('transient', 'MASTODON_BAD_ANSWER', 'The server answered the statuses list with something else.');
    return body.map(statusOf);
  }

  // ---- media (§2) ----

  /** Uploads one file; `ready` false while the server still processes it (202). */
  async uploadMedia(instance: string, token: string, file: { bytes: Uint8Array; mimeType: string; name: string; description: string | null }) {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.name);
    if (file.description) form.set('description', file.description);
    const { status, body } = await this.#call(instance, {
      method: 'POST',
      path: MEDIA_UPLOAD_PATH,
      token,
      form,
      writes: true,
      timeoutMs: MEDIA_TIMEOUT_MS,
      action: 'uploading media',
    });
    const id = (body as Json | null)?.id;
    if (typeof id !== 'string') throw new PublishError('transient', 'MASTODON_BAD_ANSWER', 'The server answered a media upload without an id.');
    return { id, ready: status === 200 };
  }

  /** Whether the server has finished processing the upload (206 while it has not). */
  async mediaReady(instance: string, token: string, id: string): Promise<boolean> {
    const { status } = await this.#call(instance, { method: 'GET', path: `/api/v1/media/${encodeURIComponent(id)}`, token, action: 'reading an upload' });
    return status === 200;
  }

  // ---- transport ----

  async #call(instance: string, call: Call): Promise<Answer> {
    // Uploads have their own bucket (30 in 30 minutes) besides every call's (300 in 5 minutes),
    // and their answers' headers speak of it: used up, it holds uploads back, not statuses.
    const callsKey = `${instance} ${call.token ?? ''}`;
    const bucketKey = call.path === MEDIA_UPLOAD_PATH ? `${callsKey} media` : callsKey;
    const blocked = Math.max(this.#blockedUntil.get(callsKey) ?? 0, this.#blockedUntil.get(bucketKey) ?? 0);
    if (blocked > this.#now()) {
      throw new PublishError('transient', 'MASTODON_RATE_LIMITED', `The server's rate limit is used up until ${new Date(blocked).toISOString()}.`, {
        retryAfterMs: blocked - this.#now(),
        outcomeUnknown: false,
      });
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
    let body: Buffer | undefined;
    if (call.form) {
      const encoded = new Request('http://form.invalid', { method: 'POST', body: call.form });
      headers['content-type'] = encoded.headers.get('content-type')!;
      body = Buffer.from(await encoded.arrayBuffer());
    } else if (call.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(call.json));
    }
    let res: GuardedResponse;
    let text: string;
    try {
      res = await guardedFetch(new URL(call.path, instance), {
        allowAddress: this.#allowAddress,
        timeoutMs: call.timeoutMs ?? TIMEOUT_MS,
        maxRedirects: 0,
        method: call.method,
        headers,
        body,
        lookup: this.#lookup,
      });
      text = Buffer.from(await res.read(MAX_ANSWER_BYTES)).toString('utf8');
    } catch (err) {
      throw this.#transportFailure(err, call);
    }
    this.#noteRateLimit(bucketKey, res);
    let parsed: Json | Json[] | null = null;
    try {
      parsed = text ? (JSON.parse(text) as Json) : null;
    } catch {
      if (res.status < 400)
        throw new PublishError('permanent', 'NOT_MASTODON', `${shownInstance(instance)} answered ${call.action} with something that is not JSON.`);
    }
    if (res.status >= 200 && res.status < 300) return { status: res.status, body: parsed };
    throw this.#refusal(res.status, parsed as Json | null, call, bucketKey);
  }

  #transportFailure(err: unknown, call: Call): PublishError {
    if (err instanceof GuardedFetchError && (err.fault === 'refused-address' || err.fault === 'bad-url' || err.fault === 'not-found')) {
      return new PublishError('permanent', 'MASTODON_UNREACHABLE', `${call.action}: ${err.message}`, { cause: err });
    }
    const message = err instanceof Error ? err.message : String(err);
    return new PublishError('transient', 'MASTODON_NETWORK', `${call.action} got no answer: ${message}`, { outcomeUnknown: call.writes === true, cause: err });
  }

  #noteRateLimit(bucketKey: string, res: GuardedResponse): void {
    const remaining = Number(res.headers['x-ratelimit-remaining']);
    const reset = Date.parse(String(res.headers['x-ratelimit-reset'] ?? ''));
    if (res.status === 429) this.#blockedUntil.set(bucketKey, Number.isFinite(reset) ? reset : this.#now() + DEFAULT_RATE_WAIT_MS);
    else if (res.headers['x-ratelimit-remaining'] !== undefined && remaining <= 0 && Number.isFinite(reset)) this.#blockedUntil.set(bucketKey, reset);
  }

  #refusal(status: number, body: Json | null, call: Call, bucketKey: string): PublishError {
    const said = typeof body?.error === 'string' ? `: ${body.error}${typeof body.error_description === 'string' ? ` (${body.error_description})` : ''}` : '';
    const message = `The server refused ${call.action} (HTTP ${status})${said}`;
    if (status === 429) {
      const until = this.#blockedUntil.get(bucketKey) ?? this.#now() + DEFAULT_RATE_WAIT_MS;
      return new PublishError('transient', 'MASTODON_RATE_LIMITED', message, { retryAfterMs: Math.max(0, until - this.#now()), outcomeUnknown: false });
    }
    if (status === 401 || (status === 403 && call.token)) return new PublishError('auth', 'MASTODON_TOKEN_INVALID', message);
    // 5xx after the request was sent: it may have been carried out.
    if (status >= 500) return new PublishError('transient', 'MASTODON_SERVER_ERROR', message, { outcomeUnknown: call.writes === true });
    if (status === 404 && call.path.startsWith('/api/v2/instance')) return new PublishError('permanent', 'NOT_MASTODON', message);
    return new PublishError('permanent', status === 422 ? 'MASTODON_REFUSED' : `MASTODON_HTTP_${status}`, message, { outcomeUnknown: false });
  }
}

function shownInstance(instance: string): string {
  return new URL(instance).host;
}

function accountOf(body: Json | null): MastodonAccountInfo {
  if (typeof body?.id !== 'string' || typeof body.username !== 'string') {
    throw new PublishError('permanent', 'NOT_MASTODON', 'The server answered without a Mastodon account.');
  }
  return { id: body.id, username: body.username, followersCount: typeof body.followers_count === 'number' ? body.followers_count : 0 };
}

function statusOf(body: Json | null): MastodonStatus {
  if (typeof body?.id !== 'string')
    throw new PublishError('transient', 'MASTODON_BAD_ANSWER', 'The server answered without a status.', { outcomeUnknown: true });
  return {
    id: body.id,
    url: typeof body.url === 'string' ? body.url : null,
    createdAt: String(body.created_at ?? ''),
    content: String(body.content ?? ''),
    spoilerText: String(body.spoiler_text ?? ''),
    inReplyToId: typeof body.in_reply_to_id === 'string' ? body.in_reply_to_id : null,
    mediaIds: Array.isArray(body.media_attachments) ? body.media_attachments.map((m: Json) => String(m.id)) : [],
    reblogOfId: body.reblog && typeof body.reblog.id === 'string' ? body.reblog.id : null,
    counts: { favourites: Number(body.favourites_count ?? 0), reblogs: Number(body.reblogs_count ?? 0), replies: Number(body.replies_count ?? 0) },
  };
}
