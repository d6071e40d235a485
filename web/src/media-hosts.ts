/**
 * Whether Threads could fetch a media URL, judged by its host alone, so the editor can say so as
 * soon as the item is added instead of when the post is saved. The server stays the authority
 * (it also resolves names, and SKEIN_ALLOW_PRIVATE_MEDIA turns its check off): this only spots
 * the addresses that can never work from Meta's servers, above all an upload's URL when
 * PUBLIC_URL is a loopback or private address (as it is by default, `http://HOST:PORT`).
 */

import { NETWORKS } from '../../src/networks/index.js';
import type { Network } from './api/providers.js';

/** Whether the network fetches a post's media from its URL itself (Threads): its entry in src/networks/ says. */
export function fetchesMediaUrls(network: Network): boolean {
  return NETWORKS[network].fetchesMediaUrls;
}

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
  // As the server's policy (src/lib/ip-policy.ts): global unicast (2000::/3) only, minus its
  // non-global ranges; NAT64 (64:ff9b::/96) and 6to4 (2002::/16) judged by the IPv4 they carry.
  const groups = hextets(ip);
  if (!groups) return null;
  const [g0, g1, , , , , g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (g0 === 0x64 && g1 === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return ipv4Reason([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
  if (g0 === 0x2002) return ipv4Reason([g1 >> 8, g1 & 0xff, groups[2]! >> 8, groups[2]! & 0xff]);
  if (g0 < 0x2000 || g0 > 0x3fff) return 'the address is not a global one';
  if ((g0 === 0x2001 && (g1 <= 0x1ff || g1 === 0xdb8)) || (g0 === 0x3fff && g1 < 0x1000)) return 'the address is reserved';
  return null;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (hex, `::` once), or null. */
function hextets(ip: string): number[] | null {
  const [head = '', tail] = ip.split('::');
  const part = (text: string) => (text ? text.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const before = part(head);
  const after = tail === undefined ? [] : part(tail);
  const zeros = tail === undefined ? 0 : 8 - before.length - after.length;
  const groups = [...before, ...new Array<number>(Math.max(zeros, 0)).fill(0), ...after];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}
