import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { countDueJobs } from '../repos/jobs.js';
import { countDueUnpublishedThreads } from '../repos/thread-queue.js';
import { type LeaseKind, Metrics, type PublishFailureKind, type RateLimitScope } from './metrics.js';

/**
 * The process's Prometheus metrics, one registry per context (never prom-client's global one,
 * so tests and several contexts in one process do not mix their figures). Everything is named
 * `skein_*`; the two database gauges are read at scrape time. Loaded only when metrics are
 * served (SKEIN_METRICS_PORT), so a CLI command does not load prom-client.
 */
export class PromMetrics extends Metrics {
  override readonly enabled = true;
  readonly registry = new Registry();
  readonly #httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly #httpDuration: Histogram<'route' | 'method' | 'status'>;
  readonly #publishAttempts: Counter<'network'>;
  readonly #publishSuccesses: Counter<'network'>;
  readonly #publishFailures: Counter<'network' | 'kind'>;
  readonly #lateness: Histogram<'network'>;
  readonly #takeovers: Counter<'kind'>;
  readonly #rateLimited: Counter<'scope'>;
  readonly #webhookAttempts: Counter<'outcome'>;
  readonly #lastTick: Gauge;

  constructor(db: Db, clock: Clock, pollMs: number) {
    super(clock, pollMs);
    const registers = [this.registry];
    this.#httpRequests = new Counter({
      name: 'skein_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.#httpDuration = new Histogram({
      name: 'skein_http_request_duration_seconds',
      help: 'HTTP request latency, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.#publishAttempts = new Counter({
      name: 'skein_publish_attempts_total',
      help: 'Posts sent to a network (one per call, retries included)',
      labelNames: ['network'],
      registers,
    });
    this.#publishSuccesses = new Counter({ name: 'skein_publish_successes_total', help: 'Posts a network accepted', labelNames: ['network'], registers });
    this.#publishFailures = new Counter({
      name: 'skein_publish_failures_total',
      help: 'Posts a network refused or that failed, by kind (transient: retried; permanent, auth: the thread fails)',
      labelNames: ['network', 'kind'],
      registers,
    });
    this.#lateness = new Histogram({
      name: 'skein_publish_lateness_seconds',
      help: "Seconds from a thread's scheduled time to the publication of its first post",
      labelNames: ['network'],
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600],
      registers,
    });
    this.#takeovers = new Counter({
      name: 'skein_lease_takeovers_total',
      help: 'Threads, jobs, follow-up replies and webhook deliveries claimed after the lease of the worker that held them had expired',
      labelNames: ['kind'],
      registers,
    });
    this.#rateLimited = new Counter({
      name: 'skein_rate_limit_refusals_total',
      help: 'Requests refused with 429, by the limit that refused them (account or ip)',
      labelNames: ['scope'],
      registers,
    });
    this.#webhookAttempts = new Counter({
      name: 'skein_webhook_attempts_total',
      help: 'Webhook requests sent, by outcome (delivered: a 2xx within 10 s; failed: anything else)',
      labelNames: ['outcome'],
      registers,
    });
    this.#lastTick = new Gauge({
      name: 'skein_publisher_last_tick_timestamp_seconds',
      help: "When this process's publisher loop last ticked, Unix seconds (0 without a publisher)",
      registers,
    });
    new Gauge({
      name: 'skein_threads_due_unpublished',
      help: 'Threads due (scheduled at or before now) and not yet published: READY or PUBLISHING',
      registers,
      async collect() {
        this.set(await countDueUnpublishedThreads(db, clock.now()));
      },
    });
    new Gauge({
      name: 'skein_jobs_due',
      help: 'Follow-up jobs (repost, plug, analytics) due and waiting for a worker',
      registers,
      async collect() {
        this.set(await countDueJobs(db, clock.now()));
      },
    });
  }

  override httpRequest(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.#httpRequests.inc(labels);
    this.#httpDuration.observe(labels, seconds);
  }

  override publishAttempt(network: string): void {
    this.#publishAttempts.inc({ network: network.toLowerCase() });
  }

  override publishSuccess(network: string): void {
    this.#publishSuccesses.inc({ network: network.toLowerCase() });
  }

  override publishFailure(network: string, kind: PublishFailureKind): void {
    this.#publishFailures.inc({ network: network.toLowerCase(), kind });
  }

  /** A thread's first post went out `seconds` after its scheduled time. */
  override publishLateness(network: string, seconds: number): void {
    this.#lateness.observe({ network: network.toLowerCase() }, Math.max(0, seconds));
  }

  override leaseTakeovers(kind: LeaseKind, count: number): void {
    if (count > 0) this.#takeovers.inc({ kind }, count);
  }

  override rateLimitRefusal(scope: RateLimitScope): void {
    this.#rateLimited.inc({ scope });
  }

  override webhookAttempt(outcome: 'delivered' | 'failed'): void {
    this.#webhookAttempts.inc({ outcome });
  }

  override publisherTick(): void {
    super.publisherTick();
    this.#lastTick.set(this.clock.now().getTime() / 1000);
  }

  /** The Prometheus text exposition, database gauges read now. */
  override scrape(): Promise<string> {
    return this.registry.metrics();
  }

  override get contentType(): string {
    return this.registry.contentType;
  }
}
