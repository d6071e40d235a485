/**
 * In-process rate-limit store: for one API instance (dev and single-node mode). Each key keeps
 * the sorted times of its allowed requests, pruned lazily on access. Because JavaScript runs
 * one hit at a time and `hit` never awaits between checking and counting, check-then-add is
 * atomic without locks.
 */
import { allUnderLimit, buildResult, type KeyObservation, type RateLimitResult, type RateLimitRule, type RateLimitStore, validateHit } from './store.js';

export interface MemoryRateLimitStoreOptions {
  /** Sweep idle keys at least this often, measured on the callers' clock. Default 60 s. */
  sweepIntervalMs?: number;
  /** Also sweep when the number of keys reaches this (it then doubles). Default 10 000. */
  sweepAtKeys?: number;
}

interface KeyLog {
  /** Times of allowed requests, ascending. Never longer than the largest limit used. */
  stamps: number[];
  /** When the newest stamp leaves the window: from then on the key holds nothing. */
  idleAtMs: number;
}

/** Index of the first stamp after `cutoffMs` (binary search: stamps are sorted). */
function firstAfter(stamps: readonly number[], cutoffMs: number): number {
  let low = 0;
  let high = stamps.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (stamps[mid]! <= cutoffMs) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Drops stamps at or before the cutoff: they are outside (now-W, now]. */
function prune(log: KeyLog, cutoffMs: number): void {
  const expired = firstAfter(log.stamps, cutoffMs);
  if (expired > 0) log.stamps.splice(0, expired);
}

function observe(log: KeyLog | undefined, limit: number): KeyObservation {
  const stamps = log?.stamps ?? [];
  const count = stamps.length;
  return {
    count,
    oldestMs: stamps[0] ?? null,
    unblockMs: count >= limit ? stamps[count - limit]! : null,
  };
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #logs = new Map<string, KeyLog>();
  readonly #sweepIntervalMs: number;
  readonly #minSweepAtKeys: number;
  #sweepAtKeys: number;
  #lastSweepMs = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.#minSweepAtKeys = options.sweepAtKeys ?? 10_000;
    this.#sweepAtKeys = this.#minSweepAtKeys;
  }

  /** Number of keys held (idle ones included until the next sweep); for tests and metrics. */
  get size(): number {
    return this.#logs.size;
  }

  async hit(rules: RateLimitRule[], nowMs: number, windowMs: number): Promise<RateLimitResult> {
    validateHit(rules, nowMs, windowMs);
    this.#maybeSweep(nowMs);
    const observations = rules.map((rule) => observe(this.#pruned(rule.key, nowMs - windowMs), rule.limit));
    const allowed = allUnderLimit(rules, observations);
    if (allowed) for (const rule of rules) this.#record(rule.key, nowMs, windowMs);
    return buildResult(rules, observations, allowed, nowMs, windowMs);
  }

  async close(): Promise<void> {
    this.#logs.clear();
  }

  #pruned(key: string, cutoffMs: number): KeyLog | undefined {
    const log = this.#logs.get(key);
    if (log) prune(log, cutoffMs);
    return log;
  }

  #record(key: string, nowMs: number, windowMs: number): void {
    let log = this.#logs.get(key);
    if (!log) {
      log = { stamps: [], idleAtMs: 0 };
      this.#logs.set(key, log);
    }
    // Callers' clocks normally only move forward, so this is a push; the search keeps the
    // stamps sorted if one steps back.
    log.stamps.splice(firstAfter(log.stamps, nowMs), 0, nowMs);
    log.idleAtMs = Math.max(log.idleAtMs, nowMs + windowMs);
  }

  /**
   * Forgets keys whose requests have all left their window, so memory tracks the keys active
   * in the last window rather than every IP ever seen. Driven by the callers' time instead of
   * a timer: the store has no clock of its own, nothing keeps the process alive, and a sweep
   * costs O(keys) only once per interval or per doubling of the key count (amortised O(1)).
   */
  #maybeSweep(nowMs: number): void {
    const due = nowMs - this.#lastSweepMs >= this.#sweepIntervalMs || this.#logs.size >= this.#sweepAtKeys;
    if (!due) return;
    for (const [key, log] of this.#logs) {
      if (log.idleAtMs <= nowMs) this.#logs.delete(key);
    }
    this.#lastSweepMs = nowMs;
    this.#sweepAtKeys = Math.max(this.#minSweepAtKeys, 2 * this.#logs.size);
  }
}
