import type { AppContext } from '../../context.js';
import type { AccountRow, PublishStatus } from '../../db/schema/index.js';
import { Faults } from '../../errors/index.js';
import { countThreadsByLocalDay } from '../../repos/thread-days.js';
import { addressedWorkspace, resolveWorkspace } from '../accounts/accounts.js';
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
  // Kept by the thread view cache as List Posts' answers are (services/threads/thread-list.ts
  // keptList): a team's calendar month is read again at every visit and counts some 100,000
  // threads (about 28 ms), and any change of a thread drops it.
  const addressed = addressedWorkspace(account, query.teamId);
  const key = JSON.stringify(['days', account.id, addressed.teamId ?? 'personal', zone, query.from, query.to, query.providerId ?? '', query.tagId ?? '']);
  return ctx.threadViews.list(
    key,
    () => readThreadDays(ctx, account, query, from!, to!),
    (answer) => answer.count,
  );
}

async function readThreadDays(ctx: AppContext, account: AccountRow, query: ThreadDaysQuery, from: Date, to: Date): Promise<ThreadDays> {
  const zone = account.timezone;
  const faults = new Faults();
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  const found = await countThreadsByLocalDay(ctx.db, workspace, {
    from,
    to,
    zone,
    ...(query.providerId !== undefined ? { providerId: query.providerId } : {}),
    ...(query.tagId !== undefined ? { tagId: query.tagId } : {}),
  });
  if (!found.providerFound) faults.add({ path: 'providerId', message: 'is not an account of this workspace' });
  if (!found.tagFound) faults.add({ path: 'tagId', message: 'is not a tag of this workspace' });
  faults.throwIfAny();
  // A row per local date of the range (some 42 for a month view); the days without a thread are left out.
  const days: ThreadDay[] = [];
  let total = 0;
  for (const row of found.counts) {
    const threads = STATUSES.reduce((sum, s) => sum + row.byStatus[s], 0);
    if (threads === 0) continue;
    days.push({ date: row.date, threads, byStatus: row.byStatus, pendingApproval: row.pending, rejected: row.rejected });
    total += threads;
  }
  return { timeZone: zone, days, count: days.length, threads: total };
}
