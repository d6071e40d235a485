import { type GuardedFetchError, guardedFetch, type LookupAll, shownUrl } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { BLUESKY_IMAGE_LIMITS, IMAGE_MIMES, InvalidImageError, type PreparedImage, prepareImage } from '../../media/images.js';
import { PublishError } from '../platform.js';

/**
 * Downloads a post's image from the URL the user gave through the guarded fetch (public
 * addresses only unless allowPrivate, pinned, redirects re-checked, a size cap), then makes it
 * Bluesky-ready with prepareImage: upright, without metadata, scaled and re-encoded under
 * 1,000,000 bytes and 2,000 px.
 */

/** What is downloaded at most: the upload limit for images. Larger photos are scaled down after. */
export const MAX_DOWNLOAD_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const DEFAULT_TIMEOUT_MS = 20_000;
/** What some storage services send for any upload; the bytes decide then. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const JPEG_ALIASES = new Set(['image/jpg', 'image/pjpeg']);

export interface MediaFetchOptions {
  /** SKEIN_ALLOW_PRIVATE_MEDIA: let URLs reach private and loopback addresses (tests only). */
  allowPrivate: boolean;
  timeoutMs?: number;
  /** For a whole video download (video.ts); 5 minutes by default. */
  videoTimeoutMs?: number;
  /** Where a video is written while it is checked and uploaded; the system's temporary folder by default. */
  tempDir?: string;
  maxBytes?: number;
  /** Name resolution, all addresses; dns.lookup by default. */
  lookup?: LookupAll;
  /** Replaces the public-address rule; for tests that need a finer policy than allowPrivate. */
  allowAddress?: (address: string) => boolean;
}

/**
 * Image bytes made Bluesky-ready (upright, no metadata, under 1,000,000 bytes and 2000 px);
 * `source` names them in errors. Downloaded images and uploads read from storage alike.
 */
export async function prepareForBluesky(bytes: Uint8Array, source: string): Promise<PreparedImage> {
  try {
    return await prepareImage(bytes, BLUESKY_IMAGE_LIMITS);
  } catch (err) {
    if (err instanceof InvalidImageError) throw invalidMedia(`${err.message}: ${shownUrl(source)}`);
    throw err;
  }
}

/** The bytes at `rawUrl`, when the answer is a 200 of an image type (or a generic one). */
export async function downloadImageBytes(rawUrl: string, options: MediaFetchOptions): Promise<Uint8Array> {
  try {
    const res = await guardedFetch(rawUrl, {
      allowAddress: options.allowAddress ?? addressPolicy(options.allowPrivate),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
      headers: { accept: IMAGE_MIMES.join(', ') },
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    try {
      checkStatus(res.status);
      checkDeclaredType(res.contentType);
    } catch (err) {
      res.close();
      throw err;
    }
    return await res.read(options.maxBytes ?? MAX_DOWNLOAD_BYTES);
  } catch (err) {
    if (err instanceof PublishError) throw err;
    throw mediaFetchError(err as GuardedFetchError, rawUrl);
  }
}

export function checkStatus(status: number): void {
  if (status === 200) return;
  const text = `media server answered HTTP ${status}`;
  if (status >= 500 || status === 408 || status === 429) throw new PublishError('transient', 'MEDIA_UNAVAILABLE', text);
  throw invalidMedia(text);
}

function checkDeclaredType(declared: string): void {
  const known = GENERIC_TYPES.has(declared) || JPEG_ALIASES.has(declared) || (IMAGE_MIMES as readonly string[]).includes(declared);
  if (!known) throw invalidMedia(`media content type ${declared} is not JPEG, PNG, GIF or WebP`);
}

function invalidMedia(message: string): PublishError {
  return new PublishError('permanent', 'INVALID_MEDIA', message);
}

/** A refused or missing host, a bad URL or too many bytes will not change; anything else may pass. */
export function mediaFetchError(err: GuardedFetchError, rawUrl: string): PublishError {
  const where = shownUrl(rawUrl);
  switch (err.fault) {
    case 'bad-url':
    case 'refused-address':
    case 'too-many-redirects':
    case 'too-large':
      return new PublishError('permanent', 'INVALID_MEDIA', `${err.message} (media ${where})`, { cause: err });
    case 'not-found':
      return new PublishError('permanent', 'INVALID_MEDIA', `media host not found: ${err.message}`, { cause: err });
    case 'timeout':
      return new PublishError('transient', 'MEDIA_UNAVAILABLE', `media download timed out: ${where}`, { cause: err });
    default:
      return new PublishError('transient', 'MEDIA_UNAVAILABLE', `media download failed: ${err.message}`, { cause: err });
  }
}
