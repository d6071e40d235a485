/**
 * The media row: a 12-megapixel phone JPEG (4000×3000, about 3 MB, EXIF with GPS and XMP, noise
 * like a camera's) made Bluesky-ready by prepareImage (upright, no metadata, under 1,000,000 bytes
 * and 2000 px), in this process, one at a time: the figure is the median of the timed runs after
 * one warm-up.
 */
import { BLUESKY_IMAGE_LIMITS, prepareImage } from '../src/media/images.js';
import { phonePhoto } from '../test/helpers/photos.js';

export interface ImageRun {
  inputBytes: number;
  outputBytes: number;
  width: number;
  height: number;
  timesMs: number[];
  medianMs: number;
}

export async function runImages(options: { runs: number; log: (line: string) => void }): Promise<ImageRun> {
  options.log('images: making a 12 MP phone JPEG');
  const photo = await phonePhoto({ width: 4000, height: 3000 });
  let out = await prepareImage(photo, BLUESKY_IMAGE_LIMITS); // warm-up
  const timesMs: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    const started = performance.now();
    out = await prepareImage(photo, BLUESKY_IMAGE_LIMITS);
    timesMs.push(performance.now() - started);
  }
  const sorted = [...timesMs].sort((a, b) => a - b);
  const medianMs = sorted[Math.floor(sorted.length / 2)]!;
  options.log(`images: median ${medianMs.toFixed(0)} ms over ${options.runs} runs`);
  return { inputBytes: photo.length, outputBytes: out.bytes.length, width: out.width, height: out.height, timesMs, medianMs };
}
