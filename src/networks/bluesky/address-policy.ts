import type { AppContext } from '../../context.js';
import { GuardedFetchError, guardedFetchApi, type LookupAll, permittedAddresses, systemLookup } from '../../lib/guarded-fetch.js';
import { isPublicAddress } from '../../lib/ip-policy.js';
import { PublishError } from '../platform.js';
import { requestDeadlineMs } from './sessions.js';

/**
 * Every Bluesky request meets the address policy of media and webhooks (decisions.md "Security
 * rules"): the agent's fetch is the guarded fetch (public addresses only, unless
 * SKEIN_ALLOW_PRIVATE_MEDIA; each redirect checked; the socket pinned to the checked addresses;
 * answers capped; a deadline), and the PDS an account's DID document names is checked wherever
 * an agent is made for it. The one exception is the operator's own BLUESKY_SERVICE_URL, which
 * is configuration, not anyone's say-so: its origin may be on any address.
 */
export interface BlueskyAddressPolicy {
  /** SKEIN_ALLOW_PRIVATE_MEDIA. */
  allowPrivate: boolean;
  /** BLUESKY_SERVICE_URL: its origin is trusted. */
  trustedServiceUrl: string;
  lookup?: LookupAll;
}

/** Where Bluesky calls may go: public addresses, or any under SKEIN_ALLOW_PRIVATE_MEDIA; BLUESKY_SERVICE_URL's origin is trusted. */
export function blueskyAddressPolicy(ctx: Pick<AppContext, 'config' | 'dnsLookup'>): BlueskyAddressPolicy {
  return { allowPrivate: ctx.config.media.allowPrivate, trustedServiceUrl: ctx.config.bluesky.serviceUrl, lookup: ctx.dnsLookup };
}

/** The largest XRPC answer read (records, sessions, DID documents are a few KB). */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function allowAddress(policy: BlueskyAddressPolicy) {
  const trusted = originOf(policy.trustedServiceUrl);
  return (address: string, url: URL) => policy.allowPrivate || url.origin === trusted || isPublicAddress(address);
}

/** The agent's fetch: the guarded fetch under `policy`, with the agent's deadline per request. */
export function blueskyFetch(policy: BlueskyAddressPolicy, timeoutMs: number): typeof globalThis.fetch {
  return guardedFetchApi({
    allowAddress: allowAddress(policy),
    ...(policy.lookup ? { lookup: policy.lookup } : {}),
    timeoutMs: (url) => requestDeadlineMs(timeoutMs, url.href),
    maxRedirects: 3,
    maxResponseBytes: MAX_RESPONSE_BYTES,
  });
}

/**
 * Whether `url` may be a PDS (or a service) Skein talks to: http(s), and every address its host
 * resolves to allowed. A name that does not resolve, or a resolver failure, is not allowed.
 */
export async function pdsAllowed(policy: BlueskyAddressPolicy, url: string): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  // Nothing to resolve when any address would do (the tests' setting, the operator's own service).
  if (policy.allowPrivate || parsed.origin === originOf(policy.trustedServiceUrl)) return true;
  try {
    await permittedAddresses(parsed, policy.lookup ?? systemLookup, allowAddress(policy));
    return true;
  } catch (err) {
    if (err instanceof GuardedFetchError) return false;
    throw err;
  }
}

/** Refuses to make an agent for a PDS the policy does not allow (a PublishError the publisher understands). */
export async function requirePdsAllowed(policy: BlueskyAddressPolicy, url: string): Promise<void> {
  if (await pdsAllowed(policy, url)) return;
  throw new PublishError(
    'auth',
    'AUTH_FAILED',
    `Bluesky: the account's server ${originOf(url) ?? 'URL'} is not at a public address (SKEIN_ALLOW_PRIVATE_MEDIA=1 allows private ones, for tests); reconnect the account`,
  );
}
