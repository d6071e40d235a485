import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses a media download may connect to. Anything that is not a plain public
 * unicast address is refused, so a media URL cannot make Skein reach its own host, the local
 * network or a cloud metadata service (SSRF).
 */

type Range = readonly [prefix: string, bits: number];

/** IPv4 ranges that are not public unicast (RFC 6890 and friends). */
const V4_REFUSED: readonly Range[] = [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, includes cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes broadcast 255.255.255.255
];

/**
 * IPv6 is an allow-list: global unicast (2000::/3) only, minus its ranges that are not global
 * (IANA's IPv6 special-purpose registry). Everything outside 2000::/3 (loopback, unique local,
 * link-local, multicast, the local-use NAT64 prefix 64:ff9b:1::/48, discard-only, unassigned
 * space...) is refused, but for the forms that carry an IPv4 address, checked by that address.
 */
const V6_GLOBAL_UNICAST: Range = ['2000::', 3];
const V6_NOT_GLOBAL: readonly Range[] = [
  ['2001::', 23], // IETF protocol assignments: Teredo (its IPv4 part is obfuscated), benchmarking, ORCHID...
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
];

export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, ''); // drop an IPv6 zone id such as %eth0
  if (isIPv4(bare)) return isPublicV4(v4ToBigInt(bare));
  if (isIPv6(bare)) return isPublicV6(v6ToBigInt(bare));
  return false;
}

function isPublicV4(value: bigint): boolean {
  return !V4_REFUSED.some(([prefix, bits]) => inRange(value, v4ToBigInt(prefix), bits, 32));
}

function isPublicV6(value: bigint): boolean {
  const embedded = embeddedV4(value);
  if (embedded !== null) return isPublicV4(embedded);
  if (!inRange(value, v6ToBigInt(V6_GLOBAL_UNICAST[0]), V6_GLOBAL_UNICAST[1], 128)) return false;
  return !V6_NOT_GLOBAL.some(([prefix, bits]) => inRange(value, v6ToBigInt(prefix), bits, 128));
}

/**
 * The IPv4 address inside IPv4-mapped (::ffff:a.b.c.d), well-known NAT64 (64:ff9b::a.b.c.d) and
 * 6to4 (2002:aabb:ccdd::) addresses: these reach an IPv4 host, so that host is what must be
 * checked. (The deprecated IPv4-compatible ::a.b.c.d is outside 2000::/3: refused.)
 */
function embeddedV4(value: bigint): bigint | null {
  const low32 = value & 0xffffffffn;
  if (inRange(value, v6ToBigInt('::ffff:0:0'), 96, 128)) return low32;
  if (inRange(value, v6ToBigInt('64:ff9b::'), 96, 128)) return low32;
  if (inRange(value, v6ToBigInt('2002::'), 16, 128)) return (value >> 80n) & 0xffffffffn;
  return null;
}

function inRange(value: bigint, prefix: bigint, bits: number, width: number): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === prefix >> shift;
}

function v4ToBigInt(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** Parses a valid IPv6 text form (with `::` and an optional trailing dotted quad). */
function v6ToBigInt(address: string): bigint {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = Number(v4ToBigInt(dotted[1]!));
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : new Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].reduce((acc, group) => (acc << 16n) | BigInt(`0x${group}`), 0n);
}

/**
 * The one address rule for every outgoing connection a user's URL can cause (media downloads,
 * webhooks): public unicast only, or anything when SKEIN_ALLOW_PRIVATE_MEDIA is set (tests).
 */
export function addressPolicy(allowPrivate: boolean): (address: string) => boolean {
  return allowPrivate ? () => true : isPublicAddress;
}
