import { createHash } from 'node:crypto';
import twitterText from 'twitter-text';

/**
 * The bodies and rules of the fake X API (test/helpers/fakes/x-api.ts), each as
 * ../shared/reference/x-api.md states it: problem bodies (§10), OAuth errors (§1), the weighted
 * count (§9) and how X reads a post back (§5).
 */

export type FakeEndpoint =
  | 'oauth.authorize'
  | 'oauth.token'
  | 'oauth.revoke'
  | 'users.me'
  | 'tweets.create'
  | 'tweets.delete'
  | 'tweets.lookup'
  | 'tweets.get'
  | 'users.tweets'
  | 'retweets.create'
  | 'retweets.delete'
  | 'media.upload'
  | 'media.initialize'
  | 'media.append'
  | 'media.finalize'
  | 'media.status'
  | 'media.metadata';

/** An answer other than 2xx, thrown by a rule and sent as is. */
export class XFault extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

/** Where problem `type`s live: X moved them from api.twitter.com to api.x.com in 2026 (§0). */
export type ProblemHost = 'api.twitter.com' | 'api.x.com';

export function problemType(host: ProblemHost, name: string): string {
  return `https://${host}/2/problems/${name}`;
}

/** 400 "Invalid Request" with X's message (§3, §10). */
export function invalidRequest(host: ProblemHost, message: string, parameters: Record<string, string[]> = {}): XFault {
  return new XFault(400, {
    errors: [{ message, parameters }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: problemType(host, 'invalid-request'),
  });
}

export function forbidden(detail: string, title = 'Forbidden'): XFault {
  return new XFault(403, { detail, type: 'about:blank', title, status: 403 });
}

export const unauthorized = () => new XFault(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
export const missingScope = () => forbidden('Forbidden');
export const tooManyRequests = (headers: Record<string, string>) =>
  new XFault(429, { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 }, headers);
export const notFoundRoute = () =>
  new XFault(404, { title: 'Not Found Error', detail: 'Sorry, that page does not exist (fake).', type: 'about:blank', status: 404 });

export function oauthError(error: string, description: string, status = 400): XFault {
  return new XFault(status, { error, error_description: description });
}

export const invalidCode = () => oauthError('invalid_request', 'Value passed for the authorization code was invalid.');
export const invalidToken = () => oauthError('invalid_request', 'Value passed for the token was invalid.');
export const unauthorizedClient = () => oauthError('unauthorized_client', 'Missing valid authorization header', 401);

export const DUPLICATE = 'You are not allowed to create a Tweet with duplicate content.';
export const PARENT_GONE = 'You attempted to reply to a Tweet that is deleted or not visible to you.';
export const MEDIA_INVALID = 'Your media IDs are invalid.';
export const TOO_LONG = 'Your Tweet text is too long. For more information on how Twitter determines text length see https://github.com/twitter/twitter-text.';

export function pkceMatches(verifier: string, challenge: string, method: 'S256' | 'plain'): boolean {
  return method === 'plain' ? verifier === challenge : createHash('sha256').update(verifier).digest('base64url') === challenge;
}

/** X's weighted length (twitter-text config v3). */
export function weightedLength(text: string): number {
  return text === '' ? 0 : twitterText.parseTweet(text).weightedLength;
}

/** The cashtags of a text ($SYMBOL): self-serve apps may post one at most (§0). */
export function cashtagCount(text: string): number {
  return twitterText.extractCashtags(text).length;
}

/** Whether `text` @mentions `username`. */
export function mentions(text: string, username: string): boolean {
  return twitterText.extractMentions(text).some((m) => m.toLowerCase() === username.toLowerCase());
}

/** What the duplicate check compares: X's normalisation is undocumented; case and spacing are forgiven here. */
export function duplicateKey(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * A post's text as X reads it back (§5): each URL a 23-character t.co link, `& < >` escaped, a
 * t.co link for attached media at the end; over 280 the text is cut and the whole is the note's.
 */
export function readBackText(text: string, hasMedia: boolean): { text: string; note: string | null } {
  const urls = twitterText.extractUrlsWithIndices(text);
  let out = '';
  let at = 0;
  for (const { url, indices } of urls) {
    out += escapeHtml(text.slice(at, indices[0])) + tco(url);
    at = indices[1];
  }
  out += escapeHtml(text.slice(at));
  if (hasMedia) out = `${out}${out ? ' ' : ''}${tco(`media:${text}`)}`;
  if (weightedLength(text) <= 280) return { text: out, note: null };
  return { text: `${[...out].slice(0, 270).join('')}…`, note: out };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function tco(url: string): string {
  return `https://t.co/${createHash('sha256').update(url).digest('base64url').slice(0, 10)}`;
}

/** Sniffs an upload's kind from its first bytes, as X does (the declared type is not trusted). */
export function imageTypeOf(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}
