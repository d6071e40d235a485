import { addDays } from '../time.js';

/**
 * Where the user is in the calendar, kept in its address (`/calendar?view=month&date=…&account=…&tag=…`, `view=day` for one day)
 * so that a reload, Back and Forward and a shared link show the same page, and remembered for the
 * tab so the editor's way back returns to it.
 */

/** `day`: one day's threads a page at a time (opened from a day of a busy week or month). */
export type CalendarView = 'week' | 'month' | 'day';

export interface CalendarPlace {
  view: CalendarView;
  /** A day in the week or month shown (the day shown, in the day view), `YYYY-MM-DD`. */
  date: string;
  /** A provider's id, or '' for every account. */
  account: string;
  /** A tag's id, or '' for every tag. */
  tag: string;
}

const REMEMBERED = 'skein.calendarPlace';

/** A real calendar date (`2026-02-31` is not): what the address may name. */
function isDate(raw: string | null): raw is string {
  return raw !== null && /^\d{4}-\d{2}-\d{2}$/.test(raw) && addDays(raw, 0) === raw;
}

function readView(raw: string | null): CalendarView {
  return raw === 'month' || raw === 'day' ? raw : 'week';
}

/** The place an address names; what it leaves out (or gets wrong) is the default: this week, everything. */
export function readPlace(search: URLSearchParams, today: string): CalendarPlace {
  const date = search.get('date');
  return {
    view: readView(search.get('view')),
    date: isDate(date) ? date : today,
    account: search.get('account') ?? '',
    tag: search.get('tag') ?? '',
  };
}

/** The address of a place; today's date is left out, so a bookmark of "this week" stays this week. */
export function placeHref(place: CalendarPlace, today: string): string {
  const params = new URLSearchParams();
  if (place.view !== 'week') params.set('view', place.view);
  if (place.date !== today) params.set('date', place.date);
  if (place.account) params.set('account', place.account);
  if (place.tag) params.set('tag', place.tag);
  const query = params.toString();
  return query ? `/calendar?${query}` : '/calendar';
}

/** Kept for this tab (sessionStorage): the calendar the user last looked at. */
export function rememberPlace(href: string): void {
  try {
    sessionStorage.setItem(REMEMBERED, href);
  } catch {
    // Storage refused (private mode, quota): the way back is then the plain calendar.
  }
}

/** The calendar address to go back to: the one last looked at in this tab, or this week's. */
export function calendarHref(): string {
  try {
    const href = sessionStorage.getItem(REMEMBERED);
    if (href?.startsWith('/calendar')) return href;
  } catch {
    // As above.
  }
  return '/calendar';
}
