import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { GuardedFetchError, guardedFetch, shownUrl } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { SNIFF_BYTES, sniffKind } from '../../media/kinds.js';
import { type Mp4Info, Mp4Scanner } from '../../media/mp4-scan.js';
import { PublishError } from '../platform.js';
import { checkStatus, type MediaFetchOptions, mediaFetchError } from './media.js';

/** What Bluesky takes of a video (app.bsky.embed.video): MP4, 100 MB (decimal), 3 minutes. */
export const BLUESKY_VIDEO = { mimeType: 'video/mp4', bytes: 100_000_000, durationMs: 3 * 60_000 };
const LIMITS_SAID = 'Bluesky takes an MP4 of at most 3 minutes and 100 MB';
const MAX_REDIRECTS = 3;
/** For the whole download: 100 MB at a modest 4 MB/s takes 25 s. */
const DEFAULT_VIDEO_TIMEOUT_MS = 5 * 60_000;
/** What some storage services send for any file; the bytes decide then. */
const ACCEPTED_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'video/mp4', 'video/quicktime']);

/** A video ready for uploadBlob: its bytes (a Blob re-readable for a retried call), its facts. */
export interface VideoForBluesky {
  data: Uint8Array | Blob;
  mimeType: string;
  width: number | null;
  height: number | null;
  /** Removes what the download left on disk; nothing for an upload read from storage. */
  dispose(): Promise<void>;
}

/** Why a video is over Bluesky's limits, each part named; empty when it fits. */
export function overBlueskyVideoLimits(facts: { mimeType: string; bytes: number; durationMs: number | null }): string[] {
  return [
    ...(facts.mimeType !== BLUESKY_VIDEO.mimeType ? [`a ${facts.mimeType} file, not MP4`] : []),
    ...(facts.bytes > BLUESKY_VIDEO.bytes ? [`${facts.bytes} bytes`] : []),
    ...(facts.durationMs !== null && facts.durationMs > BLUESKY_VIDEO.durationMs ? [`${(facts.durationMs / 1000).toFixed(1)} s long`] : []),
  ];
}

export function overLimitsError(url: string, over: string[]): PublishError {
  return new PublishError('permanent', 'INVALID_MEDIA', `the video ${shownUrl(url)} is ${over.join(', ')}; ${LIMITS_SAID}`);
}

/**
 * A video by outside URL, downloaded through the guarded fetch (the address policy on every
 * redirect, one deadline) to a temporary file as it streams (never whole in memory), its
 * first bytes sniffed and its boxes scanned on the way (mp4-scan.ts), stopped past Bluesky's
 * 100 MB: a longer, larger or non-MP4 video fails the post before anything is uploaded. The
 * file is handed on as a Blob that reads from disk.
 */
export async function downloadVideo(rawUrl: string, options: MediaFetchOptions): Promise<VideoForBluesky> {
  const dir = await mkdtemp(join(tmpdir(), 'skein-video-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const path = join(dir, 'video.mp4');
    const facts = await downloadTo(path, rawUrl, options);
    const over = overBlueskyVideoLimits({ mimeType: BLUESKY_VIDEO.mimeType, bytes: 0, durationMs: facts.durationMs });
    if (over.length) throw overLimitsError(rawUrl, over);
    const data = await openAsBlob(path, { type: BLUESKY_VIDEO.mimeType });
    return { data, mimeType: BLUESKY_VIDEO.mimeType, width: facts.width, height: facts.height, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

async function downloadTo(path: string, rawUrl: string, options: MediaFetchOptions): Promise<Mp4Info> {
  const scanner = new VideoScan(rawUrl);
  try {
    const res = await guardedFetch(rawUrl, {
      allowAddress: options.allowAddress ?? addressPolicy(options.allowPrivate),
      timeoutMs: options.videoTimeoutMs ?? DEFAULT_VIDEO_TIMEOUT_MS,
      maxRedirects: MAX_REDIRECTS,
      headers: { accept: 'video/mp4' },
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    if (res.status !== 200 || !ACCEPTED_TYPES.has(res.contentType)) {
      res.close();
      checkStatus(res.status);
      throw new PublishError('permanent', 'INVALID_MEDIA', `media content type ${res.contentType} is not a video (${shownUrl(rawUrl)})`);
    }
    await pipeline(res.stream(BLUESKY_VIDEO.bytes), scanner.pass(), createWriteStream(path));
    return scanner.finish();
  } catch (err) {
    if (err instanceof PublishError) throw err;
    if (err instanceof GuardedFetchError && err.fault === 'too-large') throw overLimitsError(rawUrl, [`over ${BLUESKY_VIDEO.bytes} bytes`]);
    if (err instanceof GuardedFetchError) throw mediaFetchError(err, rawUrl);
    throw new PublishError('transient', 'MEDIA_UNAVAILABLE', `saving the video ${shownUrl(rawUrl)} for upload failed: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** The kind read from the first bytes (MP4 only) and the movie's facts, as the bytes pass. */
class VideoScan {
  readonly #url: string;
  readonly #scanner = new Mp4Scanner();
  #head = Buffer.alloc(0);

  constructor(url: string) {
    this.#url = url;
  }

  pass(): (source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer> {
    return async function* (this: VideoScan, source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        if (this.#head.length < SNIFF_BYTES) {
          this.#head = Buffer.concat([this.#head, chunk.subarray(0, SNIFF_BYTES - this.#head.length)]);
          if (this.#head.length >= SNIFF_BYTES) this.#checkKind();
        }
        this.#scanner.push(chunk);
        yield chunk;
      }
    }.bind(this);
  }

  #checkKind(): void {
    const kind = sniffKind(this.#head);
    if (kind?.mimeType === BLUESKY_VIDEO.mimeType) return;
    const what = kind ? `a ${kind.mimeType} file` : 'not an MP4 video';
    throw new PublishError('permanent', 'INVALID_MEDIA', `the video ${shownUrl(this.#url)} is ${what}; ${LIMITS_SAID}`);
  }

  finish(): Mp4Info {
    if (this.#head.length < SNIFF_BYTES) this.#checkKind();
    try {
      return this.#scanner.finish();
    } catch (err) {
      throw new PublishError('permanent', 'INVALID_MEDIA', `the video ${shownUrl(this.#url)} cannot be read: ${(err as Error).message}`);
    }
  }
}
