/**
 * A 500 MB video upload to a real `skein serve` (PGlite, media in its SKEIN_DATA_DIR): the
 * server's RSS is sampled before and during the upload; its growth is the figure. The upload
 * streams to the storage, so it must stay far below the file's size (< 50 MiB).
 */
import http from 'node:http';
import { createFile } from 'mp4box';
import { bannerKey, freePort, newSecret, rssMiB, sampleRss, skeinEnv, startSkein, tempDir, waitReady } from './procs.js';

export interface MediaRun {
  bytes: number;
  status: number;
  seconds: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  rssGrowthMiB: number;
}

/** `ftyp` and `moov` of a small MP4 (one 320×240 video track), then an `mdat` box of `bytes` zeros, streamed. */
function videoHead(mdatPayload: number): Buffer {
  const file = createFile();
  const track = file.addTrack({ type: 'avc1', width: 320, height: 240, timescale: 1000, duration: 60_000, media_duration: 60_000 });
  file.addSample(track, new Uint8Array(16), { duration: 60_000, is_sync: true });
  const whole = Buffer.from(file.getBuffer().buffer as ArrayBuffer);
  // The first two top-level boxes: ftyp, moov.
  const ftyp = whole.readUInt32BE(0);
  const moov = whole.readUInt32BE(ftyp);
  const mdat = Buffer.alloc(16);
  mdat.writeUInt32BE(1, 0);
  mdat.write('mdat', 4, 'latin1');
  mdat.writeBigUInt64BE(BigInt(mdatPayload + 16), 8);
  return Buffer.concat([whole.subarray(0, ftyp + moov), mdat]);
}

function upload(port: number, key: string, total: number): Promise<number> {
  const head = videoHead(0);
  const payload = total - head.length;
  const first = videoHead(payload);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/media',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'video/mp4', 'content-length': String(total) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    const zeros = Buffer.alloc(1024 * 1024);
    let left = payload;
    req.write(first);
    const pump = () => {
      while (left > 0) {
        const chunk = zeros.subarray(0, Math.min(zeros.length, left));
        left -= chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

export async function runMediaUpload(options: { bytes: number; log: (line: string) => void }): Promise<MediaRun> {
  const dir = tempDir('media');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startSkein(
    'skein serve (media)',
    'serve',
    skeinEnv({ SKEIN_DATA_DIR: dir.path, SKEIN_SECRET: newSecret(), PORT: String(port), SKEIN_PUBLISHER: '0' }),
  );
  try {
    const started = performance.now();
    await waitReady(server, baseUrl, started);
    const key = await bannerKey(server);
    await new Promise((r) => setTimeout(r, 1000));
    const rssBeforeMiB = rssMiB(server.pid) ?? 0;
    const stop = sampleRss(server.pid);
    const t0 = performance.now();
    const status = await upload(port, key, options.bytes);
    const seconds = (performance.now() - t0) / 1000;
    const rssPeakMiB = stop();
    options.log(
      `media: ${(options.bytes / 1e6).toFixed(0)} MB video upload answered ${status} in ${seconds.toFixed(1)} s; RSS ${rssBeforeMiB.toFixed(0)} → peak ${rssPeakMiB.toFixed(0)} MiB`,
    );
    if (status !== 201) throw new Error(`the video upload answered ${status}\n${server.output.slice(-2000)}`);
    return { bytes: options.bytes, status, seconds, rssBeforeMiB, rssPeakMiB, rssGrowthMiB: rssPeakMiB - rssBeforeMiB };
  } finally {
    await server.stop();
    dir.remove();
  }
}
