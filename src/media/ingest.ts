import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { checkImage, LIMITS, type MediaKindInfo, SNIFF_BYTES, sniffKind, tooLarge, unsupported } from './kinds.js';
import { Mp4Scanner } from './mp4-scan.js';
import type { MediaStorage } from './storage.js';

export interface StoredMedia extends MediaKindInfo {
  bytes: number;
  width: number;
  height: number;
  durationMs: number | null;
  sha256: string;
  storageKey: string;
}

/**
 * Stores one upload read from `body`: the kind from its first bytes, then an image (at most
 * 8 MiB) is read whole, checked and stored, a video streams to the storage while it is counted,
 * hashed and scanned (never whole in memory). Over a limit is 413 at once, without reading the
 * rest; anything that is not a supported kind, or does not decode, is 415. On any failure,
 * the body cut off included, nothing is left in the storage.
 *
 * The body is never destroyed here (its socket carries the answer); the caller closes the
 * connection when the answer leaves the rest of the body unread.
 */
export async function ingestMedia(body: Readable, storage: MediaStorage, keyFor: (ext: string) => string): Promise<StoredMedia> {
  const chunks = body.iterator({ destroyOnReturn: false });
  const head: Buffer[] = [];
  let headBytes = 0;
  while (headBytes < SNIFF_BYTES) {
    const next = await chunks.next();
    if (next.done) break;
    head.push(next.value as Buffer);
    headBytes += (next.value as Buffer).length;
  }
  const first = Buffer.concat(head);
  if (first.length === 0) throw unsupported('The upload is empty.');
  const kind = sniffKind(first);
  if (!kind) throw unsupported('The file is not an image or video Skein takes.');
  return kind.type === 'IMAGE' ? storeImage(kind, head, headBytes, chunks, storage, keyFor) : storeVideo(kind, head, chunks, storage, keyFor);
}

async function storeImage(
  kind: MediaKindInfo,
  head: Buffer[],
  headBytes: number,
  chunks: AsyncIterator<unknown>,
  storage: MediaStorage,
  keyFor: (ext: string) => string,
): Promise<StoredMedia> {
  const parts = [...head];
  let total = headBytes;
  if (total > LIMITS.imageBytes) throw tooLarge('IMAGE');
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    total += (next.value as Buffer).length;
    if (total > LIMITS.imageBytes) throw tooLarge('IMAGE');
    parts.push(next.value as Buffer);
  }
  const image = await checkImage(Buffer.concat(parts, total), kind);
  const storageKey = keyFor(kind.ext);
  await storage.put(storageKey, Readable.from([image.bytes]), kind.mimeType);
  return {
    ...kind,
    bytes: image.bytes.length,
    width: image.width,
    height: image.height,
    durationMs: null,
    sha256: createHash('sha256').update(image.bytes).digest('hex'),
    storageKey,
  };
}

async function storeVideo(
  kind: MediaKindInfo,
  head: Buffer[],
  chunks: AsyncIterator<unknown>,
  storage: MediaStorage,
  keyFor: (ext: string) => string,
): Promise<StoredMedia> {
  const hash = createHash('sha256');
  const scanner = new Mp4Scanner();
  let total = 0;
  let refusal: Error | null = null;
  let info: { durationMs: number; width: number; height: number } | null = null;
  const pass = (chunk: Buffer): Buffer => {
    total += chunk.length;
    if (total > LIMITS.videoBytes) {
      refusal = tooLarge('VIDEO');
      throw refusal;
    }
    hash.update(chunk);
    scanner.push(chunk);
    return chunk;
  };
  // The storage reads this stream; a refusal thrown in it fails the write, which then leaves
  // nothing behind (storage.ts), and is what the caller is answered.
  async function* checked(): AsyncGenerator<Buffer> {
    for (const chunk of head) yield pass(chunk);
    for (;;) {
      const next = await chunks.next();
      if (next.done) break;
      yield pass(next.value as Buffer);
    }
    try {
      info = scanner.finish();
    } catch (err) {
      refusal = unsupported(`The ${kind.mimeType} file cannot be read: ${(err as Error).message}.`);
      throw refusal;
    }
  }
  const storageKey = keyFor(kind.ext);
  try {
    await storage.put(storageKey, Readable.from(checked(), { objectMode: false }), kind.mimeType);
  } catch (err) {
    throw refusal ?? err;
  }
  const movie = info as { durationMs: number; width: number; height: number } | null;
  if (!movie) throw unsupported(`The ${kind.mimeType} file cannot be read.`);
  return { ...kind, bytes: total, width: movie.width, height: movie.height, durationMs: movie.durationMs, sha256: hash.digest('hex'), storageKey };
}
