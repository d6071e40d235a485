import { createHash } from 'node:crypto';

/**
 * The rules the fake Mastodon API enforces, written from ../shared/reference/mastodon-api.md
 * (§1 OAuth, §2 media, §3 statuses, §4 length, §5 rate limits, §6 errors) as pure functions, so
 * the server file only does transport and state.
 */

export type Params = Record<string, string | string[]>;

/** A Mastodon error answer: `{ error, error_description? }` with its HTTP status (§6). */
export class MastodonFault extends Error {
  constructor(
    readonly status: number,
    readonly body: { error: string; error_description?: string },
    readonly headers: Record<string, string> = {},
  ) {
    super(body.error);
  }
}

export const unprocessable = (message: string) => new MastodonFault(422, { error: `Validation failed: ${message}` });
export const notFound = () => new MastodonFault(404, { error: 'Record not found' });
const badRequest = (message: string) => new MastodonFault(400, { error: message });
export const oauthError = (error: string, description: string, status = 400) => new MastodonFault(status, { error, error_description: description });
export const invalidToken = () => new MastodonFault(401, { error: 'The access token is invalid' });

export type FakeEndpoint =
  | 'apps'
  | 'oauth.authorize'
  | 'oauth.token'
  | 'oauth.revoke'
  | 'verify_credentials'
  | 'instance'
  | 'statuses.create'
  | 'statuses.get'
  | 'statuses.delete'
  | 'statuses.reblog'
  | 'accounts.get'
  | 'accounts.statuses'
  | 'media.create'
  | 'media.get';

/** Parameters each endpoint knows; anything else is refused (stricter than Mastodon, which ignores them: a typo must show). */
const KNOWN_PARAMS: Record<FakeEndpoint, readonly string[]> = {
  apps: ['client_name', 'redirect_uris', 'scopes', 'website'],
  'oauth.authorize': ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'force_login', 'lang'],
  'oauth.token': ['grant_type', 'code', 'client_id', 'client_secret', 'redirect_uri', 'code_verifier', 'scope'],
  'oauth.revoke': ['client_id', 'client_secret', 'token'],
  verify_credentials: [],
  instance: [],
  'statuses.create': ['status', 'media_ids', 'in_reply_to_id', 'sensitive', 'spoiler_text', 'visibility', 'language', 'scheduled_at', 'poll'],
  'statuses.get': [],
  'statuses.delete': ['delete_media'],
  'statuses.reblog': ['visibility'],
  'accounts.get': [],
  'accounts.statuses': ['limit', 'max_id', 'since_id', 'min_id', 'exclude_reblogs', 'exclude_replies', 'only_media', 'pinned', 'tagged'],
  'media.create': ['file', 'description', 'focus', 'thumbnail'],
  'media.get': [],
};

export function rejectUnknownParams(endpoint: FakeEndpoint, params: Params): void {
  for (const name of Object.keys(params)) {
    if (!KNOWN_PARAMS[endpoint].includes(name)) throw badRequest(`Unknown parameter ${name} for this endpoint (fake)`);
  }
}

export function one(params: Params, name: string): string | undefined {
  const value = params[name];
  if (Array.isArray(value)) throw badRequest(`${name} must be a single value`);
  return value;
}

export function many(params: Params, name: string): string[] {
  const value = params[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function readBool(params: Params, name: string): boolean | undefined {
  const value = one(params, name);
  if (value === undefined) return undefined;
  if (['true', '1'].includes(value)) return true;
  if (['false', '0'].includes(value)) return false;
  throw unprocessable(`${name} must be a boolean`);
}

// ---- OAuth (§1) ----

export function scopesOf(raw: string | undefined, fallback = 'read'): string[] {
  return (raw ?? fallback).split(/[\s+]+/).filter(Boolean);
}

/** A requested scope is granted by a registered one equal to it or its parent (`write` grants `write:statuses`). */
export function scopesAllowed(requested: string[], registered: string[]): boolean {
  return requested.every((s) => registered.includes(s) || registered.includes(s.split(':')[0]!));
}

/** PKCE S256 (RFC 7636 §4.6): base64url(SHA-256(verifier)) equals the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}

// ---- statuses (§3, §4) ----

const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'];
const LANGUAGE = /^[a-z]{2,3}$/;
const URL_PATTERN = /https?:\/\/[^\s<>"]+/gi;
const MENTION_DOMAIN = /(@[a-z0-9_]+)@[a-z0-9.-]+\.[a-z]{2,}/gi;

/**
 * StatusLengthValidator (§4): grapheme clusters of spoiler_text + text, every URL counting as
 * `reservedPerUrl` characters and `@user@domain` as `@user`.
 */
function statusLength(text: string, spoiler: string, reservedPerUrl: number): number {
  const counted = (text.replace(URL_PATTERN, 'x'.repeat(reservedPerUrl)).replace(MENTION_DOMAIN, '$1') as string) + spoiler;
  return [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(counted)].length;
}

export interface StatusSpec {
  text: string;
  mediaIds: string[];
  inReplyToId: string | null;
  sensitive: boolean;
  spoilerText: string;
  visibility: string;
  language: string | null;
}

export function parseStatusSpec(params: Params, limits: { maxCharacters: number; maxMedia: number; reservedPerUrl: number }): StatusSpec {
  if (params.poll !== undefined) throw new Error('fake Mastodon API: polls are not modelled');
  if (params.scheduled_at !== undefined) throw new Error('fake Mastodon API: scheduled_at is not modelled (Skein schedules itself)');
  const text = one(params, 'status') ?? '';
  const mediaIds = many(params, 'media_ids');
  if (text.trim() === '' && mediaIds.length === 0) throw unprocessable("Text can't be blank");
  const spoilerText = one(params, 'spoiler_text') ?? '';
  if (statusLength(text, spoilerText, limits.reservedPerUrl) > limits.maxCharacters) {
    throw unprocessable(`Text character limit of ${limits.maxCharacters} exceeded`);
  }
  if (mediaIds.length > limits.maxMedia) throw unprocessable(`Media attachments: cannot attach more than ${limits.maxMedia} files`);
  const visibility = one(params, 'visibility') ?? 'public';
  if (!VISIBILITIES.includes(visibility)) throw unprocessable('Visibility is not included in the list');
  const language = one(params, 'language') ?? null;
  if (language !== null && !LANGUAGE.test(language)) throw unprocessable('Language is not a valid ISO 639 code');
  return {
    text,
    mediaIds,
    inReplyToId: one(params, 'in_reply_to_id') ?? null,
    sensitive: readBool(params, 'sensitive') ?? false,
    spoilerText,
    visibility,
    language,
  };
}

// ---- media (§2) ----

export type MediaType = 'image' | 'video';

/** JPEG, PNG, GIF, WebP as images; MP4/MOV as video; anything else is refused (422), as the server's type check does. */
export function mediaTypeOfBytes(b: Buffer): MediaType | null {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image';
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image';
  const head = b.toString('latin1', 0, 12);
  if (head.startsWith('GIF8') || (head.startsWith('RIFF') && head.slice(8) === 'WEBP')) return 'image';
  if (['ftyp', 'moov', 'wide', 'mdat'].includes(b.toString('latin1', 4, 8))) return 'video';
  return null;
}

/** Up to `max` images, or one video, never both (§2 "Per post"). */
export function checkAttachmentMix(types: MediaType[]): void {
  if (types.includes('video') && types.length > 1) throw unprocessable('Media attachments: a video cannot be attached with other files');
}

// ---- rate limits (§5) ----

export interface Bucket {
  limit: number;
  periodMs: number;
  /** Request times in the current window, oldest first. */
  hits: number[];
}

/** Mastodon's reset header is an ISO 8601 timestamp with microseconds (§5). */
function isoReset(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Counts a request in a sliding window; the headers to answer with, or a 429 fault. */
export function takeFromBucket(bucket: Bucket, now: number): Record<string, string> {
  while (bucket.hits.length > 0 && bucket.hits[0]! <= now - bucket.periodMs) bucket.hits.shift();
  const reset = isoReset((bucket.hits[0] ?? now) + bucket.periodMs);
  if (bucket.hits.length >= bucket.limit) {
    throw new MastodonFault(
      429,
      { error: 'Too many requests' },
      { 'x-ratelimit-limit': String(bucket.limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    );
  }
  bucket.hits.push(now);
  return { 'x-ratelimit-limit': String(bucket.limit), 'x-ratelimit-remaining': String(bucket.limit - bucket.hits.length), 'x-ratelimit-reset': reset };
}
