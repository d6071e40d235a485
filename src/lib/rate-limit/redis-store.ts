/**
 * Shared rate-limit store on Redis: the production-mode store, so the limits hold across all
 * API instances. Each key is a sorted set of allowed requests scored by time. One Lua script
 * call prunes, counts and (only if every key has room) adds for each hit of a batch in turn, so
 * each check and its counting are atomic across processes: Redis runs a script without
 * interleaving other commands.
 *
 * All keys of one hit must live on one Redis node. On a single server that always holds; on
 * Redis Cluster, give a prefix with a hash tag (e.g. `{skein-rl}:`) so they share a slot.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { buildResult, type KeyObservation, type RateLimitResult, type RateLimitRule, type RateLimitStore, validateHit } from './store.js';

/**
 * One batch of hits (the requests that reached the limiter in one turn), run in order as if each
 * were a script of its own: Redis runs a script without interleaving other commands, so each
 * hit's check and counting stay atomic, and a batch is one command to send and to run.
 *
 * KEYS: every sorted set the batch names, once.
 * ARGV: per hit: now, cutoff (= now - window; entries at or before it have expired), window,
 *       member (unique per hit), its number of keys, then per key: its index in KEYS and its
 *       limit.
 * Returns per hit, one after another: allowed (1|0), then per key: count, oldest score or '',
 * unblock score or ''. ('' rather than nil: a nil would truncate the reply array.) Times travel
 * as strings because Lua formats numbers with 14 significant digits, too few for arithmetic on
 * ms timestamps. Every key a hit counted on expires a window (the last such hit's) after the
 * script ran: Redis's clock stands still while a script runs, so one PEXPIRE per key at the end
 * is the same as one per hit.
 */
const BATCH_SCRIPT = `
local reply, expiry = {}, {}
local at = 1
while at <= #ARGV do
  local now, cutoff, window, member, n = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], tonumber(ARGV[at + 4])
  local allowed_at = #reply + 1
  reply[allowed_at] = 1
  for i = 1, n do
    local key = KEYS[tonumber(ARGV[at + 3 + 2 * i])]
    local limit = tonumber(ARGV[at + 4 + 2 * i])
    redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff)
    local count = redis.call('ZCARD', key)
    local oldest, unblock = '', ''
    if count > 0 then
      oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
    end
    if count >= limit then
      reply[allowed_at] = 0
      unblock = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')[2]
    end
    table.insert(reply, count)
    table.insert(reply, oldest)
    table.insert(reply, unblock)
  end
  if reply[allowed_at] == 1 then
    for i = 1, n do
      local key = KEYS[tonumber(ARGV[at + 3 + 2 * i])]
      redis.call('ZADD', key, now, member)
      expiry[key] = window
    end
  end
  at = at + 5 + 2 * n
end
-- Every entry is at most its hit's now, so all are gone a window from now: let Redis drop the key.
for key, window in pairs(expiry) do
  redis.call('PEXPIRE', key, window)
end
return reply
`;

const BATCH_SCRIPT_SHA = createHash('sha1').update(BATCH_SCRIPT).digest('hex');

function optionalTime(value: unknown): number | null {
  return value === '' || value === null || value === undefined ? null : Number(value);
}

/** Reads one hit's part of the batch's reply; throws if it is not the expected shape (a bug, not bad input). */
function parseHit(reply: unknown[], offset: number, keyCount: number): { allowed: boolean; observations: KeyObservation[] } {
  if (reply.length < offset + 1 + 3 * keyCount) {
    throw new Error(`rate limit: unexpected Redis reply ${JSON.stringify(reply)}`);
  }
  const observations: KeyObservation[] = [];
  for (let i = 0; i < keyCount; i++) {
    const [count, oldest, unblock] = reply.slice(offset + 1 + 3 * i, offset + 4 + 3 * i);
    observations.push({ count: Number(count), oldestMs: optionalTime(oldest), unblockMs: optionalTime(unblock) });
  }
  return { allowed: reply[offset] === 1, observations };
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis;
  /** Only a connection this store opened is closed by it; a passed-in one belongs to the caller. */
  readonly #ownsConnection: boolean;
  readonly #prefix: string;
  /** Members must be unique across processes so two hits in the same ms both count. */
  readonly #instanceId = randomBytes(8).toString('hex');
  #sequence = 0;
  /** Hits waiting for the next batch (#queue). */
  #queued: QueuedHit[] = [];

  /** `connection`: a Redis URL (the store opens and later closes it) or an ioredis client. */
  constructor(connection: string | Redis, prefix: string) {
    this.#ownsConnection = typeof connection === 'string';
    // ioredis is loaded only by a process that uses Redis (REDIS_URL set). The hits themselves are
    // batched here (#queue); auto-pipelining batches the rare EVAL fallbacks.
    this.#redis =
      typeof connection === 'string'
        ? new (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis(connection, { enableAutoPipelining: true })
        : connection;
    this.#prefix = prefix;
  }

  async hit(rules: RateLimitRule[], nowMs: number, windowMs: number): Promise<RateLimitResult> {
    validateHit(rules, nowMs, windowMs);
    const { allowed, observations } = await this.#queue({
      keys: rules.map((rule) => this.#prefix + rule.key),
      limits: rules.map((rule) => rule.limit),
      nowMs,
      windowMs,
      member: this.#nextMember(nowMs),
    });
    return buildResult(rules, observations, allowed, nowMs, windowMs);
  }

  async close(): Promise<void> {
    if (this.#ownsConnection) await this.#redis.quit();
  }

  #nextMember(nowMs: number): string {
    this.#sequence = (this.#sequence + 1) % Number.MAX_SAFE_INTEGER;
    return `${nowMs}:${this.#instanceId}:${this.#sequence}`;
  }

  /**
   * Batching: the hits of all requests that reach the limiter in one turn of the event loop go to
   * Redis as one script call (BATCH_SCRIPT) when the loop next checks for immediates. ioredis's
   * auto-pipelining flushes at the next tick instead, and Node runs the ticks after each request
   * resumed from `setImmediate` (the key and thread caches' settle), so it sent one write per
   * request. Each hit is still checked and counted atomically and in order, so the limits stay exact.
   */
  #queue(hit: Omit<QueuedHit, 'resolve' | 'reject'>): Promise<{ allowed: boolean; observations: KeyObservation[] }> {
    return new Promise((resolve, reject) => {
      if (this.#queued.push({ ...hit, resolve, reject }) === 1) setImmediate(() => this.#flush());
    });
  }

  /** EVALSHA saves sending the script each time; EVAL (which also caches it) when Redis lacks it. */
  async #flush(): Promise<void> {
    const batch = this.#queued;
    this.#queued = [];
    const keys: string[] = [];
    const index = new Map<string, number>();
    const args: string[] = [];
    for (const hit of batch) {
      args.push(String(hit.nowMs), String(hit.nowMs - hit.windowMs), String(hit.windowMs), hit.member, String(hit.keys.length));
      hit.keys.forEach((key, i) => {
        if (!index.has(key)) index.set(key, keys.push(key));
        args.push(String(index.get(key)), String(hit.limits[i]));
      });
    }
    let reply: unknown;
    try {
      reply = await this.#redis.evalsha(BATCH_SCRIPT_SHA, keys.length, ...keys, ...args).catch((error: unknown) => {
        if (!isNoScript(error)) throw error;
        return this.#redis.eval(BATCH_SCRIPT, keys.length, ...keys, ...args);
      });
      if (!Array.isArray(reply)) throw new Error(`rate limit: unexpected Redis reply ${JSON.stringify(reply)}`);
    } catch (error) {
      for (const hit of batch) hit.reject(error);
      return;
    }
    let offset = 0;
    for (const hit of batch) {
      try {
        hit.resolve(parseHit(reply, offset, hit.keys.length));
      } catch (error) {
        hit.reject(error);
      }
      offset += 1 + 3 * hit.keys.length;
    }
  }
}

interface QueuedHit {
  keys: string[];
  limits: number[];
  nowMs: number;
  windowMs: number;
  member: string;
  resolve(result: { allowed: boolean; observations: KeyObservation[] }): void;
  reject(error: unknown): void;
}
