/**
 * Request rate limiting with strict rolling windows (decisions.md "Rate limits", api.md §8).
 *
 * For a key with limit L and window W, a request at time t is allowed iff fewer than L
 * requests were *allowed* for that key in (t-W, t]. Refused requests are never counted, so a
 * client hammering after a 429 does not push its own recovery further out.
 *
 * One request is checked against several keys at once (client IP and account): it is allowed
 * only if every key allows it, and then counted on every key; a refusal by any key counts on
 * none. Stores do the check and the counting atomically.
 *
 * Time is passed in by the caller (from the injected Clock) instead of being read here, so the
 * same tests run deterministically against the memory store and against Redis.
 *
 * This module holds the interface and the arithmetic both stores share: a store only has to
 * report, per key, what it saw before deciding (a KeyObservation).
 */

export interface RateLimitRule {
  /** The counter's identity, e.g. `ip:1.2.3.4` or `acct:<id>`. Distinct within one hit. */
  key: string;
  /** Most requests allowed per window; a positive integer. */
  limit: number;
}

export interface RateLimitState {
  key: string;
  limit: number;
  /** Requests still allowed in the current window, after counting this one (if it was allowed). */
  remaining: number;
  /**
   * Whole seconds (rounded up) until the oldest counted request leaves the window, i.e. until
   * `remaining` grows again. 0 when nothing is counted for the key: the quota is already full,
   * there is nothing to wait for.
   */
  resetSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** One entry per rule, in the order of the rules. */
  limits: RateLimitState[];
  /**
   * When refused: whole seconds (rounded up) until every refusing key allows one more
   * request (suitable for Retry-After; never 0). Null when allowed.
   */
  retryAfterSeconds: number | null;
}

export interface RateLimitStore {
  /** Checks one request against all rules and counts it on all of them iff all allow it. */
  hit(rules: RateLimitRule[], nowMs: number, windowMs: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

/** What a store saw for one key, before counting the current request. */
export interface KeyObservation {
  /** Allowed requests in (now-W, now]. */
  count: number;
  /** Time of the oldest of them; null when count is 0. */
  oldestMs: number | null;
  /**
   * When count ≥ limit: time of the entry whose expiry brings count below the limit (the
   * (count-limit+1)-th oldest; normally the oldest, as a key never holds more than its limit
   * unless the limit was lowered). Null when count < limit.
   */
  unblockMs: number | null;
}

/** Rejects calls that would make the window arithmetic meaningless: these are caller bugs. */
export function validateHit(rules: readonly RateLimitRule[], nowMs: number, windowMs: number): void {
  if (rules.length === 0) throw new RangeError('rate limit: at least one rule is needed');
  if (!Number.isSafeInteger(nowMs) || nowMs < 0) throw new RangeError(`rate limit: bad time ${nowMs}`);
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) throw new RangeError(`rate limit: bad window ${windowMs}`);
  for (let i = 0; i < rules.length; i++) {
    const { key, limit } = rules[i]!;
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`rate limit: bad limit ${limit} for ${key}`);
    // A duplicate key would be counted twice for one request (a hit has a rule or two: no set needed).
    for (let j = 0; j < i; j++) if (rules[j]!.key === key) throw new RangeError(`rate limit: duplicate key ${key}`);
  }
}

/** The decision: every key must still have room. */
export function allUnderLimit(rules: readonly RateLimitRule[], observations: readonly KeyObservation[]): boolean {
  return rules.every((rule, i) => observations[i]!.count < rule.limit);
}

/** Whole seconds from now until `expiresAtMs`, rounded up so that waiting that long is enough. */
function secondsUntil(expiresAtMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((expiresAtMs - nowMs) / 1000));
}

function stateOf(rule: RateLimitRule, seen: KeyObservation, allowed: boolean, nowMs: number, windowMs: number): RateLimitState {
  const counted = allowed ? seen.count + 1 : seen.count;
  // If this request was the first one counted, it is the oldest.
  const oldestMs = seen.oldestMs ?? (allowed ? nowMs : null);
  return {
    key: rule.key,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - counted),
    resetSeconds: oldestMs === null ? 0 : secondsUntil(oldestMs + windowMs, nowMs),
  };
}

/** The latest moment at which a refusing key frees up: only then would all of them allow. */
function retryAfterSeconds(observations: readonly KeyObservation[], nowMs: number, windowMs: number): number {
  let latest = nowMs;
  for (const seen of observations) {
    if (seen.unblockMs !== null) latest = Math.max(latest, seen.unblockMs + windowMs);
  }
  // At least 1: a refused client should not be told to retry immediately.
  return Math.max(1, secondsUntil(latest, nowMs));
}

/** Turns the stores' observations and decision into the result callers see. */
export function buildResult(
  rules: readonly RateLimitRule[],
  observations: readonly KeyObservation[],
  allowed: boolean,
  nowMs: number,
  windowMs: number,
): RateLimitResult {
  return {
    allowed,
    limits: rules.map((rule, i) => stateOf(rule, observations[i]!, allowed, nowMs, windowMs)),
    retryAfterSeconds: allowed ? null : retryAfterSeconds(observations, nowMs, windowMs),
  };
}

/**
 * The limit to report in RateLimit-* headers: the one with the lowest remaining, ties going
 * to the lower limit (the one that will bind first). Throws on an empty list, which `hit`
 * never returns.
 */
export function tighterLimit(limits: readonly RateLimitState[]): RateLimitState {
  let tightest = limits[0];
  if (tightest === undefined) throw new RangeError('rate limit: no limits to choose from');
  for (let i = 1; i < limits.length; i++) {
    const candidate = limits[i]!;
    const tighter = candidate.remaining < tightest.remaining || (candidate.remaining === tightest.remaining && candidate.limit < tightest.limit);
    if (tighter) tightest = candidate;
  }
  return tightest;
}
