import { createHash } from 'node:crypto';

/**
 * Deterministic AT Protocol record keys.
 *
 * Posts are written with `putRecord` at a record key computed from the Skein post id, so a
 * retry after an unknown outcome lands on the same key and cannot create a second post.
 * Posts' and reposts' collections require a TID key: 64 bits (top bit 0, 53 bits of
 * microseconds since the epoch, 10 bits of clock id) in base32-sortable, 13 characters.
 */

const S32 = '234567abcdefghijklmnopqrstuvwxyz';
const TID_RE = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const UUID_V7_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const MAX_MICROS = 2n ** 53n - 1n;
/** Slots inside one millisecond: 1000 microseconds × 1024 clock ids. */
const SLOTS_PER_MS = 1000 * 1024;
/** 4096 values of the UUIDv7 `rand_a` field × 250 = SLOTS_PER_MS exactly (see postRkey). */
const RAND_A_VALUES = 4096;
const RAND_B_BUCKETS = SLOTS_PER_MS / RAND_A_VALUES;
const REPOST_SALT = 'skein:repost:v1:';

export function isTid(value: string): boolean {
  return TID_RE.test(value);
}

/** Encodes a timestamp (µs) and clock id as a TID. */
export function encodeTid(micros: bigint, clockId: number): string {
  if (micros < 0n || micros > MAX_MICROS) throw new RangeError('TID timestamp out of range');
  if (!Number.isInteger(clockId) || clockId < 0 || clockId > 1023) throw new RangeError('TID clock id out of range');
  return toS32(micros, 11) + toS32(BigInt(clockId), 2);
}

export function decodeTid(tid: string): { micros: bigint; clockId: number } {
  if (!isTid(tid)) throw new RangeError(`not a TID: ${tid}`);
  const value = fromS32(tid);
  return { micros: value >> 10n, clockId: Number(value & 1023n) };
}

/**
 * The record key of a post, from its UUIDv7 id. The TID keeps the id's millisecond, so keys
 * sort like the ids; the 1,024,000 (microsecond, clock id) slots inside that millisecond come
 * from the id's random bits. `rand_a` (12 bits, which Skein's generator uses as a counter for
 * ids made in the same millisecond) maps one-to-one onto the slot modulo 4096, so ids from one
 * generator never collide; `rand_b` picks one of 250 buckets for ids from different processes.
 */
export function postRkey(postId: string): string {
  if (!UUID_V7_RE.test(postId)) throw new RangeError(`post id is not a UUIDv7: ${postId}`);
  const hex = postId.replace(/-/g, '');
  const ms = BigInt(`0x${hex.slice(0, 12)}`);
  const randA = Number.parseInt(hex.slice(13, 16), 16);
  const randB = BigInt(`0x${hex.slice(16)}`) & (2n ** 62n - 1n);
  const slot = randA + RAND_A_VALUES * Number(randB % BigInt(RAND_B_BUCKETS));
  return tidInMillisecond(ms, slot);
}

/**
 * The record key of the repost of a post, from the post's at:// URI (whose key Skein derived
 * from the post id). Hashing with a fixed salt keeps it deterministic, so a repeated repost
 * writes the same key and cannot double-repost.
 */
export function repostRkey(subjectUri: string): string {
  const digest = createHash('sha256')
    .update(REPOST_SALT + subjectUri)
    .digest();
  const subjectKey = subjectUri.split('/').pop() ?? '';
  if (!isTid(subjectKey)) {
    const micros = digest.readBigUInt64BE(0) & MAX_MICROS;
    return encodeTid(micros, digest.readUInt16BE(8) & 1023);
  }
  const ms = decodeTid(subjectKey).micros / 1000n;
  return tidInMillisecond(ms, digest.readUInt32BE(0) % SLOTS_PER_MS);
}

function tidInMillisecond(ms: bigint, slot: number): string {
  const micros = ms * 1000n + BigInt(slot % 1000);
  return encodeTid(micros, Math.floor(slot / 1000));
}

function toS32(value: bigint, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = S32[Number(rest & 31n)] + out;
    rest >>= 5n;
  }
  return out;
}

function fromS32(text: string): bigint {
  let value = 0n;
  for (const char of text) value = (value << 5n) | BigInt(S32.indexOf(char));
  return value;
}
