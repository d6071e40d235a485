import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newId } from '../../../src/lib/ids.js';
import { ANALYTICS_OFFSETS_MS, jobBackoffMs, MAX_JOB_ATTEMPTS, nextAnalyticsRun, nextPlugCheck, spreadOf } from '../../../src/publisher/jobs/schedule.js';
import { DAY, HOUR, MINUTE } from '../../helpers/jobs.js';

// Pure functions: no database involved, so no describeEachDb.
describe('follow-up job schedule', () => {
  const published = new Date('2026-11-22T12:00:00.000Z');
  const at = (ms: number) => new Date(published.getTime() + ms);

  test('a job that fails every run is FAILED after 9 backoffs adding up to 511 min (about 8.5 h; 6.4 to 10.6 h with jitter), as the docs say', () => {
    // Runs 1..MAX_JOB_ATTEMPTS-1 are followed by a backoff; the last failed run ends the job.
    const total = (random: () => number) => Array.from({ length: MAX_JOB_ATTEMPTS - 1 }, (_, i) => jobBackoffMs(i + 1, 0, random)).reduce((a, b) => a + b, 0);
    assert.equal(MAX_JOB_ATTEMPTS, 10);
    assert.equal(
      total(() => 0.5),
      511 * MINUTE,
    );
    assert.equal(
      total(() => 0),
      0.75 * 511 * MINUTE,
    );
    assert.ok(total(() => 0.999999) <= 1.25 * 511 * MINUTE);
  });

  test('analytics: +10 min, +1 h, +6 h, then daily to 30 days, then none', () => {
    assert.equal(ANALYTICS_OFFSETS_MS.length, 33);
    assert.deepEqual(nextAnalyticsRun(published, published, 0), at(10 * MINUTE));
    assert.deepEqual(nextAnalyticsRun(published, at(10 * MINUTE), 0), at(HOUR));
    assert.deepEqual(nextAnalyticsRun(published, at(HOUR), 0), at(6 * HOUR));
    assert.deepEqual(nextAnalyticsRun(published, at(6 * HOUR), 0), at(DAY));
    assert.deepEqual(nextAnalyticsRun(published, at(29 * DAY + 5), 0), at(30 * DAY));
    assert.equal(nextAnalyticsRun(published, at(30 * DAY), 0), null);
  });

  test('analytics: the spread delays a refresh by at most 10 % of the gap before it', () => {
    assert.deepEqual(nextAnalyticsRun(published, published, 0.999999), at(10 * MINUTE + MINUTE - 1));
    assert.deepEqual(nextAnalyticsRun(published, at(6 * HOUR + 2 * HOUR), 0.5), at(DAY + 0.05 * 18 * HOUR));
    const spreads = Array.from({ length: 200 }, () => spreadOf(newId()));
    assert.ok(spreads.every((s) => s >= 0 && s < 1));
    assert.ok(Math.max(...spreads) - Math.min(...spreads) > 0.5, 'ids spread over the range');
    const id = newId();
    assert.equal(spreadOf(id), spreadOf(id), 'stable for a job');
  });

  test('plug checks: every 15 min, then 30 min after 6 h, hourly after a day, last at 7 days', () => {
    assert.deepEqual(nextPlugCheck(published, at(15 * MINUTE)), at(30 * MINUTE));
    assert.deepEqual(nextPlugCheck(published, at(6 * HOUR)), at(6 * HOUR + 30 * MINUTE));
    assert.deepEqual(nextPlugCheck(published, at(DAY)), at(DAY + HOUR));
    assert.deepEqual(nextPlugCheck(published, at(7 * DAY - 10 * MINUTE)), at(7 * DAY));
    assert.equal(nextPlugCheck(published, at(7 * DAY)), null);
  });

  test('job backoff: 1 min doubling, capped at 6 h, at least Retry-After', () => {
    const mid = () => 0.5;
    assert.equal(jobBackoffMs(1, 0, mid), MINUTE);
    assert.equal(jobBackoffMs(4, 0, mid), 8 * MINUTE);
    assert.equal(jobBackoffMs(20, 0, mid), 6 * HOUR);
    assert.equal(jobBackoffMs(1, HOUR, mid), HOUR);
    assert.ok(jobBackoffMs(2, 0, () => 0) >= 90_000 && jobBackoffMs(2, 0, () => 0.9999) <= 150_000);
  });
});
