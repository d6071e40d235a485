import type { Metadata } from 'sharp';
import { RefusedUploadError } from '../errors/index.js';
import { loadSharp, type SharpFactory } from './sharp.js';

/** decisions.md "Media": what an upload may be, and how large. */
export const LIMITS = {
  imageBytes: 8 * 1024 * 1024,
  imagePixels: 50_000_000,
  videoBytes: 1024 * 1024 * 1024,
} as const;

export interface MediaKindInfo {
  type: 'IMAGE' | 'VIDEO';
  mimeType: string;
  ext: string;
}

/** Bytes enough to tell every kind apart. */
export const SNIFF_BYTES = 16;

const JPEG: MediaKindInfo = { type: 'IMAGE', mimeType: 'image/jpeg', ext: 'jpg' };
const PNG: MediaKindInfo = { type: 'IMAGE', mimeType: 'image/png', ext: 'png' };
const GIF: MediaKindInfo = { type: 'IMAGE', mimeType: 'image/gif', ext: 'gif' };
const WEBP: MediaKindInfo = { type: 'IMAGE', mimeType: 'image/webp', ext: 'webp' };
const MP4: MediaKindInfo = { type: 'VIDEO', mimeType: 'video/mp4', ext: 'mp4' };
const MOV: MediaKindInfo = { type: 'VIDEO', mimeType: 'video/quicktime', ext: 'mov' };

/** QuickTime files may begin with any of these atoms instead of `ftyp`. */
const QUICKTIME_FIRST_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip']);

function ascii(head: Uint8Array, start: number, end: number): string {
  return Buffer.from(head.subarray(start, end)).toString('latin1');
}

/** The kind the first bytes say, never the name or the declared type; null for anything else (SVG, HTML, text…). */
export function sniffKind(head: Uint8Array): MediaKindInfo | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return JPEG;
  if (head.length >= 8 && Buffer.from(head.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return PNG;
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a')) return GIF;
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return WEBP;
  if (head.length >= 12) {
    const atom = ascii(head, 4, 8);
    if (atom === 'ftyp') return ascii(head, 8, 12) === 'qt  ' ? MOV : MP4;
    if (QUICKTIME_FIRST_ATOMS.has(atom)) return MOV;
  }
  return null;
}

export function unsupported(detail: string): RefusedUploadError {
  return new RefusedUploadError(
    415,
    `${detail} Uploads are JPEG, PNG, WebP or GIF images and MP4 or QuickTime (MOV) videos, read from the bytes (not the name or the declared type).`,
  );
}

export function tooLarge(type: 'IMAGE' | 'VIDEO'): RefusedUploadError {
  return new RefusedUploadError(
    413,
    type === 'IMAGE' ? `An image may be at most ${LIMITS.imageBytes} bytes (8 MiB).` : `A video may be at most ${LIMITS.videoBytes} bytes (1 GiB).`,
  );
}

export interface CheckedImage {
  /** The bytes to store: the upload's, or re-encoded without its metadata. */
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * An image's header is read first (no decoding): over 50 megapixels is 413 before any pixel is
 * decoded. Then it is decoded whole, so a truncated or corrupt file is 415 now rather than a
 * failed post later. An image carrying metadata (EXIF, GPS, XMP, IPTC) is re-encoded in its own
 * format with its orientation applied and the metadata dropped (decisions.md): what
 * `GET /media/…` serves, and what any network gets, has none.
 */
export async function checkImage(bytes: Buffer, kind: MediaKindInfo): Promise<CheckedImage> {
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupported(`The file starts as ${kind.mimeType} but its header cannot be read.`);
  }
  if (!meta.width || !meta.height) throw unsupported(`The ${kind.mimeType} file declares no dimensions.`);
  const pixels = meta.width * meta.height;
  if (pixels > LIMITS.imagePixels) {
    throw new RefusedUploadError(413, `The image is ${meta.width} × ${meta.height} pixels; at most ${LIMITS.imagePixels / 1_000_000} megapixels are accepted.`);
  }
  const animated = (meta.pages ?? 1) > 1;
  try {
    await sharp(bytes, { limitInputPixels: LIMITS.imagePixels, failOn: 'warning', animated }).stats();
  } catch {
    throw unsupported(`The ${kind.mimeType} file does not decode: it is truncated or corrupt.`);
  }
  const oriented = meta.autoOrient ?? { width: meta.width, height: meta.height };
  const hasMetadata = meta.exif !== undefined || meta.xmp !== undefined || meta.iptc !== undefined || (meta.orientation ?? 1) !== 1;
  if (!hasMetadata) return { bytes, width: oriented.width, height: meta.pageHeight && animated ? meta.pageHeight : oriented.height };
  const clean = await reencode(sharp, bytes, kind, animated);
  const after = await sharp(clean, { limitInputPixels: false }).metadata();
  return { bytes: clean, width: after.width ?? oriented.width, height: (animated ? after.pageHeight : after.height) ?? oriented.height };
}

function reencode(sharp: SharpFactory, bytes: Buffer, kind: MediaKindInfo, animated: boolean): Promise<Buffer> {
  const image = sharp(bytes, { limitInputPixels: LIMITS.imagePixels, animated }).rotate().keepIccProfile();
  switch (kind.ext) {
    case 'jpg':
      return image.jpeg({ quality: 92 }).toBuffer();
    case 'png':
      return image.png().toBuffer();
    case 'webp':
      return image.webp({ quality: 92 }).toBuffer();
    default:
      return image.gif().toBuffer();
  }
}
