import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { GuardedFetchError, type GuardedResponse, guardedFetch, shownUrl } from '../../lib/guarded-fetch.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { SNIFF_BYTES, sniffKind } from '../../media/kinds.js';
import { type Mp4Info, Mp4Scanner } from '../../media/mp4-scan.js';
import { videoLimitSaid } from '../network.js';
import { PublishError } from '../platform.js';
import { checkStatus, type MediaFetchOptions, mediaFetchError } from './media.js';
import { BLUESKY } from './rules.js';

/** What Bluesky takes of a video (app.bsky.embed.video): MP4, and its entry's size and length (src/networks/bluesky/rules.ts). */
export const BLUESKY_VIDEO = { mimeType: 'video/mp4', bytes: BLUESKY.limits.videoBytes, durationMs: BLUESKY.limits.videoSeconds * 1000 };
const LIMITS_SAID = `Bluesky takes an MP4 of at most ${videoLimitSaid(BLUESKY.limits)}`;
const MAX_REDIRECTS = 3;
/** For the whole download: 100 MB at a modest 4 MB/s takes 25 s. */
const DEFAULT_VIDEO_TIMEOUT_MS = 5 * 60_000;
/** What some storage services send for any file; the bytes decide then. */
const ACCEPTED_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'video/mp4', 'video/quicktime']);

/** A video ready for uploadBlob: its bytes in a temporary file (spool), its facts. */
export interface VideoForBluesky {
  data: Blob;
  mimeType: string;
  width: number | null;
  height: number | null;
  /** Removes the temporary file. */
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
 * 100 MB: a longer, larger or non-MP4 video fails the post before anything is uploaded.
 */
export async function downloadVideo(rawUrl: string, options: MediaFetchOptions): Promise<VideoForBluesky> {
  const scan = new VideoScan(rawUrl);
  let file: SpooledFile;
  try {
    const res = await openDownload(rawUrl, options);
    file = await spool(scan.pass()(res.stream(BLUESKY_VIDEO.bytes)), BLUESKY_VIDEO.mimeType, options.tempDir);
  } catch (err) {
    throw downloadError(err, rawUrl);
  }
  try {
    const facts = scan.finish();
    const over = overBlueskyVideoLimits({ mimeType: BLUESKY_VIDEO.mimeType, bytes: 0, durationMs: facts.durationMs });
    if (over.length) throw overLimitsError(rawUrl, over);
    return { ...file, mimeType: BLUESKY_VIDEO.mimeType, width: facts.width, height: facts.height };
  } catch (err) {
    await file.dispose();
    throw err;
  }
}

interface SpooledFile {
  /** Read from disk as it is sent, and again if the call is retried (a stream could not be). */
  data: Blob;
  dispose(): Promise<void>;
}

/** Streams `source` into a temporary folder of its own (in `parent`): the file as a Blob, and its removal. */
export async function spool(source: AsyncIterable<Buffer>, mimeType: string, parent = tmpdir()): Promise<SpooledFile> {
  const dir = await mkdtemp(join(parent, 'skein-video-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const path = join(dir, 'video');
    await pipeline(source, createWriteStream(path));
    return { data: await openAsBlob(path, { type: mimeType }), dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}

async function openDownload(rawUrl: string, options: MediaFetchOptions): Promise<GuardedResponse> {
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
  return res;
}

function downloadError(err: unknown, rawUrl: string): PublishError {
  if (err instanceof PublishError) return err;
  if (err instanceof GuardedFetchError && err.fault === 'too-large') return overLimitsError(rawUrl, [`over ${BLUESKY_VIDEO.bytes} bytes`]);
  if (err instanceof GuardedFetchError) return mediaFetchError(err, rawUrl);
  return new PublishError('transient', 'MEDIA_UNAVAILABLE', `saving the video ${shownUrl(rawUrl)} for upload failed: ${(err as Error).message}`, {
    cause: err,
  });
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
