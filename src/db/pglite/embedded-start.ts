import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { type PGliteThreadSession, startPGliteThread } from './thread.js';

/**
 * The embedded database's first steps: its data folder's lock, then its thread. Neither needs
 * the app's modules, so `skein serve` takes them before it loads the rest (half a second of
 * modules on the main thread), and PGlite opens in its thread meanwhile instead of afterwards
 * (docs/architecture.md, "Database").
 */
export interface EmbeddedStart {
  lock: DataDirLock;
  session: PGliteThreadSession;
}

export async function startEmbedded(dataDir: string): Promise<EmbeddedStart> {
  const lock = await acquireDataDirLock(dataDir);
  try {
    return { lock, session: await startPGliteThread(`${dataDir}/pglite`) };
  } catch (err) {
    await lock.release();
    throw err;
  }
}
