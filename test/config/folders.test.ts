import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { loadSecrets } from '../../src/config/secrets.js';
import { acquireDataDirLock } from '../../src/db/pglite/data-dir-lock.js';
import { LocalMediaStorage } from '../../src/media/local-storage.js';

/** The data folder holds the secret, the database and the uploads: only its owner may enter it. */
const root = mkdtempSync(join(tmpdir(), 'skein-folders-'));
after(() => rmSync(root, { recursive: true, force: true }));
const modeOf = (path: string) => statSync(path).mode & 0o777;

test('the data folder, made by the secret, the lock or the media storage, is 0700 (parents made on the way too)', {
  skip: process.platform === 'win32',
}, async () => {
  const bySecret = join(root, 'a', 'data');
  loadSecrets(bySecret, {});
  assert.equal(modeOf(bySecret), 0o700);
  assert.equal(modeOf(join(root, 'a')), 0o700);

  const byLock = join(root, 'b');
  const lock = await acquireDataDirLock(byLock);
  try {
    assert.equal(modeOf(byLock), 0o700);
  } finally {
    await lock.release();
  }

  const media = join(root, 'c', 'media');
  await new LocalMediaStorage(media).put('k1.png', Readable.from([Buffer.from('x')]), 'image/png');
  assert.equal(modeOf(media), 0o700);
});
