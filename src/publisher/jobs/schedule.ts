import { createHash } from 'node:crypto';
import { startOfNextUtcDay } from '../../lib/time.js';

/**
 * When follow-up jobs run. Every time is computed from instants stored in the database (the
 * thread's or first post's publish time) and the injected clock, so a restart changes nothing.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Analytics refreshes, as offsets from the thread's publish time: +10 min, +1 h, +6 h, then
 * daily from +1 day to +30 days (33 refreshes in all, one network call per post each), then
 * never again. Engagement changes fast at first and hardly at all after a month.
 */
export const ANALYTICS_OFFSETS_MS: readonly number[] = [10 * MINUTE, HOUR, 6 * HOUR, ...Array.from({ length: 30 }, (_, i) => (i + 1) * DAY)];

/**
 * Each thread's refreshes are pushed back by a fixed share (0 to 10 %) of the gap before them,
 * derived from the job id: threads published together (same scheduled minute) do not all call
 * the network in the same instant. At most +1 min on the first refresh, +2.4 h on a daily one.
 */
const MAX_SPREAD = 0.1;

/** A stable number in [0, 1) for a job id. */
export function spreadOf(jobId: string): number {
  return createHash('sha256').update(jobId).digest().readUInt32BE(0) / 2 ** 32;
}

/** The first refresh due strictly after `after`, or null when the schedule is over. */
export function nextAnalyticsRun(publishedAt: Date, after: Date, spread: number): Date | null {
  let previous = 0;
  for (const offset of ANALYTICS_OFFSETS_MS) {
    const due = publishedAt.getTime() + offset + Math.floor(spread * MAX_SPREAD * (offset - previous));
    if (due > after.getTime()) return new Date(due);
    previous = offset;
  }
  return null;
}

/** The plug waits this long after the first post is published for it to reach minLikes. */
export const PLUG_GIVE_UP_AFTER_MS = 7 * DAY;
export const PLUG_FIRST_CHECK_MS = 15 * MINUTE;

/** Likes are checked every 15 min for the first 6 h, every 30 min until a day, then hourly. */
function plugCheckIntervalMs(ageMs: number): number {
  if (ageMs < 6 * HOUR) return 15 * MINUTE;
  if (ageMs < DAY) return 30 * MINUTE;
  return HOUR;
}

/** The next likes check, the last one exactly at the deadline; null once the deadline has passed. */
export function nextPlugCheck(firstPublishedAt: Date, now: Date): Date | null {
  const deadline = firstPublishedAt.getTime() + PLUG_GIVE_UP_AFTER_MS;
  if (now.getTime() >= deadline) return null;
  const next = now.getTime() + plugCheckIntervalMs(now.getTime() - firstPublishedAt.getTime());
  return new Date(Math.min(next, deadline));
}

/**
 * Follower counts are fetched once per UTC day, early in the day: each provider at its own
 * fixed point of the first two hours (from a hash of the job id), so that the accounts of a
 * server do not all call the network at midnight.
 */
const FOLLOWERS_SPREAD_MS = 2 * HOUR;

/** The next daily follower fetch after `after`: in the next UTC day. */
export function nextFollowersRun(after: Date, jobId: string): Date {
  return new Date(startOfNextUtcDay(after).getTime() + Math.floor(spreadOf(jobId) * FOLLOWERS_SPREAD_MS));
}

/**
 * Consecutive failed runs after which a job is FAILED: 9 backoffs of 1, 2, 4 ... 256 min, 511 min in
 * all (about 8.5 h; 6.4 to 10.6 h with the jitter below).
 */
export const MAX_JOB_ATTEMPTS = 10;

/**
 * Backoff after a transient failure: 1 min doubling to at most 6 h, ±25 % jitter, never sooner
 * than the network's Retry-After. Slower than publishing's: nothing here is time-critical, and
 * a failing network should not be asked again within seconds.
 */
export function jobBackoffMs(attempts: number, retryAfterMs = 0, random = Math.random): number {
  const base = Math.min(MINUTE * 2 ** Math.max(0, attempts - 1), 6 * HOUR);
  return Math.max(retryAfterMs, Math.round(base * (0.75 + random() * 0.5)));
}
