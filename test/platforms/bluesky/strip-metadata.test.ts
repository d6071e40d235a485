import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { exifOrientation, imageSize } from '../../../src/platforms/bluesky/image-info.js';
import { stripMetadata } from '../../../src/platforms/bluesky/strip-metadata.js';
import { pngImage, pngWithMetadata, webpHeader } from '../../helpers/images.js';

const SOI = Buffer.from([0xff, 0xd8]);
const EOI = Buffer.from([0xff, 0xd9]);

function segment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/** Little-endian EXIF with Orientation and a GPS IFD pointer, then "GPS" data in the block. */
function exifWithGps(orientation: number): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 2 * 12 + 4);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(2, 8);
  tiff.writeUInt16LE(0x0112, 10);
  tiff.writeUInt16LE(3, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(orientation, 18);
  tiff.writeUInt16LE(0x8825, 22); // GPSInfo IFD pointer
  tiff.writeUInt16LE(4, 24);
  tiff.writeUInt32LE(1, 26);
  tiff.writeUInt32LE(tiff.length, 30);
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff, Buffer.from('GPS 48.8584N 2.2945E Canon EOS', 'latin1')]);
}

const SOF = (() => {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(300, 5); // height
  sof.writeUInt16BE(400, 7); // width
  return sof;
})();
const SCAN = Buffer.concat([segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])), Buffer.from('entropy-coded GPS bytes stay'), EOI]);

function photo(orientation: number): Buffer {
  return Buffer.concat([
    SOI,
    segment(0xe0, Buffer.from('JFIF\0\x01\x02\0\0\x01\0\x01\0\0', 'latin1')),
    segment(0xe1, exifWithGps(orientation)),
    segment(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>48</exif:GPSLatitude></x:xmpmeta>', 'latin1')),
    segment(0xed, Buffer.from('Photoshop 3.0\x008BIM GPS city: Paris', 'latin1')),
    segment(0xe2, Buffer.from('ICC_PROFILE\0\x01\x01colour profile', 'latin1')),
    SOF,
    SCAN,
  ]);
}

function metadataOf(bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString('latin1');
  return text.slice(0, text.indexOf('\xff\xda') === -1 ? undefined : text.indexOf('\xff\xda'));
}

test('JPEG: EXIF, XMP and IPTC are gone, the orientation stays, everything else is byte for byte the same', () => {
  const out = Buffer.from(stripMetadata(photo(6), 'image/jpeg'));
  assert.doesNotMatch(metadataOf(out), /GPS|Canon|Paris|xmpmeta/);
  assert.match(out.toString('latin1'), /JFIF/, 'APP0 kept');
  assert.match(out.toString('latin1'), /ICC_PROFILE/, 'the colour profile is kept');
  assert.ok(out.subarray(out.length - SCAN.length).equals(SCAN), 'the scan is untouched');
  assert.ok(out.includes(SOF), 'the frame header is untouched');
  assert.deepEqual(imageSize(out, 'image/jpeg'), { width: 300, height: 400 }, 'still shown rotated');
  const app1 = out.indexOf(Buffer.from('Exif\0\0', 'latin1'));
  assert.equal(exifOrientation(out.subarray(app1)), 6);
});

test('JPEG: with the default orientation no EXIF block is written at all', () => {
  const out = Buffer.from(stripMetadata(photo(1), 'image/jpeg'));
  assert.equal(out.indexOf(Buffer.from('Exif', 'latin1')), -1);
  assert.deepEqual(imageSize(out, 'image/jpeg'), { width: 400, height: 300 });
});

/** What a stripped JPEG carries for an orientation: APP1 "Exif", big-endian TIFF, one SHORT entry. */
function orientationApp1(orientation: number): Buffer {
  const tiff = Buffer.from([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]);
  return segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]));
}

test('PNG: eXIf and text chunks are gone, the image chunks are untouched', () => {
  const plain = pngImage(5, 3);
  const out = Buffer.from(stripMetadata(pngWithMetadata(5, 3), 'image/png'));
  assert.doesNotMatch(out.toString('latin1'), /GPS|xmpmeta|taken at home/);
  assert.ok(out.equals(plain), 'exactly the PNG without its metadata chunks');
});

test('WebP: EXIF and XMP chunks are gone, their VP8X flags cleared, the RIFF size right', () => {
  const base = webpHeader('VP8X', 10, 10);
  const vp8x = Buffer.from(base.subarray(12, 30));
  vp8x.writeUInt32LE(10, 4);
  vp8x[8] = 0x08 | 0x04 | 0x10; // EXIF, XMP and alpha
  const chunk = (fourcc: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(fourcc, 0, 'latin1');
    head.writeUInt32LE(data.length, 4);
    return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  const image = chunk('VP8L', Buffer.from([0x2f, 9, 0x40, 2, 0, 1, 2]));
  const body = Buffer.concat([vp8x.subarray(0, 18), image, chunk('EXIF', Buffer.from('GPS 48N')), chunk('XMP ', Buffer.from('<x:xmpmeta>GPS</x:xmpmeta>'))]);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + body.length, 4);
  riff.write('WEBP', 8, 'latin1');
  const out = Buffer.from(stripMetadata(Buffer.concat([riff, body]), 'image/webp'));
  assert.doesNotMatch(out.toString('latin1'), /GPS|xmpmeta/);
  assert.equal(out.readUInt32LE(4), out.length - 8);
  assert.equal(out[20]! & 0x0c, 0, 'EXIF and XMP flags cleared');
  assert.equal(out[20]! & 0x10, 0x10, 'other flags kept');
  assert.ok(out.includes(image));
});

test('any JPEG built from segments: no APP1 but the orientation one and no APP13 survive; other segments and the scan are kept in order', () => {
  const kinds = fc.constantFrom<[number, string]>([0xe0, 'JFIF'], [0xe1, 'Exif'], [0xe1, 'XMP'], [0xed, 'IPTC'], [0xe2, 'ICC'], [0xdb, 'DQT'], [0xfe, 'COM']);
  fc.assert(
    fc.property(fc.array(fc.tuple(kinds, fc.uint8Array({ maxLength: 40 })), { maxLength: 8 }), fc.integer({ min: 1, max: 8 }), (parts, orientation) => {
      const segments = parts.map(([[marker, kind], noise]) => {
        const head =
          kind === 'Exif' ? exifWithGps(orientation) : kind === 'XMP' ? Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1') : Buffer.from(kind, 'latin1');
        return { marker, kind, bytes: segment(marker, Buffer.concat([head, Buffer.from(noise)])) };
      });
      const out = Buffer.from(stripMetadata(Buffer.concat([SOI, ...segments.map((s) => s.bytes), SOF, SCAN]), 'image/jpeg'));
      const expected = Buffer.concat([
        SOI,
        ...(segments.some((s) => s.kind === 'Exif') && orientation !== 1 ? [orientationApp1(orientation)] : []),
        ...segments.filter((s) => !['Exif', 'XMP', 'IPTC'].includes(s.kind)).map((s) => s.bytes),
        SOF,
        SCAN,
      ]);
      assert.ok(out.equals(expected));
    }),
  );
});
