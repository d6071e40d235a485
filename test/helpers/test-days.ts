/**
 * The days a date-dependent test runs on, instead of whatever day the suite happens to run:
 * the coming Sunday (tomorrow is in next week's calendar), the coming last day of a month
 * (tomorrow is in next month), and the eve of the coming DST change (tomorrow has 23 or 25 hours).
 *
 * A `TestClock` starts at such an instant and then runs at the real pace, as the server's clock
 * does with SKEIN_CLOCK_START and the browser's with Playwright's clock (test/helpers/browser.ts),
 * so the server, the page and the test all agree on "today". Each day is found from the real date
 * (days or months ahead, never in the past), so nothing the test makes is due before it means it.
 */
import { localToInstant, zoneOffsetMinutes } from '../../src/lib/time.js';

export type TestDayName = 'sunday' | 'month-end' | 'dst-eve';

export interface TestClock {
  name: TestDayName;
  /** The account's time zone these days are meant in. */
  zone: string;
  now(): Date;
  /** The date `days` from this clock's today in `zone` (YYYY-MM-DD). */
  dateIn(days: number): string;
}

/** Zones with DST on either hemisphere: the eve case takes whichever changes next. */
const DST_ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'America/Santiago', 'Pacific/Auckland'];

/** YYYY-MM-DD of an instant in a zone. */
export function dateOf(at: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** A plain date `days` on (UTC arithmetic on dates only). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function atLocal(date: string, zone: string, hour: number): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return localToInstant({ year, month, day, hour, minute: 0, second: 0, millisecond: 0 }, zone)!;
}

/**
 * The first date after today (in `zone`, by the real clock) that `wanted` accepts, within `limit`
 * days. SKEIN_TEST_FROM=YYYY-MM-DD searches from that date instead, to try the date-dependent
 * tests on the days another date would pick (a month's end on a Sunday, another DST change).
 */
function nextDate(zone: string, wanted: (date: string) => boolean, limit = 400): string {
  const today = process.env.SKEIN_TEST_FROM || dateOf(new Date(), zone);
  for (let i = 1; i <= limit; i++) {
    const date = addDays(today, i);
    if (wanted(date)) return date;
  }
  throw new Error(`no such day within ${limit} days in ${zone}`);
}

/** Whether the zone's offset differs between the noon of `date` and the noon of the next day. */
function dstChangesAfter(date: string, zone: string): boolean {
  const noon = atLocal(date, zone, 12).getTime();
  return zoneOffsetMinutes(zone, noon) !== zoneOffsetMinutes(zone, noon + 86_400_000);
}

/** The day `name` in `zone` (for 'dst-eve', the zone of the next change among DST_ZONES). */
function pick(name: TestDayName, zone: string): { zone: string; date: string } {
  if (name === 'sunday') return { zone, date: nextDate(zone, (d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 0) };
  if (name === 'month-end') return { zone, date: nextDate(zone, (d) => addDays(d, 1).slice(8) === '01') };
  const eves = DST_ZONES.map((z) => ({ zone: z, date: nextDate(z, (d) => dstChangesAfter(d, z)) }));
  return eves.sort((a, b) => a.date.localeCompare(b.date))[0]!;
}

/**
 * A clock on the day `name` at `hour` o'clock in `zone` (UTC by default; 'dst-eve' picks its own
 * zone), running on from now.
 */
export function testClock(name: TestDayName, options: { zone?: string; hour?: number } = {}): TestClock {
  const { zone, date } = pick(name, options.zone ?? 'UTC');
  const offsetMs = atLocal(date, zone, options.hour ?? 9).getTime() - Date.now();
  const now = () => new Date(Date.now() + offsetMs);
  return { name, zone, now, dateIn: (days) => addDays(dateOf(now(), zone), days) };
}

export const TEST_DAYS: readonly TestDayName[] = ['sunday', 'month-end', 'dst-eve'];
