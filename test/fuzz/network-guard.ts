import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { isIP } from 'node:net';

/**
 * The fuzzer sends whatever a user could: a Bluesky service URL, media URLs, OAuth codes. No
 * request of it may leave the machine: fetch to anything but loopback fails as a refused
 * connection would, and name lookups fail as for an unknown name. Each attempt is counted, so
 * the run can report one reaching further than the app's own address rules should allow.
 */
export const escapes: string[] = [];

const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);
let installed = false;

export function installNetworkGuard(): void {
  if (installed || process.env.FUZZ_NO_GUARD) return;
  installed = true;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!LOOPBACK.has(url.hostname)) {
      escapes.push(`fetch ${url.origin}`);
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error(`connect ECONNREFUSED ${url.host} (fuzz network guard)`), { code: 'ECONNREFUSED' }),
      });
    }
    return realFetch(input, init);
  }) as typeof fetch;

  const refuse = (host: string) => {
    escapes.push(`lookup ${host}`);
    return Object.assign(new Error(`getaddrinfo ENOTFOUND ${host} (fuzz network guard)`), { code: 'ENOTFOUND', hostname: host });
  };
  const answer = (host: string, all: boolean) => {
    const address = isIP(host) ? host : host === 'localhost' ? '127.0.0.1' : null;
    if (address === null) return null;
    const family = isIP(address) || 4;
    return all ? [{ address, family }] : { address, family };
  };
  dns.promises.lookup = (async (host: string, options?: { all?: boolean }) => {
    const found = answer(host, options?.all === true);
    if (found === null) throw refuse(host);
    return found;
  }) as typeof dns.promises.lookup;
  dns.lookup = ((host: string, options: unknown, callback?: (...args: unknown[]) => void) => {
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    const found = answer(host, all);
    process.nextTick(() => {
      if (found === null) cb(refuse(host));
      else if (Array.isArray(found)) cb(null, found);
      else cb(null, found.address, found.family);
    });
  }) as typeof dns.lookup;
  syncBuiltinESMExports();
}
