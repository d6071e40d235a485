import type { ThreadRow } from '../../db/schema/index.js';
import type { Faults, FieldFault } from '../../errors/index.js';
import { formatLocal, localDate, type RepeatUnit, wallClockOf } from '../../lib/recurrence.js';
import { isRecord } from './content-rules.js';

/**
 * The `repeat` of Create Post and Edit Entire Thread (decisions.md "Recurring threads"): its
 * rules, and the columns that start or re-anchor a series (repos/series.ts writes them; the
 * publisher's continueSeries makes the next occurrences).
 */

export interface RepeatInput {
  every: number;
  unit: string;
  until?: string;
  count?: number;
}

export interface RepeatRuleInput {
  every: number;
  unit: RepeatUnit;
  until: string | null;
  count: number | null;
}

const UNITS: readonly string[] = ['day', 'week', 'month'];

function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Reads what is well-formed in a body's `repeat` (undefined: not given; null: none), adding a
 * fault for each rule broken; `scheduled` says whether the save gives the thread a time (a
 * draft cannot repeat). The rule, or null when there is none or it is faulty.
 */
export function checkRepeat(body: Record<string, unknown>, scheduled: boolean, faults: Faults): RepeatRuleInput | null {
  const value = body.repeat;
  if (value === undefined || value === null || !isRecord(value)) return null;
  const found: FieldFault[] = [];
  if (!scheduled) found.push({ path: 'repeat', message: 'a draft cannot repeat: give scheduleAt or queue' });
  const { every, unit, until, count } = value;
  if (Number.isInteger(every) && !((every as number) >= 1 && (every as number) <= 365))
    found.push({ path: 'repeat.every', message: 'must be a whole number from 1 to 365' });
  if (typeof unit === 'string' && !UNITS.includes(unit)) found.push({ path: 'repeat.unit', message: 'must be day, week or month' });
  if (typeof until === 'string' && !isRealDate(until)) found.push({ path: 'repeat.until', message: 'must be a real date, YYYY-MM-DD' });
  if (Number.isInteger(count) && !((count as number) >= 2 && (count as number) <= 100))
    found.push({ path: 'repeat.count', message: 'must be a whole number from 2 to 100' });
  faults.add(...found);
  if (found.length || !Number.isInteger(every) || typeof unit !== 'string' || !UNITS.includes(unit)) return null;
  if ((until !== undefined && typeof until !== 'string') || (count !== undefined && !Number.isInteger(count))) return null;
  return {
    every: every as number,
    unit: unit as RepeatUnit,
    until: typeof until === 'string' ? until : null,
    count: typeof count === 'number' ? count : null,
  };
}

/** The columns of a thread's repeat anchored at its time `scheduledAt` in `zone`. */
export function anchorColumns(scheduledAt: Date, zone: string) {
  const local = wallClockOf(scheduledAt, zone);
  return { repeat_zone: zone, repeat_local: formatLocal(local), repeat_day: local.day };
}

/** An `until` before the local date of the first occurrence (at `scheduledAt`): a fault at `repeat.until`. */
export function untilFaults(rule: RepeatRuleInput, scheduledAt: Date, zone: string): FieldFault[] {
  const first = localDate(wallClockOf(scheduledAt, zone));
  return rule.until !== null && rule.until < first ? [{ path: 'repeat.until', message: `is before the first occurrence (${first} in ${zone})` }] : [];
}

/**
 * The repeat columns of a thread given `rule` at `scheduledAt`: the thread keeps its series and
 * number, or starts a series of its own (`newSeriesId`, occurrence 1).
 */
export function repeatColumns(
  thread: Pick<ThreadRow, 'series_id' | 'series_occurrence'> | null,
  rule: RepeatRuleInput,
  scheduledAt: Date,
  zone: string,
  newSeriesId: string,
) {
  return {
    series_id: thread?.series_id ?? newSeriesId,
    series_occurrence: thread?.series_occurrence ?? 1,
    repeat_every: rule.every,
    repeat_unit: rule.unit,
    repeat_until: rule.until,
    repeat_count: rule.count,
    ...anchorColumns(scheduledAt, zone),
  };
}

/** No repeat (the thread stays in its series, if any). */
export const NO_REPEAT = {
  repeat_every: null,
  repeat_unit: null,
  repeat_until: null,
  repeat_count: null,
  repeat_zone: null,
  repeat_local: null,
  repeat_day: null,
} as const;

/** Get Thread's `repeat` and `series`. */
export function repeatView(thread: ThreadRow) {
  return {
    repeat:
      thread.repeat_every !== null && thread.repeat_unit !== null
        ? { every: thread.repeat_every, unit: thread.repeat_unit, until: thread.repeat_until, count: thread.repeat_count }
        : null,
    series: thread.series_id !== null && thread.series_occurrence !== null ? { id: thread.series_id, occurrence: thread.series_occurrence } : null,
  };
}
