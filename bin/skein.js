#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/index.ts');
const code = await main(process.argv.slice(2));
if (code !== 0 || !['serve', 'worker'].includes(process.argv[2] ?? '')) process.exitCode = code;
