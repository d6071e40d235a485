import type { Db } from '../db/database.js';

/**
 * Ends every thread, job, follow-up and webhook delivery lease at once: `locked_until` moves to just before `now`, so the
 * next claim takes each over as it takes over any expired lease (the same claim, the same
 * unknown-outcome checks on the saved network state). `locked_by` stays, for the logs. Only for a
 * start on the embedded database, where every lease found belongs to a process that is gone.
 */
export async function endAllLeases(db: Db, now: Date): Promise<{ threads: number; jobs: number; followUps: number; webhookDeliveries: number }> {
  const ended = new Date(now.getTime() - 1);
  const threads = await db
    .updateTable('threads')
    .set({ locked_until: ended })
    .where('status', '=', 'PUBLISHING')
    .where('locked_until', '>', ended)
    .executeTakeFirst();
  const jobs = await db.updateTable('jobs').set({ locked_until: ended }).where('status', '=', 'RUNNING').where('locked_until', '>', ended).executeTakeFirst();
  const followUps = await db
    .updateTable('follow_ups')
    .set({ locked_until: ended })
    .where('status', '=', 'PUBLISHING')
    .where('locked_until', '>', ended)
    .executeTakeFirst();
  const webhookDeliveries = await db
    .updateTable('webhook_deliveries')
    .set({ locked_until: ended })
    .where('status', '=', 'SENDING')
    .where('locked_until', '>', ended)
    .executeTakeFirst();
  return {
    threads: Number(threads.numUpdatedRows),
    jobs: Number(jobs.numUpdatedRows),
    followUps: Number(followUps.numUpdatedRows),
    webhookDeliveries: Number(webhookDeliveries.numUpdatedRows),
  };
}
