import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ALWAYS_UTC, formattedOffsetMinutes, isValidTimeZone, readLocalTime, zoneOffsetMinutes } from '../../src/lib/time.js';

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/Sao_Paulo',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'America/St_Johns',
  'Africa/Casablanca',
  'Asia/Tokyo',
  'Pacific/Apia',
];

function pad(n: number, w = 2) {
  return String(n).padStart(w, '0');
}

/** Wall-clock representation of an instant in a zone, via Intl (independent of the code under test). */
function wallClock(instantMs: number, zone: string): string {
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

const instant = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }).map((ms) => ms - (ms % 1000));
const zone = fc.constantFrom(...ZONES);

test('round trip: the wall clock of any instant reads back to an instant with that wall clock, the earliest one', () => {
  fc.assert(
    fc.property(instant, zone, (ms, z) => {
      const wall = wallClock(ms, z);
      const result = readLocalTime(wall, z);
      assert.ok(result.ok, `${wall} ${z}`);
      assert.equal(wallClock(result.instant.getTime(), z), wall);
      // It is the earlier of two when the wall clock repeats (overlap): never later than ms.
      assert.ok(result.instant.getTime() <= ms, `${wall} in ${z}: got ${result.instant.toISOString()}, instant ${new Date(ms).toISOString()}`);
    }),
    { numRuns: 3000 },
  );
});

test('explicit offsets win over the zone, fractional seconds are kept to the millisecond', () => {
  fc.assert(
    fc.property(instant, zone, fc.integer({ min: -14 * 60, max: 14 * 60 }), fc.integer({ min: 0, max: 999 }), (ms, z, offset, millis) => {
      const local = new Date(ms + offset * 60_000);
      const sign = offset < 0 ? '-' : '+';
      const abs = Math.abs(offset);
      const text = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}.${pad(millis, 3)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
      const result = readLocalTime(text, z);
      assert.ok(result.ok, text);
      assert.equal(result.instant.getTime(), ms + millis);
    }),
  );
});

test('every reported gap really has no instant with that wall clock', () => {
  fc.assert(
    fc.property(instant, zone, fc.integer({ min: 0, max: 59 }), (ms, z, minute) => {
      const base = new Date(ms);
      const wall = `${base.getUTCFullYear()}-${pad(base.getUTCMonth() + 1)}-${pad(base.getUTCDate())}T${pad(base.getUTCHours())}:${pad(minute)}:00`;
      const result = readLocalTime(wall, z);
      if (result.ok) {
        assert.equal(wallClock(result.instant.getTime(), z), wall);
      } else {
        assert.equal(result.reason, 'NONEXISTENT');
        // Scan ±1 day minute by minute: nothing shows this wall clock.
        const guess = Date.parse(`${wall}Z`);
        for (let t = guess - 86_400_000; t <= guess + 86_400_000; t += 60_000) assert.notEqual(wallClock(t, z), wall);
      }
    }),
    { numRuns: 300 },
  );
});

test('known DST edges', () => {
  const gap = readLocalTime('2026-03-29T02:30:00', 'Europe/Berlin');
  assert.deepEqual(gap, { ok: false, reason: 'NONEXISTENT' });
  const overlap = readLocalTime('2026-10-25T02:30:00', 'Europe/Berlin');
  assert.ok(overlap.ok);
  assert.equal(overlap.instant.toISOString(), '2026-10-25T00:30:00.000Z');
  const lordHowe = readLocalTime('2026-10-04T02:15:00', 'Australia/Lord_Howe'); // 30-minute shift
  assert.deepEqual(lordHowe, { ok: false, reason: 'NONEXISTENT' });
  const apia = readLocalTime('2011-12-30T12:00:00', 'Pacific/Apia'); // the skipped day
  assert.deepEqual(apia, { ok: false, reason: 'NONEXISTENT' });
  assert.equal(zoneOffsetMinutes('Asia/Kolkata', Date.UTC(2026, 0, 1)), 330);
});

test('format and range errors', () => {
  for (const bad of ['2026-12-01', '2026-12-01 10:00:00', '2026-12-01T10:00:00+0100', 'x', '2026-12-01T10:00:00ZZ', '']) {
    assert.deepEqual(readLocalTime(bad, 'UTC'), { ok: false, reason: 'FORMAT' }, bad);
  }
  for (const bad of ['2026-13-01T00:00:00', '2026-02-29T00:00:00', '2026-12-01T24:00:00', '2026-12-01T10:60:00', '2026-12-01T10:00:00+19:00']) {
    assert.deepEqual(readLocalTime(bad, 'UTC'), { ok: false, reason: 'RANGE' }, bad);
  }
  assert.ok(readLocalTime('2028-02-29T00:00:00', 'UTC').ok);
  assert.ok(readLocalTime('2026-12-01T10:00', 'UTC').ok);
});

test('time zone names', () => {
  assert.ok(isValidTimeZone('Europe/Berlin'));
  assert.ok(isValidTimeZone('UTC'));
  assert.ok(!isValidTimeZone('Mars/Olympus'));
  assert.ok(!isValidTimeZone(''));
});

test('zones answered without formatting (always UTC) agree with the formatter at any instant', () => {
  fc.assert(
    fc.property(fc.constantFrom(...ALWAYS_UTC), fc.integer({ min: 0, max: 253_402_300_799_000 }), (zone, instant) => {
      assert.ok(isValidTimeZone(zone), zone);
      assert.equal(zoneOffsetMinutes(zone, instant), formattedOffsetMinutes(zone, instant));
    }),
    { numRuns: 300 },
  );
});
