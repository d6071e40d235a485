import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BLUESKY_VIDEO, downloadVideo } from '../../../src/networks/bluesky/video.js';
import { PublishError } from '../../../src/networks/platform.js';
import { mp4Bytes } from '../../helpers/media-files.js';

// The downloads' temporary folders go in a folder of this file's own: nothing else writes there.
const spoolDir = mkdtempSync(join(tmpdir(), 'skein-video-test-'));
const tempDirs = () => readdirSync(spoolDir);

describe('downloadVideo (a Bluesky video by outside URL)', () => {
  const clip = mp4Bytes({ width: 320, height: 180, durationMs: 1500 });
  let server: http.Server;
  let base: string;
  let endlessSent = 0;
  let endlessClosed: Promise<void> = Promise.resolve();

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/clip.mp4') return void res.writeHead(200, { 'content-type': 'video/mp4' }).end(clip);
      if (req.url === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      if (req.url === '/cut.mp4') return void res.writeHead(200, { 'content-type': 'video/mp4' }).end(clip.subarray(0, clip.length - 10));
      if (req.url === '/endless.mp4') {
        // An MP4 whose mdat never ends: only the size cap stops it.
        endlessClosed = new Promise((resolve) => res.once('close', () => resolve()));
        res.writeHead(200, { 'content-type': 'video/mp4' });
        const head = Buffer.alloc(8);
        head.writeUInt32BE(0, 0);
        head.write('mdat', 4, 'latin1');
        res.write(Buffer.concat([clip.subarray(0, clip.readUInt32BE(0)), head]));
        const chunk = Buffer.alloc(256 * 1024);
        const push = () => {
          while (!res.destroyed && res.write(chunk)) endlessSent += chunk.length;
          if (!res.destroyed) res.once('drain', push);
        };
        return void push();
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    rmSync(spoolDir, { recursive: true, force: true });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function refusal(url: string): Promise<PublishError> {
    const err = await downloadVideo(url, { allowPrivate: true, tempDir: spoolDir }).then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof PublishError, String(err));
    return err;
  }

  test('gives a Blob of the file read from disk with the size from its moov; dispose removes the temporary folder', async () => {
    const video = await downloadVideo(`${base}/clip.mp4`, { allowPrivate: true, tempDir: spoolDir });
    assert.deepEqual([video.mimeType, video.width, video.height], ['video/mp4', 320, 180]);
    assert.ok(video.data instanceof Blob);
    assert.deepEqual(Buffer.from(await video.data.arrayBuffer()), clip);
    assert.equal(tempDirs().length, 1, 'the file is on disk while it is used');
    await video.dispose();
    assert.deepEqual(tempDirs(), []);
  });

  test('stops at 100 MB without reading on (nothing left on disk), and refuses a page, a cut-off file and a private address', async () => {
    const big = await refusal(`${base}/endless.mp4`);
    assert.equal(big.code, 'INVALID_MEDIA');
    assert.match(big.message, /over 100000000 bytes; Bluesky takes an MP4 of at most 3 minutes and 100 MB/);
    await endlessClosed;
    assert.ok(endlessSent < BLUESKY_VIDEO.bytes + 16 * 1024 * 1024, `the server sent ${endlessSent} bytes`);
    assert.match((await refusal(`${base}/page.html`)).message, /text\/html is not a video/);
    assert.match((await refusal(`${base}/cut.mp4`)).message, /cannot be read: the file ends inside a box/);
    const strict = await downloadVideo(`${base}/clip.mp4`, { allowPrivate: false, tempDir: spoolDir }).catch((e: unknown) => e);
    assert.ok(strict instanceof PublishError && strict.kind === 'permanent' && /private or reserved address/.test(strict.message), String(strict));
    assert.deepEqual(tempDirs(), [], 'nothing left on disk');
  });
});
