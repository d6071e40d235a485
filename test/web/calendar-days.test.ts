/**
 * The calendar on the days that break date arithmetic (test/helpers/test-days.ts): a Sunday (tomorrow
 * is in next week), a month's last day (tomorrow is in next month) and the eve of a DST change
 * (tomorrow has 23 or 25 hours). The server's clock (SKEIN_CLOCK_START) and the page's (Playwright's)
 * both read that day, whatever day the suite runs. On each: tomorrow's thread sits at its day and
 * hour, and where the user is (week or month, which one, the account and tag filters) is in the
 * address, so a reload, Back and Forward, a link opened in another tab and the way back from the
 * editor all show the same place.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  addThreadsWithCli,
  collectPageErrors,
  keyedApi,
  type SeededWebServer,
  setPasswordAndSignIn,
  shoot,
  skipReason,
  startSeededWebServer,
} from '../helpers/browser.js';
import { TEST_DAYS, testClock } from '../helpers/test-days.js';

const skip = skipReason('calendar on awkward days');
const EMAIL = 'days@localhost';
let open: SeededWebServer | null = null;

after(async () => {
  await open?.close();
});

/** Monday = 1 … Sunday = 7. */
function weekday(date: string): number {
  return ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}

/** Waits until the select labelled `label` shows the option `value` as chosen. */
async function chosen(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).locator(`option[value="${value}"]:checked`).waitFor({ state: 'attached' });
}

function search(page: Page): Record<string, string> {
  return Object.fromEntries(new URL(page.url()).searchParams);
}

for (const name of TEST_DAYS) {
  test(`the calendar on a ${name}: tomorrow's thread in its place, and the place kept through reload, Back, a shared link and the editor`, {
    skip,
    timeout: 600_000,
  }, async () => {
    const clock = testClock(name, { zone: 'Europe/Berlin' });
    const today = clock.dateIn(0);
    const tomorrow = clock.dateIn(1);
    let providerId = '';
    const server = await startSeededWebServer(
      `days-${name}`,
      EMAIL,
      async (_cli, env) => {
        providerId = await addThreadsWithCli(env, EMAIL, 'days_writer');
      },
      { timezone: clock.zone, clock },
    );
    open = server;
    const api = keyedApi(server.base, () => server.key);
    const schedule = async (date: string, text: string) =>
      (await api('/api/v1/posts', { method: 'POST', body: { providerId, scheduleAt: `${date}T10:15:00`, posts: [{ text }] } })).threadId as string;
    const todays = await schedule(today, 'Later today');
    const tomorrows = await schedule(tomorrow, 'Tomorrow, first thing after ten');
    await api(`/api/v1/posts/${tomorrows}/tags`, { method: 'PUT', body: { tagNames: ['launch'] } });
    const [tag] = (await api('/api/v1/tags')).tags as Array<{ id: string }>;

    const page = await server.context.newPage();
    const pageErrors = collectPageErrors(page);
    await setPasswordAndSignIn(page, server, 'a calendar on awkward days');
    await page.goto(`${server.base}/calendar`);
    const inWeek = (date: string, id: string) => page.locator(`table.week td[data-date="${date}"][data-hour="10"] [data-thread="${id}"]`);
    const inMonth = (date: string, id: string) => page.locator(`table.month td[data-date="${date}"] [data-thread="${id}"]`);

    // This week holds today (by the test's clock, in the account's zone) and today's thread.
    await page.locator(`table.week th.today`).waitFor();
    await inWeek(today, todays).waitFor();
    // Tomorrow is in next week when today is a Sunday (always on 'sunday'; on the others when the
    // day happens to be one, as a month's last day sometimes is).
    const nextWeek = weekday(tomorrow) === 1;
    if (name === 'sunday') assert.ok(nextWeek, `${tomorrow} is a Monday`);
    if (nextWeek) await page.getByRole('button', { name: 'Next week' }).click();
    // The day the calendar is at: today, or today a week on.
    const anchor = nextWeek ? clock.dateIn(7) : today;
    const chip = inWeek(tomorrow, tomorrows);
    await chip.waitFor();
    assert.match((await chip.textContent()) ?? '', /10:15/);
    const weekPlace = page.url();
    assert.deepEqual(search(page), nextWeek ? { date: anchor } : {});
    await page.reload();
    await chip.waitFor();

    // The month of tomorrow (the next one on a month's last day), kept through a reload too.
    await page.getByRole('button', { name: 'Month', exact: true }).click();
    const nextMonth = tomorrow.slice(0, 7) !== anchor.slice(0, 7);
    if (name === 'month-end') assert.notEqual(tomorrow.slice(0, 7), today.slice(0, 7), `${today} ends its month`);
    if (nextMonth) await page.getByRole('button', { name: 'Next month' }).click();
    await inMonth(tomorrow, tomorrows).waitFor();
    assert.equal(search(page).view, 'month');
    await page.reload();
    await inMonth(tomorrow, tomorrows).waitFor();
    await shoot(page, `calendar-days-${name}-month`);
    const monthPlace = page.url();

    // Back to the week, Forward to the month (one or two steps each: Month, then Next month).
    const steps = nextMonth ? 2 : 1;
    for (let i = 0; i < steps; i++) await page.goBack();
    assert.equal(page.url(), weekPlace);
    await chip.waitFor();
    assert.equal(await page.getByRole('button', { name: 'Week', exact: true }).getAttribute('aria-pressed'), 'true');
    for (let i = 0; i < steps; i++) await page.goForward();
    assert.equal(page.url(), monthPlace);
    await inMonth(tomorrow, tomorrows).waitFor();

    // The filters are in the address as well: a reload keeps them.
    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await chip.waitFor();
    await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'launch' });
    await page.getByLabel('Account', { exact: true }).selectOption({ label: '@days_writer (Threads)' });
    await page.waitForURL((url) => url.searchParams.get('account') === providerId && url.searchParams.get('tag') === tag!.id);
    await page.reload();
    await chip.waitFor();
    // The lists of tags and accounts load after the threads: the chosen ones show once they are in.
    await chosen(page, 'Tag', tag!.id);
    await chosen(page, 'Account', providerId);
    if (!nextWeek) assert.equal(await inWeek(today, todays).count(), 0, 'the untagged thread is filtered out');
    const filtered = page.url();

    // The same address in another tab shows the same place.
    const other = await server.context.newPage();
    await other.goto(filtered);
    await other.locator(`table.week td[data-date="${tomorrow}"][data-hour="10"] [data-thread="${tomorrows}"]`).waitFor();
    await chosen(other, 'Tag', tag!.id);
    await other.close();

    // Into the editor and back through the Calendar link: the same week and filters.
    await chip.click();
    await page.getByRole('heading', { name: 'Edit thread' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click();
    await chip.waitFor();
    assert.equal(page.url(), filtered);
    await shoot(page, `calendar-days-${name}-week`);

    assert.deepEqual(pageErrors, []);
    await server.close();
    open = null;
  });
}
