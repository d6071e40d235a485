import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/**
 * The one way Skein requests a URL a user gave (media to download, a link card's page, a
 * webhook): only http(s); every address the host resolves to allowed by the address policy
 * (src/lib/ip-policy.ts), the socket pinned to the addresses checked (a name that resolves
 * differently a moment later cannot move it: DNS rebinding); each redirect (when any are
 * followed) checked the same way; one deadline for the whole exchange; the body read up to a
 * cap and no further.
 */

export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

/** dns.lookup (getaddrinfo, on libuv's threads): for callers with no resolver of their own. */
export const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type GuardedFetchFault =
  /** Not an absolute http(s) URL. */
  | 'bad-url'
  /** The host resolves to an address the policy refuses. */
  | 'refused-address'
  /** The host name does not exist. */
  | 'not-found'
  | 'too-many-redirects'
  /** The body is over maxBytes (declared or counted). */
  | 'too-large'
  /** No answer within the deadline. */
  | 'timeout'
  /** Connection refused or reset, DNS failure other than "no such name", and the like. */
  | 'network';

export class GuardedFetchError extends Error {
  constructor(
    readonly fault: GuardedFetchFault,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GuardedFetchError';
  }
}

/** The address policy (addressPolicy(allowPrivate) from ip-policy.ts); `url` is the URL being requested. */
export type AllowAddress = (address: string, url: URL) => boolean;

export interface GuardedFetchOptions {
  /** The address policy: addressPolicy(allowPrivate) from ip-policy.ts. */
  allowAddress: AllowAddress;
  /** For the whole exchange, body included. */
  timeoutMs: number;
  /** 0: a redirect is the answer (webhooks); else each is followed and checked. */
  maxRedirects: number;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Name resolution, all addresses; dns.lookup by default. */
  lookup?: LookupAll;
  /** The caller's own cancellation, on top of the deadline. */
  signal?: AbortSignal;
}

export interface GuardedResponse {
  /** The URL that answered (after redirects). */
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  /** The media type of Content-Type, lower case, without parameters ('' when absent). */
  contentType: string;
  /** Reads the body, refusing it past maxBytes ('too-large'); the response is closed after. */
  read(maxBytes: number): Promise<Uint8Array>;
  /**
   * The body chunk by chunk, for one too large to hold (a video): 'too-large' past maxBytes,
   * before the chunk that crosses it; the response is closed when the iteration ends.
   */
  stream(maxBytes: number): AsyncGenerator<Buffer>;
  /** Closes the response without reading it. */
  close(): void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Parses a user's URL: http or https only, a host, no user name or password. */
function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GuardedFetchError('bad-url', `not a valid URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GuardedFetchError('bad-url', `the URL must use http or https, not ${url.protocol}`);
  if (!url.hostname) throw new GuardedFetchError('bad-url', 'the URL must name a host');
  return url;
}

/**
 * Sends the request and answers with the final response, its body unread. Throws
 * GuardedFetchError for everything that is not an HTTP answer.
 */
export async function guardedFetch(raw: string | URL, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const first = typeof raw === 'string' ? parseHttpUrl(raw) : raw;
  let url = first;
  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await permittedAddresses(url, options.lookup ?? systemLookup, options.allowAddress);
      const res = await send(url, addresses, options, signal);
      const status = res.statusCode ?? 0;
      if (options.maxRedirects === 0 || !REDIRECTS.has(status)) return response(url, res, signal, options.timeoutMs);
      res.destroy();
      if (redirects >= options.maxRedirects)
        throw new GuardedFetchError('too-many-redirects', `more than ${options.maxRedirects} redirects from ${shownUrl(first)}`);
      const location = res.headers.location;
      if (!location) throw new GuardedFetchError('bad-url', `a redirect without a location from ${shownUrl(url)}`);
      url = parseHttpUrl(new URL(location, url).href);
    }
  } catch (err) {
    throw asFetchError(err, signal, options.timeoutMs, url);
  }
}

/**
 * Every address `url`'s host resolves to, each allowed by `allowAddress`: 'refused-address'
 * naming the first one refused, 'not-found' when the name does not exist.
 */
export async function permittedAddresses(url: URL, lookup: LookupAll, allowAddress: AllowAddress): Promise<LookupAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  let addresses: LookupAddress[];
  if (family) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await lookup(host);
    } catch (err) {
      const code = (err as { code?: string } | null)?.code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') throw new GuardedFetchError('not-found', `${host} does not resolve`, { cause: err });
      throw new GuardedFetchError('network', `cannot resolve ${host}: ${(err as Error).message}`, { cause: err });
    }
    if (addresses.length === 0) throw new GuardedFetchError('not-found', `${host} does not resolve`);
  }
  const refused = addresses.find((a) => !allowAddress(a.address, url));
  // The message reaches users (a webhook's fault, a failed post): it names the host they gave,
  // never the address it resolved to (which would map the server's network for them).
  if (refused)
    throw new GuardedFetchError(
      'refused-address',
      family ? `${host} is a private or reserved address, not a public one` : `${host} resolves to a private or reserved address, not a public one`,
    );
  return addresses;
}

/** A URL for messages and logs: the query string of a signed storage URL is a credential. */
export function shownUrl(url: URL | string): string {
  try {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return String(url).replace(/[?#].*$/, '');
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

function send(url: URL, addresses: LookupAddress[], options: GuardedFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  const body = options.body;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: options.method ?? 'GET',
      headers: { 'user-agent': 'Skein', ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      lookup: pinnedLookup(addresses),
      agent: false, // no pooled socket from an earlier, differently resolved request
      signal,
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(body);
  });
}

function response(url: URL, res: IncomingMessage, signal: AbortSignal, timeoutMs: number): GuardedResponse {
  async function* stream(maxBytes: number): AsyncGenerator<Buffer> {
    try {
      yield* bodyChunks(res, maxBytes);
    } catch (err) {
      throw asFetchError(err, signal, timeoutMs, url);
    } finally {
      res.destroy();
    }
  }
  return {
    url,
    status: res.statusCode ?? 0,
    headers: res.headers,
    contentType: (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
    read: async (maxBytes) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream(maxBytes)) chunks.push(chunk);
      return new Uint8Array(Buffer.concat(chunks));
    },
    stream,
    close: () => res.destroy(),
  };
}

async function* bodyChunks(res: IncomingMessage, maxBytes: number): AsyncGenerator<Buffer> {
  const tooBig = () => new GuardedFetchError('too-large', `the answer is larger than ${maxBytes} bytes`);
  if (Number(res.headers['content-length'] ?? 0) > maxBytes) throw tooBig();
  let total = 0;
  for await (const chunk of res) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) throw tooBig(); // leaving the loop destroys the stream
    yield chunk as Buffer;
  }
}

function asFetchError(err: unknown, signal: AbortSignal, timeoutMs: number, url: URL): GuardedFetchError {
  if (err instanceof GuardedFetchError) return err;
  if (signal.aborted) return new GuardedFetchError('timeout', `no answer from ${shownUrl(url)} within ${timeoutMs / 1000} s`, { cause: err });
  const reason = err instanceof Error ? err.message : String(err);
  return new GuardedFetchError('network', `request to ${shownUrl(url)} failed: ${reason}`, { cause: err });
}

export interface FetchApiOptions {
  allowAddress: AllowAddress;
  lookup?: LookupAll;
  /** The whole call's deadline, by URL (a blob upload may get longer). */
  timeoutMs: (url: URL) => number;
  /** Redirects followed (each checked) for a GET or HEAD; any other method's redirect is the answer. */
  maxRedirects: number;
  /** The largest answer body read; a larger one fails the call. */
  maxResponseBytes: number;
}

/** Statuses whose Response carries no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The guarded fetch behind the WHATWG `fetch` signature, for a library that takes a fetch of its
 * own (@atproto/api's agent): every request it makes meets the address policy, its redirects
 * are checked, the socket is pinned to the checked addresses, the body is capped and the call
 * has a deadline. A refusal is thrown as GuardedFetchError (a fetch failure to the library).
 */
export function guardedFetchApi(options: FetchApiOptions): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = parseHttpUrl(request.url);
    const method = request.method.toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const res = await guardedFetch(url, {
      allowAddress: options.allowAddress,
      timeoutMs: options.timeoutMs(url),
      maxRedirects: method === 'GET' || method === 'HEAD' ? options.maxRedirects : 0,
      method,
      headers,
      ...(body ? { body } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
      signal: request.signal,
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answer.append(name, one);
    }
    if (method === 'HEAD' || NULL_BODY.has(res.status)) {
      res.close();
      return new Response(null, { status: res.status, headers: answer });
    }
    const bytes = await res.read(options.maxResponseBytes);
    return new Response(new Uint8Array(bytes), { status: res.status, headers: answer });
  };
}
