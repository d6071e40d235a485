/** Small images built in code, so tests need no binary files. */
import { deflateSync } from 'node:zlib';

/** A real, decodable RGB PNG of the given size (a gradient). */
export function pngImage(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1); // each row starts with filter type 0
    for (let x = 0; x < width; x++) raw.set([(x * 40) & 255, (y * 60) & 255, 128], row + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real PNG that also carries what a phone or an editor leaves in it: EXIF with GPS, and XMP text. */
export function pngWithMetadata(width: number, height: number): Buffer {
  const plain = pngImage(width, height);
  const iend = plain.length - 12;
  return Buffer.concat([
    plain.subarray(0, 33), // signature + IHDR
    pngChunk('eXIf', Buffer.from('MM\0*\0\0\0\x08GPSLatitude 48.8584 N', 'latin1')),
    pngChunk('tEXt', Buffer.from('XML:com.adobe.xmp\0<x:xmpmeta><exif:GPSLongitude>2.2945 E</exif:GPSLongitude></x:xmpmeta>', 'latin1')),
    plain.subarray(33, iend),
    pngChunk('iTXt', Buffer.from('Comment\0\0\0\0\0taken at home, GPS on', 'latin1')),
    plain.subarray(iend),
  ]);
}
