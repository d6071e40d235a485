import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { Metrics } from './metrics.js';

/** Counting metrics when they are served (prom-client loads only then), the liveness alone otherwise. */
export async function createMetrics(db: Db, clock: Clock, options: { enabled: boolean; pollMs: number }): Promise<Metrics> {
  if (!options.enabled) return new Metrics(clock, options.pollMs);
  const { PromMetrics } = await import('./prom-metrics.js');
  return new PromMetrics(db, clock, options.pollMs);
}
