import { localToInstant } from './time.js';

/** A weekly time: ISO day of week (Monday = 1), `HH:mm`, an IANA zone. */
export interface WeeklySlot {
  dayOfWeek: number;
  time: string;
  timezone: string;
}

const DAY_MS = 86_400_000;
/** No zone is ever more than 14 h ahead of UTC; two days leave room to spare. */
const MARGIN_MS = 2 * DAY_MS;
const CHUNK_DAYS = 7;

/** ISO day of week of a UTC calendar date given as its midnight in ms. */
function isoDayOfWeek(utcMidnightMs: number): number {
  return new Date(utcMidnightMs).getUTCDay() || 7;
}

/**
 * The instants the slots name in (after, until], in order, each once (two slots in different
 * zones can name the same instant). A slot's instant on a date is its local time in its own
 * zone on that local date; a time the clocks skip that day gives none, a time they pass twice
 * gives the earlier instant (lib/time.ts). Lazy: it computes only as far as it is read.
 */
export function* slotInstants(slots: WeeklySlot[], after: Date, until: Date): Generator<Date> {
  const byDay = new Map<number, Array<{ hour: number; minute: number; zone: string }>>();
  for (const s of slots) {
    const [hour, minute] = s.time.split(':').map(Number) as [number, number];
    const list = byDay.get(s.dayOfWeek) ?? [];
    list.push({ hour, minute, zone: s.timezone });
    byDay.set(s.dayOfWeek, list);
  }
  if (byDay.size === 0) return;
  const afterMs = after.getTime();
  const untilMs = until.getTime();
  // Local dates near a UTC date D give instants within D ± 14 h: start and end two days out.
  const first = Math.floor((afterMs - MARGIN_MS) / DAY_MS) * DAY_MS;
  const last = Math.floor((untilMs + MARGIN_MS) / DAY_MS) * DAY_MS;
  let pending: number[] = [];
  let lastYielded = Number.NaN;
  for (let chunk = first; chunk <= last; chunk += CHUNK_DAYS * DAY_MS) {
    for (let day = chunk; day < chunk + CHUNK_DAYS * DAY_MS && day <= last; day += DAY_MS) {
      const date = new Date(day);
      for (const s of byDay.get(isoDayOfWeek(day)) ?? []) {
        const instant = localToInstant(
          { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: s.hour, minute: s.minute, second: 0, millisecond: 0 },
          s.zone,
        );
        if (instant && instant.getTime() > afterMs && instant.getTime() <= untilMs) pending.push(instant.getTime());
      }
    }
    // Local dates not read yet give instants after the next chunk's midnight minus the margin.
    const settled = chunk + CHUNK_DAYS * DAY_MS - MARGIN_MS;
    pending.sort((a, b) => a - b);
    const keep: number[] = [];
    for (const ms of pending) {
      if (ms >= settled) keep.push(ms);
      else if (ms !== lastYielded) {
        lastYielded = ms;
        yield new Date(ms);
      }
    }
    pending = keep;
  }
  for (const ms of pending) {
    if (ms !== lastYielded) {
      lastYielded = ms;
      yield new Date(ms);
    }
  }
}

/** The first `count` instants of the slots after `now` and within `horizonMs` that are not taken. */
export function nextFreeInstants(slots: WeeklySlot[], now: Date, count: number, taken: ReadonlySet<number>, horizonMs: number): Date[] {
  const free: Date[] = [];
  if (count <= 0) return free;
  for (const instant of slotInstants(slots, now, new Date(now.getTime() + horizonMs))) {
    if (taken.has(instant.getTime())) continue;
    free.push(instant);
    if (free.length === count) break;
  }
  return free;
}
