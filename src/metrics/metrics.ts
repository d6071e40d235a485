import type { Clock } from '../lib/clock.js';

export type PublishFailureKind = 'transient' | 'permanent' | 'auth';
export type RateLimitScope = 'account' | 'ip';
export type LeaseKind = 'thread' | 'job' | 'follow_up' | 'webhook_delivery' | 'email';

/** A publisher loop that has not ticked for this long is stalled (`/readyz` answers 503). */
const STALL_AFTER_MS = 60_000;

/**
 * What the HTTP layer and the publisher report. This base class records nothing but the
 * publisher's liveness (for `/readyz`); PromMetrics (prom-metrics.ts) counts everything, and is
 * what a context gets when metrics are served (`createMetrics`).
 */
export class Metrics {
  readonly enabled: boolean = false;
  /** The clock time of the publisher loop's last tick; null when no publisher runs in this process. */
  #lastTickMs: number | null = null;

  constructor(
    protected readonly clock: Clock,
    /** The publisher's poll interval: an idle loop sleeps up to that long between ticks. */
    protected readonly pollMs: number,
  ) {}

  /** One HTTP request answered: `route` is the route pattern (never the raw URL). */
  httpRequest(_route: string, _method: string, _status: number, _seconds: number): void {}
  /** One post sent to a network. */
  publishAttempt(_network: string): void {}
  publishSuccess(_network: string): void {}
  publishFailure(_network: string, _kind: PublishFailureKind): void {}
  /** A thread's first post went out `seconds` after its scheduled time. */
  publishLateness(_network: string, _seconds: number): void {}
  /** `count` rows of a queue (threads, jobs, follow-ups, webhook deliveries) were claimed from a worker whose lease had expired. */
  leaseTakeovers(_kind: LeaseKind, _count: number): void {}
  rateLimitRefusal(_scope: RateLimitScope): void {}
  /** One webhook request sent: a 2xx in time (`delivered`) or not (`failed`, retried or given up). */
  webhookAttempt(_outcome: 'delivered' | 'failed'): void {}

  /** The publisher loop is alive: called at each iteration, after each post published and after each thread it finishes. */
  publisherTick(): void {
    this.#lastTickMs = this.clock.now().getTime();
  }

  /**
   * Why the publisher counts as stalled (no tick for a minute, or for two poll intervals when
   * that is longer), or null when it is not, or when no publisher runs in this process.
   */
  publisherStall(): string | null {
    if (this.#lastTickMs === null) return null;
    const silentMs = this.clock.now().getTime() - this.#lastTickMs;
    const limitMs = Math.max(STALL_AFTER_MS, 2 * this.pollMs);
    if (silentMs <= limitMs) return null;
    return `The publisher loop has not ticked for ${Math.floor(silentMs / 1000)} s (stalled after ${limitMs / 1000} s).`;
  }

  /** The Prometheus text exposition (empty when metrics are off). */
  scrape(): Promise<string> {
    return Promise.resolve('');
  }

  get contentType(): string {
    return 'text/plain; version=0.0.4; charset=utf-8';
  }
}
