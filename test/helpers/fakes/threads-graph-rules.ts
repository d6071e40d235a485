import { randomBytes } from 'node:crypto';

/**
 * The rules the fake Graph API enforces, written from docs/reference/threads-api.md (§4.2, §4.6, §5.1, §8, §9,
 * §10) as pure functions over plain records, so the server file only does transport and state.
 */

export type CreateType = 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';
export type ReadType = 'TEXT_POST' | 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM' | 'REPOST_FACADE';
export type SpoilerUnit = 'utf16' | 'codepoint' | 'utf8';
export type Params = Record<string, string>;

/** A Graph error answer: HTTP status plus the `error` object of the envelope. */
export class GraphFault extends Error {
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown>,
  ) {
    super(String(error.message));
  }
}

export function graphError(code: number | string, message: string, extra: { subcode?: number; status?: number; isTransient?: boolean } = {}): GraphFault {
  return new GraphFault(extra.status ?? 400, {
    message,
    type: 'OAuthException',
    code,
    ...(extra.subcode === undefined ? {} : { error_subcode: extra.subcode }),
    is_transient: extra.isTransient ?? false,
    fbtrace_id: `Fake${randomBytes(6).toString('base64url')}`,
  });
}

/** The token endpoints' own flat error shape (docs/reference/threads-api.md §2.3). */
export class OAuthFlatFault extends Error {}

export const invalidParam = (message: string) => graphError(100, `(#100) ${message}`);

export function notFound(id: string, method: string): GraphFault {
  return graphError(
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    { subcode: 33 },
  );
}

// ---- parameters ----

const CREATE_PARAMS = [
  'media_type',
  'text',
  'image_url',
  'video_url',
  'is_carousel_item',
  'children',
  'reply_to_id',
  'reply_control',
  'topic_tag',
  'alt_text',
  'text_entities',
  'is_spoiler_media',
  'link_attachment',
  'quote_post_id',
  'poll_attachment',
  'gif_attachment',
  'text_attachment',
  'auto_publish_text',
  'allowlisted_country_codes',
  'location_id',
  'is_ghost_post',
  'enable_reply_approvals',
  'crossreshare_to_ig',
  'crossreshare_to_ig_dark_mode',
];

export type FakeEndpoint =
  | 'oauth.access_token'
  | 'access_token'
  | 'refresh_access_token'
  | 'me'
  | 'threads.create'
  | 'threads.list'
  | 'replies.list'
  | 'threads_publish'
  | 'threads_publishing_limit'
  | 'object.get'
  | 'object.delete'
  | 'repost'
  | 'insights'
  | 'threads_insights';

/** Parameters each endpoint knows, besides access_token; anything else is refused. */
const KNOWN_PARAMS: Record<FakeEndpoint, readonly string[]> = {
  'oauth.access_token': ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code'],
  access_token: ['grant_type', 'client_secret'],
  refresh_access_token: ['grant_type'],
  me: ['fields'],
  'threads.create': CREATE_PARAMS,
  'threads.list': ['fields', 'since', 'until', 'limit', 'before', 'after'],
  'replies.list': ['fields', 'since', 'until', 'limit', 'before', 'after', 'reverse'],
  threads_publish: ['creation_id'],
  threads_publishing_limit: ['fields'],
  'object.get': ['fields'],
  'object.delete': [],
  repost: [],
  insights: ['metric'],
  threads_insights: ['metric', 'since', 'until', 'breakdown'],
};

export function rejectUnknownParams(endpoint: FakeEndpoint, params: Params): void {
  const known = KNOWN_PARAMS[endpoint];
  for (const name of Object.keys(params)) {
    if (name !== 'access_token' && !known.includes(name)) throw invalidParam(`Param ${name} is not a valid parameter for this endpoint`);
  }
}

/** Graph booleans are the strings `true` / `false`. */
function readBool(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw invalidParam(`Param ${name} must be a boolean`);
  return value === 'true';
}

/** `fields=a,b`: unknown names are an error; `id` is always included. */
export function requestedFields(params: Params, allowed: readonly string[], nodeType: string, defaults = ['id']): string[] {
  const raw = params.fields;
  const names =
    raw === undefined
      ? defaults
      : raw
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean);
  for (const name of names) {
    if (!allowed.includes(name)) throw invalidParam(`Tried accessing nonexisting field (${name}) on node type (${nodeType})`);
  }
  return [...new Set(['id', ...names])].filter((n) => allowed.includes(n));
}

// ---- container creation ----

export interface MediaRef {
  type: 'IMAGE' | 'VIDEO';
  url: string;
  altText: string | null;
}

export interface Spoiler {
  offset: number;
  length: number;
}

/** What a valid create call asks for; references are checked by the caller's lookups. */
export interface ContainerSpec {
  type: CreateType;
  isCarouselItem: boolean;
  text: string | null;
  media: MediaRef | null;
  childIds: string[];
  replyToId: string | null;
  quotePostId: string | null;
  /** Meta's value as sent; null when not sent (Meta's default is everyone). */
  replyControl: string | null;
  /** The poll's options in order (option_a first). */
  poll: string[] | null;
  topicTag: string | null;
  spoilers: Spoiler[];
  isSpoilerMedia: boolean;
  autoPublish: boolean;
}

const TEXT_ONLY = ['link_attachment', 'poll_attachment', 'gif_attachment', 'text_attachment', 'auto_publish_text'];
const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'];
const MAX_TEXT_BYTES = 500;
const MAX_ALT_TEXT = 1000;
const MAX_LINKS = 5;
const MAX_SPOILERS = 10;

export function parseContainerSpec(params: Params, spoilerUnit: SpoilerUnit): ContainerSpec {
  const type = params.media_type;
  if (type === undefined) throw invalidParam('The parameter media_type is required');
  if (!isCreateType(type)) throw invalidParam(`Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}`);
  const isCarouselItem = readBool(params, 'is_carousel_item') ?? false;
  checkFieldCombinations(type, isCarouselItem, params);
  const text = params.text ?? null;
  checkText(type, text, params.link_attachment);
  const spoilers = parseSpoilers(params.text_entities, text, spoilerUnit);
  return {
    type,
    isCarouselItem,
    text,
    media: mediaOf(type, params),
    childIds: type === 'CAROUSEL' ? parseChildren(params.children) : [],
    replyToId: params.reply_to_id ?? null,
    quotePostId: params.quote_post_id ?? null,
    replyControl: params.reply_control ?? null,
    poll: parsePoll(params.poll_attachment),
    topicTag: parseTopic(params.topic_tag),
    spoilers,
    isSpoilerMedia: readBool(params, 'is_spoiler_media') ?? false,
    autoPublish: readBool(params, 'auto_publish_text') ?? false,
  };
}

function isCreateType(value: string): value is CreateType {
  return value === 'TEXT' || value === 'IMAGE' || value === 'VIDEO' || value === 'CAROUSEL';
}

function checkFieldCombinations(type: CreateType, isCarouselItem: boolean, params: Params): void {
  const only = (name: string, types: CreateType[]) => {
    if (params[name] !== undefined && !types.includes(type)) throw invalidParam(`Param ${name} is not supported for media_type ${type}`);
  };
  only('image_url', ['IMAGE']);
  only('video_url', ['VIDEO']);
  only('children', ['CAROUSEL']);
  only('is_carousel_item', ['IMAGE', 'VIDEO']);
  only('alt_text', ['IMAGE', 'VIDEO']);
  only('is_spoiler_media', ['IMAGE', 'VIDEO', 'CAROUSEL']);
  for (const name of TEXT_ONLY) only(name, ['TEXT']);
  if (isCarouselItem && (params.reply_to_id !== undefined || params.topic_tag !== undefined)) {
    throw invalidParam('Carousel items cannot carry reply_to_id or topic_tag; set them on the carousel container');
  }
  if (params.reply_control !== undefined && !REPLY_CONTROLS.includes(params.reply_control)) throw invalidParam('Param reply_control is invalid');
  if (params.alt_text !== undefined && [...params.alt_text].length > MAX_ALT_TEXT)
    throw invalidParam(`Param alt_text must be at most ${MAX_ALT_TEXT} characters long`);
}

/** Meta counts the 500 "characters" in UTF-8 bytes (docs/reference/threads-api.md §8.1). */
function checkText(type: CreateType, text: string | null, linkAttachment: string | undefined): void {
  if (type === 'TEXT' && (text === null || text.trim() === '')) throw invalidParam('The parameter text is required for TEXT posts');
  if (text === null) return;
  if (Buffer.byteLength(text, 'utf8') > MAX_TEXT_BYTES) throw invalidParam(`Param text must be at most ${MAX_TEXT_BYTES} characters long`);
  const links = new Set(text.match(/https?:\/\/[^\s]+/gi) ?? []);
  if (linkAttachment !== undefined) links.add(linkAttachment);
  if (links.size > MAX_LINKS) throw graphError('THREADS_API__LINK_LIMIT_EXCEEDED', `A post can contain at most ${MAX_LINKS} unique links`);
}

function mediaOf(type: CreateType, params: Params): MediaRef | null {
  if (type !== 'IMAGE' && type !== 'VIDEO') return null;
  const name = type === 'IMAGE' ? 'image_url' : 'video_url';
  const url = params[name];
  if (url === undefined) throw invalidParam(`The parameter ${name} is required for media_type ${type}`);
  if (!/^https?:\/\/[^\s/]+/i.test(url)) throw invalidParam(`Param ${name} must be a valid URL`);
  return { type, url, altText: params.alt_text ?? null };
}

function parseChildren(raw: string | undefined): string[] {
  if (raw === undefined) throw invalidParam('The parameter children is required for media_type CAROUSEL');
  const ids = raw
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length < 2 || ids.length > 20) throw invalidParam('A carousel must have between 2 and 20 children');
  if (new Set(ids).size !== ids.length) throw invalidParam('Carousel children must be distinct');
  return ids;
}

const POLL_KEYS = ['option_a', 'option_b', 'option_c', 'option_d'];
const MAX_POLL_OPTION = 25;

/** `poll_attachment`: a JSON-encoded object, option_a and option_b required, c then d optional (§4.2). */
function parsePoll(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidParam('Param poll_attachment must be a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParam('Param poll_attachment must be a JSON object');
  const entries = value as Record<string, unknown>;
  const unknownKey = Object.keys(entries).find((k) => !POLL_KEYS.includes(k));
  if (unknownKey) throw invalidParam(`Unknown poll_attachment key ${unknownKey}`);
  const options = POLL_KEYS.map((k) => entries[k]);
  const given = options.reduce<number>((n, o, i) => (o === undefined ? n : i + 1), 0);
  if (given < 2 || options.slice(0, given).some((o) => typeof o !== 'string' || o.trim() === '' || [...o].length > MAX_POLL_OPTION)) {
    throw invalidParam(`Param poll_attachment needs option_a and option_b (then c, d), each 1 to ${MAX_POLL_OPTION} characters`);
  }
  return options.slice(0, given) as string[];
}

function parseTopic(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if ([...raw].length < 1 || [...raw].length > 50 || /[.&]/.test(raw)) throw invalidParam('Param topic_tag must be 1 to 50 characters without "." or "&"');
  return raw;
}

function textLength(text: string, unit: SpoilerUnit): number {
  if (unit === 'utf8') return Buffer.byteLength(text, 'utf8');
  return unit === 'codepoint' ? [...text].length : text.length;
}

/** `text_entities` arrives as a JSON-encoded string (docs/reference/threads-api.md §0, §4.6). */
function parseSpoilers(raw: string | undefined, text: string | null, unit: SpoilerUnit): Spoiler[] {
  if (raw === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidParam('Param text_entities must be a JSON array');
  }
  if (!Array.isArray(value)) throw invalidParam('Param text_entities must be a JSON array');
  if (value.length > MAX_SPOILERS) throw invalidParam(`Param text_entities can have at most ${MAX_SPOILERS} entries`);
  if (text === null) throw invalidParam('Param text_entities needs text');
  return value.map((entry) => parseSpoiler(entry, textLength(text, unit)));
}

function parseSpoiler(entry: unknown, textLen: number): Spoiler {
  const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const unknownKey = Object.keys(e).find((k) => !['entity_type', 'offset', 'length', 'text'].includes(k));
  if (unknownKey) throw invalidParam(`Unknown text_entities key ${unknownKey}`);
  if (e.entity_type !== 'SPOILER' && e.entity_type !== 'spoiler') throw invalidParam('text_entities entity_type must be SPOILER');
  const { offset, length } = e;
  if (!Number.isInteger(offset) || (offset as number) < 0 || !Number.isInteger(length) || (length as number) < 1) {
    throw invalidParam('text_entities offset must be an integer >= 0 and length an integer >= 1');
  }
  if ((offset as number) + (length as number) > textLen) throw invalidParam('text_entities range is outside the text');
  return { offset: offset as number, length: length as number };
}

// ---- reading back ----

export const CONTAINER_FIELDS = ['id', 'status', 'error_message'];
export const MEDIA_FIELDS = [
  'id',
  'media_product_type',
  'media_type',
  'media_url',
  'permalink',
  'owner',
  'username',
  'text',
  'timestamp',
  'shortcode',
  'thumbnail_url',
  'children',
  'is_quote_post',
  'quoted_post',
  'reposted_post',
  'alt_text',
  'link_attachment_url',
  'has_replies',
  'is_reply',
  'is_reply_owned_by_me',
  'root_post',
  'replied_to',
  'hide_status',
  'reply_audience',
  'gif_url',
  'poll_attachment',
  'topic_tag',
  'is_spoiler_media',
  'text_entities',
  'text_attachment',
  'location_id',
  'is_verified',
  'profile_picture_url',
  'ghost_post_status',
  'ghost_post_expiration_timestamp',
];
export const PROFILE_FIELDS = ['id', 'username', 'name', 'threads_profile_picture_url', 'threads_biography', 'is_verified'];
export const LIMIT_FIELDS = [
  'quota_usage',
  'config',
  'reply_quota_usage',
  'reply_config',
  'delete_quota_usage',
  'delete_config',
  'location_search_quota_usage',
  'location_search_config',
];
export const INSIGHT_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];
/** User-level metrics of GET /{user-id}/threads_insights (docs/reference/threads-api.md §6). */
export const USER_INSIGHT_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'clicks', 'followers_count', 'follower_demographics'];

/** Meta's timestamp format: `2023-10-09T23:18:27+0000`. */
export function graphTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** Keeps only the requested fields that have a value; Graph leaves absent ones out. */
export function pick(values: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (values[field] !== undefined && values[field] !== null) out[field] = values[field];
  return out;
}
