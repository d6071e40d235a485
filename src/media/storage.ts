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
