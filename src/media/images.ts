import type { Sharp } from 'sharp';
import { BLUESKY } from '../networks/bluesky/rules.js';
import { loadSharp, type SharpFactory } from './sharp.js';

/**
 * Every image Skein sends to a network goes through `prepareImage`: decoded by sharp (libvips),
 * turned upright by its EXIF orientation, and re-encoded without any metadata (EXIF with its GPS
 * position, XMP, IPTC, comments; colours converted to sRGB and the profile dropped). With limits
 * (Bluesky's: 1,000,000 bytes, 2,000 px on a side) it is scaled down and re-encoded at falling
 * quality until it fits; an image is never refused for its size alone.
 *
 * GIF: Bluesky's image embed shows a still picture, so with limits a GIF becomes its first frame
 * (PNG when it is transparent or fits as PNG, else JPEG). Without limits an animated GIF keeps
 * its frames and is re-encoded as a GIF, which drops its comment and XMP extensions.
 */

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export const IMAGE_MIMES: readonly ImageMime[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

export interface ImageLimits {
  maxBytes: number;
  /** The longest side, in pixels. */
  maxSide: number;
}

/** Bluesky's per-image limits (its entry in src/networks/). */
export const BLUESKY_IMAGE_LIMITS: ImageLimits = { maxBytes: BLUESKY.limits.imageBytes, maxSide: BLUESKY.imageMaxSide };

/** Decoding more pixels than this is refused before the pixels are decoded (a "pixel bomb"). */
const MAX_INPUT_PIXELS = 50_000_000;
const JPEG_QUALITIES = [88, 80, 72, 64, 56, 48, 40] as const;
const WEBP_QUALITIES = [80, 62, 45] as const;
/** Each round that cannot fit shrinks the longest side by this factor. */
const SHRINK = 0.75;
const MIN_SIDE = 16;
/**
 * The scaling filter. sharp's default, lanczos3, spends about 70 ms of CPU on a 12 MP photo's
 * 2x reduction (sharp never shrinks a JPEG on load by exactly 2: it decodes all 12 MP);
 * lanczos2 takes about 45 ms less and its pixels differ from lanczos3's by a PSNR of about 50 dB
 * on a noisy photo, which no one can see (docs/benchmarks.md, "memjpeg").
 */
const KERNEL = 'lanczos2';

export interface PreparedImage {
  bytes: Uint8Array;
  mimeType: ImageMime;
  /** As displayed (orientation applied): the post's aspectRatio. */
  width: number;
  height: number;
}

/** Bytes that are not a JPEG, PNG, GIF or WebP image, or do not decode. */
export class InvalidImageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidImageError';
  }
}

const FORMAT_MIMES: Record<string, ImageMime> = { jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };

/** The image type read from the bytes' header (never from a name or a declared type), or null. */
export async function imageMimeOf(bytes: Uint8Array): Promise<ImageMime | null> {
  const sharp = await loadSharp();
  try {
    const { format } = await sharp(bytes, { limitInputPixels: false }).metadata();
    return FORMAT_MIMES[format ?? ''] ?? null;
  } catch {
    return null;
  }
}

/**
 * Orients, strips and (with `target` limits) fits an image. Throws InvalidImageError for bytes
 * that are not a supported image or do not decode.
 */
export async function prepareImage(bytes: Uint8Array, target?: ImageLimits): Promise<PreparedImage> {
  const mime = await imageMimeOf(bytes);
  if (!mime) throw new InvalidImageError('media is not a JPEG, PNG, GIF or WebP image');
  const sharp = await loadSharp();
  try {
    if (!target) return await reencode(sharp, bytes, mime);
    return await fit(sharp, bytes, mime, target);
  } catch (err) {
    if (err instanceof InvalidImageError) throw err;
    throw new InvalidImageError(`the image does not decode: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * As `prepareImage` without limits, in one of `types` (a network's `imageTypes`: LinkedIn takes
 * no WebP): an image of another type becomes a PNG when it has transparency and PNG is taken,
 * else a JPEG; an animated one keeps its first frame.
 */
export async function prepareImageAs(bytes: Uint8Array, types: readonly ImageMime[]): Promise<PreparedImage> {
  const mime = await imageMimeOf(bytes);
  if (!mime) throw new InvalidImageError('media is not a JPEG, PNG, GIF or WebP image');
  if (types.includes(mime)) return prepareImage(bytes);
  const sharp = await loadSharp();
  try {
    const pixels = await decode(open(sharp, bytes));
    const alpha = pixels.channels === 4 && !(await isOpaque(sharp, pixels));
    const png = alpha && types.includes('image/png');
    const image = rawImage(sharp, pixels);
    const data = await (png ? image.png({ compressionLevel: 8 }) : image.removeAlpha().jpeg({ quality: 90 })).toBuffer();
    return { bytes: new Uint8Array(data), mimeType: png ? 'image/png' : 'image/jpeg', width: pixels.width, height: pixels.height };
  } catch (err) {
    throw new InvalidImageError(`the image does not decode: ${(err as Error).message}`, { cause: err });
  }
}

function open(sharp: SharpFactory, bytes: Uint8Array, animated = false): Sharp {
  // failOn 'error': a truncated photo that libvips can still show is accepted, as browsers do.
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated }).rotate();
}

/** The same format, upright, without metadata. */
async function reencode(sharp: SharpFactory, bytes: Uint8Array, mime: ImageMime): Promise<PreparedImage> {
  const image = open(sharp, bytes, mime === 'image/gif');
  const encoded =
    mime === 'image/jpeg'
      ? image.jpeg({ quality: 90, mozjpeg: false })
      : mime === 'image/png'
        ? image.png({ compressionLevel: 8 })
        : mime === 'image/webp'
          ? image.webp({ quality: 90 })
          : image.gif();
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return { bytes: new Uint8Array(data), mimeType: mime, width: info.width, height: info.pageHeight ?? info.height };
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/**
 * Decodes once (shrunk on load to at most maxSide, upright), then tries encodings from the best
 * to the smallest; when none fits, the pixels shrink and it starts over.
 */
async function fit(sharp: SharpFactory, bytes: Uint8Array, mime: ImageMime, target: ImageLimits): Promise<PreparedImage> {
  let pixels = await decode(
    open(sharp, bytes).resize({ width: target.maxSide, height: target.maxSide, fit: 'inside', withoutEnlargement: true, kernel: KERNEL }),
  );
  const alpha = pixels.channels === 4 && !(await isOpaque(sharp, pixels));
  let attempts = encodings(mime, alpha);
  for (;;) {
    let smallest = Number.POSITIVE_INFINITY;
    for (const attempt of attempts) {
      const data = await attempt(rawImage(sharp, pixels));
      if (data.length <= target.maxBytes) return { bytes: new Uint8Array(data), mimeType: attempt.mime, width: pixels.width, height: pixels.height };
      smallest = Math.min(smallest, data.length);
    }
    // Bytes grow with the pixel count: shrink by the square root of how far off the smallest
    // encoding was (a little more, and at least SHRINK), then try only the smaller encodings.
    const factor = Math.min(SHRINK, Math.sqrt(target.maxBytes / smallest) * 0.95);
    const side = Math.floor(Math.max(pixels.width, pixels.height) * factor);
    if (side < MIN_SIDE) throw new InvalidImageError(`the image does not fit in ${target.maxBytes} bytes at any size`);
    pixels = await decode(rawImage(sharp, pixels).resize({ width: side, height: side, fit: 'inside', kernel: KERNEL }));
    attempts = attempts.slice(-2);
  }
}

async function decode(image: Sharp): Promise<Pixels> {
  const { data, info } = await image.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels === 4 ? 4 : 3 };
}

function rawImage(sharp: SharpFactory, pixels: Pixels): Sharp {
  return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } });
}

async function isOpaque(sharp: SharpFactory, pixels: Pixels): Promise<boolean> {
  return (await rawImage(sharp, pixels).stats()).isOpaque;
}

type Encoding = ((image: Sharp) => Promise<Buffer>) & { mime: ImageMime };

function encoding(mime: ImageMime, run: (image: Sharp) => Sharp): Encoding {
  return Object.assign((image: Sharp) => run(image).toBuffer(), { mime });
}

/**
 * Transparent images stay transparent (PNG, then WebP at falling quality); a PNG or GIF without
 * transparency (a screenshot, a drawing) is kept lossless when that fits, else it becomes a JPEG
 * like any photo.
 */
function encodings(mime: ImageMime, alpha: boolean): Encoding[] {
  const png = encoding('image/png', (image) => image.png({ compressionLevel: 8 }));
  if (alpha) return [png, ...WEBP_QUALITIES.map((quality) => encoding('image/webp', (image) => image.webp({ quality, alphaQuality: 90, effort: 2 })))];
  const jpegs = JPEG_QUALITIES.map((quality) => encoding('image/jpeg', (image) => image.removeAlpha().jpeg({ quality })));
  return mime === 'image/png' || mime === 'image/gif' ? [png, ...jpegs] : jpegs;
}
