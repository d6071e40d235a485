import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkLayers } from '../scripts/check-layers.js';

test('src/ keeps its layers: services and publisher never import each other, repos import no caller', () => {
  assert.deepEqual(checkLayers(fileURLToPath(new URL('../src', import.meta.url))), []);
});

test('the check finds a forbidden import, static, type-only or dynamic', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-layers-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('publisher/platforms/x.ts', 'export const x = 1;\n');
  write('services/connections.ts', "import { x } from '../publisher/platforms/x.js';\nexport const y = x;\n");
  write('publisher/runner.ts', "import type { Y } from '../services/connections.js';\nconst m = await import('../services/connections.js');\n");
  write('services/ok.ts', "import { z } from '../repos/threads.js';\nimport { Type } from '@sinclair/typebox';\n");
  write('repos/threads.ts', 'export const z = 1;\n');
  const found = checkLayers(dir).map((v) => `${v.file} -> ${v.to}`);
  assert.deepEqual(found.sort(), ['publisher/runner.ts -> services', 'publisher/runner.ts -> services', 'services/connections.ts -> publisher']);
});
