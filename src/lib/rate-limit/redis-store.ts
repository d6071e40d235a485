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
 * One batch of hits (the requests that reached the limiter in one turn), judged in order with
 * exactly the results each would get as a script of its own: Redis runs a script without
 * interleaving other commands, so each hit's check and counting stay atomic, and a batch is one
 * command to send and to run.
 *
 * KEYS: every sorted set the batch names, once.
 * ARGV[1]: the hits, as one comma-separated list: per hit: now, cutoff (= now - window; entries
 *          at or before it have expired), window, its number of keys, then per key: its index in
 *          KEYS and its limit.
 * ARGV[2]: the batch's member prefix (unique per batch across processes); a hit's member is the
 *          prefix and the hit's number in the batch.
 * Returns one comma-separated list: per hit, one after another: allowed (1|0), then per key:
 * count, oldest score or nothing, unblock score or nothing. One string each way, rather than a
 * value per field, is what keeps the client's share of a hit small: ioredis handles each
 * argument and each reply element on its own. Times travel as strings because Lua formats
 * numbers with 14 significant digits, too few for arithmetic on ms timestamps; they become Lua
 * numbers only to be compared (exact below 2^53).
 *
 * Most of a batch's hits share their keys, so the script keeps per key what the reads would
 * return (count, oldest score) and the members it has yet to add (pending, added with one ZADD).
 * It prunes and reads a key again only when its oldest entry has expired for the hit at hand:
 * otherwise the prune would remove nothing, and the kept figures are what the reads would return.
 * A refusal's unblock score needs the stored order, so it adds the pending members first.
 * Every key a hit counted on expires a window (the last such hit's) after the script ran:
 * Redis's clock stands still while a script runs, so one PEXPIRE per key at the end is the same
 * as one per hit.
 */
const BATCH_SCRIPT = `
local reply, expiry, seen = {}, {}, {}
local function add_pending(key, s)
  if #s.pending > 0 then
    redis.call('ZADD', key, unpack(s.pending))
    s.pending = {}
  end
end
local function read(key, s, cutoff_s)
  add_pending(key, s)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff_s)
  s.count = redis.call('ZCARD', key)
  s.oldest_s, s.oldest = '', nil
  if s.count > 0 then
    s.oldest_s = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
    s.oldest = tonumber(s.oldest_s)
  end
end
local arg = {}
for field in string.gmatch(ARGV[1], '[^,]+') do arg[#arg + 1] = field end
local at, hit = 1, 0
while at <= #arg do
  local now_s, cutoff_s, window, n = arg[at], arg[at + 1], arg[at + 2], tonumber(arg[at + 3])
  local now, cutoff = tonumber(now_s), tonumber(cutoff_s)
  hit = hit + 1
  local member = ARGV[2] .. hit
  local allowed_at = #reply + 1
  reply[allowed_at] = 1
  local hit_keys = {}
  for i = 1, n do
    local key = KEYS[tonumber(arg[at + 2 + 2 * i])]
    local limit = tonumber(arg[at + 3 + 2 * i])
    hit_keys[i] = key
    local s = seen[key]
    if s == nil then
      s = { pending = {} }
      seen[key] = s
    end
    if s.count == nil or (s.oldest ~= nil and s.oldest <= cutoff) then read(key, s, cutoff_s) end
    local unblock = ''
    if s.count >= limit then
      reply[allowed_at] = 0
      add_pending(key, s)
      unblock = redis.call('ZRANGE', key, s.count - limit, s.count - limit, 'WITHSCORES')[2]
    end
    table.insert(reply, s.count)
    table.insert(reply, s.oldest_s)
    table.insert(reply, unblock)
  end
  if reply[allowed_at] == 1 then
    for _, key in ipairs(hit_keys) do
      local s = seen[key]
      table.insert(s.pending, now_s)
      table.insert(s.pending, member)
      if s.oldest == nil or now < s.oldest then s.oldest_s, s.oldest = now_s, now end
      s.count = s.count + 1
      -- unpack() passes its list on Lua's C stack, which holds a few thousand values.
      if #s.pending >= 1000 then add_pending(key, s) end
      expiry[key] = window
    end
  end
  at = at + 4 + 2 * n
end
for key, s in pairs(seen) do add_pending(key, s) end
-- Every entry is at most its hit's now, so all are gone a window from now: let Redis drop the key.
for key, window in pairs(expiry) do
  redis.call('PEXPIRE', key, window)
end
return table.concat(reply, ',')
`;

const BATCH_SCRIPT_SHA = createHash('sha1').update(BATCH_SCRIPT).digest('hex');

function optionalTime(value: string): number | null {
  return value === '' ? null : Number(value);
}

/** Reads the batch's reply, a list of 1 + 3 × keys fields per hit; throws if it is not that shape (a bug, not bad input). */
function parseReply(reply: unknown, batch: readonly QueuedHit[]): HitReply[] {
  const fields = typeof reply === 'string' ? reply.split(',') : [];
  const expected = batch.reduce((n, hit) => n + 1 + 3 * hit.keys.length, 0);
  if (fields.length !== expected) throw new Error(`rate limit: unexpected Redis reply ${JSON.stringify(reply)}`);
  let at = 0;
  return batch.map((hit) => {
    const allowed = fields[at++] === '1';
    const observations: KeyObservation[] = [];
    for (let i = 0; i < hit.keys.length; i++, at += 3) {
      observations.push({ count: Number(fields[at]), oldestMs: optionalTime(fields[at + 1]!), unblockMs: optionalTime(fields[at + 2]!) });
    }
    return { allowed, observations };
  });
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis;
  /** Only a connection this store opened is closed by it; a passed-in one belongs to the caller. */
  readonly #ownsConnection: boolean;
  readonly #prefix: string;
  /** Members must be unique across processes so two hits in the same ms both count: this and a batch number prefix them. */
  readonly #instanceId = randomBytes(8).toString('hex');
  #batches = 0;
  /** Hits waiting for the next batch (#queue). */
  #queued: QueuedHit[] = [];

  /** `connection`: a Redis URL (the store opens and later closes it) or an ioredis client. */
  constructor(connection: string | Redis, prefix: string) {
    this.#ownsConnection = typeof connection === 'string';
    // ioredis is loaded only by a process that uses Redis (REDIS_URL set). The hits are batched
    // here (#queue), so ioredis's auto-pipelining would only wrap each batch in a pipeline of one.
    this.#redis = typeof connection === 'string' ? new (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis(connection) : connection;
    this.#prefix = prefix;
  }

  async hit(rules: RateLimitRule[], nowMs: number, windowMs: number): Promise<RateLimitResult> {
    validateHit(rules, nowMs, windowMs);
    const { allowed, observations } = await new Promise<HitReply>((resolve, reject) =>
      this.#queue({ keys: rules.map((rule) => this.#prefix + rule.key), limits: rules.map((rule) => rule.limit), nowMs, windowMs, resolve, reject }),
    );
    return buildResult(rules, observations, allowed, nowMs, windowMs);
  }

  async close(): Promise<void> {
    if (this.#ownsConnection) await this.#redis.quit();
  }

  /**
   * Batching: the hits of all requests that reach the limiter in one turn of the event loop go to
   * Redis as one script call (BATCH_SCRIPT) when the loop next checks for immediates. ioredis's
   * auto-pipelining flushes at the next tick instead, and Node runs the ticks after each request
   * resumed from `setImmediate` (the key and thread caches' settle), so it sent one write per
   * request. Each hit is still checked and counted atomically and in order, so the limits stay exact.
   */
  #queue(hit: QueuedHit): void {
    if (this.#queued.push(hit) === 1) setImmediate(() => this.#flush());
  }

  /** EVALSHA saves sending the script each time; EVAL (which also caches it) when Redis lacks it. */
  async #flush(): Promise<void> {
    const batch = this.#queued;
    this.#queued = [];
    const keys: string[] = [];
    const index = new Map<string, number>();
    const fields: Array<string | number> = [];
    for (const hit of batch) {
      fields.push(hit.nowMs, hit.nowMs - hit.windowMs, hit.windowMs, hit.keys.length);
      for (let i = 0; i < hit.keys.length; i++) {
        const key = hit.keys[i]!;
        let at = index.get(key);
        if (at === undefined) {
          at = keys.push(key);
          index.set(key, at);
        }
        fields.push(at, hit.limits[i]!);
      }
    }
    this.#batches = (this.#batches + 1) % Number.MAX_SAFE_INTEGER;
    const args = [fields.join(','), `${this.#instanceId}:${this.#batches}:`];
    let results: HitReply[];
    try {
      const reply = await this.#redis.evalsha(BATCH_SCRIPT_SHA, keys.length, ...keys, ...args).catch((error: unknown) => {
        if (!isNoScript(error)) throw error;
        return this.#redis.eval(BATCH_SCRIPT, keys.length, ...keys, ...args);
      });
      results = parseReply(reply, batch);
    } catch (error) {
      for (const hit of batch) hit.reject(error);
      return;
    }
    for (const [i, hit] of batch.entries()) hit.resolve(results[i]!);
  }
}

/** What the script said of one hit. */
interface HitReply {
  allowed: boolean;
  observations: KeyObservation[];
}

interface QueuedHit {
  keys: string[];
  limits: number[];
  nowMs: number;
  windowMs: number;
  resolve(result: HitReply): void;
  reject(error: unknown): void;
}
