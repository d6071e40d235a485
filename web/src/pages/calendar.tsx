import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';
import type { Provider } from '../api/providers.js';
import { type Draft, providerOf, type Tag, type TaggedThread, threadPath } from '../api/threads.js';
import { useApp } from '../app-state.js';
import { RepeatBadge } from '../components/repeat-badge.js';
import { ReplyLimitBadge } from '../components/reply-limit-badge.js';
import { NETWORK_NAMES } from '../providers.js';
import { navigate, useLocation } from '../router.js';
import { type CalendarPlace, type CalendarView, placeHref, readPlace, rememberPlace } from './calendar-place.js';
import './calendar.css';
import { addDays, dateKey, formatDay, formatInZone, type LocalParts, localDateTime, partsIn, weekday } from '../time.js';

/**
 * The calendar: scheduled and published threads by week or month in the account's time zone,
 * the queue's free slots as empty places (a click writes a thread there), drafts aside, and a
 * thread dragged to another hour (or day) is rescheduled there.
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
  const [threads, setThreads] = useState<TaggedThread[] | null>(null);
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

  useEffect(() => {
    // One request for the threads and their tags (the account's limit is 60 requests a minute).
    api.threads
      .list({ from: `${first}T00:00:00`, to: `${last}T23:59:59`, ...(providerFilter ? { providerId: providerFilter } : {}) })
      .then(setThreads)
      .catch((err) => setMessage(err instanceof ApiError ? err.detail : String(err)));
    api.threads
      .drafts()
      .then(setDrafts)
      .catch(() => undefined);
  }, [api, first, last, providerFilter, reload]);

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

  const shown = (threads ?? []).filter((t) => !tagFilter || t.tags.some((tag) => tag.id === tagFilter));
  const placed: Placed[] = shown.filter((t) => t.scheduledAt).map((t) => ({ thread: t, at: partsIn(t.scheduledAt!, zone) }));
  const freeSlots = (slots ?? []).map((s) => ({ ...s, parts: partsIn(s.at, zone) }));
  // Threads and free slots are shown together once both are in: nothing moves as they arrive.
  const ready = threads !== null && slots !== null;
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

  const move = (by: number) => go({ date: view === 'week' ? addDays(anchor, 7 * by) : addMonths(anchor, by) });
  const title =
    view === 'week'
      ? `${formatDay(first, { day: 'numeric', month: 'short' })} – ${formatDay(last, { day: 'numeric', month: 'short', year: 'numeric' })}`
      : formatDay(anchor, { month: 'long', year: 'numeric' });

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
      <div class={`calendar-scroll ${view}-view`}>
        {view === 'week' && (
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
        {view === 'week' ? (
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
        ) : (
          <table class="month" aria-label={title}>
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
                  {week.map((d) => (
                    <td
                      key={d}
                      class={`day-cell${d.slice(0, 7) === anchor.slice(0, 7) ? '' : ' other-month'}${d === today ? ' today' : ''}`}
                      {...cellProps(d, null)}
                    >
                      <span class="day-number">{Number(d.slice(8))}</span>
                      {placed.filter((p) => dateKey(p.at) === d).map(chip)}
                      {freeSlots.filter((s) => dateKey(s.parts) === d).map(slotLink)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {ready && (
        <p class="hint">
          <span class="hint-wide">
            Drag a thread to another hour (or day, in the month view) to reschedule it; open it to change the time with the keyboard.
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

/** The dates a view shows: the Monday-to-Sunday week of `anchor`, or whole weeks covering its month. */
function visibleDays(view: CalendarView, anchor: string): string[] {
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
