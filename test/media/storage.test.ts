import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import { LocalMediaStorage } from '../../src/media/local-storage.js';
import { S3MediaStorage } from '../../src/media/s3-storage.js';
import type { MediaStorage } from '../../src/media/storage.js';
import { startS3, type TestS3 } from '../helpers/s3.js';

/** A stream of `chunks`, then an error: an upload cut off mid-body. */
function cutOff(chunks: Buffer[]): Readable {
  return Readable.from(
    (async function* () {
      for (const chunk of chunks) yield chunk;
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    })(),
    { objectMode: false },
  );
}

interface Backend {
  name: string;
  open(): Promise<{ storage: MediaStorage; leftovers(): Promise<number>; close(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'local folder',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'skein-media-test-'));
      const storage = new LocalMediaStorage(dir);
      return {
        storage,
        leftovers: async () => readdirSync(dir).length,
        close: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'S3 (s3rver)',
    async open() {
      const s3: TestS3 = await startS3();
      const storage = new S3MediaStorage({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1' });
      const { S3Client, ListObjectsV2Command, ListMultipartUploadsCommand } = await import('@aws-sdk/client-s3');
      const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true });
      return {
        storage,
        leftovers: async () => {
          const objects = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
          const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket })).catch(() => ({ Uploads: [] }));
          return (objects.Contents?.length ?? 0) + (uploads.Uploads?.length ?? 0);
        },
        close: async () => {
          client.destroy();
          await storage.close();
          await s3.close();
        },
      };
    },
  },
];

for (const backend of backends) {
  describe(`media storage contract: ${backend.name}`, () => {
    let env: Awaited<ReturnType<Backend['open']>>;
    before(async () => {
      env = await backend.open();
    });
    after(async () => {
      await env.close();
    });

    test('put then get answers the bytes; a range answers those bytes; size; delete removes it', async () => {
      const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i & 0xff));
      await env.storage.put('abc_-DEF.png', Readable.from([bytes.subarray(0, 400), bytes.subarray(400)], { objectMode: false }), 'image/png');
      assert.deepEqual(await buffer((await env.storage.get('abc_-DEF.png'))!), bytes);
      assert.deepEqual(await buffer((await env.storage.get('abc_-DEF.png', { start: 10, end: 19 }))!), bytes.subarray(10, 20));
      assert.equal(await env.storage.size('abc_-DEF.png'), 1000);
      await env.storage.delete('abc_-DEF.png');
      assert.equal(await env.storage.get('abc_-DEF.png'), null);
      assert.equal(await env.storage.size('abc_-DEF.png'), null);
      await env.storage.delete('abc_-DEF.png');
      assert.equal(await env.leftovers(), 0);
    });

    test('a body cut off (small, and past several multipart parts) leaves nothing behind', async () => {
      await assert.rejects(env.storage.put('small.mp4', cutOff([Buffer.alloc(1000, 1)]), 'video/mp4'), /aborted/);
      const part = Buffer.alloc(1024 * 1024, 7);
      await assert.rejects(env.storage.put('large.mp4', cutOff(Array.from({ length: 12 }, () => part)), 'video/mp4'), /aborted/);
      assert.equal(await env.storage.get('small.mp4'), null);
      assert.equal(await env.storage.get('large.mp4'), null);
      assert.equal(await env.leftovers(), 0);
    });

    test('a body that fails before its first byte (a refused upload) leaves nothing behind either', async () => {
      // Many at once: the failure lands while the storage is still opening its file, if it opens
      // one as the body is read; the file must be gone all the same once put has failed.
      await Promise.all(Array.from({ length: 20 }, (_, i) => assert.rejects(env.storage.put(`early-${i}.png`, cutOff([]), 'image/png'), /aborted/)));
      assert.equal(await env.leftovers(), 0);
    });

    test('a key that names a folder or climbs out of one is refused', async () => {
      for (const key of ['../x.png', 'a/b.png', '.upload-x', 'x']) {
        await assert.rejects(env.storage.put(key, Readable.from([Buffer.from('x')]), 'image/png'), /not a media storage key/);
      }
    });
  });
}
