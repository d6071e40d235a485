import { useId, useState } from 'preact/hooks';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';

export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A posting time on any day, time and zone (the grid's rows only show the times in use). */
export function AddSlotForm(props: { defaultZone: string; onAdd: (day: number, time: string, zone: string) => Promise<void> }) {
  const [day, setDay] = useState('1');
  const [time, setTime] = useState('09:00');
  const [zone, setZone] = useState(props.defaultZone);
  const { busy, error, run } = useSubmit();
  const dayId = useId();
  const timeId = useId();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(() => props.onAdd(Number(day), time, zone.trim()));
  };
  const dayError = error?.at('dayOfWeek');
  const timeError = error?.at('time');
  return (
    <form class="add-slot" onSubmit={submit} noValidate aria-label="Add a posting time">
      <div class={`field${dayError ? ' field-invalid' : ''}`}>
        <label for={dayId}>Day</label>
        <select id={dayId} name="dayOfWeek" value={day} onChange={(e) => setDay((e.currentTarget as HTMLSelectElement).value)}>
          {DAYS.map((d, i) => (
            <option key={d} value={String(i + 1)}>
              {d}
            </option>
          ))}
        </select>
        {dayError && (
          <p class="field-error" data-field-error="dayOfWeek">
            {dayError}
          </p>
        )}
      </div>
      <div class={`field${timeError ? ' field-invalid' : ''}`}>
        <label for={timeId}>Time</label>
        <input
          id={timeId}
          name="time"
          type="time"
          value={time}
          required
          aria-invalid={timeError ? 'true' : undefined}
          onInput={(e) => setTime((e.currentTarget as HTMLInputElement).value)}
        />
        {timeError && (
          <p class="field-error" data-field-error="time">
            {timeError}
          </p>
        )}
      </div>
      <TextField label="Time zone" name="timezone" autoComplete="off" spellcheck={false} value={zone} onValue={setZone} error={error?.at('timezone')} />
      <div class="add-slot-submit">
        <Submit busy={busy}>Add time</Submit>
      </div>
      <FormMessage message={formMessage(error, ['dayOfWeek', 'time', 'timezone'])} />
    </form>
  );
}
