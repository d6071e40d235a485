import type { LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { LookupAll } from './guarded-fetch.js';

/**
 * Skein's name resolution for every address a user or a network named (decisions.md "Security
 * rules"): DNS queries made by c-ares on the event loop (node:dns `Resolver`, resolve4 and
 * resolve6), never `dns.lookup`, whose getaddrinfo calls occupy libuv's four threads (shared
 * with every file operation) for as long as a name server takes to not answer. Each query has
 * its own timeout and number of tries, at most `concurrency` names are resolved at once (the
 * rest wait their turn), and answers (and "no such name") are kept a short while.
 *
 * `localhost` and its subdomains are loopback without a query (RFC 6761); the hosts file and
 * the resolver's search domains are not consulted, as no DNS query consults them.
 */

export interface NameResolverOptions {
  /** Per try, per query (c-ares). */
  timeoutMs: number;
  /** Tries per name server. */
  tries: number;
  /** Names resolved at once, process-wide (per resolver). */
  concurrency: number;
  /** Names whose answers are kept. */
  cacheSize: number;
  /** How long an answer is kept at most (a shorter DNS TTL wins). */
  cacheTtlMs: number;
  /** Name servers (`host:port`); the system's (resolv.conf) when absent. */
  servers?: string[];
  now?: () => number;
}

const NAME_RESOLVER_DEFAULTS: NameResolverOptions = { timeoutMs: 2_000, tries: 2, concurrency: 8, cacheSize: 500, cacheTtlMs: 60_000 };

/** The errors that mean "this name has no address", as dns.lookup says them. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

interface Cached {
  expires: number;
  addresses: LookupAddress[] | null;
}

export interface NameResolver {
  lookup: LookupAll;
  /** Cancels every query in flight and waiting (each fails with ECANCELLED). */
  close(): void;
}

export function createNameResolver(options: NameResolverOptions = NAME_RESOLVER_DEFAULTS): NameResolver {
  const now = options.now ?? Date.now;
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  if (options.servers) resolver.setServers(options.servers);
  const cache = new Map<string, Cached>();
  const inFlight = new Map<string, Promise<LookupAddress[]>>();
  const waiting: Array<() => void> = [];
  let active = 0;
  let closed = false;

  async function slot<T>(work: () => Promise<T>): Promise<T> {
    if (active >= options.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      if (closed) throw Object.assign(new Error('the name resolver is closed'), { code: 'ECANCELLED' });
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  }

  function remember(name: string, addresses: LookupAddress[] | null, ttlSeconds: number | null): void {
    const ttlMs = ttlSeconds === null ? options.cacheTtlMs : Math.min(options.cacheTtlMs, ttlSeconds * 1000);
    if (ttlMs <= 0 || options.cacheSize <= 0) return;
    cache.delete(name);
    cache.set(name, { expires: now() + ttlMs, addresses });
    // The oldest entry goes first (a Map keeps insertion order).
    while (cache.size > options.cacheSize) cache.delete(cache.keys().next().value!);
  }

  async function query(name: string): Promise<LookupAddress[]> {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(name, { ttl: true }), resolver.resolve6(name, { ttl: true })]);
    const records = [
      ...(v4.status === 'fulfilled' ? v4.value.map((r) => ({ address: r.address, family: 4, ttl: r.ttl })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((r) => ({ address: r.address, family: 6, ttl: r.ttl })) : []),
    ];
    if (records.length > 0) {
      const addresses = records.map(({ address, family }) => ({ address, family }));
      remember(name, addresses, Math.min(...records.map((r) => r.ttl)));
      return addresses;
    }
    const failures = [v4, v6].flatMap((r) => (r.status === 'rejected' ? [r.reason as NodeJS.ErrnoException] : []));
    const other = failures.find((err) => !NO_SUCH_NAME.has(String(err.code)));
    // A timeout or a server failure says nothing about the name: not kept, passed on as it is.
    if (other) throw other;
    remember(name, null, null);
    throw notFound(name);
  }

  const lookup: LookupAll = async (hostname) => {
    const name = hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
    const family = isIP(name);
    if (family) return [{ address: name, family }];
    if (name === 'localhost' || name.endsWith('.localhost'))
      return [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    const cached = cache.get(name);
    if (cached && cached.expires > now()) {
      if (cached.addresses === null) throw notFound(name);
      return cached.addresses;
    }
    // One query per name at a time, however many ask for it.
    let pending = inFlight.get(name);
    if (!pending) {
      pending = slot(() => query(name)).finally(() => inFlight.delete(name));
      inFlight.set(name, pending);
    }
    return pending;
  };

  return {
    lookup,
    close: () => {
      closed = true;
      resolver.cancel();
    },
  };
}

function notFound(name: string): Error {
  return Object.assign(new Error(`queryA ENOTFOUND ${name}`), { code: 'ENOTFOUND', hostname: name });
}
