import { hostname } from 'node:os';
import type { AppContext } from '../context.js';
import { newId } from '../lib/ids.js';
import type { Platforms } from '../platforms/platform.js';
import { claimDueThreads, nextDueAt, renewWorkerLeases } from './claim.js';
import { runDueJobs } from './jobs/run-job.js';
import { keepLeasesAlive } from './lease.js';
import { publishClaimedThread } from './publish-thread.js';

const BATCH = 10;
/** Never sleep less than this when idle: a due row another worker took just now is not spun on. */
const MIN_IDLE_MS = 50;

/**
 * The claim loop. `runOnce()` claims a batch and publishes it (tests await it directly);
 * `start()` repeats that, sleeping until the schedule signal rings or the poll interval passes.
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
   * Claims and publishes due threads, then claims and runs due follow-up jobs (repost, plug,
   * analytics); returns how many threads and jobs were claimed.
   */
  async runOnce(): Promise<number> {
    const { ctx } = this;
    const platforms = this.platforms ?? (await ctx.network()).platforms;
    const deps = { ctx, platforms, workerId: this.workerId, stopping: () => this.#stopping };
    const { leaseMs } = ctx.config.publisher;
    const stopHeartbeat = keepLeasesAlive(() => renewWorkerLeases(ctx.db, this.workerId, ctx.clock.now(), leaseMs), leaseMs, ctx.logger);
    try {
      const claimed = await claimDueThreads(ctx.db, this.workerId, ctx.clock.now(), leaseMs, BATCH);
      for (const thread of claimed) {
        try {
          await publishClaimedThread(deps, thread);
        } catch (err) {
          // A database fault mid-thread: the lease runs out and the thread is claimed again.
          ctx.logger.error({ err, threadId: thread.id }, 'publishing a thread stopped on an unexpected error');
        }
      }
      return claimed.length + (await runDueJobs(deps, BATCH));
    } finally {
      await stopHeartbeat();
    }
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
      if (claimed === 0 && this.#running) await this.ctx.scheduleSignal.wait(await this.#idleMs());
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
