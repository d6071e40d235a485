import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { PGLITE_SHARED_BUFFERS } from '../../../src/db/pglite/thread.js';
import { openTestDb } from '../../helpers/db.js';

// The embedded database's start-up settings (docs/configuration.md, "Start-up time and memory").

test('the embedded database runs with 16 MB of shared buffers, not PostgreSQL’s 128 MB (resident memory of every process)', async () => {
  const handle = await openTestDb('pglite');
  try {
    const { rows } = await sql<{ shared_buffers: string }>`SHOW shared_buffers`.execute(handle.db);
    assert.equal(rows[0]?.shared_buffers, '16MB');
    assert.equal(PGLITE_SHARED_BUFFERS, '16MB');
  } finally {
    await handle.close();
  }
});
