/**
 * Times in the account's time zone (never the browser's): the parts of an instant in a zone, the
 * local `YYYY-MM-DDThh:mm:ss` strings the API reads in the account's zone, and calendar dates
 * (`YYYY-MM-DD`, no zone). The app's one module for dates: an instant is shown with
 * `formatInZone`, a calendar date with `formatDay`, and days are walked with `addDays`.
 */

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

export function partsIn(instant: Date | string, timeZone: string): LocalParts {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    partFormats.set(timeZone, format);
  }
  const get = (type: string) => Number(format.formatToParts(new Date(instant)).find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute') };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A calendar date (no zone) as `YYYY-MM-DD`. */
export function dateKey(p: { year: number; month: number; day: number }): string {
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** The local wall time the API reads in the account's zone. */
export function localDateTime(p: LocalParts): string {
  return `${dateKey(p)}T${pad(p.hour)}:${pad(p.minute)}:00`;
}

/** `YYYY-MM-DDThh:mm`, the value of an `<input type="datetime-local">`, for an instant in a zone. */
export function inputValue(instant: Date | string, timeZone: string): string {
  return localDateTime(partsIn(instant, timeZone)).slice(0, 16);
}

/** A plain calendar date, for walking days without any zone (UTC arithmetic on dates only). */
export function addDays(key: string, days: number): string {
  const d = new Date(`${key}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Day of the week of a `YYYY-MM-DD`, Monday = 1 … Sunday = 7. */
export function weekday(key: string): number {
  return ((new Date(`${key}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

/** An instant as a time of a zone; by default its date and time ("30 Nov 2026, 09:00"). */
export function formatInZone(
  instant: Date | string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  return new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(new Date(instant));
}

/** A calendar date `YYYY-MM-DD` as a readable date (a date, not an instant: formatted in UTC). */
export function formatDay(key: string, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' }).format(new Date(`${key}T00:00:00Z`));
}

/** Today's date (`YYYY-MM-DD`) in a time zone. */
export function todayIn(timeZone: string): string {
  return dateKey(partsIn(new Date(), timeZone));
}
