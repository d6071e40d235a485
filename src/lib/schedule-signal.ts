/**
 * A wake-up bell: producers ring it when a thread becomes due sooner (created, rescheduled,
 * retried); the publisher loop waits on it, with a poll as fallback.
 */
export interface ScheduleSignal {
  /** Wakes every waiting publisher (in other processes too, where the signal reaches them). */
  ring(): void;
  /** Resolves on the next ring or after `timeoutMs`, whichever is first. */
  wait(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** The bell within one process (the embedded database allows no other). */
export class LocalScheduleSignal implements ScheduleSignal {
  #waiters: Array<() => void> = [];

  ring(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      const self = this;
      function done() {
        clearTimeout(timer);
        self.#waiters = self.#waiters.filter((w) => w !== done);
        resolve();
      }
      this.#waiters.push(done);
    });
  }

  async close(): Promise<void> {
    this.ring();
  }
}
