import type { Logger } from '../lib/logger.js';
import { LeaseLostError, type PostProgress, type PublishInput } from '../networks/platform.js';
import type { LeasedQueue, QueueColumn, QueueKey, QueueTableName } from '../repos/queue/leased-queue.js';
import { leaseUntil, renewLease } from './claim.js';
import type { PublishDeps } from './deps.js';

/**
 * Where one post's network state lives (a post row, a plug job row, a follow-up row), and the
 * lease that guards it (see queueProgressStore).
 */
export interface LeasedProgressStore {
  /** What the lease is on, for messages. */
  readonly what: string;
  /** Extends the lease; false when another worker holds it now. */
  renew(): Promise<boolean>;
  /**
   * Atomically, while this worker holds the lease: saves `next` (a new container) if the saved
   * container is still `expected` and no post id is saved yet. False otherwise.
   */
  adoptContainer(expected: string | null, next: PostProgress): Promise<boolean>;
  /** Saves a network fact about the saved container (the post it became, its CID). */
  recordFacts(progress: PostProgress): Promise<void>;
}

/**
 * The `onProgress` and `confirmLease` callbacks a Platform gets. The rule they enforce: the
 * only container that may ever be published for a post is the one saved for it, and only its
 * lease holder saves a new one. A worker that lost its lease while creating a container
 * cannot adopt it, so it never publishes it; two containers can never both go out.
 */
export function fencedProgress(store: LeasedProgressStore, saved: PostProgress): Pick<PublishInput, 'onProgress' | 'confirmLease'> {
  let known = saved;
  return {
    confirmLease: async () => {
      if (!(await store.renew())) throw new LeaseLostError(store.what);
    },
    onProgress: async (next) => {
      if (next.containerId !== known.containerId) {
        if (!(await store.adoptContainer(known.containerId, next))) throw new LeaseLostError(store.what);
      } else {
        // A post id or CID is true whoever learnt it; losing it is what could cause a repeat.
        await store.recordFacts(next);
      }
      known = next;
    },
  };
}

/**
 * The store for what the held row `key` of `queue` publishes, its network state saved on the
 * container row `containerId` (the row itself, or a thread's post). With `lease`, renewals go
 * through it (and an adopted container, which extends the lease, counts as one).
 */
export function queueProgressStore<T extends QueueTableName, K extends QueueColumn<T>>(
  deps: PublishDeps,
  queue: Omit<LeasedQueue<T, K>, 'claim'>,
  key: QueueKey<K>,
  containerId: string,
  lease?: LeaseWatch,
): LeasedProgressStore {
  const { ctx } = deps;
  return {
    what: `${queue.table.kind.replace('_', '-')} ${queue.table.key.map((k) => key[k]).join(' ')}`,
    renew: () => (lease ? lease.confirm() : renewLease(deps, queue, key)),
    adoptContainer: async (expected, next) => {
      const now = ctx.clock.now();
      const adopted = await queue.adoptContainer(ctx.db, key, deps.workerId, { id: containerId, expected, next }, leaseUntil(ctx), now);
      if (adopted) lease?.confirmedAt(now.getTime());
      return adopted;
    },
    recordFacts: (progress) => queue.recordFacts(ctx.db, containerId, progress, ctx.clock.now()),
  };
}

/** A lease confirmed within this share of its length is not renewed again before a network call. */
const FRESH_SHARE = 1 / 20;

/**
 * A thread's lease as this worker last confirmed it (by the claim that set it, a renewal, or a
 * container adopted in the statement that also extends it). `confirm()` renews it in the
 * database unless it was confirmed within the last 1/20 of its length: then at least 95 % of the
 * lease is still ahead, as good as a renewal a moment ago (another worker can take a thread over
 * only once its lease has run out), and a round trip is saved before each network call.
 */
export class LeaseWatch {
  #confirmedAt: number | null;

  constructor(
    private readonly renew: () => Promise<boolean>,
    private readonly now: () => number,
    private readonly leaseMs: number,
    confirmedAt: number | null,
  ) {
    this.#confirmedAt = confirmedAt;
  }

  /** True while this worker holds the lease; renews it when the last confirmation is not fresh. */
  async confirm(): Promise<boolean> {
    const now = this.now();
    const since = this.#confirmedAt === null ? Number.POSITIVE_INFINITY : now - this.#confirmedAt;
    if (since >= 0 && since < this.leaseMs * FRESH_SHARE) return true;
    const held = await this.renew();
    this.#confirmedAt = held ? now : null;
    return held;
  }

  /** The lease was extended at `at` by a statement of the caller's (an adopted container). */
  confirmedAt(at: number): void {
    this.#confirmedAt = at;
  }
}

/**
 * Runs `renew` three times per lease period until the returned function is called, so a live
 * worker keeps what it holds during a slow network call or behind a long thread. A worker that
 * lost a lease all the same (a long pause) learns it at its next `confirmLease`. Stopping waits
 * for a renewal in flight, so none outlives the worker's database connections.
 */
export function keepLeasesAlive(renew: () => Promise<void>, leaseMs: number, logger: Logger): () => Promise<void> {
  const everyMs = Math.max(250, Math.floor(leaseMs / 3));
  let inFlight: Promise<void> | null = null;
  const timer = setInterval(() => {
    inFlight ??= renew()
      .catch((err: unknown) => logger.warn({ err }, 'renewing leases failed'))
      .finally(() => {
        inFlight = null;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}
