import type pg from 'pg';
import type { Logger } from '../../lib/logger.js';
import { withStartupOptions } from './connection.js';

/** Every waiting payload in one statement. */
const NOTIFY_ALL = 'SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)';

/** After a failed send, the next attempt waits this long (what was pending is kept). */
const RETRY_MS = 1_000;
/** Past this many distinct payloads waiting on one channel, they are replaced by its `collapsed` payload. */
const MAX_PENDING = 256;
/** close() waits at most this long for what is pending to go out. */
const CLOSE_WAIT_MS = 5_000;

/**
 * NOTIFYs sent after the commits they announce, from a connection of this process's own on which
 * commits do not wait for the disk (`synchronous_commit = off`: a notification is not durable
 * anyway, and a lost one is covered by the listeners' own rules).
 *
 * Why not NOTIFY in the writing transaction: PostgreSQL takes one database-wide lock for a
 * transaction that has NOTIFYed and holds it until that transaction's commit is on disk, so every
 * writing transaction would wait for the previous one's fsync (no group commit: pgbench on a
 * 2-core machine, 8,000 commits/s without a NOTIFY, 2,000 with one). Here one statement at a time
 * carries everything that waited meanwhile, so many commits cost one NOTIFY transaction.
 */
export class PgNotifier {
  /** Channel → distinct payloads waiting to be sent. */
  readonly #pending = new Map<string, Set<string>>();
  #client: pg.Client | null = null;
  #sending: Promise<void> | null = null;
  #retry: NodeJS.Timeout | null = null;
  #failing = false;
  #closed = false;

  /**
   * `collapsed`: per channel, the one payload that stands for any number of others (for thread
   * changes `*`, "any thread"), sent instead when too many wait.
   */
  constructor(
    private readonly url: string,
    private readonly logger: Logger,
    private readonly collapsed: Record<string, string> = {},
  ) {}

  /** Queues `payload` on `channel`; it goes out with whatever else waits, at most one send at a time. */
  notify(channel: string, payload: string): void {
    if (this.#closed) return;
    const payloads = this.#pending.get(channel) ?? new Set<string>();
    this.#pending.set(channel, payloads);
    const collapsed = this.collapsed[channel];
    if (collapsed !== undefined && (payloads.has(collapsed) || payloads.size >= MAX_PENDING)) {
      payloads.clear();
      payloads.add(collapsed);
    } else {
      payloads.add(payload);
    }
    this.#kick();
  }

  /** Sends what waits (for up to CLOSE_WAIT_MS), then closes the connection. */
  async close(): Promise<void> {
    if (this.#retry) {
      clearTimeout(this.#retry);
      this.#retry = null;
      this.#kick();
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([this.#drained(), deadline]);
    clearTimeout(timer);
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  async #drained(): Promise<void> {
    while (this.#sending) await this.#sending;
  }

  #kick(): void {
    if (this.#closed || this.#sending || this.#retry || this.#pending.size === 0) return;
    this.#sending = this.#sendAll().finally(() => {
      this.#sending = null;
      this.#kick();
    });
  }

  async #sendAll(): Promise<void> {
    const channels: string[] = [];
    const payloads: string[] = [];
    for (const [channel, waiting] of this.#pending) {
      for (const payload of waiting) {
        channels.push(channel);
        payloads.push(payload);
      }
    }
    this.#pending.clear();
    try {
      const client = this.#client ?? (await this.#connect());
      // Named: parsed and planned once per connection (unnamed, the planning was about 40% of the
      // statement's CPU; docs/benchmarks.md, "Create's CPU, 2026-11-30").
      await client.query({ name: 'skein_notify', text: NOTIFY_ALL, values: [channels, payloads] });
      if (this.#failing) this.logger.info('notifications reach the database again');
      this.#failing = false;
    } catch (err) {
      if (!this.#failing) this.logger.warn({ err }, 'could not send notifications to the database; retrying every second');
      this.#failing = true;
      this.#drop();
      // Kept for the next attempt (unless closing): what another instance must hear is not lost to a blip.
      if (!this.#closed) {
        for (const [i, channel] of channels.entries()) this.notify(channel, payloads[i]!);
        this.#retry = setTimeout(() => {
          this.#retry = null;
          this.#kick();
        }, RETRY_MS);
        this.#retry.unref();
      }
    }
  }

  async #connect(): Promise<pg.Client> {
    const { default: driver } = await import('pg');
    const client = new driver.Client(withStartupOptions(this.url, '-c synchronous_commit=off'));
    client.on('error', () => this.#drop(client));
    try {
      await client.connect();
    } catch (err) {
      client.end().catch(() => {});
      throw err;
    }
    if (this.#closed) {
      client.end().catch(() => {});
      throw new Error('the notifier closed while it connected');
    }
    this.#client = client;
    return client;
  }

  #drop(client = this.#client): void {
    if (client && this.#client === client) this.#client = null;
    client?.end().catch(() => {});
  }
}
