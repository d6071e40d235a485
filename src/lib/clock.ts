/** Where "now" comes from. Production uses the system clock; tests set and move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The system clock moved to read `start` now, then running on at the real pace (SKEIN_CLOCK_START):
 * a whole process, its timers and its deadlines, lives on another day.
 */
export function shiftedClock(start: Date, realNowMs: number = Date.now()): Clock {
  const offsetMs = start.getTime() - realNowMs;
  return { now: () => new Date(Date.now() + offsetMs) };
}

/** A clock that only moves when told to: for deterministic tests. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string | number = Date.now()) {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(to: Date | string | number): void {
    this.#ms = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}
