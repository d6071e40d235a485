import { randomBytes } from 'node:crypto';
import { createFile } from 'mp4box';
import sharp from 'sharp';

/** Test media made on the spot: no binary fixtures in the repository. */

export function pngBytes(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
}

/** A PNG of noise, which no compression shrinks: about `width × height × 3` bytes (an image too large for a network). */
export function noisyPngBytes(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export function gifBytes(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#cc6633' } })
    .gif()
    .toBuffer();
}

export function jpegBytes(width = 64, height = 48, options: { orientation?: number; exif?: boolean } = {}): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: '#cc6633' } }).jpeg();
  if (options.orientation || options.exif) {
    return image
      .withMetadata({ ...(options.orientation ? { orientation: options.orientation } : {}), exif: { IFD0: { Copyright: 'GPS 48.85,2.29' } } })
      .toBuffer();
  }
  return image.toBuffer();
}

/** A PNG whose header declares `side` × `side` pixels: a few bytes that would decode to gigabytes. */
export async function hugePngHeader(side = 100_000): Promise<Buffer> {
  const png = Buffer.from(await pngBytes(8, 8));
  png.writeUInt32BE(side, 16);
  png.writeUInt32BE(side, 20);
  return png;
}

/** An MP4 (ISO BMFF, moov first) with one `width` × `height` video track of `durationMs`, padded to about `bytes`. */
export function mp4Bytes(options: { width?: number; height?: number; durationMs?: number; samples?: number; sampleBytes?: number } = {}): Buffer {
  const { width = 320, height = 240, durationMs = 3000, samples = 30, sampleBytes = 1000 } = options;
  const file = createFile();
  const track = file.addTrack({ type: 'avc1', width, height, timescale: 1000, duration: durationMs, media_duration: durationMs });
  for (let i = 0; i < samples; i++) {
    file.addSample(track, new Uint8Array(sampleBytes).fill(i & 0xff), { duration: Math.round(durationMs / samples), is_sync: i === 0 });
  }
  return Buffer.from(file.getBuffer().buffer as ArrayBuffer);
}
