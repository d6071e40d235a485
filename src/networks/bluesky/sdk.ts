import { createRequire } from 'node:module';
import type * as Atproto from '@atproto/api';

/**
 * @atproto/api, loaded on first use: it takes about 0.2 s and 35 MB to load, which every CLI
 * command and a Threads-only server would otherwise pay. Only a Bluesky network call (or
 * reading an error one threw) loads it. It is a CommonJS package, so `require` and `import`
 * give the same classes and `instanceof` holds whichever way a caller loaded it.
 */
let sdk: typeof Atproto | undefined;

export function atproto(): typeof Atproto {
  sdk ??= createRequire(import.meta.url)('@atproto/api') as typeof Atproto;
  return sdk;
}
