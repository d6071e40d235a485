import { hostname } from 'node:os';
import type { AppContext } from '../context.js';
import { newId } from '../lib/ids.js';
import { claimDueThreads } from './claim.js';
import { runDueJobs } from './jobs/run-job.js';
import { publishClaimedThread, type Platforms } from './publish-thread.js';

const BATCH = 10;

/**
 * The claim loop. `runOnce()` claims a batch and publishes it (tests await it directly);
 * `start()` repeats that, sleeping until the schedule signal rings or the poll interval passes.
 */
export class PublisherLoop {
  readonly workerId: string;
  #running = false;
  #current: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly platforms: Platforms,
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
    const deps = { ctx, platforms: this.platforms, workerId: this.workerId };
    const claimed = await claimDueThreads(ctx.db, this.workerId, ctx.clock.now(), ctx.config.publisher.leaseMs, BATCH);
    for (const thread of claimed) {
      try {
        await publishClaimedThread(deps, thread);
      } catch (err) {
        // A database fault mid-thread: the lease runs out and the thread is claimed again.
        ctx.logger.error({ err, threadId: thread.id }, 'publishing a thread stopped on an unexpected error');
      }
    }
    return claimed.length + (await runDueJobs(deps, BATCH));
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
      if (claimed === 0 && this.#running) await this.ctx.scheduleSignal.wait(this.ctx.config.publisher.pollMs);
    }
  }

  /** Stops after the thread being published now is done. */
  async stop(): Promise<void> {
    this.#running = false;
    this.ctx.scheduleSignal.ring();
    await this.#current;
  }
}
