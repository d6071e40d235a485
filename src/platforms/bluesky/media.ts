import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressPolicy } from '../../lib/ip-policy.js';
import { PublishError } from '../platform.js';
import { IMAGE_MIMES, type ImageMime, type ImageSize, imageSize, sniffImageType } from './image-info.js';
import { stripMetadata } from './strip-metadata.js';

/**
 * Downloads a post's image from the URL the user gave, guarded against SSRF: only http(s),
 * only public addresses (unless allowPrivate, for tests), the connection pinned to the
 * address that was checked (no DNS-rebinding window), every redirect re-checked, and a size
 * cap enforced while reading.
 */

/** Bluesky's long-standing per-image limit (api.md: stay at 1,000,000 for older AppViews). */
export const MAX_IMAGE_BYTES = 1_000_000;
const MAX_REDIRECTS = 3;
const DEFAULT_TIMEOUT_MS = 20_000;
/** What some storage services send for any upload; the magic bytes decide then. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const JPEG_ALIASES = new Set(['image/jpg', 'image/pjpeg']);

type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

export interface MediaFetchOptions {
  /** SKEIN_ALLOW_PRIVATE_MEDIA: let URLs reach private and loopback addresses (tests only). */
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  /** Name resolution, all addresses; dns.lookup by default. */
  lookup?: LookupAll;
  /** Replaces the public-address rule; for tests that need a finer policy than allowPrivate. */
  allowAddress?: (address: string) => boolean;
}

export interface DownloadedImage {
  bytes: Uint8Array;
  mimeType: ImageMime;
  /** Pixel size as displayed, for the post's aspectRatio; null when the header is unreadable. */
  size: ImageSize | null;
}

export async function downloadImage(rawUrl: string, options: MediaFetchOptions): Promise<DownloadedImage> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const first = parseMediaUrl(rawUrl);
  let url = first;
  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await checkedAddresses(url, options);
      const res = await get(url, addresses, signal);
      const next = redirectTarget(res, url);
      if (!next) return await readImage(res, options.maxBytes ?? MAX_IMAGE_BYTES);
      res.destroy();
      if (redirects >= MAX_REDIRECTS) throw invalidMedia(`more than ${MAX_REDIRECTS} redirects from ${shown(first)}`);
      url = next;
    }
  } catch (err) {
    if (signal.aborted) throw new PublishError('transient', 'MEDIA_UNAVAILABLE', `media download timed out: ${shown(first)}`, { cause: err });
    throw err;
  }
}

/**
 * The addresses a request to `url` may connect to: all of the host's addresses, each allowed
 * by the policy, or a permanent INVALID_MEDIA error. Exported for unit tests.
 */
export async function checkedAddresses(url: URL, options: MediaFetchOptions): Promise<LookupAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await resolveAll(host, options.lookup ?? systemLookup);
  const allowed = options.allowAddress ?? addressPolicy(options.allowPrivate);
  const refused = addresses.find((entry) => !allowed(entry.address));
  if (refused) throw invalidMedia(`media host ${host} resolves to a non-public address (${refused.address})`);
  return addresses;
}

function parseMediaUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidMedia(`not a valid media URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidMedia(`media URL must use http or https, not ${url.protocol}`);
  return url;
}

const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

async function resolveAll(host: string, lookup: LookupAll): Promise<LookupAddress[]> {
  try {
    const addresses = await lookup(host);
    if (addresses.length === 0) throw Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' });
    return addresses;
  } catch (err) {
    throw networkError(err, `cannot resolve media host ${host}`);
  }
}

/** A lookup that answers with the already-checked addresses, so the socket cannot go elsewhere. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const usable = wanted.length > 0 ? wanted : addresses;
    if (options.all) (callback as (err: null, all: LookupAddress[]) => void)(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}

function get(url: URL, addresses: LookupAddress[], signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'GET',
      headers: { accept: IMAGE_MIMES.join(', '), 'user-agent': 'Skein media fetcher' },
      lookup: pinnedLookup(addresses),
      agent: false, // no pooled socket from an earlier, differently resolved request
      signal,
    });
    req.once('response', resolve);
    req.once('error', (err) => reject(networkError(err, `media download failed: ${shown(url)}`)));
    req.end();
  });
}

function redirectTarget(res: IncomingMessage, from: URL): URL | null {
  const status = res.statusCode ?? 0;
  if (![301, 302, 303, 307, 308].includes(status)) return null;
  const location = res.headers.location;
  if (!location) throw invalidMedia(`redirect without a location from ${shown(from)}`);
  return parseMediaUrl(new URL(location, from).href);
}

async function readImage(res: IncomingMessage, maxBytes: number): Promise<DownloadedImage> {
  try {
    checkStatus(res);
    checkDeclaredType(res);
    const bytes = await readBody(res, maxBytes);
    const mimeType = sniffImageType(bytes);
    if (!mimeType) throw invalidMedia('media is not a JPEG, PNG, GIF or WebP image');
    return { bytes: stripMetadata(bytes, mimeType), mimeType, size: imageSize(bytes, mimeType) };
  } finally {
    res.destroy();
  }
}

function checkStatus(res: IncomingMessage): void {
  const status = res.statusCode ?? 0;
  if (status === 200) return;
  const text = `media server answered HTTP ${status}`;
  if (status >= 500 || status === 408 || status === 429) throw new PublishError('transient', 'MEDIA_UNAVAILABLE', text);
  throw invalidMedia(text);
}

function checkDeclaredType(res: IncomingMessage): void {
  const declared = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const known = GENERIC_TYPES.has(declared) || JPEG_ALIASES.has(declared) || (IMAGE_MIMES as readonly string[]).includes(declared);
  if (!known) throw invalidMedia(`media content type ${declared} is not JPEG, PNG, GIF or WebP`);
}

async function readBody(res: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const tooBig = () => invalidMedia(`media is larger than ${maxBytes} bytes`);
  if (Number(res.headers['content-length'] ?? 0) > maxBytes) throw tooBig();
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooBig(); // leaving the loop destroys the stream
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw err instanceof PublishError ? err : networkError(err, 'media download interrupted');
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

/** A URL for messages: query strings of signed storage URLs are credentials, so they are left out. */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function invalidMedia(message: string): PublishError {
  return new PublishError('permanent', 'INVALID_MEDIA', message);
}

/** A host that does not exist will not start existing; anything else may pass. */
function networkError(err: unknown, message: string): PublishError {
  if (err instanceof PublishError) return err;
  const code = (err as { code?: string } | null)?.code;
  if (code === 'ENOTFOUND') return new PublishError('permanent', 'INVALID_MEDIA', `${message}: host not found`, { cause: err });
  const reason = err instanceof Error ? err.message : String(err);
  return new PublishError('transient', 'MEDIA_UNAVAILABLE', `${message}: ${reason}`, { cause: err });
}
