import type { NetworkLimits, ProviderKind, ProviderRow } from '../../db/schema/index.js';
import type { FieldFault } from '../../errors/index.js';
import { isSkeinId } from '../../lib/ids.js';
import { NETWORK_KINDS, NETWORKS } from '../../networks/index.js';
import {
  CONTENT_WARNING_CHARS,
  type Limits,
  MAX_LANGS,
  type Network as NetworkDefinition,
  type NetworkOption,
  type NetworkOptions,
  POLL,
  REPLY_CONTROLS,
  type TextMeasure,
} from '../../networks/network.js';

/**
 * The content limits of decisions.md "Content rules" that every network shares; each network's
 * own (text, media, options) are its entry in src/networks/.
 */
const LIMITS = {
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
export const MEDIA_ITEMS_MAX = Math.max(...NETWORK_KINDS.map((kind) => NETWORKS[kind].limits.mediaPerPost));

/** The most posts one thread may hold on any network (the request schemas' cap). */
export const POSTS_PER_THREAD_MAX = Math.max(...NETWORK_KINDS.map((kind) => NETWORKS[kind].limits.postsPerThread));

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
  /** LinkedIn's poll question (required there); ignored by the other networks. */
  question?: string;
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

export function checkText(target: PostTarget, text: unknown, path: string, contentWarning: unknown = null, position = 0): FieldFault[] {
  if (typeof text !== 'string') return [];
  if (text.trim() === '') return [{ path, message: 'must not be empty or only white space' }];
  if (target === null) return [];
  const { kind } = target;
  // A network that publishes a content warning counts it with the text (Mastodon).
  const warning = NETWORKS[kind].options.contentWarning && typeof contentWarning === 'string' ? contentWarning : '';
  const measures = NETWORKS[kind].countText(text, { server: target.limits, contentWarning: warning, upTo: true, position });
  return measures.filter((m) => m.count > m.max).map((m) => ({ path, message: textFault(target, m, warning !== '', position) }));
}

/** Why a text is too long for its network, as the network counts it. */
function textFault(target: NonNullable<PostTarget>, measure: TextMeasure, withWarning: boolean, position: number): string {
  const { kind } = target;
  const { max } = measure;
  if (measure.unit === 'bytes') return `is ${measure.count} UTF-8 bytes; ${kind} allows at most ${max}`;
  const cw = withWarning ? ' with the content warning' : '';
  const how = measure.how ? ` (${measure.how})` : '';
  const who = (NETWORKS[kind] as NetworkDefinition).manyServers ? `this ${kind} server` : kind;
  return `is more than ${max} characters${cw}${how}; ${who} allows at most ${max}${placeSaid(kind, position)}`;
}

export function checkTopic(kind: Network, topic: unknown, path: string): FieldFault[] {
  if (typeof topic !== 'string') return [];
  if (topic.trim() === '' || [...topic].length > LIMITS.topicChars) return [{ path, message: `must be 1 to ${LIMITS.topicChars} characters` }];
  const network: NetworkDefinition | null = kind === null ? null : NETWORKS[kind];
  const forbidden = [...(network?.options.topicForbids ?? '')];
  if (forbidden.some((c) => topic.includes(c))) {
    return [{ path, message: `must not contain ${forbidden.map((c) => `"${c}"`).join(' or ')} (a ${network?.name} topic rule)` }];
  }
  return [];
}

export function checkMedia(target: PostTarget, media: unknown, path: string, position = 0): FieldFault[] {
  if (!Array.isArray(media)) return [];
  const faults: FieldFault[] = [];
  const max = target === null ? null : (target.limits?.maxMediaAttachments ?? postLimits(target.kind, position).mediaPerPost);
  if (max !== null && media.length > max)
    faults.push({ path, message: `has ${media.length} items; ${target?.kind} allows at most ${max}${placeSaid(target?.kind ?? null, position)}` });
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

type PostMediaLimits = Pick<Limits, 'mediaPerPost' | 'imagesPerPost' | 'videosPerPost'>;

/** The limits a post at `position` of a thread to `kind` is held to: its later posts' where the network has them (LinkedIn's comments). */
export function postLimits(kind: ProviderKind, position: number): PostMediaLimits {
  const network: NetworkDefinition = NETWORKS[kind];
  return position > 0 && network.laterPosts ? network.laterPosts : network.limits;
}

/** ` on a later post`, where a network holds its later posts to other limits; else nothing. */
export function placeSaid(kind: Network, position: number): string {
  const network: NetworkDefinition | null = kind === null ? null : NETWORKS[kind];
  return network?.laterPosts && position > 0 ? ' on a post after the first' : '';
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
  if (!Array.isArray(ranges) || kind === null || !NETWORKS[kind].options.spoilers) return [];
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

/** One post at `position` of its thread (0 the first: a network's later posts may have other limits and options). */
export function checkPost(target: PostTarget, post: unknown, path: string, position = 0): FieldFault[] {
  if (!isRecord(post)) return [];
  const kind = target?.kind ?? null;
  return [
    ...checkText(target, post.text, `${path}.text`, post.contentWarning, position),
    ...checkTopic(kind, post.topic, `${path}.topic`),
    ...checkMedia(target, post.media, `${path}.media`, position),
    ...checkSpoilerRanges(kind, post.spoilerRanges, post.text, `${path}.spoilerRanges`),
    ...checkPostOptions(kind, post, path, position),
  ];
}

/** The shape of a BCP 47 tag (`en`, `pt-BR`, `zh-Hant-TW`), not a registry lookup. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,6}$/;

/** A value no network knows is the schema's fault (its enum); here, one this network does not take. */
export function checkReplyControl(kind: Network, value: unknown, path: string): FieldFault[] {
  if (typeof value !== 'string' || !(REPLY_CONTROLS as readonly string[]).includes(value) || kind === null) return [];
  const allowed: readonly string[] = NETWORKS[kind].options.replyControls;
  return allowed.includes(value) ? [] : [{ path, message: `must be one of ${allowed.join(', ')} on ${kind}` }];
}

/** `quotesDisabled: true` on a network that refuses it rather than ignoring it (LinkedIn). */
export function checkQuotesDisabled(kind: Network, value: unknown, path: string): FieldFault[] {
  if (value !== true || kind === null) return [];
  const options: NetworkOptions = NETWORKS[kind].options;
  const refused: readonly NetworkOption[] = options.refuses ?? [];
  return refused.includes('quotesDisabled') ? [{ path, message: `${kind} cannot stop quotes; leave it out or false` }] : [];
}

/** The network options of one post; a quote naming a Skein post is checked by checkQuotedPosts. */
function checkPostOptions(kind: Network, post: Record<string, unknown>, path: string, position: number): FieldFault[] {
  const faults: FieldFault[] = [];
  const { quote, poll, langs, contentWarning } = post;
  const quotes = kind === null ? null : NETWORKS[kind].options.quote;
  if (typeof quote === 'string' && kind !== null && quotes === null) faults.push({ path: `${path}.quote`, message: `${kind} has no quotes` });
  else if (typeof quote === 'string' && !isSkeinId(quote)) {
    if (quote.trim() === '') faults.push({ path: `${path}.quote`, message: 'must not be empty' });
    else if (quotes !== null && !quotes.references.some((re) => re.test(quote))) {
      faults.push({ path: `${path}.quote`, message: `must be the id of a published Skein post or ${quotes.example}` });
    }
  }
  if (isRecord(poll)) faults.push(...checkPoll(kind, poll, Array.isArray(post.media) && post.media.length > 0, `${path}.poll`, position));
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

function checkPoll(kind: Network, poll: Record<string, unknown>, hasMedia: boolean, path: string, position: number): FieldFault[] {
  const options_: NetworkOptions | null = kind === null ? null : NETWORKS[kind].options;
  if (options_ && !options_.polls) return [{ path, message: `${kind} has no polls` }];
  if (options_ && position > 0 && options_.firstPostOnly?.includes('poll')) return [{ path, message: `${kind} takes a poll on the first post only` }];
  const faults: FieldFault[] = [];
  if (hasMedia) faults.push({ path, message: 'a poll goes only on a post without media' });
  faults.push(...checkPollQuestion(options_?.pollQuestion ?? null, kind, poll.question, `${path}.question`));
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

/** A poll's question where the network requires one (LinkedIn); elsewhere it is ignored. */
function checkPollQuestion(rule: { maxChars: number } | null, kind: Network, question: unknown, path: string): FieldFault[] {
  if (rule === null) return [];
  const said = `1 to ${rule.maxChars} characters`;
  if (question === undefined || question === null) return [{ path, message: `is required on ${kind} (${said})` }];
  if (typeof question !== 'string') return [];
  return question.trim() === '' || [...question].length > rule.maxChars ? [{ path, message: `must be ${said}` }] : [];
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
