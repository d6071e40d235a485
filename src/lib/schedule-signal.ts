/** A wake-up bell: producers ring it, the publisher loop waits on it (with a poll as fallback). */
export class ScheduleSignal {
  #waiters: Array<() => void> = [];

  ring(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves on the next ring or after `timeoutMs`, whichever is first. */
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
}
