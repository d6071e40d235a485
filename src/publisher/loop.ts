import { hostname } from 'node:os';
import type { AppContext } from '../context.js';
import type { ThreadRow } from '../db/schema/index.js';
import { newId } from '../lib/ids.js';
import type { Platforms } from '../networks/platform.js';
import { threadQueue } from '../repos/thread-queue.js';
import { loadPublishWork, type PublishWork } from '../repos/threads.js';
import { claimDue, claimerOf, nextDueAt, renewWorkerLeases } from './claim.js';
import type { PublishDeps } from './deps.js';
import { runDueEmails } from './email.js';
import { runDueFollowUps } from './follow-ups.js';
import { runDueJobs } from './jobs/run-job.js';
import { keepLeasesAlive } from './lease.js';
import { publishClaimedThread } from './publish-thread.js';
import { runDueWebhookDeliveries } from './webhooks.js';

/** Follow-up replies, and follow-up jobs, claimed per round. */
const BATCH = 10;
/**
 * One round claims at most this many threads per slot, then lets the slots drain, so the
 * follow-up jobs and the loop's own tick get their turn during a long backlog.
 */
const CLAIMS_PER_SLOT_PER_ROUND = 8;
/** Webhook deliveries claimed (and sent at once, each to its own endpoint) per round. */
const WEBHOOK_BATCH = 32;
/** Never sleep less than this when idle: a due row another worker took just now is not spun on. */
const MIN_IDLE_MS = 50;

/**
 * The claim loop. `runOnce()` claims due threads and publishes them, several at once (tests
 * await it directly); `start()` repeats that, sleeping until the schedule signal rings or the
 * poll interval passes.
 */
export class PublisherLoop {
  readonly workerId: string;
  #running = false;
  #stopping = false;
  #current: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    /** The network clients; by default the context's (ctx.network()). */
    private readonly platforms?: Platforms,
    workerId?: string,
  ) {
    this.workerId = workerId ?? `${hostname()}:${process.pid}:${newId().slice(-8)}`;
  }

  /**
   * Claims and publishes due threads (several at once, see below), then due follow-up replies,
   * then claims and runs due follow-up jobs (repost, plug, analytics), then sends due webhook
   * deliveries (the events this round wrote among them), then due emails; returns how many threads, follow-ups,
   * jobs, deliveries and emails were claimed.
   */
  async runOnce(): Promise<number> {
    const { ctx } = this;
    const platforms = this.platforms ?? (await ctx.network()).platforms;
    const deps = { ctx, platforms, workerId: this.workerId, stopping: () => this.#stopping };
    const { leaseMs } = ctx.config.publisher;
    const stopHeartbeat = keepLeasesAlive(() => renewWorkerLeases(ctx.db, this.workerId, ctx.clock.now(), leaseMs), leaseMs, ctx.logger);
    try {
      ctx.metrics.publisherTick();
      const threads = await this.#publishDueThreads(deps);
      const followUps = await runDueFollowUps(deps, BATCH);
      const jobs = await runDueJobs(deps, BATCH);
      const deliveries = await runDueWebhookDeliveries(deps, WEBHOOK_BATCH);
      return threads + followUps + jobs + deliveries + (await runDueEmails(deps, BATCH));
    } finally {
      await stopHeartbeat();
    }
  }

  /**
   * Publishes due threads with up to `SKEIN_PUBLISHER_CONCURRENCY` in flight, so the worker keeps
   * busy while each waits on its network calls. At most `SKEIN_PUBLISHER_PER_ACCOUNT` threads of
   * one provider are in flight at once across all workers (see repos/thread-queue.ts), the least busy
   * accounts served first and the rest round-robin, so one account's backlog never holds up
   * another's thread for more than one claim. Freed slots are refilled a few at a time (see refillAt).
   * Claiming stops when nothing more is due, the round's share is claimed, or the worker stops;
   * the round ends when every thread it claimed is done (or handed back). Returns the number of
   * threads claimed.
   */
  async #publishDueThreads(deps: PublishDeps): Promise<number> {
    const { ctx } = this;
    const { concurrency, perAccount } = ctx.config.publisher;
    const roundLimit = concurrency * CLAIMS_PER_SLOT_PER_ROUND;
    /** Thread id → its publishing. */
    const inFlight = new Map<string, Promise<void>>();
    /** Provider id → when this round last claimed for it (round-robin order of the claims). */
    const lastServed = new Map<string, number>();
    let claimedTotal = 0;
    let claimFailure: { err: unknown } | null = null;
    // A claim is a round trip and a statement that reads the due backlog's head (see
    // repos/thread-queue.ts), so freed slots are refilled a quarter of the slots at a time, not
    // one claim per finished thread; an idle worker claims at once.
    const refillAt = Math.max(1, Math.floor(concurrency / 4));
    // A claim that found fewer than it asked for drained what was due: the next one waits
    // MIN_IDLE_MS (real time), so while the backlog is empty a worker does not claim again after
    // every thread it finishes; the threads still in flight end the wait soon enough.
    let drainedAt = Number.NEGATIVE_INFINITY;
    for (;;) {
      const free = Math.min(concurrency - inFlight.size, roundLimit - claimedTotal);
      const drainedJustNow = inFlight.size > 0 && performance.now() - drainedAt < MIN_IDLE_MS;
      if (free > 0 && (free >= refillAt || inFlight.size === 0) && !drainedJustNow && !claimFailure && !this.#stopping) {
        try {
          const claimed = await claimDue(threadQueue, claimerOf(deps), free, { perAccount, lastServed });
          if (claimed.length < free) drainedAt = performance.now();
          const work = await this.#workOf(claimed);
          for (const thread of claimed) {
            lastServed.set(thread.provider_id, ++claimedTotal);
            inFlight.set(
              thread.id,
              this.#publishThread(deps, thread, work.get(thread.id)).finally(() => inFlight.delete(thread.id)),
            );
          }
        } catch (err) {
          // Let the threads in flight finish (their leases are good) before reporting it.
          claimFailure = { err };
        }
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight.values());
    }
    if (claimFailure) throw claimFailure.err;
    return claimedTotal;
  }

  /**
   * The claimed threads' providers and posts, in one read for the whole claim. A thread it
   * misses (deleted meanwhile), or all when the read failed, reads its own when it starts.
   */
  async #workOf(claimed: ThreadRow[]): Promise<Map<string, PublishWork>> {
    try {
      return await loadPublishWork(
        this.ctx.db,
        claimed.map((t) => t.id),
      );
    } catch (err) {
      this.ctx.logger.warn({ err }, "reading the claimed threads' posts failed; each thread reads its own");
      return new Map();
    }
  }

  /** One claimed thread; never rejects, so one thread's fault leaves the others running. */
  async #publishThread(deps: PublishDeps, thread: ThreadRow, work: PublishWork | undefined): Promise<void> {
    try {
      await publishClaimedThread(deps, thread, work);
    } catch (err) {
      // A database fault mid-thread: the lease runs out and the thread is claimed again.
      this.ctx.logger.error({ err, threadId: thread.id }, 'publishing a thread stopped on an unexpected error');
    }
    this.ctx.metrics.publisherTick();
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#current = this.#loop();
  }

  async #loop(): Promise<void> {
    while (this.#running) {
      let claimed = 0;
      try {
        claimed = await this.runOnce();
      } catch (err) {
        this.ctx.logger.error({ err }, 'claiming due threads failed');
      }
      if (claimed === 0 && this.#running) {
        const idleMs = await this.#idleMs();
        // stop() may have rung while the next due time was read: a wait begun after that ring
        // would hear none and hold stop() (and the process's exit) for the whole interval.
        if (this.#running) await this.ctx.scheduleSignal.wait(idleMs);
      }
    }
  }

  /** Until the next row falls due, at most one poll interval (a ring wakes the loop sooner). */
  async #idleMs(): Promise<number> {
    const { pollMs } = this.ctx.config.publisher;
    try {
      const next = await nextDueAt(this.ctx.db);
      if (!next) return pollMs;
      return Math.min(pollMs, Math.max(MIN_IDLE_MS, next.getTime() - this.ctx.clock.now().getTime()));
    } catch (err) {
      this.ctx.logger.error({ err }, 'reading the next due time failed');
      return pollMs;
    }
  }

  /**
   * Stops once the post being published now is out; the threads and jobs this worker claimed
   * but did not finish are handed back, due at once for whichever worker runs next.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopping = true;
    this.ctx.scheduleSignal.ring();
    await this.#current;
  }
}
