import type { ComponentChildren } from 'preact';
import type { ThreadDay } from '../api/threads.js';
import { formatDay } from '../time.js';

/**
 * The calendar of a busy workspace (more threads in the view than one page of List Posts): each
 * day drawn from its counts (Threads per day, one request), a link to that day's own view, which
 * lists its threads a page at a time, by hour.
 */

/** Threads a page of the day view. */
export const DAY_PAGE = 200;

const count = (n: number) => n.toLocaleString();

/** What a day's counts say, in words: "3,000 threads · 10 failed · 5 waiting". */
function countParts(day: ThreadDay): Array<{ text: string; class: string }> {
  const parts = [{ text: `${count(day.threads)} thread${day.threads === 1 ? '' : 's'}`, class: 'day-total' }];
  const { PUBLISHED, PUBLISHING, FAILED } = day.byStatus;
  if (PUBLISHED) parts.push({ text: `${count(PUBLISHED)} published`, class: 'count-published' });
  if (PUBLISHING) parts.push({ text: `${count(PUBLISHING)} publishing`, class: 'count-publishing' });
  if (FAILED) parts.push({ text: `${count(FAILED)} failed`, class: 'count-failed' });
  if (day.pendingApproval) parts.push({ text: `${count(day.pendingApproval)} waiting`, class: 'count-pending' });
  if (day.rejected) parts.push({ text: `${count(day.rejected)} rejected`, class: 'count-rejected' });
  return parts;
}

/** A day cell's content in a busy view: its number and counts, one link to the day's view. */
export function DaySummaryLink({ date, day, free, href }: { date: string; day: ThreadDay | undefined; free: number; href: string }) {
  const label = formatDay(date, { weekday: 'long', day: 'numeric', month: 'long' });
  return (
    <a class="day-summary" href={href} data-day-summary={date}>
      <span class="day-number">{Number(date.slice(8))}</span>
      <span class="visually-hidden">{label}: </span>
      {day ? (
        countParts(day).map((p, i) => (
          <span key={p.class} class={`day-count ${p.class}`}>
            {i > 0 && <span aria-hidden="true"> · </span>}
            {i > 0 && <span class="visually-hidden">, </span>}
            {p.text}
          </span>
        ))
      ) : (
        <span class="visually-hidden">no threads</span>
      )}
      {free > 0 && <span class="day-count day-free">{count(free)} free</span>}
    </a>
  );
}

/** The hours of a day that hold something (threads or free slots), each under its heading, in order. */
export function DayHours({
  hours,
  cellProps,
}: {
  hours: Array<{ hour: number; items: ComponentChildren[] }>;
  cellProps: (hour: number) => Record<string, unknown>;
}) {
  if (hours.length === 0) return <p class="hint">Nothing scheduled.</p>;
  return (
    <ol class="day-hours">
      {hours.map(({ hour, items }) => (
        <li key={hour} class="day-hour" {...cellProps(hour)}>
          <h3>{String(hour).padStart(2, '0')}:00</h3>
          {items}
        </li>
      ))}
    </ol>
  );
}

/** "200 of 3,000 threads shown" under a day's list, with the next page's button while there is one. */
export function DayMore({ shown, total, more, loading }: { shown: number; total: number | null; more: (() => void) | null; loading: boolean }) {
  return (
    <div class="day-more">
      <p class="hint" role="status">
        {total === null ? `${count(shown)} shown` : `${count(shown)} of ${count(total)} thread${total === 1 ? '' : 's'} shown`}
      </p>
      {more && (
        <button type="button" onClick={more} disabled={loading}>
          {loading ? 'Loading…' : 'Show more'}
        </button>
      )}
    </div>
  );
}
