import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { openApiTypes, REGENERATE, TYPES_FILE } from '../../scripts/openapi-types.js';

// The web app's API types come from the server's schemas, never by hand: the committed
// web/src/api/openapi.d.ts must be what the OpenAPI document gives now.
test('web/src/api/openapi.d.ts is generated from the current OpenAPI document', async () => {
  const expected = await openApiTypes();
  const committed = readFileSync(TYPES_FILE, 'utf8');
  if (committed === expected) return;
  const a = committed.split('\n');
  const b = expected.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  assert.fail(
    `web/src/api/openapi.d.ts is out of date with the route schemas (first difference at line ${line + 1}: ` +
      `${JSON.stringify(a[line])} should be ${JSON.stringify(b[line])}). Run \`${REGENERATE}\` and commit the file.`,
  );
});
