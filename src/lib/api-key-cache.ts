import type { KeyChangeSignal } from './key-change-signal.js';

interface Entry<Account> {
  account: Account;
  keyId: string;
  expiresAt: number;
}

/** At most this many keys are cached; past it the cache starts again empty. */
const MAX_ENTRIES = 10_000;
/** The safety net: a cached key is read again after this long even if no change was heard. */
const KEY_CACHE_TTL_MS = 30_000;
/** Keys' last use is written at most this often (decisions.md: lastUsedAt may lag a minute). */
const KEY_USE_FLUSH_MS = 60_000;

/**
 * Presented key hash → account and key id, so an authenticated request needs no round trip.
 * A revocation, or a change to an account, anywhere clears every instance's cache at once
 * (KeyChangeSignal); while an instance cannot hear those changes its cache is not used.
 * A lookup that raced with a change is not stored: `generation` moves at every clear.
 *
 * Uses of cached keys are remembered and written in one statement per minute (`lastUsedAt`).
 */
export class ApiKeyCache<Account> {
  readonly #entries = new Map<string, Entry<Account>>();
  readonly #pendingUses = new Map<string, Date>();
  /** Presented key → its hash, for keys stored here: the HMAC costs more than the rest of a hit. */
  readonly #hashes = new Map<string, string>();
  #generation = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly signal: KeyChangeSignal,
    private readonly writeUses: (uses: Array<{ keyId: string; at: Date }>) => Promise<void>,
    private readonly onWriteError: (err: unknown) => void,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
  ) {
    signal.start(() => this.clear());
  }

  get generation(): number {
    return this.#generation;
  }

  /**
   * `lookup` once the announcements already received are heard: a revocation announced by another
   * instance before this request arrived clears the entry first, so it is effective at the next
   * request here too.
   */
  async lookupSettled(hash: string, nowMs: number): Promise<{ account: Account; keyId: string } | undefined> {
    await this.signal.settle();
    return this.lookup(hash, nowMs);
  }

  /**
   * The hash of a presented key: remembered for a key this cache stored (so a cached key costs no
   * HMAC), else `hash(presented)`. The presented keys it holds are those of cached entries (the
   * process holds the secret they are hashed with anyway); every clear forgets them too.
   */
  hashOf(presented: string, hash: (presented: string) => string): string {
    return this.#hashes.get(presented) ?? hash(presented);
  }

  lookup(hash: string, nowMs: number): { account: Account; keyId: string } | undefined {
    if (!this.signal.listening()) return undefined;
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    if (nowMs >= entry.expiresAt) {
      this.#entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  /** Keeps what a lookup read from the database, unless a change was heard since `generation`. */
  store(hash: string, account: Account, keyId: string, generation: number, nowMs: number, presented?: string): void {
    if (generation !== this.#generation || !this.signal.listening()) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    if (this.#hashes.size >= MAX_ENTRIES) this.#hashes.clear();
    this.#entries.set(hash, { account, keyId, expiresAt: nowMs + this.ttlMs });
    if (presented !== undefined) this.#hashes.set(presented, hash);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#hashes.clear();
  }

  /** Keys or accounts changed: every instance's cache is cleared (this one's at once). */
  announceChange(): Promise<void> {
    this.clear();
    return this.signal.announce();
  }

  /** A cached key was used at `at`; written with the others at the next flush. */
  noteUse(keyId: string, at: Date): void {
    this.#pendingUses.set(keyId, at);
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      this.flushUses().catch(this.onWriteError);
    }, KEY_USE_FLUSH_MS).unref();
  }

  async flushUses(): Promise<void> {
    if (this.#pendingUses.size === 0) return;
    const uses = [...this.#pendingUses].map(([keyId, at]) => ({ keyId, at }));
    this.#pendingUses.clear();
    await this.writeUses(uses);
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.flushUses().catch(this.onWriteError);
    await this.signal.close();
  }
}
