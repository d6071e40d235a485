import type { Logger } from '../../lib/logger.js';
import { LocalScheduleSignal, type ScheduleSignal } from '../../lib/schedule-signal.js';
import { PgChannelListener } from './listener.js';
import type { PgNotifier } from './notifier.js';

const SCHEDULE_CHANNEL = 'skein_schedule';

/**
 * The schedule signal across processes on PostgreSQL: `ring()` also sends a NOTIFY (through the
 * notifier, after the commit that rang, many rings in one), and a process that waits on the signal
 * (a publisher) LISTENs on a connection of its own, so every `skein worker` wakes the moment any
 * API instance creates, reschedules or retries a thread. A lost connection or a lost NOTIFY costs
 * at most one poll interval: the connection is opened again at the next wait.
 */
export class PgScheduleSignal implements ScheduleSignal {
  readonly #local = new LocalScheduleSignal();
  readonly #listener: PgChannelListener;
  #failing = false;

  constructor(
    url: string,
    private readonly notifier: PgNotifier,
    logger: Logger,
  ) {
    this.#listener = new PgChannelListener(url, SCHEDULE_CHANNEL, {
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
    this.notifier.notify(SCHEDULE_CHANNEL, '');
  }

  wait(timeoutMs: number): Promise<void> {
    void this.#listener.ensure();
    return this.#local.wait(timeoutMs);
  }

  async close(): Promise<void> {
    await this.#listener.close();
    await this.#local.close();
  }
}
