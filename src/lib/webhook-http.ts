import { createHmac, randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Sending one webhook request: the body signed as Stripe signs (`t=<unix s>,v1=<hex
 * HMAC-SHA256(secret, "<t>.<raw body>")>`), sent only to addresses the policy allows, the
 * socket pinned to the addresses checked (a name that resolves differently a moment later
 * cannot redirect it: DNS rebinding), no redirect followed, one deadline for the whole answer.
 */

export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

/** `whsec_` + 43 URL-safe characters (256 random bits). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/** Why a URL cannot be a webhook's, or null: http(s) with a host, no credentials. */
export function webhookUrlFault(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use https (or http)';
  if (!url.hostname) return 'must name a host';
  if (url.username || url.password) return 'must not carry a user name or password';
  return null;
}

export class AddressRefusedError extends Error {}

/**
 * Every address `url`'s host resolves to, each allowed by `allowAddress`; AddressRefusedError
 * naming the first one refused, or the lookup's own error when the name does not resolve.
 */
export async function permittedAddresses(url: URL, lookup: LookupAll, allowAddress: (address: string) => boolean): Promise<LookupAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await lookup(host);
  if (addresses.length === 0) throw Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' });
  const refused = addresses.find((a) => !allowAddress(a.address));
  if (refused) throw new AddressRefusedError(`${host} resolves to a private or reserved address (${refused.address})`);
  return addresses;
}

export interface WebhookPost {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  lookup: LookupAll;
  allowAddress: (address: string) => boolean;
}

/** The HTTP status answered, or why none was (`error`). Never throws. */
export type WebhookPostResult = { status: number } | { status: null; error: string };

export async function postWebhook(request: WebhookPost): Promise<WebhookPostResult> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const url = new URL(request.url);
    const addresses = await permittedAddresses(url, request.lookup, request.allowAddress);
    const status = await send(url, addresses, request, signal);
    return { status };
  } catch (err) {
    if (signal.aborted) return { status: null, error: `no answer within ${request.timeoutMs / 1000} s` };
    return { status: null, error: err instanceof Error ? err.message : String(err) };
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

function send(url: URL, addresses: LookupAddress[], request: WebhookPost, signal: AbortSignal): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  const body = Buffer.from(request.body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(body.length) },
      lookup: pinnedLookup(addresses),
      // No pooled socket from an earlier, differently resolved request.
      agent: false,
      signal,
    });
    req.once('response', (res) => {
      // Only the status matters; the answer's body is not read (nor kept).
      res.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end(body);
  });
}
