import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { KeyChangeSignal } from '../lib/api-key-cache.js';
import type { Logger } from '../lib/logger.js';
import type { Db } from './database.js';

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
  #listener: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #retryAfter = 0;
  readonly #echoes = new Map<string, () => void>();
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

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
    if (!this.listening() && this.#connecting) await Promise.race([this.#connecting, new Promise((r) => setTimeout(r, ECHO_WAIT_MS).unref())]);
    const token = randomUUID();
    const echoed = this.#listener ? this.#awaitEcho(token) : null;
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
    if (this.#listener) return true;
    if (!this.#connecting && !this.#closed && Date.now() >= this.#retryAfter) this.#connecting = this.#listen().finally(() => (this.#connecting = null));
    return false;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#connecting;
    const listener = this.#listener;
    this.#listener = null;
    await listener?.end().catch(() => {});
  }

  async #listen(): Promise<void> {
    const { default: driver } = await import('pg');
    const client = new driver.Client({ connectionString: this.url });
    const drop = () => {
      if (this.#listener === client) {
        this.#listener = null;
        this.#onChange();
      }
      client.end().catch(() => {});
    };
    client.on('notification', (message) => {
      this.#onChange();
      if (message.payload) this.#echoes.get(message.payload)?.();
    });
    client.on('error', (err) => {
      this.logger.warn({ err }, 'the key-change listener lost its connection; API keys are read from the database until it is back');
      drop();
    });
    client.on('end', drop);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      this.logger.warn({ err }, 'could not listen for key changes; API keys are read from the database');
      this.#retryAfter = Date.now() + RETRY_MS;
      drop();
      return;
    }
    if (this.#closed) return void client.end().catch(() => {});
    // Anything read before now may predate a change this instance could not hear.
    this.#onChange();
    this.#listener = client;
  }
}
