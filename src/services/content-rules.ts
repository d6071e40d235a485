import type { ProviderKind } from '../db/schema/index.js';
import type { FieldFault } from '../errors/index.js';
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
}

/**
 * The network a post goes to; null when it is not known (a request whose `providerId` is
 * malformed or unknown): then only the rules every network shares are checked.
 */
export type Network = ProviderKind | null;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/*
 * Every check takes the value as the client sent it (`unknown`) and checks only what is
 * well-formed: a request with shape faults elsewhere still gets all its content faults in the
 * same answer, and a value of the wrong type is left to the shape fault that names it.
 */

export function checkText(kind: Network, text: unknown, path: string): FieldFault[] {
  if (typeof text !== 'string') return [];
  if (text.trim() === '') return [{ path, message: 'must not be empty or only white space' }];
  if (kind === null) return [];
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

export function checkMedia(kind: Network, media: unknown, path: string): FieldFault[] {
  if (!Array.isArray(media)) return [];
  const faults: FieldFault[] = [];
  const max = kind === null ? null : LIMITS[kind].media;
  if (max !== null && media.length > max) faults.push({ path, message: `has ${media.length} items; ${kind} allows at most ${max}` });
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

export function checkPost(kind: Network, post: unknown, path: string): FieldFault[] {
  if (!isRecord(post)) return [];
  return [
    ...checkText(kind, post.text, `${path}.text`),
    ...checkTopic(kind, post.topic, `${path}.topic`),
    ...checkMedia(kind, post.media, `${path}.media`),
    ...checkSpoilerRanges(kind, post.spoilerRanges, post.text, `${path}.spoilerRanges`),
  ];
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
