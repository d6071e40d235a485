import type { ThreadChangeSignal } from './thread-change-signal.js';

/** At most this many threads' views are kept (least recently used first out). */
const MAX_THREADS = 5_000;
/** At most this many threads in all the kept List Posts answers together. */
const MAX_LISTED_THREADS = 20_000;

interface Listed<T> {
  value: T;
  size: number;
}

/**
 * Get Thread's and List Posts' answers, kept until the database says a thread changed
 * (docs/decisions.md "Thread view cache"). A thread's view is kept per account that read it (the
 * access check is part of the read), a List Posts answer per workspace and range; any change
 * drops every List Posts answer (a new or moved thread may enter any range).
 *
 * Correctness: a read that raced with a change is not kept (`generation` moves at every change
 * heard), and an instance that cannot hear changes reads the database. A write this process makes
 * is heard as it commits, before its caller goes on: on PGlite its notification arrives before the
 * committing query resolves; on PostgreSQL the driver reports the changed threads at the commit
 * (DbHandle.onThreadsChanged). So a client's read after its write, on
 * the instance that made it, is never older than the write; on another instance it is at most
 * as old as the NOTIFY's way there.
 */
export class ThreadViewCache<View, List> {
  /** Thread id → (account id → view): Map order is the LRU order. */
  readonly #threads = new Map<string, Map<string, View>>();
  readonly #lists = new Map<string, Listed<List>>();
  #listedThreads = 0;
  #generation = 0;
  /** Loads running, by key (a thread's view for an account, or a list), with the generation each began in. */
  readonly #loading = new Map<string, { generation: number; value: Promise<unknown> }>();

  constructor(
    private readonly signal: ThreadChangeSignal,
    private readonly limits = { threads: MAX_THREADS, listedThreads: MAX_LISTED_THREADS },
  ) {
    signal.start((ids) => this.#changed(ids));
  }

  /** The thread's view as `accountId` may see it: kept, or `load`ed (undefined: not found, not kept). */
  async thread(threadId: string, accountId: string, load: () => Promise<View | undefined>): Promise<View | undefined> {
    await this.signal.settle();
    if (!this.signal.listening()) return load();
    const views = this.#threads.get(threadId);
    const kept = views?.get(accountId);
    if (kept !== undefined) {
      this.#touch(this.#threads, threadId, views!);
      return kept;
    }
    return this.#loadOnce(`${threadId}\u0000${accountId}`, load, (view, generation) => {
      if (view !== undefined && generation === this.#generation) this.#keepThread(threadId, accountId, view);
    });
  }

  /**
   * A list answer for `key` (List Posts': the workspace, range and options; List Drafts': the
   * workspace); `sizeOf` counts its threads. A key names one kind of list, so what is kept under
   * it is of the kind its caller loads.
   */
  async list<L extends List>(key: string, load: () => Promise<L>, sizeOf: (list: L) => number): Promise<L> {
    await this.signal.settle();
    if (!this.signal.listening()) return load();
    const kept = this.#lists.get(key);
    if (kept) {
      this.#touch(this.#lists, key, kept);
      return kept.value as L;
    }
    return this.#loadOnce(`list\u0000${key}`, load, (value, generation) => {
      if (generation === this.#generation) this.#keepList(key, value, sizeOf(value));
    });
  }

  /**
   * `load`, unless a load of the same key began since the last change heard: then its answer.
   * Many requests for an answer not kept (after a change, at a start) make one read, not one
   * each: the embedded database runs one statement at a time, and 50 at once took a second. The
   * shared read began after every change this one would have to see, as a kept answer did.
   */
  async #loadOnce<T>(key: string, load: () => Promise<T>, keep: (value: T, generation: number) => void): Promise<T> {
    const generation = this.#generation;
    const running = this.#loading.get(key);
    if (running && running.generation === generation) return running.value as Promise<T>;
    const value = load();
    const entry = { generation, value };
    this.#loading.set(key, entry);
    try {
      const loaded = await value;
      keep(loaded, generation);
      return loaded;
    } finally {
      if (this.#loading.get(key) === entry) this.#loading.delete(key);
    }
  }

  /** Forgets everything kept, as a change to any thread would (the tests' way to force a read). */
  changedHere(): void {
    this.#changed(null);
  }

  close(): Promise<void> {
    return this.signal.close();
  }

  #changed(threadIds: string[] | null): void {
    this.#generation++;
    this.#lists.clear();
    this.#listedThreads = 0;
    if (threadIds === null) this.#threads.clear();
    else for (const id of threadIds) this.#threads.delete(id);
  }

  #touch<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
  }

  #keepThread(threadId: string, accountId: string, view: View): void {
    const views = this.#threads.get(threadId) ?? new Map<string, View>();
    views.set(accountId, view);
    this.#touch(this.#threads, threadId, views);
    while (this.#threads.size > this.limits.threads) this.#threads.delete(this.#threads.keys().next().value!);
  }

  #keepList(key: string, value: List, size: number): void {
    const replaced = this.#lists.get(key);
    if (replaced) {
      this.#lists.delete(key);
      this.#listedThreads -= replaced.size;
    }
    if (size > this.limits.listedThreads) return;
    this.#lists.set(key, { value, size });
    this.#listedThreads += size;
    for (const [oldest, listed] of this.#lists) {
      if (this.#listedThreads <= this.limits.listedThreads) break;
      this.#lists.delete(oldest);
      this.#listedThreads -= listed.size;
    }
  }
}
