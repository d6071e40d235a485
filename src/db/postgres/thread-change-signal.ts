import type { Logger } from '../../lib/logger.js';
import { changedThreadIds, THREADS_CHANNEL, type ThreadChangeSignal } from '../../lib/thread-change-signal.js';
import { PgChannelListener } from './listener.js';
import type { PgNotifier } from './notifier.js';

/** The channel's payload for "any thread may have changed". */
export const ANY_THREAD = '*';
/** After a failed LISTEN, the next attempt waits this long (the cache is unused meanwhile). */
const RETRY_MS = 5_000;
/** A NOTIFY payload holds under 8,000 bytes; more ids than this many characters are sent as `*`. */
const MAX_PAYLOAD = 7_000;
/**
 * Everything kept is forgotten this often: the bound on how long another instance can show a
 * thread as it was when the process that changed it was killed between its commit and its
 * announcement (a few milliseconds; db/postgres/notifier.ts).
 */
const FORGET_EVERY_MS = 30_000;

/**
 * Thread changes on PostgreSQL. Other processes' changes: a LISTEN connection of its own, opened
 * at the first cached read (a CLI command that reads no thread opens none). While it is not up the
 * cache is not used, and it is emptied whenever the connection comes or goes, so a change it could
 * not hear is never missed. This process's own changes (`changedHere`, from DbHandle.onThreadsChanged):
 * heard at their commit and announced to the others through `notifier`; a writer that is not
 * Skein (psql) is announced by the database itself (migrations 0021 and 0022).
 */
export class PgThreadChangeSignal implements ThreadChangeSignal {
  #onChange: (ids: string[] | null) => void = () => {};
  readonly #listener: PgChannelListener;
  #forgetting: NodeJS.Timeout | null = null;

  constructor(
    url: string,
    logger: Logger,
    private readonly notifier: PgNotifier,
  ) {
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
    this.#forgetting ??= setInterval(() => this.#onChange(null), FORGET_EVERY_MS).unref();
  }

  /** A write of this process committed: heard here at once, and announced to every other process. */
  changedHere(threadIds: string[] | null): void {
    this.#onChange(threadIds);
    const payload = threadIds === null ? ANY_THREAD : threadIds.join(',');
    this.notifier.notify(THREADS_CHANNEL, payload.length > MAX_PAYLOAD ? ANY_THREAD : payload);
  }

  /** As the key signal's: a NOTIFY already on the listener's socket is handled before `setImmediate` runs. */
  settle(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }

  listening(): boolean {
    return this.#listener.listeningOrRetry(RETRY_MS);
  }

  close(): Promise<void> {
    if (this.#forgetting) clearInterval(this.#forgetting);
    return this.#listener.close();
  }
}
