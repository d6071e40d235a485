import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';
import type { Provider } from '../api/providers.js';
import { type Draft, PAGE_LIMIT, providerOf, type Tag, type TaggedThread, type ThreadDays, threadPath } from '../api/threads.js';
import { useApp } from '../app-state.js';
import { RepeatBadge } from '../components/repeat-badge.js';
import { ReplyLimitBadge } from '../components/reply-limit-badge.js';
import { NETWORK_NAMES } from '../providers.js';
import { navigate, useLocation } from '../router.js';
import { DAY_PAGE, DayHours, DayMore, DaySummaryLink } from './calendar-day.js';
import { type CalendarPlace, type CalendarView, placeHref, readPlace, rememberPlace } from './calendar-place.js';
import './calendar.css';
import { addDays, dateKey, formatDay, formatInZone, type LocalParts, localDateTime, partsIn, weekday } from '../time.js';

/**
 * The calendar: scheduled and published threads by week or month in the account's time zone,
 * the queue's free slots as empty places (a click writes a thread there), drafts aside, and a
 * thread dragged to another hour (or day) is rescheduled there. The view's counts per day come
 * first (one request); a view holding more threads than one page (an agency's month) is drawn
 * from them, each day opening its own view, which reads its threads a page at a time.
 */

interface Placed {
  thread: TaggedThread;
  at: LocalParts;
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);

export function CalendarPage() {
  const { api, account } = useApp();
  const zone = account.timezone;
  const today = dateKey(partsIn(new Date(), zone));
  const { search } = useLocation();
  // The view, its week or month and the filters live in the address (calendar-place.ts).
  const place = readPlace(search, today);
  const { view, date: anchor, account: providerFilter, tag: tagFilter } = place;
  const href = placeHref(place, today);
  useEffect(() => rememberPlace(href), [href]);
  const go = (change: Partial<CalendarPlace>) => {
    const next = placeHref({ ...place, ...change }, today);
    if (next !== href) navigate(next, { keepScroll: true });
  };
  const [providers, setProviders] = useState<Provider[] | null>(null);
  const [knownTags, setKnownTags] = useState<Tag[]>([]);
  // A week or month: its days' counts, and its threads when they fit one page (null: drawn from the counts).
  const [loaded, setLoaded] = useState<{ summary: ThreadDays; threads: TaggedThread[] | null } | null>(null);
  // A busy view's counts of the chosen tag's threads (read for the counts they belong to).
  const [tagged, setTagged] = useState<{ of: ThreadDays; tag: string; summary: ThreadDays } | null>(null);
  // The day view: its threads so far (a page at a time), the next page's cursor and the day's count.
  const [dayList, setDayList] = useState<{ threads: TaggedThread[]; next: string | null; total: number } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [slots, setSlots] = useState<Array<{ providerId: string; at: string }> | null>(null);
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [message, setMessage] = useState('');
  const [reload, setReload] = useState(0);

  const days = useMemo(() => visibleDays(view, anchor), [view, anchor]);
  const first = days[0]!;
  const last = days[days.length - 1]!;

  useEffect(() => {
    document.title = 'Calendar · Skein';
    api.providers
      .list()
      .then((list) => setProviders(list.filter((p) => p.status !== 'REVOKED')))
      .catch(() => setProviders([]));
    api.tags
      .list()
      .then(setKnownTags)
      .catch(() => undefined);
  }, [api]);

  const isDay = view === 'day';
  const range = { from: `${first}T00:00:00`, to: `${last}T23:59:59`, ...(providerFilter ? { providerId: providerFilter } : {}) };
  // The day view reads one tag's threads (List Posts filters them); a week or month filters in the browser.
  const dayRange = { ...range, ...(tagFilter ? { tagId: tagFilter } : {}) };
  const failed = (err: unknown) => setMessage(err instanceof ApiError ? err.detail : String(err));

  useEffect(() => {
    // The days' counts first (one request, whatever the volume: the account's limit is 60 requests
    // a minute), then the threads with their tags while they fit one page (one request more).
    if (isDay) return;
    let live = true;
    (async () => {
      const summary = await api.threads.days(range);
      const threads = summary.threads <= Number(PAGE_LIMIT) ? await api.threads.list(range) : null;
      if (live) setLoaded({ summary, threads });
    })().catch(failed);
    return () => {
      live = false;
    };
  }, [api, isDay, first, last, providerFilter, reload]);

  const busy = !isDay && loaded !== null && loaded.threads === null;
  useEffect(() => {
    // A busy view filtered by a tag: that tag's counts (the threads are not read to filter them).
    if (!busy || !tagFilter || !loaded) return;
    let live = true;
    api.threads
      .days({ ...range, tagId: tagFilter })
      .then((summary) => live && setTagged({ of: loaded.summary, tag: tagFilter, summary }))
      .catch(failed);
    return () => {
      live = false;
    };
  }, [api, busy, tagFilter, loaded]);

  useEffect(() => {
    // The day view: its first page and its count, side by side (two requests).
    if (!isDay) return;
    let live = true;
    setDayList(null);
    Promise.all([api.threads.page(dayRange, DAY_PAGE, null), api.threads.days(dayRange)])
      .then(([page, summary]) => live && setDayList({ threads: page.threads, next: page.nextCursor, total: summary.threads }))
      .catch(failed);
    return () => {
      live = false;
    };
  }, [api, isDay, first, providerFilter, tagFilter, reload]);

  const showMore = async () => {
    if (!dayList?.next) return;
    setLoadingMore(true);
    try {
      const page = await api.threads.page(dayRange, DAY_PAGE, dayList.next);
      setDayList((list) => list && { ...list, threads: [...list.threads, ...page.threads], next: page.nextCursor });
    } catch (err) {
      failed(err);
    } finally {
      setLoadingMore(false);
    }
  };

  useEffect(() => {
    // Unbounded, but never waited for: the grid is drawn without it.
    api.threads
      .drafts()
      .then(setDrafts)
      .catch(() => undefined);
  }, [api, reload]);

  useEffect(() => {
    // One request for every account's free slots in the view (one per account went past the
    // rate limit of 60 a minute with an agency's accounts); the revoked ones' are left out.
    if (providers === null) return;
    const shown = new Set(providers.map((p) => p.id));
    api.timeSlots
      .free({ from: `${first}T00:00:00`, to: `${last}T23:59:59`, ...(providerFilter ? { providerId: providerFilter } : {}) })
      .then((free) => setSlots(free.filter((s) => shown.has(s.providerId))))
      .catch(() => setSlots([]));
  }, [api, providers, providerFilter, first, last, reload]);

  const threads = isDay ? (dayList?.threads ?? null) : (loaded?.threads ?? null);
  const shown = (threads ?? []).filter((t) => !tagFilter || t.tags.some((tag) => tag.id === tagFilter));
  const placed: Placed[] = shown.filter((t) => t.scheduledAt).map((t) => ({ thread: t, at: partsIn(t.scheduledAt!, zone) }));
  const freeSlots = (slots ?? []).map((s) => ({ ...s, parts: partsIn(s.at, zone) }));
  // The counts a busy view draws: the tag's when one is chosen.
  const counts = !busy ? null : tagFilter ? (tagged?.of === loaded!.summary && tagged.tag === tagFilter ? tagged.summary : null) : loaded!.summary;
  // Threads (or counts) and free slots are shown together once both are in: nothing moves as they arrive.
  const ready = slots !== null && (isDay ? dayList !== null : loaded !== null && (!busy || counts !== null));
  const providerList = providers ?? [];

  const reschedule = async (threadId: string, date: string, hour: number | null) => {
    const thread = threads?.find((t) => t.threadId === threadId);
    if (!thread?.scheduledAt) return;
    const old = partsIn(thread.scheduledAt, zone);
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    const target = { year, month, day, hour: hour ?? old.hour, minute: old.minute };
    setMessage('');
    try {
      await api.threads.reschedule(threadId, localDateTime(target));
      setMessage(
        `Moved to ${formatDay(date, { weekday: 'short', day: 'numeric', month: 'short' })}, ${String(target.hour).padStart(2, '0')}:${String(target.minute).padStart(2, '0')}.`,
      );
      setReload((n) => n + 1);
    } catch (err) {
      setMessage(`Could not move the thread: ${err instanceof ApiError ? (err.errors[0]?.message ?? err.detail) : String(err)}`);
    }
  };

  const cellProps = (date: string, hour: number | null) => ({
    'data-date': date,
    ...(hour === null ? {} : { 'data-hour': String(hour) }),
    onDragOver: (e: DragEvent) => {
      e.preventDefault();
      (e.currentTarget as HTMLElement).classList.add('drop-target');
    },
    onDragLeave: (e: DragEvent) => (e.currentTarget as HTMLElement).classList.remove('drop-target'),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      (e.currentTarget as HTMLElement).classList.remove('drop-target');
      const id = e.dataTransfer?.getData('application/x-skein-thread');
      if (id) void reschedule(id, date, hour);
    },
  });

  const chip = (p: Placed) => {
    const tags = p.thread.tags;
    const text = p.thread.posts[0]?.content ?? '';
    const movable = p.thread.posts.every((post) => post.status === 'READY');
    return (
      <a
        key={p.thread.threadId}
        href={threadPath(p.thread.threadId)}
        class={`thread-chip status-${p.thread.status.toLowerCase()}${p.thread.approval ? ` approval-${p.thread.approval.state.toLowerCase()}` : ''}`}
        style={{ borderLeftColor: tags[0]?.color ?? 'var(--accent)' }}
        draggable={movable}
        data-thread={p.thread.threadId}
        title={`${text}${tags.length ? ` · ${tags.map((t) => t.name).join(', ')}` : ''}`}
        onDragStart={(e) => e.dataTransfer?.setData('application/x-skein-thread', p.thread.threadId)}
      >
        <span class="chip-time">{formatInZone(p.thread.scheduledAt!, zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })}</span>{' '}
        <ReplyLimitBadge replyControl={p.thread.replyControl} />
        <RepeatBadge repeat={p.thread.repeat} />
        <span class="chip-text">{text || '(empty)'}</span>
        {p.thread.status !== 'READY' && <span class="visually-hidden"> ({p.thread.status})</span>}
        {p.thread.approval && p.thread.approval.state !== 'APPROVED' && (
          <span class="approval-badge">{p.thread.approval.state === 'PENDING' ? 'awaiting approval' : 'rejected'}</span>
        )}
      </a>
    );
  };

  const slotLink = (s: (typeof freeSlots)[number]) => {
    const provider = providerList.find((p) => p.id === s.providerId);
    const time = `${String(s.parts.hour).padStart(2, '0')}:${String(s.parts.minute).padStart(2, '0')}`;
    return (
      <a key={`${s.providerId}-${s.at}`} class="free-slot" href={`/threads/new?at=${encodeURIComponent(s.at)}&providerId=${encodeURIComponent(s.providerId)}`}>
        {time} free{provider && providerList.length > 1 ? ` · @${provider.username}` : ''}
        <span class="visually-hidden">: write a thread for this slot</span>
      </a>
    );
  };

  const move = (by: number) => go({ date: view === 'day' ? addDays(anchor, by) : view === 'week' ? addDays(anchor, 7 * by) : addMonths(anchor, by) });
  const title =
    view === 'week'
      ? `${formatDay(first, { day: 'numeric', month: 'short' })} – ${formatDay(last, { day: 'numeric', month: 'short', year: 'numeric' })}`
      : view === 'day'
        ? formatDay(anchor, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
        : formatDay(anchor, { month: 'long', year: 'numeric' });

  // A busy week or month: each day its counts and a link to its own view.
  const summaryCell = (d: string) => (
    <DaySummaryLink
      date={d}
      day={counts?.days.find((c) => c.date === d)}
      free={freeSlots.filter((s) => dateKey(s.parts) === d).length}
      href={placeHref({ ...place, view: 'day', date: d }, today)}
    />
  );
  const dayCellClass = (d: string) => `day-cell${view === 'month' && d.slice(0, 7) !== anchor.slice(0, 7) ? ' other-month' : ''}${d === today ? ' today' : ''}`;
  const monthTable = (label: string) => (
    <table class="month" aria-label={label} aria-busy={ready ? undefined : 'true'}>
      <thead>
        <tr>
          {days.slice(0, 7).map((d) => (
            <th scope="col" key={d}>
              {formatDay(d, { weekday: 'short' })}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Array.from({ length: days.length / 7 }, (_, w) => days.slice(w * 7, w * 7 + 7)).map((week) => (
          <tr key={week[0]}>
            {week.map((d) =>
              busy ? (
                <td key={d} class={`${dayCellClass(d)} summary-cell`} data-date={d}>
                  {ready && summaryCell(d)}
                </td>
              ) : (
                <td key={d} class={dayCellClass(d)} {...cellProps(d, null)}>
                  <span class="day-number">{Number(d.slice(8))}</span>
                  {placed.filter((p) => dateKey(p.at) === d).map(chip)}
                  {freeSlots.filter((s) => dateKey(s.parts) === d).map(slotLink)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
  // The day view's hours that hold a thread or a free slot.
  const dayHours = HOURS.map((h) => ({
    hour: h,
    entries: [
      ...placed.filter((p) => dateKey(p.at) === anchor && p.at.hour === h).map((p) => ({ at: p.at.minute, node: chip(p) })),
      ...freeSlots.filter((s) => dateKey(s.parts) === anchor && s.parts.hour === h).map((s) => ({ at: s.parts.minute, node: slotLink(s) })),
    ].sort((a, b) => a.at - b.at),
  }))
    .filter((h) => h.entries.length > 0)
    .map((h) => ({ hour: h.hour, items: h.entries.map((e) => e.node) }));

  return (
    <div class="stack calendar-page">
      <div class="calendar-head">
        <h1>Calendar</h1>
        <button type="button" class="primary" onClick={() => navigate('/threads/new')}>
          New thread
        </button>
      </div>
      <div class="calendar-controls">
        <fieldset class="segmented">
          <legend class="visually-hidden">View</legend>
          <button type="button" aria-pressed={view === 'week'} onClick={() => go({ view: 'week' })}>
            Week
          </button>
          <button type="button" aria-pressed={view === 'month'} onClick={() => go({ view: 'month' })}>
            Month
          </button>
        </fieldset>
        <fieldset class="segmented">
          <legend class="visually-hidden">Move</legend>
          <button type="button" aria-label={`Previous ${view}`} onClick={() => move(-1)}>
            ‹
          </button>
          <button type="button" onClick={() => go({ date: today })}>
            Today
          </button>
          <button type="button" aria-label={`Next ${view}`} onClick={() => move(1)}>
            ›
          </button>
        </fieldset>
        <div class="compact">
          <label for="calendar-account">Account</label>{' '}
          <select id="calendar-account" onChange={(e) => go({ account: e.currentTarget.value })}>
            {/* Each option says whether it is chosen: the lists arrive after the address has named one. */}
            <option value="" selected={!providerFilter}>
              All accounts
            </option>
            {providerList.map((p) => (
              <option key={p.id} value={p.id} selected={p.id === providerFilter}>
                @{p.username} ({NETWORK_NAMES[p.provider]})
              </option>
            ))}
          </select>
        </div>
        <div class="compact">
          <label for="calendar-tag">Tag</label>{' '}
          <select id="calendar-tag" onChange={(e) => go({ tag: e.currentTarget.value })}>
            <option value="" selected={!tagFilter}>
              All tags
            </option>
            {knownTags.map((t) => (
              <option key={t.id} value={t.id} selected={t.id === tagFilter}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div class="calendar-title-row">
        <h2 class="calendar-title" aria-live="polite">
          {title} <span class="hint">· times in {zone}</span>
        </h2>
        <p class="status" role="status">
          {message}
        </p>
      </div>
      <div class={`calendar-scroll ${busy ? 'month' : view}-view`}>
        {view === 'day' && (
          <section class="day-view" aria-label={title} aria-busy={ready ? undefined : 'true'}>
            {ready && dayList && (
              <>
                <DayHours hours={dayHours} cellProps={(h) => cellProps(anchor, h)} />
                <DayMore shown={placed.length} total={dayList.total} more={dayList.next ? () => void showMore() : null} loading={loadingMore} />
              </>
            )}
          </section>
        )}
        {view === 'week' && busy && monthTable(`Week of ${title}`)}
        {view === 'week' && !busy && (
          // Narrow screens get the week as a list of days (CSS picks one of the two: no script
          // measures the width, so nothing moves on load).
          <ol class="week-agenda" aria-label={`Week of ${title}`} aria-busy={ready ? undefined : 'true'}>
            {ready &&
              days.map((d) => {
                const entries = [
                  ...placed.filter((p) => dateKey(p.at) === d).map((p) => ({ at: p.at.hour * 60 + p.at.minute, node: chip(p) })),
                  ...freeSlots.filter((s) => dateKey(s.parts) === d).map((s) => ({ at: s.parts.hour * 60 + s.parts.minute, node: slotLink(s) })),
                ].sort((a, b) => a.at - b.at);
                return (
                  <li key={d} class={`agenda-day${d === today ? ' today' : ''}`} data-agenda-date={d}>
                    <h3>
                      {formatDay(d, { weekday: 'long', day: 'numeric', month: 'short' })}
                      {d === today && <span class="hint"> · today</span>}
                    </h3>
                    {entries.length === 0 ? <p class="hint">Nothing scheduled.</p> : entries.map((e) => e.node)}
                  </li>
                );
              })}
          </ol>
        )}
        {view === 'week' && !busy && (
          <table class="week" aria-label={`Week of ${title}`}>
            <thead>
              <tr>
                <th scope="col" class="hour-head">
                  <span class="visually-hidden">Hour</span>
                </th>
                {days.map((d) => (
                  <th scope="col" key={d} class={d === today ? 'today' : undefined}>
                    {formatDay(d, { weekday: 'short', day: 'numeric', month: 'short' })}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {HOURS.map((h) => (
                <tr key={h}>
                  <th scope="row" class="hour-head">
                    {String(h).padStart(2, '0')}:00
                  </th>
                  {days.map((d) => (
                    <td key={d} class="hour-cell" {...cellProps(d, h)}>
                      {placed.filter((p) => dateKey(p.at) === d && p.at.hour === h).map(chip)}
                      {freeSlots.filter((s) => dateKey(s.parts) === d && s.parts.hour === h).map(slotLink)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {view === 'month' && monthTable(title)}
      </div>
      {ready && busy && <p class="hint">Too many threads to show each: open a day to list its threads.</p>}
      {ready && !busy && (
        <p class="hint">
          <span class="hint-wide">
            Drag a thread to another hour{view === 'day' ? '' : ' (or day, in the month view)'} to reschedule it; open it to change the time with the keyboard.
          </span>
          <span class="hint-narrow">Open a thread to change its time.</span>
        </p>
      )}
      {ready && (
        <section class="card" aria-labelledby="drafts-heading">
          <h2 id="drafts-heading">Drafts</h2>
          {drafts.length === 0 ? (
            <p class="hint">No drafts.</p>
          ) : (
            <ul class="drafts">
              {drafts
                .filter((d) => !providerFilter || providerOf(d, providerList)?.id === providerFilter)
                .map((d) => (
                  <li key={d.threadId}>
                    <a href={threadPath(d.threadId)}>{d.posts[0]?.content || '(empty)'}</a>{' '}
                    <span class="hint">
                      {d.posts.length} post{d.posts.length === 1 ? '' : 's'} · saved {formatInZone(d.createdAt, zone)}
                    </span>
                  </li>
                ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}

/** The dates a view shows: `anchor` alone, the Monday-to-Sunday week of it, or whole weeks covering its month. */
function visibleDays(view: CalendarView, anchor: string): string[] {
  if (view === 'day') return [anchor];
  if (view === 'week') {
    const monday = addDays(anchor, 1 - weekday(anchor));
    return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  }
  const firstOfMonth = `${anchor.slice(0, 7)}-01`;
  const start = addDays(firstOfMonth, 1 - weekday(firstOfMonth));
  const lastOfMonth = addDays(addMonths(firstOfMonth, 1), -1);
  const end = addDays(lastOfMonth, 7 - weekday(lastOfMonth));
  const days: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) days.push(d);
  return days;
}

function addMonths(key: string, months: number): string {
  const [y, m] = key.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}
