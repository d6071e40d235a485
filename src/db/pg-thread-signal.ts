import type { Logger } from '../lib/logger.js';
import { changedThreadIds, type ThreadChangeSignal } from '../lib/thread-view-cache.js';
import type { DbHandle } from './database.js';
import { PgChannelListener } from './pg-listener.js';

/** Migration 0021's channel: the database announces every change to a thread's view on it. */
const THREADS_CHANNEL = 'skein_threads';
/** After a failed LISTEN, the next attempt waits this long (the cache is unused meanwhile). */
const RETRY_MS = 5_000;

/**
 * Thread changes on PostgreSQL: a LISTEN connection of its own, opened at the first cached read
 * (a CLI command that reads no thread opens none). While it is not up the cache is not used, and
 * it is emptied whenever the connection comes or goes, so a change it could not hear is never missed.
 */
export class PgThreadChangeSignal implements ThreadChangeSignal {
  #onChange: (ids: string[] | null) => void = () => {};
  readonly #listener: PgChannelListener;

  constructor(url: string, logger: Logger) {
    this.#listener = new PgChannelListener(url, THREADS_CHANNEL, {
      notify: (payload) => this.#onChange(changedThreadIds(payload)),
      up: () => this.#onChange(null),
      down: () => this.#onChange(null),
      failed: (err, when) => {
        if (when === 'lost') logger.warn({ err }, 'the thread-change listener lost its connection; threads are read from the database until it is back');
        else logger.warn({ err }, 'could not listen for thread changes; threads are read from the database');
      },
    });
  }

  start(onChange: (ids: string[] | null) => void): void {
    this.#onChange = onChange;
  }

  /** As the key signal's: a NOTIFY already on the listener's socket is handled before `setImmediate` runs. */
  settle(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }

  listening(): boolean {
    return this.#listener.listeningOrRetry(RETRY_MS);
  }

  close(): Promise<void> {
    return this.#listener.close();
  }
}

/**
 * Thread changes on PGlite: the one process that holds the database hears its notifications
 * (DbHandle.listen), delivered before the committing query resolves. `listening()` is false if
 * LISTEN failed (the cache is then unused).
 */
export class PgliteThreadChangeSignal implements ThreadChangeSignal {
  #onChange: (ids: string[] | null) => void = () => {};
  #stop: (() => Promise<void>) | null = null;

  static async open(listen: DbHandle['listen'], logger: Logger): Promise<PgliteThreadChangeSignal> {
    const signal = new PgliteThreadChangeSignal();
    try {
      if (listen) signal.#stop = await listen(THREADS_CHANNEL, (payload) => signal.#onChange(changedThreadIds(payload)));
    } catch (err) {
      logger.warn({ err }, 'could not listen for thread changes; threads are read from the database');
    }
    return signal;
  }

  start(onChange: (ids: string[] | null) => void): void {
    this.#onChange = onChange;
  }

  settle(): Promise<void> {
    return Promise.resolve();
  }

  listening(): boolean {
    return this.#stop !== null;
  }

  async close(): Promise<void> {
    const stop = this.#stop;
    this.#stop = null;
    await stop?.();
  }
}
