import type { Config } from './config/config.js';
import { type EmbeddedStart, startEmbedded } from './db/pglite/embedded-start.js';
import { onStopSignal, type StopSignal } from './lib/stop-signal.js';

/**
 * What `skein serve` starts before it loads the rest of the app (half a second of modules on the
 * main thread): its stop signal's listener, so a SIGTERM from then on is held until it has
 * started (lib/stop-signal.ts), and on the embedded database its lock and thread, so PGlite
 * opens meanwhile. Both modules here are light; runServer takes over what they started.
 */
export interface EarlyStart {
  signals: StopSignal;
  embedded?: Promise<EmbeddedStart>;
}

export function startEarly(config: Config): EarlyStart {
  const signals = onStopSignal();
  if (config.db.url) return { signals };
  const embedded = startEmbedded(config.db.dataDir);
  // Awaited by the context; a failure before then is not an unhandled rejection.
  embedded.catch(() => {});
  return { signals, embedded };
}
