import type pg from 'pg';

export interface ChannelHandlers {
  /** A NOTIFY arrived on the channel. */
  notify(payload: string): void;
  /** The listener is up; runs before `listening` turns true. */
  up?(): void;
  /** A listener that was up is gone: NOTIFYs may have been missed from here on. */
  down?(): void;
  /** Connecting or LISTEN failed (`connect`), or the live connection broke (`lost`). */
  failed(err: unknown, when: 'connect' | 'lost'): void;
}

/**
 * One PostgreSQL connection of its own that LISTENs on one channel (a pool connection cannot:
 * the pool hands it to other queries). It is opened on demand by `ensure()`; a lost connection
 * is reported and stays closed until the next `ensure()`, so the owner decides how soon to retry.
 */
export class PgChannelListener {
  #client: pg.Client | null = null;
  /** When the last attempt to connect and LISTEN failed (ms; 0: none has). */
  #failedAt = 0;
  #connecting: Promise<void> | null = null;
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly handlers: ChannelHandlers,
  ) {}

  get listening(): boolean {
    return this.#client !== null;
  }

  /** Starts connecting unless listening, connecting or closed; resolves when that attempt ends. */
  ensure(): Promise<void> {
    if (this.#client || this.#closed) return Promise.resolve();
    this.#connecting ??= this.#listen().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  /**
   * Whether it listens now; if not, starts an attempt unless one failed less than `retryMs` ago.
   * For a cache that is trusted only while its listener is up: each read asks, and a database that
   * refuses LISTEN is not asked again on every read.
   */
  listeningOrRetry(retryMs: number): boolean {
    if (this.#client) return true;
    if (Date.now() >= this.#failedAt + retryMs) void this.ensure();
    return false;
  }

  /** The attempt in flight, if any. */
  get connecting(): Promise<void> | null {
    return this.#connecting;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#connecting;
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  async #listen(): Promise<void> {
    const { default: driver } = await import('pg');
    const client = new driver.Client({ connectionString: this.url });
    const drop = () => {
      if (this.#client === client) {
        this.#client = null;
        this.handlers.down?.();
      }
      client.end().catch(() => {});
    };
    client.on('notification', (message) => this.handlers.notify(message.payload ?? ''));
    client.on('error', (err) => {
      this.handlers.failed(err, 'lost');
      drop();
    });
    client.on('end', drop);
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      this.#failedAt = Date.now();
      this.handlers.failed(err, 'connect');
      drop();
      return;
    }
    if (this.#closed) return void client.end().catch(() => {});
    this.handlers.up?.();
    this.#client = client;
  }
}
