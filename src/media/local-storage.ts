import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, MediaStorage } from './storage.js';
import { checkKey } from './storage-key.js';

/** Temporary files start with a dot: never a key, so a reader never sees one half-written. */
const TEMP_PREFIX = '.upload-';

/**
 * Media in a folder (SKEIN_DATA_DIR/media). A file is written under a temporary name in the
 * same folder, flushed to disk, then renamed: a reader sees all of it or nothing, and a write
 * cut off leaves nothing (its temporary file is removed).
 */
export class LocalMediaStorage implements MediaStorage {
  readonly kind = 'local' as const;
  #ready: Promise<void> | null = null;

  constructor(readonly dir: string) {}

  async put(key: string, body: Readable, _contentType: string): Promise<void> {
    checkKey(key);
    await this.#mkdir();
    const temp = join(this.dir, `${TEMP_PREFIX}${randomBytes(12).toString('hex')}`);
    try {
      await pipeline(body, createWriteStream(temp, { flags: 'wx' }));
      const handle = await open(temp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, join(this.dir, key));
    } catch (err) {
      body.destroy();
      await unlink(temp).catch(() => undefined);
      throw err;
    }
    await syncDir(this.dir);
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const path = join(this.dir, checkKey(key));
    if ((await this.size(key)) === null) return null;
    return createReadStream(path, range ? { start: range.start, end: range.end } : {});
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(join(this.dir, checkKey(key)))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await unlink(join(this.dir, checkKey(key))).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  async close(): Promise<void> {}

  #mkdir(): Promise<void> {
    this.#ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 }).then(() => undefined);
    return this.#ready;
  }
}

/** The rename itself is durable once the folder is flushed (POSIX); where that is refused (Windows), best effort. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported here; the file's own bytes are flushed already.
  }
}
