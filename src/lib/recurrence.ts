import { type LocalParts, localToInstant, zoneOffsetMinutes } from './time.js';

/**
 * The date rule of recurring threads (decisions.md "Recurring threads"): the next occurrence is
 * one interval after an occurrence, at the same local wall-clock time in the series' zone.
 * Steps are taken on the local calendar, never as fixed numbers of hours, so 09:00 stays 09:00
 * across DST changes. Each occurrence keeps the local time it was meant for (`local`), so a
 * time moved by a DST gap does not carry the move into the next ones, and the series'
 * day-of-month (`day`), so a month step after a short month goes back to it (Jan 31 → Feb 28 →
 * Mar 31).
 */

export type RepeatUnit = 'day' | 'week' | 'month';

export interface RepeatStep {
  every: number;
  unit: RepeatUnit;
}

const DAY_MS = 86_400_000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The wall clock an instant shows in `zone`. */
export function wallClockOf(instant: Date, zone: string): LocalParts {
  const ms = instant.getTime();
  const local = new Date(ms + zoneOffsetMinutes(zone, ms) * 60_000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    millisecond: local.getUTCMilliseconds(),
  };
}

function asUtcMs(p: LocalParts): number {
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.millisecond);
}

/**
 * The instant of a local wall-clock time in `zone`: the earlier one when the clocks pass it
 * twice, and when they skip it (a DST gap), the first instant after the gap (the instant the
 * clocks jump, which shows the gap's end).
 */
export function instantOfLocal(p: LocalParts, zone: string): Date {
  const exact = localToInstant(p, zone);
  if (exact) return exact;
  const wall = asUtcMs(p);
  // Offsets lie within −12 h and +14 h: the wall clock 15 h before shows less, 13 h after more.
  // Binary search, in whole seconds (transitions fall on them), for the first instant whose
  // wall clock has reached `wall`.
  const reached = (s: number) => s * 1000 + zoneOffsetMinutes(zone, s * 1000) * 60_000 >= wall;
  let lo = Math.floor((wall - 15 * 3_600_000) / 1000);
  let hi = Math.ceil((wall + 13 * 3_600_000) / 1000);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (reached(mid)) hi = mid;
    else lo = mid;
  }
  return new Date(hi * 1000);
}

/**
 * The local date-time one step after `local`: the same time of day, `every` days or weeks
 * later, or `every` months later on `day` (the series' day of month) or that month's last day.
 */
export function stepLocal(local: LocalParts, step: RepeatStep, day: number): LocalParts {
  if (step.unit === 'month') {
    const index = local.year * 12 + (local.month - 1) + step.every;
    const year = Math.floor(index / 12);
    const month = (index % 12) + 1;
    return { ...local, year, month, day: Math.min(day, daysInMonth(year, month)) };
  }
  const days = step.unit === 'week' ? 7 * step.every : step.every;
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day) + days * DAY_MS);
  return { ...local, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The next occurrence: its local date-time (what it was meant for) and its instant. */
export function nextOccurrence(local: LocalParts, step: RepeatStep, day: number, zone: string): { local: LocalParts; instant: Date } {
  const next = stepLocal(local, step, day);
  return { local: next, instant: instantOfLocal(next, zone) };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `YYYY-MM-DDThh:mm:ss.sss`, as a series' local time is stored. */
export function formatLocal(p: LocalParts): string {
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}.${pad(p.millisecond, 3)}`;
}

/** The `YYYY-MM-DD` local date of a local date-time. */
export function localDate(p: LocalParts): string {
  return formatLocal(p).slice(0, 10);
}

/** Reads what formatLocal wrote. */
export function parseLocal(text: string): LocalParts {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})$/.exec(text);
  if (!m) throw new Error(`not a stored local time: ${text}`);
  const [year, month, day, hour, minute, second, millisecond] = m.slice(1).map(Number) as [number, number, number, number, number, number, number];
  return { year, month, day, hour, minute, second, millisecond };
}

/** A series' rule as an occurrence carries it. */
export interface SeriesRule extends RepeatStep {
  /** `YYYY-MM-DD`: no occurrence on a later local date. */
  until: string | null;
  /** Occurrences in all, the first included. */
  count: number | null;
  zone: string;
  /** The series' day of month. */
  day: number;
}

/**
 * The occurrence after number `occurrence`, meant for `local`: its number, local date-time and
 * instant; null when the series ends with it (`count` reached, or the next local date after
 * `until`).
 */
export function followingOccurrence(rule: SeriesRule, occurrence: number, local: LocalParts): { occurrence: number; local: LocalParts; instant: Date } | null {
  if (rule.count !== null && occurrence >= rule.count) return null;
  const next = nextOccurrence(local, rule, rule.day, rule.zone);
  if (rule.until !== null && localDate(next.local) > rule.until) return null;
  return { occurrence: occurrence + 1, ...next };
}
