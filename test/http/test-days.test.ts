/**
 * The API on the days that break date arithmetic (test/helpers/test-days.ts): a Sunday, the last
 * day of a month and the eve of a DST change, each found from today and set on the server's
 * clock. On each: "tomorrow at 10:15" in the account's zone is the instant it names (23 or 25
 * hours on the DST eve), the week and the month around tomorrow (Monday to Sunday, first to last,
 * in that zone) list it, and the queue's next slot tomorrow is that day's 10:00 there.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localToInstant } from '../../src/lib/time.js';
import { describeEachDb } from '../helpers/context.js';
import { createProvider, createUser } from '../helpers/seeds.js';
import { addDays, TEST_DAYS, testClock } from '../helpers/test-days.js';

function instant(date: string, time: string, zone: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return localToInstant({ year, month, day, hour, minute, second: 0, millisecond: 0 }, zone)!.toISOString();
}

/** Monday = 1 … Sunday = 7. */
function weekday(date: string): number {
  return ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

function lastOfMonth(date: string): string {
  let day = date;
  while (addDays(day, 1).slice(5, 7) === date.slice(5, 7)) day = addDays(day, 1);
  return day;
}

describeEachDb('the API on a Sunday, a month’s end and a DST eve', (env) => {
  for (const name of TEST_DAYS) {
    test(`${name}: tomorrow's thread at its instant, in its week and month, and tomorrow's slot`, async () => {
      const { app, ctx, clock } = env();
      const day = testClock(name, { zone: 'Europe/Berlin' });
      clock.set(day.now());
      const zone = day.zone;
      const today = day.dateIn(0);
      const tomorrow = day.dateIn(1);
      if (name === 'sunday') assert.equal(weekday(today), 7, today);
      if (name === 'month-end') assert.notEqual(tomorrow.slice(5, 7), today.slice(5, 7), `${today} ends its month`);
      if (name === 'dst-eve') {
        const hours = (Date.parse(instant(addDays(tomorrow, 1), '00:00', zone)) - Date.parse(instant(tomorrow, '00:00', zone))) / 3_600_000;
        assert.notEqual(hours, 24, `${tomorrow} in ${zone} has 23 or 25 hours`);
      }

      const user = await createUser(ctx, { timezone: zone });
      const provider = await createProvider(ctx, user.account);
      const created = await user.call(app, {
        method: 'POST',
        url: '/api/v1/posts',
        payload: { providerId: provider.id, scheduleAt: `${tomorrow}T10:15:00`, posts: [{ text: `tomorrow, ${name}` }] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const { threadId, scheduledAt } = created.json();
      assert.equal(scheduledAt, instant(tomorrow, '10:15', zone));

      const monday = addDays(tomorrow, 1 - weekday(tomorrow));
      const ranges = {
        week: [monday, addDays(monday, 6)],
        month: [`${tomorrow.slice(0, 7)}-01`, lastOfMonth(tomorrow)],
        "today's week": [addDays(today, 1 - weekday(today)), addDays(today, 7 - weekday(today))],
      };
      for (const [what, [from, to]] of Object.entries(ranges)) {
        const list = await user.call(app, { method: 'GET', url: `/api/v1/posts?from=${from}T00:00:00&to=${to}T23:59:59` });
        assert.equal(list.statusCode, 200, list.body);
        const ids = list.json().threads.map((t: { threadId: string }) => t.threadId);
        const inRange = from! <= tomorrow && tomorrow <= to!;
        assert.equal(ids.includes(threadId), inRange, `${what} ${from}…${to} ${inRange ? 'lists' : 'leaves out'} ${tomorrow}`);
      }

      const slot = await user.call(app, {
        method: 'POST',
        url: '/api/v1/time-slots',
        payload: { providerId: provider.id, dayOfWeek: weekday(tomorrow), time: '10:00' },
      });
      assert.equal(slot.statusCode, 201, slot.body);
      const next = await user.call(app, { method: 'GET', url: `/api/v1/time-slots/next?providerId=${provider.id}&count=2` });
      assert.equal(next.statusCode, 200, next.body);
      assert.deepEqual(next.json().slots, [instant(tomorrow, '10:00', zone), instant(addDays(tomorrow, 7), '10:00', zone)]);
    });
  }
});
