import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import sharp from 'sharp';
import { BLUESKY_IMAGE_LIMITS, InvalidImageError, imageMimeOf, prepareImage } from '../../src/media/images.js';
import { pngImage, pngWithMetadata } from '../helpers/images.js';
import { jpegHeaderText, phonePhoto, transparentPng } from '../helpers/photos.js';

/** Every piece of metadata sharp can read back from an image. */
async function metadataLeft(bytes: Uint8Array): Promise<string[]> {
  const m = await sharp(bytes).metadata();
  return (['exif', 'xmp', 'iptc', 'icc', 'comments'] as const).filter((key) => m[key] !== undefined && !(Array.isArray(m[key]) && m[key].length === 0));
}

describe('prepareImage: metadata and orientation, for every network', () => {
  test('a phone JPEG loses its EXIF (camera, GPS) and XMP; its bytes carry none of it', async () => {
    const photo = await phonePhoto({ width: 400, height: 300, noise: 10 });
    const before = await sharp(photo).metadata();
    assert.ok(before.exif && before.xmp, 'the fixture carries EXIF and XMP');
    const out = await prepareImage(photo);
    assert.equal(out.mimeType, 'image/jpeg');
    assert.deepEqual(await metadataLeft(out.bytes), []);
    assert.doesNotMatch(jpegHeaderText(out.bytes), /Skein Phone|GPS|xmpmeta|Exif/);
  });

  test('EXIF orientation 6 is applied to the pixels (a 400×300 photo comes out 300×400) and not written again', async () => {
    const photo = await phonePhoto({ width: 400, height: 300, orientation: 6, noise: 0 });
    for (const target of [undefined, BLUESKY_IMAGE_LIMITS]) {
      const out = await prepareImage(photo, target);
      assert.deepEqual([out.width, out.height], [300, 400]);
      const after = await sharp(out.bytes).metadata();
      assert.deepEqual([after.width, after.height, after.orientation ?? 1], [300, 400, 1]);
    }
  });

  test('every EXIF orientation gives the displayed size', async () => {
    for (let orientation = 1; orientation <= 8; orientation++) {
      const out = await prepareImage(await phonePhoto({ width: 40, height: 20, orientation, noise: 0 }), BLUESKY_IMAGE_LIMITS);
      assert.deepEqual([out.width, out.height], orientation >= 5 ? [20, 40] : [40, 20], `orientation ${orientation}`);
    }
  });

  test('PNG: eXIf and text chunks (XMP, comments) are gone; the pixels are the same', async () => {
    const out = await prepareImage(pngWithMetadata(5, 3));
    assert.equal(out.mimeType, 'image/png');
    assert.doesNotMatch(Buffer.from(out.bytes).toString('latin1'), /GPS|xmpmeta|taken at home|eXIf|tEXt|iTXt/);
    const [a, b] = await Promise.all([sharp(out.bytes).raw().toBuffer(), sharp(pngImage(5, 3)).raw().toBuffer()]);
    assert.ok(a.equals(b));
  });

  test('WebP: EXIF and XMP are gone', async () => {
    const photo = await phonePhoto({ width: 60, height: 40, noise: 0 });
    const webp = await sharp(photo)
      .webp()
      .withExif({ IFD0: { Make: 'Skein Phone' } })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/">GPS</x:xmpmeta>')
      .toBuffer();
    assert.ok((await sharp(webp).metadata()).exif, 'the fixture carries EXIF');
    const out = await prepareImage(webp);
    assert.equal(out.mimeType, 'image/webp');
    assert.deepEqual(await metadataLeft(out.bytes), []);
  });

  test('the type comes from the bytes; anything else is refused', async () => {
    assert.equal(await imageMimeOf(pngImage(2, 2)), 'image/png');
    assert.equal(await imageMimeOf(await sharp(pngImage(2, 2)).gif().toBuffer()), 'image/gif');
    assert.equal(await imageMimeOf(await sharp(pngImage(2, 2)).webp().toBuffer()), 'image/webp');
    assert.equal(await imageMimeOf(Buffer.from('<html></html>')), null);
    for (const bytes of [Buffer.from('<html></html>'), Buffer.alloc(0), pngImage(6, 4).subarray(0, 30), await sharp(pngImage(2, 2)).tiff().toBuffer()]) {
      await assert.rejects(prepareImage(bytes, BLUESKY_IMAGE_LIMITS), InvalidImageError);
    }
  });

  test('a small file declaring a huge picture is refused before its pixels are decoded', async () => {
    const header = pngImage(1, 1);
    header.writeUInt32BE(20_000, 16); // IHDR width
    header.writeUInt32BE(20_000, 20); // IHDR height: 400 megapixels
    await assert.rejects(prepareImage(header, BLUESKY_IMAGE_LIMITS), InvalidImageError);
  });
});

describe('prepareImage for Bluesky: scaled and re-encoded to fit, never refused for size', () => {
  let photo: Buffer;
  before(async () => {
    photo = await phonePhoto({ width: 4000, height: 3000 });
  });

  test('a 4000×3000 phone photo of 3 to 5 MB comes out at most 1,000,000 bytes and 2000 px, 4:3, with no metadata', async () => {
    assert.ok(photo.length >= 3_000_000 && photo.length <= 5_000_000, `the fixture is ${photo.length} bytes`);
    const out = await prepareImage(photo, BLUESKY_IMAGE_LIMITS);
    assert.equal(out.mimeType, 'image/jpeg');
    assert.ok(out.bytes.length <= 1_000_000, `${out.bytes.length} bytes`);
    assert.deepEqual([out.width, out.height], [2000, 1500]);
    const read = await sharp(out.bytes).metadata();
    assert.deepEqual([read.width, read.height], [2000, 1500]);
    assert.deepEqual(await metadataLeft(out.bytes), []);
  });

  test('the scaling filter is lanczos2 (cheaper than lanczos3), whose pixels differ from lanczos3’s by no visible amount', async () => {
    const small = await phonePhoto({ width: 800, height: 600 });
    const limits = { maxBytes: 1_000_000, maxSide: 400 };
    const out = await prepareImage(small, limits);
    const scaled = (kernel: 'lanczos2' | 'lanczos3') =>
      sharp(small).rotate().resize({ width: 400, height: 400, fit: 'inside', kernel }).raw().toBuffer({ resolveWithObject: true });
    const [l2, l3] = await Promise.all([scaled('lanczos2'), scaled('lanczos3')]);
    const encoded = await sharp(l2.data, { raw: { width: l2.info.width, height: l2.info.height, channels: 3 } })
      .jpeg({ quality: 88 })
      .toBuffer();
    assert.ok(Buffer.from(out.bytes).equals(encoded), 'the first quality step of the lanczos2-scaled pixels');
    let squared = 0;
    for (let i = 0; i < l2.data.length; i++) squared += (l2.data[i]! - l3.data[i]!) ** 2;
    const psnr = 10 * Math.log10((255 * 255) / (squared / l2.data.length));
    assert.ok(psnr > 45, `PSNR of lanczos2 against lanczos3: ${psnr.toFixed(1)} dB`);
  });

  test('pure noise, which no quality step fits at 2000 px, is scaled down further until it fits', async () => {
    const noise = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 90 } } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const out = await prepareImage(noise, BLUESKY_IMAGE_LIMITS);
    assert.ok(out.bytes.length <= 1_000_000);
    assert.ok(out.width < 2000);
    assert.equal(out.width, out.height);
  });

  test('a transparent PNG stays transparent (PNG or WebP) and fits', async () => {
    const out = await prepareImage(await transparentPng(2400, 1600, 40), BLUESKY_IMAGE_LIMITS);
    assert.ok(out.mimeType === 'image/png' || out.mimeType === 'image/webp', out.mimeType);
    assert.ok(out.bytes.length <= 1_000_000);
    assert.ok(out.width <= 2000 && Math.abs(out.width / out.height - 1.5) < 0.01, `${out.width}×${out.height}`);
    const read = await sharp(out.bytes).metadata();
    assert.equal(read.hasAlpha, true);
  });

  test('an opaque PNG photo too big as PNG becomes a JPEG', async () => {
    const png = await sharp(await phonePhoto({ width: 1800, height: 1200 }))
      .png()
      .toBuffer();
    assert.ok(png.length > 1_000_000);
    const out = await prepareImage(png, BLUESKY_IMAGE_LIMITS);
    assert.equal(out.mimeType, 'image/jpeg');
    assert.ok(out.bytes.length <= 1_000_000);
  });

  test('a small PNG screenshot stays a PNG', async () => {
    const out = await prepareImage(pngImage(300, 200), BLUESKY_IMAGE_LIMITS);
    assert.equal(out.mimeType, 'image/png');
    assert.deepEqual([out.width, out.height], [300, 200]);
  });

  test('an animated GIF becomes its first frame for Bluesky, and keeps its frames without limits', async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 30, height: 20, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const threePages = await sharp(await Promise.all(['#336699', '#993366', '#669933'].map(frame)), { join: { animated: true } })
      .gif({ loop: 0 })
      .toBuffer();
    assert.equal((await sharp(threePages, { animated: true }).metadata()).pages, 3);
    const still = await prepareImage(threePages, BLUESKY_IMAGE_LIMITS);
    assert.deepEqual([still.mimeType, still.width, still.height], ['image/png', 30, 20]);
    const kept = await prepareImage(threePages);
    assert.deepEqual([kept.mimeType, kept.width, kept.height], ['image/gif', 30, 20]);
    assert.equal((await sharp(kept.bytes, { animated: true }).metadata()).pages, 3);
  });

  test('any size and shape: within the limits, the aspect ratio kept (to a pixel), the displayed size reported', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3200 }),
        fc.integer({ min: 1, max: 3200 }),
        fc.constantFrom('jpeg', 'png', 'webp'),
        async (width, height, format) => {
          const image = await sharp({ create: { width, height, channels: 3, background: '#a07050', noise: { type: 'gaussian', mean: 100, sigma: 20 } } })
            .toFormat(format)
            .toBuffer();
          const out = await prepareImage(image, BLUESKY_IMAGE_LIMITS);
          assert.ok(out.bytes.length <= 1_000_000);
          assert.ok(out.width <= 2000 && out.height <= 2000 && out.width >= 1 && out.height >= 1);
          const read = await sharp(out.bytes).metadata();
          assert.deepEqual([read.width, read.height], [out.width, out.height]);
          if (Math.max(width, height) <= 2000) assert.deepEqual([out.width, out.height], [width, height]);
          else assert.ok(Math.abs(out.width / out.height - width / height) <= (width / height) * (2 / Math.min(out.width, out.height)) + 0.01);
        },
      ),
      { numRuns: 10 },
    );
  });
});
