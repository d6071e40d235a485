/**
 * Removes metadata from an image before it is published: EXIF (camera, time, GPS position), XMP
 * and IPTC. Bluesky leaves this to the client (docs/reference/bluesky-api.md §2.1), and a phone photo carries
 * where it was taken. The pixels are untouched; a JPEG keeps its EXIF orientation (in a new,
 * minimal EXIF block), or it would show sideways.
 */
import { exifOrientation, type ImageMime } from './image-info.js';

export function stripMetadata(bytes: Uint8Array, mime: ImageMime): Uint8Array {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (mime === 'image/jpeg') return stripJpeg(b);
    if (mime === 'image/png') return stripPng(b);
    if (mime === 'image/webp') return stripWebp(b);
  } catch (err) {
    // A file too broken to walk is refused by the PDS anyway; send it as it came.
    if (!(err instanceof RangeError)) throw err;
  }
  return bytes; // GIF has no metadata blocks of this kind
}

const XMP_ID = 'http://ns.adobe.com/xap/1.0/\0';

/** Copies segment by segment up to the scan; APP1 (EXIF, XMP) and APP13 (IPTC) are dropped. */
function stripJpeg(b: Buffer): Buffer {
  const kept: Buffer[] = [b.subarray(0, 2)];
  let orientation: number | null = null;
  let offset = 2;
  while (offset + 4 <= b.length && b[offset] === 0xff) {
    const marker = b[offset + 1]!;
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      kept.push(b.subarray(offset, offset + (marker === 0xff ? 1 : 2)));
      offset += marker === 0xff ? 1 : 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // the scan (or the end): copied as it is
    const end = offset + 2 + b.readUInt16BE(offset + 2);
    const segment = b.subarray(offset, end);
    const body = segment.subarray(4);
    if (marker === 0xe1 && body.toString('latin1', 0, 6) === 'Exif\0\0') orientation ??= exifOrientation(body);
    const metadata =
      (marker === 0xe1 && (body.toString('latin1', 0, 6) === 'Exif\0\0' || body.toString('latin1', 0, XMP_ID.length) === XMP_ID)) || marker === 0xed;
    if (!metadata) kept.push(segment);
    offset = end;
  }
  if (orientation !== null && orientation !== 1) kept.splice(1, 0, orientationSegment(orientation));
  kept.push(b.subarray(offset));
  return Buffer.concat(kept);
}

/** APP1 with a big-endian TIFF header and a single IFD entry: Orientation. */
function orientationSegment(orientation: number): Buffer {
  const segment = Buffer.alloc(4 + 6 + 26);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(segment.length - 2, 2);
  segment.write('Exif\0\0MM', 4, 'latin1');
  segment.writeUInt16BE(42, 12);
  segment.writeUInt32BE(8, 14); // IFD0 right after the header
  segment.writeUInt16BE(1, 18); // one entry
  segment.writeUInt16BE(0x0112, 20);
  segment.writeUInt16BE(3, 22); // SHORT
  segment.writeUInt32BE(1, 24);
  segment.writeUInt16BE(orientation, 28);
  return segment; // next-IFD offset (0) is already zero
}

/** eXIf and the text chunks (which also carry XMP) are dropped; every other chunk stays. */
const PNG_METADATA = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);

function stripPng(b: Buffer): Buffer {
  const kept: Buffer[] = [b.subarray(0, 8)];
  let offset = 8;
  while (offset + 12 <= b.length) {
    const end = offset + 12 + b.readUInt32BE(offset);
    if (!PNG_METADATA.has(b.toString('latin1', offset + 4, offset + 8))) kept.push(b.subarray(offset, end));
    offset = end;
  }
  kept.push(b.subarray(offset));
  return Buffer.concat(kept);
}

/** EXIF and XMP chunks are dropped and VP8X's flags for them cleared; the RIFF size follows. */
function stripWebp(b: Buffer): Buffer {
  const kept: Buffer[] = [];
  let offset = 12;
  while (offset + 8 <= b.length) {
    const fourcc = b.toString('latin1', offset, offset + 4);
    const size = b.readUInt32LE(offset + 4);
    const end = Math.min(b.length, offset + 8 + size + (size % 2));
    if (fourcc === 'VP8X') {
      const chunk = Buffer.from(b.subarray(offset, end));
      chunk[8] = chunk[8]! & ~(0x08 | 0x04); // EXIF and XMP flags
      kept.push(chunk);
    } else if (fourcc !== 'EXIF' && fourcc !== 'XMP ') {
      kept.push(b.subarray(offset, end));
    }
    offset = end;
  }
  const body = Buffer.concat(kept);
  const header = Buffer.from(b.subarray(0, 12));
  header.writeUInt32LE(4 + body.length, 4);
  return Buffer.concat([header, body]);
}
