/**
 * Tells every instance that keys or accounts changed, so each clears its key cache. On PGlite one
 * process holds the database, so telling this process is enough; on PostgreSQL it is a NOTIFY
 * (src/db/postgres/key-change-signal.ts).
 */
export interface KeyChangeSignal {
  /** Every instance, this one included, clears its cache; resolves once the others are told. */
  announce(): Promise<void>;
  /** Whether this instance hears every announcement now (else its cache must not be used). */
  listening(): boolean;
  /** Resolves once announcements that have already reached this process are heard. */
  settle(): Promise<void>;
  /** `onChange` runs at every announcement heard, and whenever listening stops or starts again. */
  start(onChange: () => void): void;
  close(): Promise<void>;
}

export class LocalKeyChangeSignal implements KeyChangeSignal {
  #onChange: () => void = () => {};
  async announce(): Promise<void> {
    this.#onChange();
  }
  listening(): boolean {
    return true;
  }
  settle(): Promise<void> {
    return Promise.resolve();
  }
  start(onChange: () => void): void {
    this.#onChange = onChange;
  }
  async close(): Promise<void> {}
}
