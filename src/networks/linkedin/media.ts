import { GuardedFetchError, guardedFetch, type LookupAll } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { IMAGE_MIMES, InvalidImageError, prepareImageAs } from '../../media/images.js';
import { readStoredUpload, type StoredMediaSource } from '../bluesky/stored-media.js';
import { type MediaItem, PublishError } from '../platform.js';
import { LINKEDIN } from './rules.js';

/**
 * A post's media as bytes for LinkedIn's uploads: this server's uploads from the media storage,
 * anything else through the guarded fetch. Images lose their metadata (decisions.md "Media"), and
 * one of a type LinkedIn does not take (WebP: its entry's `imageTypes`) is converted.
 */

const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
const MAX_VIDEO_BYTES = 500_000_000;
const DOWNLOAD_TIMEOUT_MS = 60_000;

export interface MediaSource {
  uploads: StoredMediaSource | null;
  allowPrivateMedia: boolean;
  lookup?: LookupAll;
}

export interface MediaBytes {
  type: 'IMAGE' | 'VIDEO';
  bytes: Uint8Array;
}

export async function readMedia(item: MediaItem, source: MediaSource): Promise<MediaBytes> {
  const stored = await readStoredUpload(item.url, source.uploads);
  if (stored?.row.type === 'VIDEO') return { type: 'VIDEO', bytes: stored.bytes };
  // An upload was cleaned when it was stored: only a type LinkedIn does not take needs the work again.
  if (stored) return { type: 'IMAGE', bytes: takes(stored.row.mime_type) ? stored.bytes : await cleanImage(stored.bytes, item.url) };
  const { bytes, mimeType } = await download(item.url, source);
  if (mimeType.startsWith('video/')) return { type: 'VIDEO', bytes };
  return { type: 'IMAGE', bytes: await cleanImage(bytes, item.url) };
}

const takes = (mimeType: string) => (LINKEDIN.imageTypes as readonly string[]).includes(mimeType);

/** An image upright, without its metadata, of a type LinkedIn takes; bytes that are no image fail the post. */
export async function cleanImage(bytes: Uint8Array, url: string): Promise<Uint8Array> {
  try {
    return (await prepareImageAs(bytes, IMAGE_MIMES.filter(takes))).bytes;
  } catch (err) {
    if (err instanceof InvalidImageError) throw new PublishError('permanent', 'INVALID_MEDIA', `${err.message}: ${url}`);
    throw err;
  }
}

async function download(url: string, source: MediaSource): Promise<{ bytes: Uint8Array; mimeType: string }> {
  try {
    const res = await guardedFetch(url, {
      allowAddress: addressPolicy(source.allowPrivateMedia),
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      maxRedirects: 3,
      ...(source.lookup ? { lookup: source.lookup } : {}),
    });
    if (res.status !== 200) {
      res.close();
      throw new PublishError(res.status >= 500 ? 'transient' : 'permanent', 'MEDIA_UNAVAILABLE', `downloading ${url} answered HTTP ${res.status}`);
    }
    const mimeType = res.contentType || 'application/octet-stream';
    return { bytes: await res.read(mimeType.startsWith('video/') ? MAX_VIDEO_BYTES : MAX_IMAGE_BYTES), mimeType };
  } catch (err) {
    if (err instanceof PublishError) throw err;
    const permanent = err instanceof GuardedFetchError && ['bad-url', 'refused-address', 'not-found', 'too-large'].includes(err.fault);
    throw new PublishError(permanent ? 'permanent' : 'transient', 'MEDIA_UNAVAILABLE', `downloading ${url} failed: ${(err as Error).message}`, { cause: err });
  }
}
