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
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { buildResult, type KeyObservation, type RateLimitResult, type RateLimitRule, type RateLimitStore, validateHit } from './store.js';

/**
 * The batch script, sliding-window.lua beside this module: one batch of hits (the requests that
 * reached the limiter in one turn), judged in order with exactly the results each would get as a
 * script of its own: Redis runs a script without interleaving other commands, so each hit's check
 * and counting stay atomic, and a batch is one command to send and to run. Its arguments and
 * reply are described at its head; the hits go as one comma-separated string and the reply comes
 * as one, rather than a value per field, which is what keeps the client's share of a hit small:
 * ioredis handles each argument and each reply element on its own. Times travel as strings
 * because Lua formats numbers with 14 significant digits, too few for arithmetic on ms
 * timestamps; they become Lua numbers only to be compared (exact below 2^53).
 *
 * `sha` is the script's SHA-1, its name for EVALSHA.
 */
interface BatchScript {
  text: string;
  sha: string;
}

/** sliding-window.lua, next to this module in src/ (tsx) and in dist/ (the build copies it). */
function loadBatchScript(): BatchScript {
  const text = readFileSync(new URL('./sliding-window.lua', import.meta.url), 'utf8');
  return { text, sha: createHash('sha1').update(text).digest('hex') };
}

function optionalTime(value: string): number | null {
  return value === '' ? null : Number(value);
}

/** Reads the batch's reply, a list of 1 + 3 × keys fields per hit; throws if it is not that shape (a bug, not bad input). */
function parseReply(reply: unknown, batch: readonly QueuedHit[]): HitReply[] {
  const fields = typeof reply === 'string' ? reply.split(',') : [];
  const expected = batch.reduce((n, hit) => n + 1 + 3 * hit.keys.length, 0);
  if (fields.length !== expected) throw new Error(`rate limit: unexpected Redis reply ${JSON.stringify(reply)}`);
  let at = 0;
  const next = () => fields[at++]!;
  return batch.map((hit) => ({
    allowed: next() === '1',
    observations: hit.keys.map(() => ({ count: Number(next()), oldestMs: optionalTime(next()), unblockMs: optionalTime(next()) })),
  }));
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis;
  /** Only a connection this store opened is closed by it; a passed-in one belongs to the caller. */
  readonly #ownsConnection: boolean;
  readonly #prefix: string;
  /** Read once, when the store is made: a build that lost the file fails at start, not at the first request. */
  readonly #script = loadBatchScript();
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
   * Redis as one script call (sliding-window.lua) when the loop next checks for immediates. ioredis's
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
      const reply = await this.#redis.evalsha(this.#script.sha, keys.length, ...keys, ...args).catch((error: unknown) => {
        if (!isNoScript(error)) throw error;
        return this.#redis.eval(this.#script.text, keys.length, ...keys, ...args);
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
