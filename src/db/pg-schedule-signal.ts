import { sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../lib/logger.js';
import { LocalScheduleSignal, type ScheduleSignal } from '../lib/schedule-signal.js';
import type { Db } from './database.js';

const CHANNEL = 'skein_schedule';

/**
 * The schedule signal across processes on PostgreSQL: `ring()` also sends a NOTIFY, and a
 * process that waits on the signal (a publisher) LISTENs on a connection of its own, so every
 * `skein worker` wakes the moment any API instance creates, reschedules or retries a thread.
 * A lost connection costs at most one poll interval: it is opened again at the next wait.
 */
export class PgScheduleSignal implements ScheduleSignal {
  readonly #local = new LocalScheduleSignal();
  /** NOTIFYs on their way: close() waits for them, so none is cut off by the pool shutting down. */
  readonly #sending = new Set<Promise<void>>();
  #listener: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #failing = false;
  #closed = false;

  constructor(
    private readonly url: string,
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  ring(): void {
    this.#local.ring();
    const sending: Promise<void> = sql`SELECT pg_notify(${CHANNEL}, '')`
      .execute(this.db)
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err }, 'could not notify other processes of a schedule change; they find it at their next poll'),
      )
      .finally(() => this.#sending.delete(sending));
    this.#sending.add(sending);
  }

  wait(timeoutMs: number): Promise<void> {
    if (!this.#listener && !this.#connecting && !this.#closed) this.#connecting = this.#listen().finally(() => (this.#connecting = null));
    return this.#local.wait(timeoutMs);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#sending);
    await this.#connecting;
    const listener = this.#listener;
    this.#listener = null;
    await listener?.end().catch(() => {});
    await this.#local.close();
  }

  async #listen(): Promise<void> {
    const { default: driver } = await import('pg');
    const client = new driver.Client({ connectionString: this.url });
    const drop = () => {
      if (this.#listener === client) this.#listener = null;
      client.end().catch(() => {});
    };
    client.on('notification', () => this.#local.ring());
    client.on('error', (err) => {
      this.logger.warn({ err }, 'the schedule listener lost its connection; polling until it is back');
      drop();
    });
    client.on('end', drop);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      if (!this.#failing) this.logger.warn({ err }, 'could not listen for schedule changes; polling until it works');
      this.#failing = true;
      drop();
      return;
    }
    this.#failing = false;
    if (this.#closed) return void client.end().catch(() => {});
    this.#listener = client;
  }
}
