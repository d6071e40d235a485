import type { ApiError } from '../../api/client.js';
import type { NewThread, Thread } from '../../api/threads.js';
import { Field } from '../../components/field.js';
import { faultAt } from '../../components/post-editor.js';

/**
 * The editor's "Repeat" control (decisions.md "Recurring threads"): every N days, weeks or
 * months, ending never, on a date or after N times in all. A draft cannot repeat, so the control
 * is disabled, with the reason, until the thread has a time. The server checks the numbers and
 * the date; its faults at `repeat.*` are shown beside the fields.
 */

type Unit = NonNullable<Thread['repeat']>['unit'];
type Ending = 'never' | 'until' | 'count';
type RepeatBody = NonNullable<NewThread['repeat']>;

/** The repeat as the form holds it (numbers as typed). */
export interface RepeatDraft {
  on: boolean;
  every: string;
  unit: Unit;
  ending: Ending;
  until: string;
  count: string;
}

const UNITS: Record<Unit, [one: string, many: string]> = { day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'] };

/** The API paths the control shows its faults at (the editor's message shows the others). */
export const REPEAT_FAULT_PATHS = /^repeat(\.(every|unit|until|count))?$/;

export function repeatDraft(thread?: Pick<Thread, 'repeat'>): RepeatDraft {
  const r = thread?.repeat;
  if (!r) return { on: false, every: '1', unit: 'week', ending: 'never', until: '', count: '' };
  return {
    on: true,
    every: String(r.every),
    unit: r.unit,
    ending: r.until ? 'until' : r.count !== null ? 'count' : 'never',
    until: r.until ?? '',
    count: r.count === null ? '' : String(r.count),
  };
}

/** A number as typed: a whole one is sent as a number, anything else as typed (the server names the fault). */
function numberOf(text: string): number {
  const trimmed = text.trim();
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : (trimmed as unknown as number);
}

/**
 * The `repeat` sent: the rule when the control is on; null when it is off on a thread that
 * repeated (the series stops after this one); omitted otherwise (nothing to change).
 */
export function repeatBody(draft: RepeatDraft, thread: Pick<Thread, 'repeat'> | null): { repeat?: RepeatBody | null } {
  if (!draft.on) return thread?.repeat ? { repeat: null } : {};
  return {
    repeat: {
      every: numberOf(draft.every),
      unit: draft.unit,
      ...(draft.ending === 'until' ? { until: draft.until } : {}),
      ...(draft.ending === 'count' ? { count: numberOf(draft.count) } : {}),
    },
  };
}

/** "Repeats every 2 weeks" (also the calendar's mark). */
export function repeatName(repeat: Pick<NonNullable<Thread['repeat']>, 'every' | 'unit'>): string {
  const [one, many] = UNITS[repeat.unit];
  return repeat.every === 1 ? `Repeats every ${one}` : `Repeats every ${repeat.every} ${many}`;
}

export function RepeatControl(props: {
  draft: RepeatDraft;
  /** Whether the thread has, or is given, a time: a draft does not repeat. */
  timed: boolean;
  /** The thread as loaded (its series and whether it repeats now), null for a new one. */
  thread: Pick<Thread, 'repeat' | 'series'> | null;
  busy: boolean;
  error: ApiError | null;
  onChange: (draft: RepeatDraft) => void;
  /** Saves the thread with `repeat: null`: the series ends after this occurrence. */
  onStop: () => void;
}) {
  const { draft, timed, thread } = props;
  const set = (patch: Partial<RepeatDraft>) => props.onChange({ ...draft, ...patch });
  const disabled = !timed && !draft.on;
  const plural = draft.every.trim() !== '1';
  return (
    <fieldset class="repeat-options">
      <legend>Repeat</legend>
      {thread?.series && <p class="series-occurrence">Occurrence {thread.series.occurrence} of the series</p>}
      <Field
        label="Repeat this thread"
        name="repeat"
        class="check-field"
        error={faultAt(props.error, 'repeat')}
        hint={
          disabled
            ? 'A draft does not repeat: choose a time to publish at first.'
            : draft.on
              ? 'Published again at the same local time, until the end chosen below.'
              : thread?.series
                ? 'This series ends with this occurrence.'
                : 'Publish this thread again on a schedule.'
        }
      >
        {(control) => <input {...control} type="checkbox" checked={draft.on} disabled={disabled} onChange={(e) => set({ on: e.currentTarget.checked })} />}
      </Field>
      {draft.on && (
        <div class="repeat-fields">
          <Field label="Repeat every" name="repeat.every" error={faultAt(props.error, 'repeat.every')} hint="1 to 365.">
            {(control) => (
              <input
                {...control}
                type="number"
                min={1}
                max={365}
                inputMode="numeric"
                value={draft.every}
                onInput={(e) => set({ every: e.currentTarget.value })}
              />
            )}
          </Field>
          <Field label="Repeat unit" name="repeat.unit" error={faultAt(props.error, 'repeat.unit')}>
            {(control) => (
              <select {...control} value={draft.unit} onChange={(e) => set({ unit: e.currentTarget.value as Unit })}>
                {(Object.keys(UNITS) as Unit[]).map((u) => (
                  <option key={u} value={u}>
                    {UNITS[u][plural ? 1 : 0]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Ends" name="repeat.ending">
            {(control) => (
              <select {...control} value={draft.ending} onChange={(e) => set({ ending: e.currentTarget.value as Ending })}>
                <option value="never">Never (until stopped)</option>
                <option value="until">On a date</option>
                <option value="count">After a number of times</option>
              </select>
            )}
          </Field>
          {draft.ending === 'until' && (
            <Field label="Last date" name="repeat.until" error={faultAt(props.error, 'repeat.until')} hint="No occurrence after this day.">
              {(control) => <input {...control} type="date" value={draft.until} onInput={(e) => set({ until: e.currentTarget.value })} />}
            </Field>
          )}
          {draft.ending === 'count' && (
            <Field label="Times in all" name="repeat.count" error={faultAt(props.error, 'repeat.count')} hint="2 to 100, this one included.">
              {(control) => (
                <input
                  {...control}
                  type="number"
                  min={2}
                  max={100}
                  inputMode="numeric"
                  value={draft.count}
                  onInput={(e) => set({ count: e.currentTarget.value })}
                />
              )}
            </Field>
          )}
        </div>
      )}
      {thread?.repeat && (
        <div class="actions wrap">
          <button type="button" class="danger" onClick={props.onStop} disabled={props.busy}>
            Stop repeating
          </button>
          <span class="hint">Saves the thread; the series ends after this occurrence.</span>
        </div>
      )}
    </fieldset>
  );
}
