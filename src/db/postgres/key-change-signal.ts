import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { KeyChangeSignal } from '../../lib/key-change-signal.js';
import type { Logger } from '../../lib/logger.js';
import type { Db } from '../database.js';
import { PgChannelListener } from './listener.js';

const CHANNEL = 'skein_keys';
/** After a failed LISTEN, the next attempt waits this long (the cache is unused meanwhile). */
const RETRY_MS = 5_000;
/** How long an announcement waits to hear itself back. */
const ECHO_WAIT_MS = 1_000;

/**
 * Key and account changes across instances on PostgreSQL: `announce()` sends a NOTIFY, and each
 * instance LISTENs on a connection of its own (opened at the first authentication, so a CLI
 * command that never authenticates opens none). While that connection is not up the instance
 * does not trust its key cache, so a change it could not hear is never missed: it reads keys
 * from the database until it listens again.
 */
export class PgKeyChangeSignal implements KeyChangeSignal {
  #onChange: () => void = () => {};
  readonly #listener: PgChannelListener;
  readonly #echoes = new Map<string, () => void>();

  constructor(
    url: string,
    private readonly db: Db,
    logger: Logger,
  ) {
    this.#listener = new PgChannelListener(url, CHANNEL, {
      notify: (payload) => {
        this.#onChange();
        this.#echoes.get(payload)?.();
      },
      // Anything read before now may predate a change this instance could not hear.
      up: () => this.#onChange(),
      down: () => this.#onChange(),
      failed: (err, when) => {
        if (when === 'lost') logger.warn({ err }, 'the key-change listener lost its connection; API keys are read from the database until it is back');
        else logger.warn({ err }, 'could not listen for key changes; API keys are read from the database');
      },
    });
  }

  start(onChange: () => void): void {
    this.#onChange = onChange;
  }

  /**
   * A NOTIFY that reached the listener's socket together with (or before) the request being
   * authenticated is read in the same I/O phase of the event loop; `setImmediate` runs after that
   * phase, so by then its handler has cleared the cache.
   */
  settle(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * Resolves once this instance's own listener heard the NOTIFY back (at most ECHO_WAIT_MS): by
   * then PostgreSQL has handed it to every listening instance, so the change is in effect there
   * by the time the caller answers its client.
   */
  async announce(): Promise<void> {
    this.#onChange();
    // Listening first (if it can): the echo below is what tells that the others heard.
    const connecting = this.listening() ? null : this.#listener.connecting;
    if (connecting) await Promise.race([connecting, new Promise((r) => setTimeout(r, ECHO_WAIT_MS).unref())]);
    const token = randomUUID();
    const echoed = this.#listener.listening ? this.#awaitEcho(token) : null;
    try {
      await sql`SELECT pg_notify(${CHANNEL}, ${token})`.execute(this.db);
      await echoed?.promise;
    } finally {
      echoed?.cancel();
    }
  }

  #awaitEcho(token: string): { promise: Promise<void>; cancel(): void } {
    let done!: () => void;
    const promise = new Promise<void>((resolve) => (done = resolve));
    const timer = setTimeout(done, ECHO_WAIT_MS);
    this.#echoes.set(token, done);
    return {
      promise,
      cancel: () => {
        clearTimeout(timer);
        this.#echoes.delete(token);
        done();
      },
    };
  }

  listening(): boolean {
    return this.#listener.listeningOrRetry(RETRY_MS);
  }

  close(): Promise<void> {
    return this.#listener.close();
  }
}
