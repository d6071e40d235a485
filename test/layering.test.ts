import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
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

/** Folders of test/ that are not a mirror of src/: shared helpers and fakes, the suites of real processes, the browser and the fuzz suite. */
const BESIDE_THE_MIRROR = new Set(['helpers', 'fuzz', 'system', 'web']);

test('test/ mirrors src/: every folder of tests has its counterpart in src/ (or is helpers/, fuzz/, system/, web/, or an e2e/ of one)', () => {
  const testRoot = fileURLToPath(new URL('.', import.meta.url));
  const srcRoot = fileURLToPath(new URL('../src', import.meta.url));
  const strays: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      const rel = relative(testRoot, path);
      if (BESIDE_THE_MIRROR.has(rel) || entry.name === 'e2e') continue;
      if (!existsSync(join(srcRoot, rel))) strays.push(`test/${rel}/`);
      visit(path);
    }
  };
  visit(testRoot);
  assert.deepEqual(strays, [], 'a folder of tests without its src/ counterpart: move it to mirror src/, or its helpers to test/helpers/');
});
