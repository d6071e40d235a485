/**
 * Reading user-written date-times: `YYYY-MM-DDThh:mm[:ss[.fff]]` in an IANA zone, or the same
 * with `Z` / `±hh:mm`. A local time inside a DST gap does not exist; one inside a DST overlap
 * happens twice and we take the earlier instant.
 */

export type LocalTimeResult = { ok: true; instant: Date } | { ok: false; reason: 'FORMAT' | 'RANGE' | 'NONEXISTENT' };

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/;

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

export function isValidTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** Zones whose offset is 0 at every instant: asked without formatting a date (a Create in UTC asks four times). */
export const ALWAYS_UTC: ReadonlySet<string> = new Set([
  'UTC',
  'Etc/UTC',
  'Etc/GMT',
  'GMT',
  'Etc/Universal',
  'Etc/Zulu',
  'Universal',
  'Zulu',
  'Etc/UCT',
  'UCT',
  'Etc/Greenwich',
  'Greenwich',
  'Etc/GMT0',
  'GMT0',
  'Etc/GMT+0',
  'Etc/GMT-0',
  'GMT+0',
  'GMT-0',
]);

/** Offset of `zone` from UTC at `instantMs`, in minutes (east positive). */
export function zoneOffsetMinutes(zone: string, instantMs: number): number {
  return ALWAYS_UTC.has(zone) ? 0 : formattedOffsetMinutes(zone, instantMs);
}

/** The same, read off the zone's wall clock as Intl formats it (what ALWAYS_UTC's zones skip). */
export function formattedOffsetMinutes(zone: string, instantMs: number): number {
  const fields: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(instantMs))) {
    if (p.type !== 'literal') fields[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(fields.year!, fields.month! - 1, fields.day!, fields.hour!, fields.minute!, fields.second!);
  const wholeSecondMs = instantMs - (((instantMs % 1000) + 1000) % 1000);
  return Math.round((asUtc - wholeSecondMs) / 60_000);
}

function parse(input: string): { parts: LocalParts; offset: string | undefined } | null {
  const m = PATTERN.exec(input);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, offset] = m;
  return {
    parts: {
      year: Number(y),
      month: Number(mo),
      day: Number(d),
      hour: Number(h),
      minute: Number(mi),
      second: s === undefined ? 0 : Number(s),
      millisecond: frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000),
    },
    offset,
  };
}

function partsAreReal(p: LocalParts): boolean {
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.hour > 23 || p.minute > 59 || p.second > 59) return false;
  const daysInMonth = new Date(Date.UTC(p.year, p.month, 0)).getUTCDate();
  return p.day <= daysInMonth && p.year >= 1970 && p.year <= 9999;
}

function wallClockAsUtc(p: LocalParts): number {
  const ms = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.millisecond);
  // Date.UTC maps years 0–99 to 1900+; partsAreReal already refuses those.
  return ms;
}

/**
 * The instant a wall-clock time names in `zone`. Candidates are the offsets in force a day
 * either side; a candidate is real when the zone's offset at that instant is the one assumed.
 */
export function localToInstant(p: LocalParts, zone: string): Date | null {
  const wall = wallClockAsUtc(p);
  const offsets = new Set([-1, 0, 1].map((days) => zoneOffsetMinutes(zone, wall + days * 86_400_000)));
  const instants = [...offsets]
    .map((off) => wall - off * 60_000)
    .filter((instant) => zoneOffsetMinutes(zone, instant) * 60_000 === wall - instant)
    .sort((a, b) => a - b);
  return instants.length ? new Date(instants[0]!) : null;
}

export function readLocalTime(input: string, zone: string): LocalTimeResult {
  const parsed = parse(input);
  if (!parsed) return { ok: false, reason: 'FORMAT' };
  const { parts, offset } = parsed;
  if (!partsAreReal(parts)) return { ok: false, reason: 'RANGE' };
  if (offset !== undefined) {
    const minutes = offset === 'Z' ? 0 : (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
    if (Math.abs(minutes) > 18 * 60 || Number(offset.slice(4, 6)) > 59) return { ok: false, reason: 'RANGE' };
    return { ok: true, instant: new Date(wallClockAsUtc(parts) - minutes * 60_000) };
  }
  const instant = localToInstant(parts, zone);
  return instant ? { ok: true, instant } : { ok: false, reason: 'NONEXISTENT' };
}

/** ISO 8601 UTC with milliseconds and Z, as every response shows time. */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Midnight UTC at the start of the day after `date`'s UTC day. */
export function startOfNextUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1));
}
