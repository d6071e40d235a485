import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { MediaFileRow } from '../../db/schema/index.js';
import { ownUpload } from '../../lib/own-upload.js';
import type { MediaStorage } from '../../media/storage.js';
import { PublishError } from '../platform.js';
import { overBlueskyVideoLimits, overLimitsError, spool, type VideoForBluesky } from './video.js';

/** What reading an upload needs: this server's public URL, the upload rows and the storage. */
export interface StoredMediaSource {
  publicUrl: string;
  storage: MediaStorage;
  find(id: string): Promise<MediaFileRow | undefined>;
}

/** The upload row a URL of this server's `<PUBLIC_URL>/media/` names; null for any other URL. */
async function storedUpload(url: string, source: StoredMediaSource | null): Promise<MediaFileRow | null> {
  if (!source) return null;
  const own = ownUpload(url, source.publicUrl);
  if (!own) return null;
  const row = await source.find(own.id);
  if (!row || row.ext !== own.ext) throw new PublishError('permanent', 'INVALID_MEDIA', `the upload ${url} no longer exists`);
  return row;
}

/** The upload's bytes as the storage streams them. */
async function openStored(url: string, row: MediaFileRow, storage: MediaStorage): Promise<Readable> {
  let body: Awaited<ReturnType<MediaStorage['get']>>;
  try {
    body = await storage.get(row.storage_key);
  } catch (err) {
    throw new PublishError('transient', 'MEDIA_UNAVAILABLE', `reading the upload ${url} from the media storage failed: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (!body) throw new PublishError('permanent', 'INVALID_MEDIA', `the bytes of the upload ${url} are missing from the media storage`);
  return body;
}

async function readBytes(url: string, row: MediaFileRow, storage: MediaStorage): Promise<Uint8Array> {
  return new Uint8Array(await buffer(await openStored(url, row, storage)));
}

/**
 * A media URL that is one of this server's uploads (`<PUBLIC_URL>/media/<id>.<ext>`) is read
 * from the media storage, never over the network (decisions.md "Media"): the bytes were checked
 * and cleaned of metadata at upload; they are fitted to Bluesky's limits like any other image.
 * Null for any other URL (downloaded then).
 */
export async function readStoredImage(url: string, source: StoredMediaSource | null): Promise<Uint8Array | null> {
  const row = await storedUpload(url, source);
  if (!row) return null;
  if (row.type !== 'IMAGE') throw new PublishError('permanent', 'INVALID_MEDIA', `the upload ${url} is a video; this post takes images`);
  return readBytes(url, row, source!.storage);
}

/** Any upload of this server (image or video) with its row, read from the media storage; null for any other URL. */
export async function readStoredUpload(url: string, source: StoredMediaSource | null): Promise<{ bytes: Uint8Array; row: MediaFileRow } | null> {
  const row = await storedUpload(url, source);
  return row ? { bytes: await readBytes(url, row, source!.storage), row } : null;
}

/**
 * Any upload of this server with its row, its bytes not read yet: `open` streams them from the
 * media storage (a large video is sent as it is read, never whole in memory). Null for any other URL.
 */
export async function findStoredUpload(url: string, source: StoredMediaSource | null): Promise<{ row: MediaFileRow; open(): Promise<Readable> } | null> {
  const row = await storedUpload(url, source);
  return row ? { row, open: () => openStored(url, row, source!.storage) } : null;
}

/**
 * A video upload for Bluesky (at most 100 MB: checked at create, and again here for a post
 * written before the rules), copied from the media storage to a temporary file as it streams
 * (S3 or the local folder alike), never whole in memory; null for any other URL (downloaded
 * then: video.ts).
 */
export async function readStoredVideo(url: string, source: StoredMediaSource | null): Promise<VideoForBluesky | null> {
  const row = await storedUpload(url, source);
  if (!row) return null;
  if (row.type !== 'VIDEO') throw new PublishError('permanent', 'INVALID_MEDIA', `the upload ${url} is not a video`);
  const over = overBlueskyVideoLimits({ mimeType: row.mime_type, bytes: row.bytes, durationMs: row.duration_ms });
  if (over.length) throw overLimitsError(url, over);
  const body = await openStored(url, row, source!.storage);
  try {
    const file = await spool(body, row.mime_type);
    return { ...file, mimeType: row.mime_type, width: row.width, height: row.height };
  } catch (err) {
    throw new PublishError('transient', 'MEDIA_UNAVAILABLE', `reading the upload ${url} from the media storage failed: ${(err as Error).message}`, {
      cause: err,
    });
  }
}
