import type { AppContext } from '../../context.js';
import type { Analytics } from '../../platforms/platform.js';
import { savePostAnalytics } from '../../repos/posts.js';

/** posts.analytics as stored and shown by Get Thread (the `Analytics` schema of the API). */
export interface StoredAnalytics extends Analytics {
  fetchedAt: string;
}

const METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'] as const;

/**
 * Keeps only whole, non-negative counts: the API declares integers, and a response that does
 * not match its schema would turn every Get Thread of this thread into a 500.
 */
export function toStoredAnalytics(counts: Analytics, fetchedAt: Date): StoredAnalytics {
  const clean = (value: number | null) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null);
  const stored = { fetchedAt: fetchedAt.toISOString() } as StoredAnalytics;
  for (const metric of METRICS) stored[metric] = clean(counts[metric]);
  return stored;
}

export async function saveAnalytics(ctx: AppContext, postId: string, counts: Analytics): Promise<StoredAnalytics> {
  const now = ctx.clock.now();
  const stored = toStoredAnalytics(counts, now);
  await savePostAnalytics(ctx.db, postId, stored, now);
  return stored;
}
