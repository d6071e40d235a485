import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { TransferError, type TransferExtras } from '../db/transfer.js';
import type { MediaStorage } from '../media/storage.js';
import { allMediaFiles } from '../repos/media.js';
import type { DbOrTrx } from '../repos/types.js';

/** Raw bytes per line (base64 makes it a third larger). */
const CHUNK_BYTES = 192 * 1024;

interface MediaLine {
  media: string;
  type: string;
  chunk: string;
}

/**
 * `skein export` / `import` carry uploaded media: after the rows, each upload's bytes as lines
 * `{"media": "<storage key>", "type": "<mime type>", "chunk": "<base64>"}`, in order. On import
 * the bytes stream into the configured storage (folder or bucket) as they are read; the sizes
 * are checked against the rows before the commit, and a failed import removes what it stored.
 */
export function mediaTransfer(storage: MediaStorage): TransferExtras & { abort(): Promise<void> } {
  const stored: string[] = [];
  let current: { key: string; stream: PassThrough; done: Promise<void> } | null = null;

  const finishCurrent = async () => {
    if (!current) return;
    const { stream, done } = current;
    current = null;
    stream.end();
    await done;
  };

  return {
    async *exportLines(trx) {
      for (const row of await allMediaFiles(trx as DbOrTrx)) {
        const body = await storage.get(row.storage_key);
        if (!body) throw new TransferError(`the bytes of upload ${row.id} (${row.storage_key}) are missing from the media storage`);
        let pending = Buffer.alloc(0);
        for await (const piece of body) {
          pending = Buffer.concat([pending, piece as Buffer]);
          while (pending.length >= CHUNK_BYTES) {
            yield JSON.stringify({ media: row.storage_key, type: row.mime_type, chunk: pending.subarray(0, CHUNK_BYTES).toString('base64') });
            pending = pending.subarray(CHUNK_BYTES);
          }
        }
        if (pending.length > 0 || row.bytes === 0) yield JSON.stringify({ media: row.storage_key, type: row.mime_type, chunk: pending.toString('base64') });
      }
    },

    async importLine(line, lineNo) {
      const { media, type, chunk } = line as Partial<MediaLine>;
      if (typeof media !== 'string' || typeof type !== 'string' || typeof chunk !== 'string') {
        throw new TransferError(`line ${lineNo} is neither a row nor a piece of an upload`);
      }
      if (current?.key !== media) {
        await finishCurrent();
        if (stored.includes(media)) throw new TransferError(`line ${lineNo}: the bytes of ${media} come in two places`);
        const stream = new PassThrough();
        stored.push(media);
        const done = storage.put(media, stream, type);
        // A failed write is awaited (and reported) when the upload is finished.
        done.catch(() => undefined);
        current = { key: media, stream, done };
      }
      const open = current!;
      if (!open.stream.write(Buffer.from(chunk, 'base64'))) await Promise.race([once(open.stream, 'drain'), open.done]);
    },

    async importDone(trx) {
      await finishCurrent();
      for (const row of await allMediaFiles(trx as DbOrTrx)) {
        const size = await storage.size(row.storage_key);
        if (size === null) throw new TransferError(`the export holds no bytes for upload ${row.id} (${row.storage_key})`);
        if (size !== row.bytes) throw new TransferError(`upload ${row.id} has ${size} bytes in the export, ${row.bytes} in its row`);
      }
    },

    async abort() {
      current?.stream.destroy(new Error('import aborted'));
      await current?.done.catch(() => undefined);
      current = null;
      for (const key of stored) await storage.delete(key).catch(() => undefined);
    },
  };
}
