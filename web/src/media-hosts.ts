/**
 * Whether Threads could fetch a media URL, judged by its host alone, so the editor can say so as
 * soon as the item is added instead of when the post is saved. The server stays the authority
 * (it also resolves names, and SKEIN_ALLOW_PRIVATE_MEDIA turns its check off): this only spots
 * the addresses that can never work from Meta's servers, above all an upload's URL when
 * PUBLIC_URL is a loopback or private address (as it is by default, `http://HOST:PORT`).
 */

/** Why Threads cannot fetch `raw` (its host is loopback, private, link-local or local-only), or null. */
export function unreachableHost(raw: string): string | null {
  let host: string;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    host = url.hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host.startsWith('[') && host.endsWith(']')) return ipv6Reason(host.slice(1, -1));
  const v4 = ipv4(host);
  if (v4) return ipv4Reason(v4);
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is this machine (loopback)`;
  if (/\.(local|internal|lan|home\.arpa)$/.test(host)) return `${host} is a local network name`;
  if (!host.includes('.')) return `${host} is not a public host name`;
  return null;
}

function ipv4(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

function ipv4Reason([a, b]: number[]): string | null {
  const ip = (what: string) => `the address is ${what}`;
  if (a === 127) return ip('loopback (this machine)');
  if (a === 0) return ip('unspecified');
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return ip('private');
  if (a === 100 && b! >= 64 && b! <= 127) return ip('shared (carrier-grade NAT)');
  if (a === 169 && b === 254) return ip('link-local');
  return null;
}

function ipv6Reason(ip: string): string | null {
  // The URL parser writes an IPv4-mapped address in hex (`::ffff:7f00:1`): judged as the IPv4 one.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (mapped) {
    const hi = Number.parseInt(mapped[1]!, 16);
    const lo = Number.parseInt(mapped[2]!, 16);
    return ipv4Reason([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  }
  if (ip === '::1') return 'the address is loopback (this machine)';
  if (ip === '::') return 'the address is unspecified';
  if (/^f[cd]/.test(ip)) return 'the address is private (unique local)';
  if (/^fe[89ab]/.test(ip)) return 'the address is link-local';
  return null;
}
