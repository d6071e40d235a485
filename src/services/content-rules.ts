import type { NetworkLimits, ProviderKind, ProviderRow, ReplyControl } from '../db/schema/index.js';
import type { FieldFault } from '../errors/index.js';
import { BLUESKY_POST_URI, BLUESKY_POST_URL } from '../lib/bluesky-refs.js';
import { isSkeinId } from '../lib/ids.js';
import { graphemesUpTo, utf8Bytes } from '../lib/text.js';

/** The content limits of decisions.md "Content rules", per network. */
const LIMITS = {
  THREADS: { textBytes: 500, textGraphemes: null, media: 20 },
  BLUESKY: { textBytes: 3000, textGraphemes: 300, media: 4 },
  postsPerThread: 25,
  spoilerRanges: 10,
  topicChars: 50,
  altTextChars: 1000,
  urlChars: 2048,
  autoRepostHours: { min: 1, max: 168 },
} as const;

/**
 * The most media items one post (or follow-up) may hold on any network: the largest fixed limit
 * (THREADS' carousel). The request schemas cap every media list at it, so a list is refused for its
 * count before any of its hosts is resolved (decisions.md "Security rules"); a Mastodon server
 * that allows more is held to it too.
 */
export const MEDIA_ITEMS_MAX = Math.max(LIMITS.THREADS.media, LIMITS.BLUESKY.media);

/** The most posts one thread may hold (the request schemas' cap). */
export const POSTS_PER_THREAD_MAX = LIMITS.postsPerThread;

export interface MediaInput {
  url: string;
  altText?: string | null;
}

export interface SpoilerRangeInput {
  offset: number;
  length: number;
}

export interface PostContent {
  text: string;
  topic?: string | null;
  media?: MediaInput[];
  spoilerRanges?: SpoilerRangeInput[];
  isSpoilerMedia?: boolean;
  linkPreview?: boolean;
  quote?: string | null;
  poll?: PollInput | null;
  langs?: string[];
  contentWarning?: string | null;
}

interface PollInput {
  options: string[];
}

/**
 * The network a post goes to; null when it is not known (a request whose `providerId` is
 * malformed or unknown): then only the rules every network shares are checked.
 */
export type Network = ProviderKind | null;

/**
 * The network a post goes to with the limits its text and media are held to: a Mastodon
 * server's own (`providers.network_limits`, read at connect and daily; null: never read, then
 * Mastodon's defaults). Every write path (Create Post, import, Edit Single Post, Edit Entire
 * Thread, follow-ups) makes it with `postTarget`, so none can check a post against a network's
 * kind without its server's limits. Null when the network is not known, as `Network`.
 */
export type PostTarget = { kind: ProviderKind; limits: NetworkLimits | null } | null;

/** The target of posts to `provider` (null: not known). */
export function postTarget(provider: Pick<ProviderRow, 'kind' | 'network_limits'> | null): PostTarget {
  return provider ? { kind: provider.kind, limits: provider.network_limits } : null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/*
 * Every check takes the value as the client sent it (`unknown`) and checks only what is
 * well-formed: a request with shape faults elsewhere still gets all its content faults in the
 * same answer, and a value of the wrong type is left to the shape fault that names it.
 */

export function checkText(target: PostTarget, text: unknown, path: string, contentWarning: unknown = null): FieldFault[] {
  if (typeof text !== 'string') return [];
  if (text.trim() === '') return [{ path, message: 'must not be empty or only white space' }];
  if (target === null) return [];
  const { kind } = target;
  if (kind === 'MASTODON') return mastodonTextFaults(text, typeof contentWarning === 'string' ? contentWarning : '', target.limits, path);
  const limits = LIMITS[kind];
  const faults: FieldFault[] = [];
  const bytes = utf8Bytes(text);
  if (bytes > limits.textBytes) faults.push({ path, message: `is ${bytes} UTF-8 bytes; ${kind} allows at most ${limits.textBytes}` });
  if (limits.textGraphemes !== null) {
    if (graphemesUpTo(text, limits.textGraphemes) > limits.textGraphemes) {
      faults.push({ path, message: `is more than ${limits.textGraphemes} characters (graphemes); ${kind} allows at most ${limits.textGraphemes}` });
    }
  }
  return faults;
}

export function checkTopic(kind: Network, topic: unknown, path: string): FieldFault[] {
  if (typeof topic !== 'string') return [];
  if (topic.trim() === '' || [...topic].length > LIMITS.topicChars) return [{ path, message: `must be 1 to ${LIMITS.topicChars} characters` }];
  if (kind === 'THREADS' && /[.&]/.test(topic)) return [{ path, message: 'must not contain "." or "&" (a Threads topic rule)' }];
  return [];
}

export function checkMedia(target: PostTarget, media: unknown, path: string): FieldFault[] {
  if (!Array.isArray(media)) return [];
  const faults: FieldFault[] = [];
  const max = target === null ? null : target.kind === 'MASTODON' ? (target.limits ?? MASTODON_DEFAULTS).maxMediaAttachments : LIMITS[target.kind].media;
  if (max !== null && media.length > max) faults.push({ path, message: `has ${media.length} items; ${target?.kind} allows at most ${max}` });
  media.forEach((item: unknown, i) => {
    if (!isRecord(item)) return;
    if (typeof item.url === 'string') {
      if (!isHttpUrl(item.url)) faults.push({ path: `${path}.${i}.url`, message: 'must be an absolute http or https URL' });
      else if (item.url.length > LIMITS.urlChars) faults.push({ path: `${path}.${i}.url`, message: `must be at most ${LIMITS.urlChars} characters` });
    }
    if (typeof item.altText === 'string' && [...item.altText].length > LIMITS.altTextChars) {
      faults.push({ path: `${path}.${i}.altText`, message: `must be at most ${LIMITS.altTextChars} characters` });
    }
  });
  return faults;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Spoiler ranges count UTF-16 code units (JavaScript indexes) and are passed to Threads as is.
 * On Bluesky they are accepted and ignored, so only their shape is checked there. A range whose
 * offset or length is not a whole number is left to its shape fault; "inside the text" is
 * checked only against a text that is itself well-formed.
 */
export function checkSpoilerRanges(kind: Network, ranges: unknown, text: unknown, path: string): FieldFault[] {
  if (!Array.isArray(ranges) || kind !== 'THREADS') return [];
  const faults: FieldFault[] = [];
  const wellFormed = ranges.flatMap((r: unknown, i) =>
    isRecord(r) && Number.isInteger(r.offset) && Number.isInteger(r.length) ? [{ offset: r.offset as number, length: r.length as number, i }] : [],
  );
  for (const r of wellFormed) {
    if (r.offset < 0) faults.push({ path: `${path}.${r.i}.offset`, message: 'must be 0 or more' });
    if (r.length < 1) faults.push({ path: `${path}.${r.i}.length`, message: 'must be 1 or more' });
    else if (r.offset >= 0 && typeof text === 'string' && r.offset + r.length > text.length) {
      faults.push({ path: `${path}.${r.i}`, message: `must lie inside the text (${text.length} UTF-16 code units)` });
    }
  }
  const sorted = [...wellFormed].sort((a, b) => a.offset - b.offset);
  for (let k = 1; k < sorted.length; k++) {
    const prev = sorted[k - 1]!;
    const cur = sorted[k]!;
    if (cur.offset < prev.offset + prev.length) faults.push({ path: `${path}.${cur.i}`, message: `overlaps spoilerRanges.${prev.i}` });
  }
  return faults;
}

export function checkPost(target: PostTarget, post: unknown, path: string): FieldFault[] {
  if (!isRecord(post)) return [];
  const kind = target?.kind ?? null;
  return [
    ...checkText(target, post.text, `${path}.text`, post.contentWarning),
    ...checkTopic(kind, post.topic, `${path}.topic`),
    ...checkMedia(target, post.media, `${path}.media`),
    ...checkSpoilerRanges(kind, post.spoilerRanges, post.text, `${path}.spoilerRanges`),
    ...checkPostOptions(kind, post, path),
  ];
}

/** Mastodon's own defaults (../shared/reference/mastodon-api.md §4), for a server whose limits were never read. */
const MASTODON_DEFAULTS: NetworkLimits = {
  maxCharacters: 500,
  maxMediaAttachments: 4,
  charactersReservedPerUrl: 23,
  imageSizeLimit: null,
  videoSizeLimit: null,
  descriptionLimit: null,
};
const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/gi;
const MENTION_DOMAIN = /(@[a-z0-9_]+)@[a-z0-9.-]+\.[a-z]{2,}/gi;

/**
 * The server's count (its StatusLengthValidator): graphemes of the content warning and the text,
 * every link counting as `characters_reserved_per_url` and `@user@domain` as `@user`.
 */
function mastodonTextFaults(text: string, contentWarning: string, server: NetworkLimits | null, path: string): FieldFault[] {
  const limits = server ?? MASTODON_DEFAULTS;
  const counted = text.replace(URL_IN_TEXT, 'x'.repeat(limits.charactersReservedPerUrl)).replace(MENTION_DOMAIN, '$1') + contentWarning;
  const length = graphemesUpTo(counted, limits.maxCharacters);
  if (length <= limits.maxCharacters) return [];
  const cw = contentWarning ? ' with the content warning' : '';
  return [
    {
      path,
      message: `is more than ${limits.maxCharacters} characters${cw} (a link counts as ${limits.charactersReservedPerUrl}); this MASTODON server allows at most ${limits.maxCharacters}`,
    },
  ];
}

/**
 * What each network does with the network options (decisions.md "Network options"). MASTODON:
 * `replyControl` `everyone` only, no quote and no poll; it sends `langs[0]` and `contentWarning`.
 */
const OPTIONS: Record<
  ProviderKind,
  { replyControls: readonly ReplyControl[]; polls: boolean; quotes: boolean; quoteReference: RegExp[]; quoteExample: string }
> = {
  THREADS: {
    replyControls: ['everyone', 'following', 'followers', 'mentioned', 'nobody'],
    polls: true,
    quotes: true,
    quoteReference: [/^\d{1,30}$/],
    quoteExample: 'a Threads media id (digits)',
  },
  BLUESKY: {
    replyControls: ['everyone', 'following', 'followers', 'mentioned', 'nobody'],
    polls: false,
    quotes: true,
    quoteReference: [BLUESKY_POST_URI, BLUESKY_POST_URL],
    quoteExample: 'an at://…/app.bsky.feed.post/… URI or a https://bsky.app/profile/…/post/… URL',
  },
  MASTODON: { replyControls: ['everyone'], polls: false, quotes: false, quoteReference: [], quoteExample: '' },
};

const POLL = { minOptions: 2, maxOptions: 4, optionChars: 25 } as const;
const MAX_LANGS = 3;
const CONTENT_WARNING_CHARS = 500;
/** The shape of a BCP 47 tag (`en`, `pt-BR`, `zh-Hant-TW`), not a registry lookup. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,6}$/;

const REPLY_CONTROLS: readonly string[] = ['everyone', 'following', 'followers', 'mentioned', 'nobody'] satisfies ReplyControl[];

/** A value no network knows is the schema's fault (its enum); here, one this network does not take. */
export function checkReplyControl(kind: Network, value: unknown, path: string): FieldFault[] {
  if (typeof value !== 'string' || !REPLY_CONTROLS.includes(value) || kind === null) return [];
  const allowed = OPTIONS[kind].replyControls;
  return allowed.includes(value as ReplyControl) ? [] : [{ path, message: `must be one of ${allowed.join(', ')} on ${kind}` }];
}

/** The network options of one post; a quote naming a Skein post is checked by checkQuotedPosts. */
function checkPostOptions(kind: Network, post: Record<string, unknown>, path: string): FieldFault[] {
  const faults: FieldFault[] = [];
  const { quote, poll, langs, contentWarning } = post;
  if (typeof quote === 'string' && kind !== null && !OPTIONS[kind].quotes) faults.push({ path: `${path}.quote`, message: `${kind} has no quotes` });
  else if (typeof quote === 'string' && !isSkeinId(quote)) {
    if (quote.trim() === '') faults.push({ path: `${path}.quote`, message: 'must not be empty' });
    else if (kind !== null && !OPTIONS[kind].quoteReference.some((re) => re.test(quote))) {
      faults.push({ path: `${path}.quote`, message: `must be the id of a published Skein post or ${OPTIONS[kind].quoteExample}` });
    }
  }
  if (isRecord(poll)) faults.push(...checkPoll(kind, poll, Array.isArray(post.media) && post.media.length > 0, `${path}.poll`));
  if (Array.isArray(langs)) {
    if (langs.length > MAX_LANGS) faults.push({ path: `${path}.langs`, message: `has ${langs.length} tags; at most ${MAX_LANGS} are allowed` });
    langs.forEach((tag: unknown, i) => {
      if (typeof tag === 'string' && !LANGUAGE_TAG.test(tag))
        faults.push({ path: `${path}.langs.${i}`, message: 'must be a language tag such as en or pt-BR' });
    });
  }
  if (typeof contentWarning === 'string' && (contentWarning.trim() === '' || [...contentWarning].length > CONTENT_WARNING_CHARS)) {
    faults.push({ path: `${path}.contentWarning`, message: `must be 1 to ${CONTENT_WARNING_CHARS} characters` });
  }
  return faults;
}

function checkPoll(kind: Network, poll: Record<string, unknown>, hasMedia: boolean, path: string): FieldFault[] {
  if (kind !== null && !OPTIONS[kind].polls) return [{ path, message: `${kind} has no polls` }];
  const faults: FieldFault[] = [];
  if (hasMedia) faults.push({ path, message: 'a poll goes only on a post without media' });
  const { options } = poll;
  if (!Array.isArray(options)) return faults;
  if (options.length < POLL.minOptions || options.length > POLL.maxOptions) {
    faults.push({ path: `${path}.options`, message: `must hold ${POLL.minOptions} to ${POLL.maxOptions} options` });
  }
  options.forEach((option: unknown, i) => {
    if (typeof option === 'string' && (option.trim() === '' || [...option].length > POLL.optionChars)) {
      faults.push({ path: `${path}.options.${i}`, message: `must be 1 to ${POLL.optionChars} characters` });
    }
  });
  return faults;
}

export function checkAutoRepostDelay(delays: unknown, path: string): { hours: number | null; faults: FieldFault[] } {
  if (!Array.isArray(delays)) return { hours: null, faults: [] };
  if (delays.length !== 1) return { hours: null, faults: [{ path, message: 'must hold exactly one value' }] };
  const value: unknown = delays[0];
  if (typeof value !== 'string') return { hours: null, faults: [] };
  const { min, max } = LIMITS.autoRepostHours;
  if (!/^\d{1,3}$/.test(value) || Number(value) < min || Number(value) > max) {
    return { hours: null, faults: [{ path: `${path}.0`, message: `must be a whole number of hours from ${min} to ${max}, as a string` }] };
  }
  return { hours: Number(value), faults: [] };
}
