/**
 * Image type and pixel size read from the first bytes of the file, without decoding it.
 * The type is what Bluesky's PDS would sniff anyway; the size gives the post's aspectRatio.
 */

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export const IMAGE_MIMES: readonly ImageMime[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

export interface ImageSize {
  width: number;
  height: number;
}

export function sniffImageType(bytes: Uint8Array): ImageMime | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** Width and height as displayed (JPEG EXIF rotation applied), or null when unreadable. */
export function imageSize(bytes: Uint8Array, mime: ImageMime): ImageSize | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const size = READERS[mime](b);
    return size && size.width > 0 && size.height > 0 ? size : null;
  } catch (err) {
    if (err instanceof RangeError) return null; // truncated header
    throw err;
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const READERS: Record<ImageMime, (b: Buffer) => ImageSize | null> = {
  'image/png': (b) => (b.toString('latin1', 12, 16) === 'IHDR' ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : null),
  'image/gif': (b) => ({ width: b.readUInt16LE(6), height: b.readUInt16LE(8) }),
  'image/webp': readWebpSize,
  'image/jpeg': readJpegSize,
};

function readWebpSize(b: Buffer): ImageSize | null {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  return null;
}

/** Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) do not. */
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function readJpegSize(b: Buffer): ImageSize | null {
  let offset = 2;
  let rotated = false;
  while (offset + 4 <= b.length) {
    if (b[offset] !== 0xff) return null;
    const marker = b[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    const length = b.readUInt16BE(offset + 2);
    if (marker === 0xe1) rotated ||= exifSwapsAxes(b.subarray(offset + 4, offset + 2 + length));
    if (SOF_MARKERS.has(marker)) {
      const height = b.readUInt16BE(offset + 5);
      const width = b.readUInt16BE(offset + 7);
      return rotated ? { width: height, height: width } : { width, height };
    }
    if (marker === 0xda || marker === 0xd9) return null; // scan data or end before any frame header
    offset += 2 + length;
  }
  return null;
}

/**
 * True when the EXIF orientation (tag 0x0112, values 5 to 8) turns the picture by 90°: viewers
 * and Bluesky's image CDN show it rotated, so width and height swap.
 */
function exifSwapsAxes(app1: Buffer): boolean {
  const orientation = exifOrientation(app1);
  return orientation !== null && orientation >= 5 && orientation <= 8;
}

/** The EXIF orientation (1 to 8) of a JPEG's APP1 body ("Exif\0\0" + TIFF), or null. */
export function exifOrientation(app1: Buffer): number | null {
  if (app1.toString('latin1', 0, 6) !== 'Exif\0\0') return null;
  const tiff = app1.subarray(6);
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  try {
    const ifd = u32(4);
    const entries = u16(ifd);
    for (let i = 0; i < entries; i++) {
      const entry = ifd + 2 + i * 12;
      if (u16(entry) === 0x0112) return u16(entry + 8);
    }
    return null;
  } catch (err) {
    if (err instanceof RangeError) return null; // truncated EXIF
    throw err;
  }
}
