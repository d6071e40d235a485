import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiKeyCache } from '../../src/lib/api-key-cache.js';
import { LocalKeyChangeSignal } from '../../src/lib/key-change-signal.js';

test('a stored key is hashed once: its hash is remembered by the presented key until the cache is cleared', async () => {
  const cache = new ApiKeyCache<string>(
    new LocalKeyChangeSignal(),
    async () => {},
    () => {},
  );
  let hashed = 0;
  const hash = (presented: string) => {
    hashed++;
    return `hash of ${presented}`;
  };
  assert.equal(cache.hashOf('skein_a', hash), 'hash of skein_a');
  assert.equal(hashed, 1, 'an unknown key is hashed');
  cache.store('hash of skein_a', 'alice', 'key-a', cache.generation, 0, 'skein_a');
  assert.equal(cache.hashOf('skein_a', hash), 'hash of skein_a');
  assert.equal(hashed, 1, 'a stored key is not hashed again');
  assert.deepEqual(cache.lookup(cache.hashOf('skein_a', hash), 1), { account: 'alice', keyId: 'key-a', expiresAt: 30_000 });

  // A store that raced with a change keeps nothing, the presented key included.
  const before = cache.generation;
  cache.clear();
  cache.store('hash of skein_b', 'bob', 'key-b', before, 0, 'skein_b');
  assert.equal(cache.hashOf('skein_b', hash), 'hash of skein_b');
  assert.equal(hashed, 2);
  // A clear (a key revoked, an account changed) forgets the presented keys with the entries.
  assert.equal(cache.hashOf('skein_a', hash), 'hash of skein_a');
  assert.equal(hashed, 3);
  await cache.close();
});
