import type { Logger } from './logger.js';

/** Migration 0021's channel: every change to a thread's view is announced on it. */
export const THREADS_CHANNEL = 'skein_threads';

/** The embedded database's LISTEN (DbHandle.listen): resolves to what stops it. */
type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

/**
 * Tells this instance which threads changed anywhere. The database reports every change itself
 * (migrations 0021 and 0022: statement triggers), so every writer is heard: this instance, another
 * one, a worker, the CLI, psql. On PGlite the trigger's NOTIFY reaches this process before the
 * committing query resolves; on PostgreSQL this process hears its own writes at their commit and
 * announces them (db/postgres/thread-change-signal.ts), and a LISTEN connection hears the others'.
 */
export interface ThreadChangeSignal {
  /** Whether this instance hears every change now (else its cache must not be used). */
  listening(): boolean;
  /** Resolves once changes that have already reached this process are heard. */
  settle(): Promise<void>;
  /** `onChange(ids)` at every change heard (null: any thread may have changed), and when listening stops or starts. */
  start(onChange: (threadIds: string[] | null) => void): void;
  close(): Promise<void>;
}

/** The channel's payload: comma-separated thread ids, or `*` for "any thread". */
export function changedThreadIds(payload: string): string[] | null {
  return payload === '*' || payload === '' ? null : payload.split(',');
}

/**
 * Thread changes on PGlite: the one process that holds the database hears its notifications
 * (DbHandle.listen), delivered before the committing query resolves. `listening()` is false if
 * LISTEN failed (the cache is then unused).
 */
export class PgliteThreadChangeSignal implements ThreadChangeSignal {
  #onChange: (ids: string[] | null) => void = () => {};
  #stop: (() => Promise<void>) | null = null;

  static async open(listen: Listen | undefined, logger: Logger): Promise<PgliteThreadChangeSignal> {
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
