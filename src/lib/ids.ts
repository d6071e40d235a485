import { randomBytes } from 'node:crypto';

/**
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Time-sortable and
 * opaque. A counter in the random part keeps ids made within one millisecond in order.
 */
let lastMs = -1;
let seq = 0;

/** Whether `value` is shaped as the ids newId makes (a Skein id, as opposed to a network's). */
export function isSkeinId(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(value);
}

/** Random bytes for this many ids are drawn at once: one `randomBytes` call per id cost more than the rest of newId. */
const POOL_IDS = 256;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** 16 random bytes no other id has used. */
function randomBlock(): Buffer {
  if (poolOffset + 16 > pool.length) {
    pool = randomBytes(16 * POOL_IDS);
    poolOffset = 0;
  }
  poolOffset += 16;
  return pool.subarray(poolOffset - 16, poolOffset);
}

export function newId(nowMs: number = Date.now()): string {
  const bytes = randomBlock();
  if (nowMs <= lastMs) {
    nowMs = lastMs;
    seq = (seq + 1) & 0xfff;
    if (seq === 0) nowMs = ++lastMs;
  } else {
    seq = bytes.readUInt16BE(6) & 0x7ff;
  }
  lastMs = nowMs;
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = 0x70 | (seq >> 8);
  bytes[7] = seq & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
