/**
 * node scripts/copy-assets.js (part of `npm run build`, after tsc)
 *
 * tsc writes only JavaScript to dist/: the files the server reads beside its modules at run time
 * (the rate limiter's Lua script) are copied from src/ to the same place under dist/.
 */
import { cpSync, statSync } from 'node:fs';

const ASSET = /\.lua$/;
cpSync('src', 'dist', { recursive: true, filter: (path) => statSync(path).isDirectory() || ASSET.test(path) });
