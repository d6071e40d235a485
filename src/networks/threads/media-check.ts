import { type GuardedFetchError, guardedFetch, type LookupAll, shownUrl } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { ownUpload } from '../../lib/own-upload.js';
import { PublishError } from '../platform.js';

/**
 * Threads fetches a post's media from Meta's servers, and a URL it cannot fetch makes a
 * container that fails minutes later with a vague error. So just before the container is made,
 * an outside URL is requested once, as Meta would (through the guarded fetch: public addresses,
 * redirects followed and each re-checked): a 4xx or a type that is not an image or a video fails
 * the post with MEDIA_UNREACHABLE naming the URL (without its query string, which may be a
 * credential) and the status; a timeout, a 5xx or a network error is transient (retried).
 * Skein's own uploads (`<PUBLIC_URL>/media/`) are not requested: their bytes are Skein's.
 */

export interface MediaCheckOptions {
  /** SKEIN_ALLOW_PRIVATE_MEDIA (tests). */
  allowPrivate: boolean;
  /** PUBLIC_URL: the URLs of Skein's own uploads (`<PUBLIC_URL>/media/<id>.<ext>`, told by ownUpload) are not requested. */
  publicUrl?: string;
  lookup?: LookupAll;
  timeoutMs?: number;
  /** Replaces the public-address rule; for tests that need a finer policy than allowPrivate. */
  allowAddress?: (address: string) => boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;
/** The answer's type decides; these say nothing, so Meta is left to judge the bytes. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export async function checkMediaReachable(url: string, options: MediaCheckOptions): Promise<void> {
  if (options.publicUrl && ownUpload(url, options.publicUrl)) return;
  const shown = shownUrl(url);
  let status: number;
  let type: string;
  try {
    const res = await guardedFetch(url, {
      allowAddress: options.allowAddress ?? addressPolicy(options.allowPrivate),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
      // The first bytes are enough to see the answer; a server without ranges answers 200.
      headers: { range: 'bytes=0-1023', accept: 'image/*, video/*' },
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    res.close();
    status = res.status;
    type = res.contentType;
  } catch (err) {
    throw fetchFailure(err as GuardedFetchError, shown);
  }
  if (status >= 500 || status === 408 || status === 429) {
    throw new PublishError('transient', 'MEDIA_UNREACHABLE', `Threads would not get ${shown} now: it answered HTTP ${status}.`);
  }
  if (status >= 400 || (status !== 200 && status !== 206)) {
    throw new PublishError('permanent', 'MEDIA_UNREACHABLE', `Threads cannot fetch ${shown}: it answered HTTP ${status}.`);
  }
  if (!GENERIC_TYPES.has(type) && !type.startsWith('image/') && !type.startsWith('video/')) {
    throw new PublishError('permanent', 'MEDIA_UNREACHABLE', `Threads cannot use ${shown}: it answered HTTP ${status} with ${type}, not an image or a video.`);
  }
}

function fetchFailure(err: GuardedFetchError, shown: string): PublishError {
  switch (err.fault) {
    case 'bad-url':
    case 'refused-address':
    case 'not-found':
    case 'too-many-redirects':
      return new PublishError('permanent', 'MEDIA_UNREACHABLE', `Threads cannot fetch ${shown}: ${err.message}.`, { cause: err });
    default:
      return new PublishError('transient', 'MEDIA_UNREACHABLE', `${shown} could not be fetched now: ${err.message}.`, { cause: err });
  }
}
