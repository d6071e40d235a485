import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { nextFreeInstants, slotInstants, type WeeklySlot } from '../../../src/lib/weekly-slots.js';

const HORIZON_MS = 366 * 86_400_000;
const QUARTER_MS = 15 * 60_000;
const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

// ---- the reference: a plain walk over the clock, reading each instant's wall time with Intl ----

const referenceFormatters = new Map<string, Intl.DateTimeFormat>();
function wallTime(zone: string, ms: number) {
  let f = referenceFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    referenceFormatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, weekday: WEEKDAYS[p.weekday!]!, time: `${p.hour}:${p.minute}` };
}

/**
 * The first `limit` instants of one slot after `after`, by walking the clock in 15-minute steps
 * (every zone's offset has been a multiple of 15 minutes since 1980) and keeping, per local date,
 * the first instant whose wall time in the slot's zone is the slot's day and time. A time the
 * clocks skip is never seen; one they pass twice is kept the first time. The walk starts two
 * days early so that "first per local date" holds when `after` falls inside an overlap.
 * (UTC days more than one away from the slot's day are passed over without asking Intl.)
 */
function referenceSlot(slot: WeeklySlot, after: number, until: number, limit: number): number[] {
  const minute = Number(slot.time.slice(3));
  let t = Math.floor((after - 2 * 86_400_000) / 3_600_000) * 3_600_000 + (minute % 15) * 60_000;
  const seenDates = new Set<string>();
  const found: number[] = [];
  for (; t <= until && found.length < limit; t += QUARTER_MS) {
    // Offsets lie within −12 h and +14 h: the local day is the UTC day or one either side.
    const utcDay = new Date(t).getUTCDay() || 7;
    if ((slot.dayOfWeek - utcDay + 8) % 7 > 2) continue;
    const wall = wallTime(slot.timezone, t);
    if (wall.weekday !== slot.dayOfWeek || wall.time !== slot.time || seenDates.has(wall.date)) continue;
    seenDates.add(wall.date);
    if (t > after) found.push(t);
  }
  return found;
}

function reference(slots: WeeklySlot[], now: number, count: number, taken: Set<number>): number[] {
  const until = now + HORIZON_MS;
  const all = new Set(slots.flatMap((s) => referenceSlot(s, now, until, count + taken.size)));
  return [...all]
    .filter((t) => !taken.has(t))
    .sort((a, b) => a - b)
    .slice(0, count);
}

// ---- generators ----

const DST_ZONES = [
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Santiago',
  'America/Havana',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Australia/Adelaide',
  'Pacific/Chatham',
  'Asia/Tehran',
  'Africa/Casablanca',
  'Pacific/Apia',
  'Asia/Kathmandu',
  'Pacific/Kiritimati',
  'UTC',
];
const zone = fc.oneof(fc.constantFrom(...DST_ZONES), fc.constantFrom(...Intl.supportedValuesOf('timeZone')));
const hour = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 23 }));
const minute = fc.oneof(fc.constantFrom(0, 15, 30, 45), fc.integer({ min: 0, max: 59 }));
const slot = fc.record({
  dayOfWeek: fc.integer({ min: 1, max: 7 }),
  time: fc.tuple(hour, minute).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  timezone: zone,
});
// Mostly near the months in which clocks change, so that gaps and overlaps come up often.
const now = fc.oneof(
  fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true }),
  fc
    .record({
      year: fc.integer({ min: 2000, max: 2040 }),
      month: fc.constantFrom(2, 3, 4, 8, 9, 10, 11),
      day: fc.integer({ min: 1, max: 28 }),
      minutes: fc.integer({ min: 0, max: 24 * 60 - 1 }),
    })
    .map(({ year, month, day, minutes }) => new Date(Date.UTC(year, month, day) + minutes * 60_000)),
);

/** The zone's offset from UTC at `t`, in minutes, read from Intl's wall time. */
function offsetAt(zone: string, t: number): number {
  const wall = wallTime(zone, t);
  const [y, mo, d] = wall.date.split('-').map(Number) as [number, number, number];
  const [h, mi] = wall.time.split(':').map(Number) as [number, number];
  const minuteStart = Math.floor(t / 60_000) * 60_000;
  return Math.round((Date.UTC(y, mo - 1, d, h, mi) - minuteStart) / 60_000);
}

/** The `which`-th change of the zone's offset in the year (found day by day, then to the minute), or null. */
function transition(zone: string, year: number, which: number): { at: number; before: number; after: number } | null {
  let seen = 0;
  for (let day = Date.UTC(year, 0, 1); day < Date.UTC(year + 1, 0, 1); day += 86_400_000) {
    if (offsetAt(zone, day) === offsetAt(zone, day + 86_400_000)) continue;
    if (seen++ < which) continue;
    let lo = day;
    let hi = day + 86_400_000;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offsetAt(zone, mid) === offsetAt(zone, lo)) lo = mid;
      else hi = mid;
    }
    return { at: hi, before: offsetAt(zone, lo), after: offsetAt(zone, hi) };
  }
  return null;
}

/**
 * A slot whose local time the clocks skip or pass twice on a day they change, and a "now" a few
 * days before that change or right around it: where a queue would go wrong if it could.
 */
const atTransition = fc
  .record({
    zone: fc.constantFrom(...DST_ZONES.filter((z) => z !== 'UTC')),
    year: fc.integer({ min: 2000, max: 2040 }),
    which: fc.integer({ min: 0, max: 1 }),
    within: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
    nowBefore: fc.oneof(fc.integer({ min: 0, max: 4 * 24 * 60 }), fc.integer({ min: -90, max: 90 })),
  })
  .map(({ zone, year, which, within, nowBefore }) => {
    const change = transition(zone, year, which);
    if (!change) return null;
    // Wall times just after the change, in UTC-as-wall ms: a gap lies before them, an overlap starts at them.
    const jump = change.after - change.before;
    const delta = Math.floor(within * Math.abs(jump)) * 60_000 * (jump > 0 ? -1 : 1);
    const wall = new Date(change.at + change.after * 60_000 + delta);
    const slot: WeeklySlot = {
      dayOfWeek: wall.getUTCDay() || 7,
      time: `${String(wall.getUTCHours()).padStart(2, '0')}:${String(wall.getUTCMinutes()).padStart(2, '0')}`,
      timezone: zone,
    };
    return { slot, now: new Date(change.at - nowBefore * 60_000), change };
  })
  .filter((x) => x !== null);

const iso = (ms: number[]) => ms.map((t) => new Date(t).toISOString());

// ---- properties ----

test('next free instants equal the reference walk over the clock (random zones, dates, slots, taken instants)', () => {
  fc.assert(
    fc.property(
      fc.array(slot, { minLength: 1, maxLength: 3 }),
      now,
      fc.integer({ min: 1, max: 5 }),
      fc.array(fc.nat({ max: 6 }), { maxLength: 3 }),
      (slots, at, count, takenIndexes) => {
        const nowMs = at.getTime();
        // Take some of the slots' own instants (what threads would do), and one instant of no slot.
        const candidates = reference(slots, nowMs, 7, new Set());
        const taken = new Set([...takenIndexes.flatMap((i) => (candidates[i] === undefined ? [] : [candidates[i]!])), nowMs + 60_000]);
        const expected = reference(slots, nowMs, count, taken);
        const actual = nextFreeInstants(slots, at, count, taken, HORIZON_MS).map((d) => d.getTime());
        assert.deepEqual(iso(actual), iso(expected));
      },
    ),
    { numRuns: 100 },
  );
});

test('next free instants equal the reference where the clocks change (gaps, overlaps, 30-minute shifts)', () => {
  fc.assert(
    fc.property(
      atTransition,
      fc.array(slot, { maxLength: 2 }),
      fc.integer({ min: 1, max: 4 }),
      fc.boolean(),
      ({ slot: target, now: at }, others, count, takeFirst) => {
        const slots = [target, ...others];
        const nowMs = at.getTime();
        const taken = new Set(takeFirst ? reference(slots, nowMs, 1, new Set()) : []);
        const expected = reference(slots, nowMs, count, taken);
        const actual = nextFreeInstants(slots, at, count, taken, HORIZON_MS).map((d) => d.getTime());
        assert.deepEqual(iso(actual), iso(expected));
      },
    ),
    { numRuns: 100 },
  );
});

test('slot instants come in order, each once, strictly after "after" and within "until"', () => {
  fc.assert(
    fc.property(fc.array(slot, { minLength: 1, maxLength: 6 }), now, fc.integer({ min: 1, max: 60 }), (slots, at, days) => {
      const until = new Date(at.getTime() + days * 86_400_000);
      const instants = [...slotInstants(slots, at, until)].map((d) => d.getTime());
      for (let i = 1; i < instants.length; i++) assert.ok(instants[i - 1]! < instants[i]!, 'strictly increasing');
      for (const t of instants) assert.ok(t > at.getTime() && t <= until.getTime());
      // Each local wall time is the slot's: day of week and time in its zone.
      for (const t of instants) {
        assert.ok(
          slots.some((s) => {
            const wall = wallTime(s.timezone, t);
            return wall.weekday === s.dayOfWeek && wall.time === s.time;
          }),
        );
      }
    }),
    { numRuns: 100 },
  );
});

// ---- daylight saving time, case by case ----

function next(slots: WeeklySlot[], at: string, count = 2, taken: string[] = []): string[] {
  return nextFreeInstants(slots, new Date(at), count, new Set(taken.map((t) => Date.parse(t))), HORIZON_MS).map((d) => d.toISOString());
}

test('Europe/Berlin: a Sunday 02:30 slot is skipped on the day the clocks spring forward, and is the earlier 02:30 when they fall back', () => {
  const sunday0230 = [{ dayOfWeek: 7, time: '02:30', timezone: 'Europe/Berlin' }];
  // 29 March 2026: 02:00 CET → 03:00 CEST; 02:30 does not exist.
  assert.deepEqual(next(sunday0230, '2026-03-25T00:00:00Z'), ['2026-04-05T00:30:00.000Z', '2026-04-12T00:30:00.000Z']);
  // 25 October 2026: 03:00 CEST → 02:00 CET; 02:30 happens at 00:30Z and at 01:30Z.
  assert.deepEqual(next(sunday0230, '2026-10-20T00:00:00Z'), ['2026-10-25T00:30:00.000Z', '2026-11-01T01:30:00.000Z']);
  // Between the two: that day's instant (the earlier one) has passed.
  assert.deepEqual(next(sunday0230, '2026-10-25T01:00:00Z', 1), ['2026-11-01T01:30:00.000Z']);
});

test('America/New_York: 02:15 is skipped on 8 March 2026; 01:30 on 1 November 2026 is the EDT one', () => {
  assert.deepEqual(next([{ dayOfWeek: 7, time: '02:15', timezone: 'America/New_York' }], '2026-03-02T00:00:00Z', 1), ['2026-03-15T06:15:00.000Z']);
  assert.deepEqual(next([{ dayOfWeek: 7, time: '01:30', timezone: 'America/New_York' }], '2026-10-28T00:00:00Z'), [
    '2026-11-01T05:30:00.000Z',
    '2026-11-08T06:30:00.000Z',
  ]);
});

test('Australia/Lord_Howe, whose clocks move by 30 minutes: the repeated 01:45 is the earlier (+11:00), the skipped 02:15 waits a week', () => {
  // 5 April 2026: 02:00 (+11:00) → 01:30 (+10:30).
  assert.deepEqual(next([{ dayOfWeek: 7, time: '01:45', timezone: 'Australia/Lord_Howe' }], '2026-04-01T00:00:00Z'), [
    '2026-04-04T14:45:00.000Z',
    '2026-04-11T15:15:00.000Z',
  ]);
  // 4 October 2026: 02:00 (+10:30) → 02:30 (+11:00).
  assert.deepEqual(next([{ dayOfWeek: 7, time: '02:15', timezone: 'Australia/Lord_Howe' }], '2026-10-01T00:00:00Z', 1), ['2026-10-10T15:15:00.000Z']);
});

test('two slots naming the same instant count once; taken instants are skipped; nothing within 366 days gives none', () => {
  const same = [
    { dayOfWeek: 1, time: '09:00', timezone: 'Europe/Berlin' },
    { dayOfWeek: 1, time: '08:00', timezone: 'UTC' },
  ];
  assert.deepEqual(next(same, '2026-11-22T00:00:00Z'), ['2026-11-23T08:00:00.000Z', '2026-11-30T08:00:00.000Z']);
  assert.deepEqual(next(same, '2026-11-22T00:00:00Z', 2, ['2026-11-23T08:00:00.000Z']), ['2026-11-30T08:00:00.000Z', '2026-12-07T08:00:00.000Z']);
  // Exactly now is not "after now".
  assert.deepEqual(next(same, '2026-11-23T08:00:00Z', 1), ['2026-11-30T08:00:00.000Z']);
  assert.deepEqual(next([], '2026-11-22T00:00:00Z'), []);
  // A weekly slot has 52 or 53 instants within 366 days; all taken → none left.
  const weekly = [{ dayOfWeek: 3, time: '12:00', timezone: 'UTC' }];
  const year = next(weekly, '2026-11-22T00:00:00Z', 60);
  assert.equal(year.length, 52);
  assert.ok(Date.parse(year.at(-1)!) <= Date.parse('2026-11-22T00:00:00Z') + HORIZON_MS);
  assert.deepEqual(next(weekly, '2026-11-22T00:00:00Z', 1, year), []);
});
