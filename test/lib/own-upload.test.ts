import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownUpload } from '../../src/lib/own-upload.js';
import { checkMediaReachable } from '../../src/networks/threads/media-check.js';

test("an own upload is told by the parsed URL's origin and path, not by a string prefix", () => {
  const base = 'https://skein.example';
  assert.deepEqual(ownUpload(`${base}/media/AbC_-1.png`, base), { id: 'AbC_-1', ext: 'png' });
  assert.deepEqual(ownUpload('HTTPS://SKEIN.example:443/media/a.png', base), { id: 'a', ext: 'png' }, 'the same origin, spelled otherwise');
  assert.deepEqual(ownUpload('https://example.com/skein/media/a.png', 'https://example.com/skein/'), { id: 'a', ext: 'png' });
  for (const url of [
    `${base}/media/../api/v1/account.png`, // starts with <PUBLIC_URL>/media/, is /api/v1/account.png
    `${base}/media/%2e%2e/secret.png`,
    `${base}/media/a/b.png`,
    'https://user@skein.example/media/a.png',
    'https://skein.example.evil.example/media/a.png',
    'http://skein.example/media/a.png',
    'https://skein.example:8443/media/a.png',
    'https://example.com/media/a.png',
    'not a url',
  ]) {
    assert.equal(ownUpload(url, base), null, url);
  }
  assert.equal(ownUpload('https://example.com/other/media/a.png', 'https://example.com/skein'), null);
});

test("Threads' reachability check skips only real own uploads: a look-alike path is requested (and refused on loopback)", async () => {
  const base = 'http://127.0.0.1:9';
  await checkMediaReachable(`${base}/media/a.png`, { allowPrivate: false, publicUrl: base });
  await assert.rejects(checkMediaReachable(`${base}/media/../secret.png`, { allowPrivate: false, publicUrl: base }), { code: 'MEDIA_UNREACHABLE' });
});
