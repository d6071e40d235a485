#!/usr/bin/env node
// Runs the compiled JavaScript in dist/ (built by `npm ci` through the prepare script).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/index.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('skein: dist/ is missing; run `npm ci` (or `npm run build`) first\n');
  process.exit(1);
}
const { main } = await import(entry.href);
const code = await main(process.argv.slice(2));
if (code !== 0 || !['serve', 'worker'].includes(process.argv[2] ?? '')) process.exitCode = code;
