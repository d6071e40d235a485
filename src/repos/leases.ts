import type { Db } from '../db/database.js';
import { endLeases } from './queue/leased-queue.js';
import { EMAILS, FOLLOW_UPS, JOBS, THREADS, WEBHOOK_DELIVERIES } from './queue/tables.js';

/**
 * Ends every thread, job, follow-up and webhook delivery lease at once: `locked_until` moves to
 * just before `now`, so the next claim takes each over as it takes over any expired lease (the
 * same claim, the same unknown-outcome checks on the saved network state). Only for a start on
 * the embedded database, where every lease found belongs to a process that is gone.
 */
export async function endAllLeases(
  db: Db,
  now: Date,
): Promise<{ threads: number; jobs: number; followUps: number; webhookDeliveries: number; emails: number }> {
  const ended = new Date(now.getTime() - 1);
  const threads = await endLeases(db, THREADS, ended);
  const jobs = await endLeases(db, JOBS, ended);
  const followUps = await endLeases(db, FOLLOW_UPS, ended);
  const webhookDeliveries = await endLeases(db, WEBHOOK_DELIVERIES, ended);
  const emails = await endLeases(db, EMAILS, ended);
  return { threads, jobs, followUps, webhookDeliveries, emails };
}
