import { sql } from 'kysely';
import { newId } from '../lib/ids.js';
import { startOfNextUtcDay, utcDay } from '../lib/time.js';
import type { DbOrTrx } from './types.js';

/**
 * Follower counts (one row per provider and UTC day) and the FOLLOWERS job that fetches them,
 * one per provider in the jobs table (claimed, leased and ended like every job: repos/jobs.ts).
 */

export interface FollowerCount {
  /** The UTC day of the fetch, `YYYY-MM-DD`. */
  date: string;
  count: number;
  fetchedAt: Date;
}

/** Records a fetched count as its UTC day's count (a later fetch the same day replaces it). */
export async function saveFollowerCount(db: DbOrTrx, providerId: string, count: number, fetchedAt: Date): Promise<void> {
  await db
    .insertInto('follower_counts')
    .values({ provider_id: providerId, day: utcDay(fetchedAt), count, fetched_at: fetchedAt })
    .onConflict((oc) => oc.columns(['provider_id', 'day']).doUpdateSet({ count, fetched_at: fetchedAt }))
    .execute();
}

const dayText = sql<string>`to_char(day, 'YYYY-MM-DD')`.as('date');

function toCount(row: { date: string; count: number; fetched_at: Date }): FollowerCount {
  return { date: row.date, count: row.count, fetchedAt: row.fetched_at };
}

/** The most recent count of a provider, or undefined before the first fetch. */
export async function latestFollowerCount(db: DbOrTrx, providerId: string): Promise<FollowerCount | undefined> {
  const row = await db
    .selectFrom('follower_counts')
    .select([dayText, 'count', 'fetched_at'])
    .where('provider_id', '=', providerId)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toCount(row);
}

/** The daily counts fetched within [from, to], oldest first. */
export async function followerHistory(db: DbOrTrx, providerId: string, from: Date, to: Date): Promise<FollowerCount[]> {
  const rows = await db
    .selectFrom('follower_counts')
    .select([dayText, 'count', 'fetched_at'])
    .where('provider_id', '=', providerId)
    .where('fetched_at', '>=', from)
    .where('fetched_at', '<=', to)
    .orderBy('day')
    .execute();
  return rows.map(toCount);
}

/**
 * Makes the FOLLOWERS job of every ACTIVE provider (or of `providerId` only) due: now when the
 * provider has no count for the current UTC day, else at the next UTC midnight (a job already
 * PENDING then keeps its time). A DONE or FAILED job (its provider expired and was reconnected)
 * starts again; a RUNNING one is left to its worker. Returns how many jobs
 * are due now. Run at start-up and when a provider is connected.
 */
export async function scheduleFollowerJobs(db: DbOrTrx, now: Date, providerId?: string): Promise<number> {
  const today = utcDay(now);
  let query = db
    .selectFrom('providers as p')
    .select(['p.id'])
    .select((eb) =>
      eb.exists(eb.selectFrom('follower_counts as f').whereRef('f.provider_id', '=', 'p.id').where('f.day', '=', today).select('f.provider_id')).as('counted'),
    )
    .where('p.status', '=', 'ACTIVE');
  if (providerId !== undefined) query = query.where('p.id', '=', providerId);
  const providers = await query.execute();
  for (const provider of providers) {
    const runAt = provider.counted ? startOfNextUtcDay(now) : now;
    await db
      .insertInto('jobs')
      .values({
        id: newId(now.getTime()),
        kind: 'FOLLOWERS',
        thread_id: null,
        provider_id: provider.id,
        status: 'PENDING',
        run_at: runAt,
        locked_by: null,
        locked_until: null,
        last_error: null,
        network_container_id: null,
        network_post_id: null,
        network_cid: null,
        permalink: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['provider_id', 'kind'])
          .doUpdateSet({
            status: 'PENDING',
            // Counted today: a PENDING job keeps its time in the next day; otherwise the sooner time wins.
            run_at: provider.counted
              ? sql`case when jobs.status = 'PENDING' then jobs.run_at else excluded.run_at end`
              : sql`case when jobs.status = 'PENDING' then least(jobs.run_at, excluded.run_at) else excluded.run_at end`,
            attempts: sql`case when jobs.status = 'PENDING' then jobs.attempts else 0 end`,
            updated_at: now,
          })
          .where('jobs.status', '<>', 'RUNNING'),
      )
      .execute();
  }
  return providers.filter((p) => !p.counted).length;
}
