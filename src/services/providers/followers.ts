import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { NotFoundError } from '../../errors/index.js';
import { iso } from '../../lib/time.js';
import { followerHistory, latestFollowerCount } from '../../repos/followers.js';
import { findProvider } from '../../repos/providers.js';
import { canAccess } from '../accounts/accounts.js';
import { readRange } from '../analytics/analytics.js';

export interface FollowersView {
  providerId: string;
  current: { count: number; fetchedAt: string } | null;
  history: Array<{ date: string; count: number }>;
}

/**
 * A provider's follower counts: the latest one fetched (whatever the range), and the daily
 * counts fetched within the range (read as List Posts reads it), each dated by the UTC day of
 * its fetch. A provider the caller cannot see is "not found".
 */
export async function providerFollowers(ctx: AppContext, account: AccountRow, providerId: string, query: { from: string; to: string }): Promise<FollowersView> {
  const { from, to } = readRange(account, query);
  const provider = await findProvider(ctx.db, providerId);
  if (!provider || !(await canAccess(ctx.db, account.id, provider))) throw new NotFoundError(`Provider ${providerId}`);
  const latest = await latestFollowerCount(ctx.db, provider.id);
  const history = await followerHistory(ctx.db, provider.id, from, to);
  return {
    providerId: provider.id,
    current: latest ? { count: latest.count, fetchedAt: iso(latest.fetchedAt) } : null,
    history: history.map((h) => ({ date: h.date, count: h.count })),
  };
}
