import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatLocal, instantOfLocal, nextOccurrence, parseLocal, type RepeatUnit, stepLocal, wallClockOf } from '../../src/lib/recurrence.js';
import { type LocalParts, localToInstant } from '../../src/lib/time.js';

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/Sao_Paulo',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'America/St_Johns',
  'America/Santiago',
  'Africa/Casablanca',
  'Pacific/Apia',
];

/** Wall clock of an instant in a zone, via Intl only (independent of the code under test). */
function wall(instantMs: number, zone: string): string {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(instantMs)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

const zone = fc.constantFrom(...ZONES);
const unit = fc.constantFrom<RepeatUnit>('day', 'week', 'month');
const every = fc.integer({ min: 1, max: 365 });
/** Any local date-time (real in the calendar; maybe skipped by the zone's clocks). */
const local = fc
  .record({
    year: fc.integer({ min: 2000, max: 2045 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    millisecond: fc.constant<number>(0),
  })
  .map((p): LocalParts => ({ ...p, day: Math.min(p.day, new Date(Date.UTC(p.year, p.month, 0)).getUTCDate()) }));

const text = (p: LocalParts) => formatLocal(p).slice(0, 19);

test('the instant of a local time shows that time, or is the first instant after the gap that skips it', () => {
  fc.assert(
    fc.property(local, zone, (p, z) => {
      const instant = instantOfLocal(p, z).getTime();
      if (localToInstant(p, z)) {
        assert.equal(wall(instant, z), text(p));
      } else {
        // In a gap: the instant shows a later time, the second before it an earlier one.
        assert.ok(wall(instant, z) > text(p), `${text(p)} ${z}: ${wall(instant, z)}`);
        assert.ok(wall(instant - 1000, z) < text(p), `${text(p)} ${z}: before ${wall(instant - 1000, z)}`);
      }
    }),
    { numRuns: 3000 },
  );
});

test('a step keeps the time of day and moves the date by exactly the interval', () => {
  fc.assert(
    fc.property(local, every, unit, (p, n, u) => {
      const next = stepLocal(p, { every: n, unit: u }, p.day);
      assert.deepEqual([next.hour, next.minute, next.second, next.millisecond], [p.hour, p.minute, p.second, p.millisecond]);
      const days = (Date.UTC(next.year, next.month - 1, next.day) - Date.UTC(p.year, p.month - 1, p.day)) / 86_400_000;
      if (u === 'day') assert.equal(days, n);
      if (u === 'week') assert.equal(days, 7 * n);
      if (u === 'month') {
        assert.equal(next.year * 12 + next.month - (p.year * 12 + p.month), n);
        const last = new Date(Date.UTC(next.year, next.month, 0)).getUTCDate();
        assert.equal(next.day, Math.min(p.day, last));
      }
    }),
    { numRuns: 2000 },
  );
});

test('a series never drifts: k steps land where one step of k intervals would, and each occurrence is later than the last', () => {
  fc.assert(
    fc.property(local, fc.integer({ min: 1, max: 40 }), unit, zone, fc.integer({ min: 2, max: 30 }), (start, n, u, z, k) => {
      let current = start;
      let previous = instantOfLocal(start, z).getTime();
      for (let i = 1; i <= k; i++) {
        const next = nextOccurrence(current, { every: n, unit: u }, start.day, z);
        assert.ok(next.instant.getTime() > previous, `${z} ${text(current)} → ${text(next.local)}`);
        previous = next.instant.getTime();
        current = next.local;
      }
      assert.deepEqual(current, stepLocal(start, { every: n * k, unit: u }, start.day));
      // The series' day of month comes back after a short month.
      if (u === 'month') assert.equal(current.day, Math.min(start.day, new Date(Date.UTC(current.year, current.month, 0)).getUTCDate()));
    }),
    { numRuns: 500 },
  );
});

test('the wall clock of an instant reads back to it; stored local times read back', () => {
  fc.assert(
    fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2045, 0, 1) }), zone, (ms, z) => {
      const p = wallClockOf(new Date(ms), z);
      assert.equal(text(p), wall(ms, z));
      assert.deepEqual(parseLocal(formatLocal(p)), p);
    }),
  );
});

function occurrences(start: string, zoneName: string, every: number, u: RepeatUnit, k: number): string[] {
  let current = parseLocal(`${start}.000`);
  const day = current.day;
  const out = [instantOfLocal(current, zoneName).toISOString()];
  for (let i = 1; i < k; i++) {
    const next = nextOccurrence(current, { every, unit: u }, day, zoneName);
    out.push(next.instant.toISOString());
    current = next.local;
  }
  return out;
}

test('New York, March and November 2027: 09:00 stays 09:00; 02:30 in the gap is 03:00, then 02:30 again; 01:30 twice is the earlier', () => {
  assert.deepEqual(occurrences('2027-03-13T09:00:00', 'America/New_York', 1, 'day', 3), [
    '2027-03-13T14:00:00.000Z',
    '2027-03-14T13:00:00.000Z',
    '2027-03-15T13:00:00.000Z',
  ]);
  assert.deepEqual(occurrences('2027-03-13T02:30:00', 'America/New_York', 1, 'day', 3), [
    '2027-03-13T07:30:00.000Z',
    '2027-03-14T07:00:00.000Z', // 03:00 EDT: the gap's end
    '2027-03-15T06:30:00.000Z',
  ]);
  assert.deepEqual(occurrences('2027-10-31T01:30:00', 'America/New_York', 1, 'week', 3), [
    '2027-10-31T05:30:00.000Z',
    '2027-11-07T05:30:00.000Z', // 01:30 EDT, the first of two
    '2027-11-14T06:30:00.000Z',
  ]);
  assert.deepEqual(occurrences('2027-02-14T09:00:00', 'America/New_York', 1, 'month', 2), ['2027-02-14T14:00:00.000Z', '2027-03-14T13:00:00.000Z']);
});

test('Berlin, March and October 2027', () => {
  assert.deepEqual(occurrences('2027-03-21T09:00:00', 'Europe/Berlin', 1, 'week', 2), ['2027-03-21T08:00:00.000Z', '2027-03-28T07:00:00.000Z']);
  assert.deepEqual(occurrences('2027-03-27T02:30:00', 'Europe/Berlin', 1, 'day', 3), [
    '2027-03-27T01:30:00.000Z',
    '2027-03-28T01:00:00.000Z', // 03:00 CEST
    '2027-03-29T00:30:00.000Z',
  ]);
  assert.deepEqual(occurrences('2027-10-30T09:00:00', 'Europe/Berlin', 1, 'day', 2), ['2027-10-30T07:00:00.000Z', '2027-10-31T08:00:00.000Z']);
  assert.deepEqual(occurrences('2027-10-30T02:30:00', 'Europe/Berlin', 1, 'day', 2), ['2027-10-30T00:30:00.000Z', '2027-10-31T00:30:00.000Z']);
});

test('the southern hemisphere: Sydney and Lord Howe (a 30-minute change), April and October 2027', () => {
  assert.deepEqual(occurrences('2027-04-03T09:00:00', 'Australia/Sydney', 1, 'day', 2), ['2027-04-02T22:00:00.000Z', '2027-04-03T23:00:00.000Z']);
  assert.deepEqual(occurrences('2027-10-02T02:30:00', 'Australia/Sydney', 1, 'day', 3), [
    '2027-10-01T16:30:00.000Z',
    '2027-10-02T16:00:00.000Z', // 03:00 AEDT
    '2027-10-03T15:30:00.000Z',
  ]);
  assert.deepEqual(occurrences('2027-10-02T02:15:00', 'Australia/Lord_Howe', 1, 'day', 3), [
    '2027-10-01T15:45:00.000Z',
    '2027-10-02T15:30:00.000Z', // 02:30 +11: the 30-minute gap's end
    '2027-10-03T15:15:00.000Z',
  ]);
  assert.deepEqual(occurrences('2027-04-03T01:45:00', 'Australia/Lord_Howe', 1, 'day', 2), [
    '2027-04-02T14:45:00.000Z',
    '2027-04-03T14:45:00.000Z', // 01:45 +11, the first of two
  ]);
});

test('month ends: the series keeps its day (Jan 31 → Feb 28 → Mar 31), leap years included', () => {
  assert.deepEqual(occurrences('2027-01-31T09:00:00', 'UTC', 1, 'month', 4), [
    '2027-01-31T09:00:00.000Z',
    '2027-02-28T09:00:00.000Z',
    '2027-03-31T09:00:00.000Z',
    '2027-04-30T09:00:00.000Z',
  ]);
  assert.deepEqual(occurrences('2028-01-30T09:00:00', 'UTC', 1, 'month', 3), [
    '2028-01-30T09:00:00.000Z',
    '2028-02-29T09:00:00.000Z',
    '2028-03-30T09:00:00.000Z',
  ]);
  assert.deepEqual(occurrences('2027-08-31T09:00:00', 'UTC', 6, 'month', 2), ['2027-08-31T09:00:00.000Z', '2028-02-29T09:00:00.000Z']);
  assert.deepEqual(occurrences('2027-12-15T09:00:00', 'UTC', 365, 'day', 2), ['2027-12-15T09:00:00.000Z', '2028-12-14T09:00:00.000Z']);
});

test('a whole skipped day (Apia, 30 December 2011) moves to the first instant after it', () => {
  assert.equal(instantOfLocal(parseLocal('2011-12-30T12:00:00.000'), 'Pacific/Apia').toISOString(), '2011-12-30T10:00:00.000Z');
});
