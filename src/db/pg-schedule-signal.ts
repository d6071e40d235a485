import { sql } from 'kysely';
import type { Logger } from '../lib/logger.js';
import { LocalScheduleSignal, type ScheduleSignal } from '../lib/schedule-signal.js';
import type { Db } from './database.js';
import { PgChannelListener } from './pg-listener.js';

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
  readonly #listener: PgChannelListener;
  #failing = false;

  constructor(
    url: string,
    private readonly db: Db,
    private readonly logger: Logger,
  ) {
    this.#listener = new PgChannelListener(url, CHANNEL, {
      notify: () => this.#local.ring(),
      up: () => (this.#failing = false),
      failed: (err, when) => {
        if (when === 'lost') logger.warn({ err }, 'the schedule listener lost its connection; polling until it is back');
        else if (!this.#failing) logger.warn({ err }, 'could not listen for schedule changes; polling until it works');
        if (when === 'connect') this.#failing = true;
      },
    });
  }

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
    void this.#listener.ensure();
    return this.#local.wait(timeoutMs);
  }

  async close(): Promise<void> {
    await Promise.all(this.#sending);
    await this.#listener.close();
    await this.#local.close();
  }
}
