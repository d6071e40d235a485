/**
 * Shared rate-limit store on Redis: the production-mode store, so the limits hold across all
 * API instances. Each key is a sorted set of allowed requests scored by time. One Lua script
 * per hit prunes, counts and (only if every key has room) adds, so the check and the counting
 * are atomic across processes: Redis runs a script without interleaving other commands.
 *
 * All keys of one hit must live on one Redis node. On a single server that always holds; on
 * Redis Cluster, give a prefix with a hash tag (e.g. `{skein-rl}:`) so they share a slot.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { buildResult, type KeyObservation, type RateLimitResult, type RateLimitRule, type RateLimitStore, validateHit } from './store.js';

/**
 * KEYS: the sorted sets, one per rule.
 * ARGV: now, cutoff (= now - window; entries at or before it have expired), window,
 *       member (unique per hit), then one limit per key.
 * Returns { allowed (1|0), then per key: count, oldest score or '', unblock score or '' }.
 * ('' rather than nil: a nil would truncate the reply array.) Times travel as strings because
 * Lua formats numbers with 14 significant digits, too few for arithmetic on ms timestamps.
 */
const HIT_SCRIPT = `
local now, cutoff, window, member = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local reply = { 1 }
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff)
  local count = redis.call('ZCARD', key)
  local limit = tonumber(ARGV[4 + i])
  local oldest, unblock = '', ''
  if count > 0 then
    oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
  end
  if count >= limit then
    reply[1] = 0
    unblock = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')[2]
  end
  table.insert(reply, count)
  table.insert(reply, oldest)
  table.insert(reply, unblock)
end
if reply[1] == 1 then
  for _, key in ipairs(KEYS) do
    redis.call('ZADD', key, now, member)
    -- Every entry is at most now, so all are gone a window from now: let Redis drop the key.
    redis.call('PEXPIRE', key, window)
  end
end
return reply
`;

const HIT_SCRIPT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

function optionalTime(value: unknown): number | null {
  return value === '' || value === null || value === undefined ? null : Number(value);
}

/** Reads the script's reply; throws if it is not the expected shape (a bug, not bad input). */
function parseReply(reply: unknown, keyCount: number): { allowed: boolean; observations: KeyObservation[] } {
  if (!Array.isArray(reply) || reply.length !== 1 + 3 * keyCount) {
    throw new Error(`rate limit: unexpected Redis reply ${JSON.stringify(reply)}`);
  }
  const observations: KeyObservation[] = [];
  for (let i = 0; i < keyCount; i++) {
    const [count, oldest, unblock] = reply.slice(1 + 3 * i, 4 + 3 * i);
    observations.push({ count: Number(count), oldestMs: optionalTime(oldest), unblockMs: optionalTime(unblock) });
  }
  return { allowed: reply[0] === 1, observations };
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
  /** Hits waiting for the next batch (#runScript). */
  #queued: Array<{ keys: string[]; args: string[]; resolve: (reply: unknown) => void; reject: (error: unknown) => void }> = [];

  /** `connection`: a Redis URL (the store opens and later closes it) or an ioredis client. */
  constructor(connection: string | Redis, prefix: string) {
    this.#ownsConnection = typeof connection === 'string';
    // ioredis is loaded only by a process that uses Redis (REDIS_URL set). The hits themselves are
    // batched here (#runScript); auto-pipelining batches the rare EVAL fallback.
    this.#redis =
      typeof connection === 'string'
        ? new (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis(connection, { enableAutoPipelining: true })
        : connection;
    this.#prefix = prefix;
  }

  async hit(rules: RateLimitRule[], nowMs: number, windowMs: number): Promise<RateLimitResult> {
    validateHit(rules, nowMs, windowMs);
    const keys = rules.map((rule) => this.#prefix + rule.key);
    const args = [String(nowMs), String(nowMs - windowMs), String(windowMs), this.#nextMember(nowMs), ...rules.map((rule) => String(rule.limit))];
    const { allowed, observations } = parseReply(await this.#runScript(keys, args), rules.length);
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
   * Redis as one pipeline (one write, one read) when the loop next checks for immediates. ioredis's
   * auto-pipelining flushes at the next tick instead, and Node runs the ticks after each request
   * resumed from `setImmediate` (the key and thread caches' settle), so it sent one write per
   * request. Each hit is still its own script, run atomically and in order, so the limits stay exact.
   */
  #runScript(keys: string[], args: string[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.#queued.push({ keys, args, resolve, reject }) === 1) setImmediate(() => this.#flush());
    });
  }

  /** EVALSHA saves sending the script each time; EVAL (which also caches it) for those Redis lacked it for. */
  async #flush(): Promise<void> {
    const batch = this.#queued;
    this.#queued = [];
    const pipeline = this.#redis.pipeline();
    for (const hit of batch) pipeline.evalsha(HIT_SCRIPT_SHA, hit.keys.length, ...hit.keys, ...hit.args);
    let replies: Array<[Error | null, unknown]> | null;
    try {
      replies = await pipeline.exec();
    } catch (error) {
      for (const hit of batch) hit.reject(error);
      return;
    }
    batch.forEach((hit, i) => {
      const [error, reply] = replies?.[i] ?? [new Error('rate limit: no Redis reply'), null];
      if (!error) hit.resolve(reply);
      else if (!isNoScript(error)) hit.reject(error);
      else this.#redis.eval(HIT_SCRIPT, hit.keys.length, ...hit.keys, ...hit.args).then(hit.resolve, hit.reject);
    });
  }
}
