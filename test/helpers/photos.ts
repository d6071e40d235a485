/** Images made by sharp for tests: no binary files in the repository. */
import sharp from 'sharp';

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.5N" exif:GPSLongitude="2,17.7E"/></rdf:RDF></x:xmpmeta>`;

export interface PhotoOptions {
  width: number;
  height: number;
  /** EXIF orientation (1 to 8); 1 by default. */
  orientation?: number;
  quality?: number;
  /** Gaussian noise strength: 0 for a flat colour, 40 for a grainy phone photo. */
  noise?: number;
}

/**
 * A JPEG as a phone writes it: camera EXIF with a GPS position, an XMP packet with the position
 * again, an orientation; noisy enough (blurred a little, like a real photo) to weigh megabytes.
 */
export async function phonePhoto(options: PhotoOptions): Promise<Buffer> {
  const { width, height, noise = 40 } = options;
  const base = sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 120, g: 90, b: 60 },
      ...(noise > 0 ? { noise: { type: 'gaussian', mean: 128, sigma: noise } } : {}),
    },
  });
  const pixels = await (noise > 0 ? base.blur(1.2) : base).png({ compressionLevel: 0 }).toBuffer();
  return sharp(pixels)
    .jpeg({ quality: options.quality ?? 92 })
    .withMetadata({ orientation: options.orientation ?? 1 })
    .withExif({
      IFD0: { Make: 'Skein Phone', Model: 'Model GPS 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 30/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 40/1' },
    })
    .withXmp(XMP)
    .toBuffer();
}

/** A PNG with a transparent half (left opaque red, right clear). */
export async function transparentPng(width: number, height: number, noise = 0): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const left = await sharp({
    create: {
      width: half,
      height,
      channels: 4,
      background: { r: 255, g: 0, b: 0, alpha: 1 },
      ...(noise > 0 ? { noise: { type: 'gaussian', mean: 128, sigma: noise } } : {}),
    },
  })
    .ensureAlpha(1)
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: left, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

/**
 * A JPEG's header as text: every segment before the scan (SOS, 0xFFDA), where EXIF, XMP and
 * comments live. The compressed image data after it is left out: its random bytes spell "GPS"
 * or "Exif" now and then, which is no metadata.
 */
export function jpegHeaderText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes);
  let scan = -1;
  for (let i = 2; i + 1 < buffer.length; ) {
    if (buffer[i] !== 0xff) break;
    const marker = buffer[i + 1]!;
    if (marker === 0xda) {
      scan = i;
      break;
    }
    i += 2 + buffer.readUInt16BE(i + 2);
  }
  return buffer.subarray(0, scan === -1 ? buffer.length : scan).toString('latin1');
}
