import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { mediaTransfer } from '../../src/cli/media-transfer.js';
import { exportDatabase, importDatabase, TransferError } from '../../src/db/transfer.js';
import { createTestEnv, type TestEnv } from '../helpers/context.js';
import { DIALECTS, postgresSkipReason } from '../helpers/db.js';
import { mp4Bytes, pngBytes } from '../helpers/media-files.js';
import { createUser } from '../helpers/seeds.js';

type Env = TestEnv & { close(): Promise<void> };

/** The folder's files (the storage creates it at the first write). */
function files(env: Env): string[] {
  try {
    return readdirSync(env.ctx.config.mediaStorage.dir);
  } catch {
    return [];
  }
}

for (const kind of DIALECTS) {
  describe(`skein export / import carry uploaded media: the rows and their bytes [${kind}]`, {
    skip: (kind === 'postgres' && postgresSkipReason()) || false,
  }, () => {
    let source: Env;
    let lines: string[];
    const uploads: Array<{ url: string; bytes: Buffer }> = [];

    before(async () => {
      source = await createTestEnv(kind);
      const user = await createUser(source.ctx);
      // A video larger than one export line's chunk, and an image.
      for (const [bytes, type] of [
        [mp4Bytes({ samples: 40, sampleBytes: 20_000 }), 'video/mp4'],
        [await pngBytes(30, 30), 'image/png'],
      ] as const) {
        const res = await user.call(source.app, { method: 'POST', url: '/api/v1/media', headers: { 'content-type': type }, payload: bytes });
        assert.equal(res.statusCode, 201, res.body);
        uploads.push({ url: res.json().url, bytes });
      }
      lines = [];
      await exportDatabase(
        source.ctx.db,
        (text) => {
          lines.push(...(typeof text === 'string' ? text : new TextDecoder().decode(text)).split('\n'));
        },
        new Date(),
        mediaTransfer(source.ctx.media),
      );
    });
    after(async () => {
      await source?.close();
    });

    test('the export holds the rows and the bytes; imported elsewhere, every upload is served with the same bytes', async () => {
      assert.equal(lines.filter((l) => l.includes('"table":"media_files"')).length, 2);
      assert.ok(lines.filter((l) => l.startsWith('{"media":')).length >= 3, 'the video spans several lines');
      const target = await createTestEnv(kind);
      try {
        const counts = await importDatabase(target.ctx.db, lines, mediaTransfer(target.ctx.media));
        assert.equal(counts.media_files, 2);
        for (const upload of uploads) {
          const served = await target.app.inject({ method: 'GET', url: new URL(upload.url).pathname });
          assert.equal(served.statusCode, 200);
          assert.deepEqual(served.rawPayload, upload.bytes);
        }
      } finally {
        await target.close();
      }
    });

    test('an export missing a piece of an upload is refused whole: no rows, no files left', async () => {
      const lastPiece = lines
        .map((l, i) => [l, i] as const)
        .filter(([l]) => l.startsWith('{"media":') && l.includes('.mp4"'))
        .at(-1)![1];
      const damaged = lines.filter((_, i) => i !== lastPiece);
      const target = await createTestEnv(kind);
      try {
        const media = mediaTransfer(target.ctx.media);
        await assert.rejects(
          importDatabase(target.ctx.db, damaged, media).catch(async (err) => {
            await media.abort();
            throw err;
          }),
          (err: Error) => err instanceof TransferError && /bytes in the export/.test(err.message),
        );
        const rows = await target.ctx.db.selectFrom('media_files').selectAll().execute();
        assert.equal(rows.length, 0);
        assert.deepEqual(files(target), []);
      } finally {
        await target.close();
      }
    });
  });
}
