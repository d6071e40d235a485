import type { AppContext } from '../../context.js';
import type { AccountRow, PublishStatus } from '../../db/schema/index.js';
import { Faults } from '../../errors/index.js';
import { countThreadsByLocalDay } from '../../repos/thread-days.js';
import { resolveWorkspace } from '../accounts/accounts.js';
import { readDateTime } from './schedule-time.js';

/**
 * Threads per local day (docs/api.md "Threads per day"): a calendar's month of an agency's
 * accounts counted in one statement, where List Posts would read and send every thread.
 */

/** The longest range: a calendar month view (six weeks) and then some, as Free Time Slots. */
const MAX_DAYS_RANGE_DAYS = 62;
const STATUSES: readonly PublishStatus[] = ['READY', 'PUBLISHING', 'PUBLISHED', 'FAILED'];

export interface ThreadDaysQuery {
  from: string;
  to: string;
  providerId?: string;
  teamId?: string;
  tagId?: string;
}

interface ThreadDay {
  date: string;
  threads: number;
  byStatus: Record<PublishStatus, number>;
  pendingApproval: number;
  rejected: number;
}

export interface ThreadDays {
  timeZone: string;
  days: ThreadDay[];
  count: number;
  threads: number;
}

/**
 * The workspace's threads scheduled in [from, to] counted per date of the account's time zone
 * (the date the calendar shows them on), by status and approval; days without a thread are left
 * out. Bad input is one 400 naming each field; the provider and the tag are checked in the
 * statement that counts (one round trip after the workspace).
 */
export async function threadDays(ctx: AppContext, account: AccountRow, query: ThreadDaysQuery): Promise<ThreadDays> {
  const zone = account.timezone;
  const faults = new Faults();
  const from = faults.check(() => readDateTime(query.from, zone, 'from'));
  const to = faults.check(() => readDateTime(query.to, zone, 'to'));
  if (from && to) {
    if (from > to) faults.add({ path: 'from', message: 'must not be after to' });
    else if (to.getTime() - from.getTime() > MAX_DAYS_RANGE_DAYS * 86_400_000)
      faults.add({ path: 'to', message: `the range may span at most ${MAX_DAYS_RANGE_DAYS} days` });
  }
  faults.throwIfAny();
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  const found = await countThreadsByLocalDay(ctx.db, workspace, {
    from: from!,
    to: to!,
    zone,
    ...(query.providerId !== undefined ? { providerId: query.providerId } : {}),
    ...(query.tagId !== undefined ? { tagId: query.tagId } : {}),
  });
  if (!found.providerFound) faults.add({ path: 'providerId', message: 'is not an account of this workspace' });
  if (!found.tagFound) faults.add({ path: 'tagId', message: 'is not a tag of this workspace' });
  faults.throwIfAny();
  // Some 160 rows for a month (a date and status each), in date order: joined into days here.
  const days: ThreadDay[] = [];
  let total = 0;
  for (const row of found.counts) {
    let day = days[days.length - 1];
    if (day?.date !== row.date) {
      day = {
        date: row.date,
        threads: 0,
        byStatus: Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<PublishStatus, number>,
        pendingApproval: 0,
        rejected: 0,
      };
      days.push(day);
    }
    day.threads += row.threads;
    day.byStatus[row.status] += row.threads;
    day.pendingApproval += row.pending;
    day.rejected += row.rejected;
    total += row.threads;
  }
  return { timeZone: zone, days, count: days.length, threads: total };
}
