import type { Readable } from 'node:stream';

/** Inclusive byte positions, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded media's bytes live: a folder (SKEIN_DATA_DIR/media) or an S3-compatible bucket
 * (SKEIN_MEDIA_S3_BUCKET, shared by every instance and worker). Keys are `<id>.<ext>`.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /**
   * Stores `body` under `key`, streaming (never whole in memory). Resolves once the bytes are
   * durable; rejects when the stream fails (an upload cut off, a limit passed), and then nothing
   * is left behind: no object, no partial file, no temporary file.
   */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** The stored bytes (or the range of them), or null when the key holds nothing. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  /** The stored size, or null when the key holds nothing. */
  size(key: string): Promise<number | null>;
  /** Removes the key; nothing there is fine. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

/** `<id>.<ext>` and nothing else: a key never names a folder or climbs out of one. */
const STORAGE_KEY = /^[A-Za-z0-9_-]{1,64}\.[a-z0-9]{1,8}$/;

export function checkKey(key: string): string {
  if (!STORAGE_KEY.test(key)) throw new Error(`not a media storage key: ${JSON.stringify(key)}`);
  return key;
}

export interface MediaStorageConfig {
  dir: string;
  s3: { bucket: string; endpoint: string | null; region: string } | null;
}

/** The configured backend; the S3 one (and the AWS SDK) is loaded only when a bucket is set. */
export async function openMediaStorage(config: MediaStorageConfig): Promise<MediaStorage> {
  if (config.s3) {
    const { S3MediaStorage } = await import('./s3-storage.js');
    return new S3MediaStorage(config.s3);
  }
  const { LocalMediaStorage } = await import('./local-storage.js');
  return new LocalMediaStorage(config.dir);
}
