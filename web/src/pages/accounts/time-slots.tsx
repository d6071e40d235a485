import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Provider, TimeSlot } from '../../api/providers.js';
import { useApp } from '../../app-state.js';
import { FormMessage, useSubmit } from '../../form.js';
import { providerLabel } from '../../providers.js';
import { formatInZone } from '../../time.js';
import { AddSlotForm, DAYS } from './add-slot-form.js';

/** The grid's rows: each posting time (and zone) any day uses, in time order. */
function slotRows(slots: TimeSlot[]): Array<{ time: string; timezone: string }> {
  const seen = new Map<string, { time: string; timezone: string }>();
  for (const s of slots) seen.set(`${s.time} ${s.timezone}`, { time: s.time, timezone: s.timezone });
  return [...seen.values()].sort((a, b) => a.time.localeCompare(b.time) || a.timezone.localeCompare(b.timezone));
}

/** A provider's weekly posting times on a grid (a cell adds or removes one), and its next free times. */
export function TimeSlots({ provider }: { provider: Provider }) {
  const { api, account } = useApp();
  const [slots, setSlots] = useState<TimeSlot[] | null>(null);
  const [next, setNext] = useState<string[] | null>(null);
  const toggle = useSubmit();

  const loadNext = async () => {
    setNext(await api.timeSlots.next(provider.id, 5).catch(() => []));
  };
  const load = async () => {
    const [list] = await Promise.all([api.timeSlots.list(provider.id), loadNext()]);
    setSlots(list);
  };
  useEffect(() => {
    load().catch(() => setSlots([]));
  }, [api, provider.id]);

  // A change is one request: the grid takes the slot from the answer (POST answers the slot,
  // DELETE its id) instead of reading the list again. The next free times depend on the
  // scheduled threads too, so they are read again, once, after a burst of changes settles.
  const nextTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(nextTimer.current ?? undefined), []);
  const refreshNextSoon = () => {
    clearTimeout(nextTimer.current ?? undefined);
    nextTimer.current = setTimeout(() => void loadNext(), 800);
  };
  const added = (slot: TimeSlot) => {
    setSlots((list) => [...(list ?? []).filter((s) => s.id !== slot.id), slot]);
    refreshNextSoon();
  };

  const rows = useMemo(() => slotRows(slots ?? []), [slots]);
  // The cells stay enabled while a change is saved (aria-disabled only): disabling the focused
  // button would drop the keyboard focus; useSubmit runs one change at a time anyway.
  const add = (dayOfWeek: number, time: string, timezone: string) =>
    toggle.run(async () => added(await api.timeSlots.add({ providerId: provider.id, dayOfWeek, time, timezone })));
  const remove = (slot: TimeSlot) =>
    toggle.run(async () => {
      await api.timeSlots.delete(slot.id);
      setSlots((list) => (list ?? []).filter((s) => s.id !== slot.id));
      refreshNextSoon();
    });

  return (
    <div class="time-slots">
      <h4>Weekly posting times</h4>
      <p class="hint">The queue puts a thread at the next free one of these times. Select a cell to add or remove that day.</p>
      <div class="slot-grid-wrap">
        <table class="slot-grid" aria-label={`Posting times of ${providerLabel(provider)}`}>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {DAYS.map((d) => (
                <th key={d} scope="col">
                  <abbr title={d}>{d.slice(0, 2)}</abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {slots === null && (
              <tr>
                <td colSpan={8}>Loading…</td>
              </tr>
            )}
            {slots !== null && rows.length === 0 && (
              <tr>
                <td colSpan={8}>No posting times yet: add one below.</td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={`${row.time} ${row.timezone}`}>
                <th scope="row">
                  {row.time}
                  {row.timezone !== account.timezone && <span class="zone">{row.timezone}</span>}
                </th>
                {DAYS.map((day, i) => {
                  const slot = slots?.find((s) => s.dayOfWeek === i + 1 && s.time === row.time && s.timezone === row.timezone);
                  const what = `${day} ${row.time} ${row.timezone}`;
                  return (
                    <td key={day}>
                      {slot ? (
                        <button type="button" class="slot on" aria-label={`Remove ${what}`} aria-disabled={toggle.busy} onClick={() => void remove(slot)}>
                          ✓
                        </button>
                      ) : (
                        <button
                          type="button"
                          class="slot off"
                          aria-label={`Add ${what}`}
                          aria-disabled={toggle.busy}
                          onClick={() => void add(i + 1, row.time, row.timezone)}
                        >
                          +
                        </button>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FormMessage message={toggle.error?.detail ?? null} />
      <AddSlotForm
        defaultZone={account.timezone}
        onAdd={async (day, time, zone) => added(await api.timeSlots.add({ providerId: provider.id, dayOfWeek: day, time, timezone: zone }))}
      />
      <h4>Next free times</h4>
      {next === null ? (
        <p class="hint">Loading…</p>
      ) : next.length === 0 ? (
        <p class="hint">None: add a posting time above.</p>
      ) : (
        <ol class="next-slots" aria-label={`Next free times of ${providerLabel(provider)}, in ${account.timezone}`}>
          {next.map((iso) => (
            <li key={iso}>
              <time dateTime={iso}>
                {formatInZone(iso, account.timezone, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })}
              </time>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
