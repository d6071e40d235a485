import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import type { Provider, ProviderStatus, TimeSlot } from '../api/providers.js';
import { useApp } from '../app.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../form.js';
import { navigate } from '../router.js';
import './accounts.css';
import { NETWORK_NAMES, providerLabel, useProviders } from '../providers.js';
import { formatInZone } from '../time.js';
import { ConnectThreads, startThreadsConnect, threadsConnectOutcome, useThreadsSetup } from './connect-threads.js';

/**
 * Accounts: the Threads and Bluesky accounts of the active workspace, connecting and
 * disconnecting them, and each one's weekly time slots (the queue's posting times) on a grid.
 */
export function AccountsPage() {
  const { api, account } = useApp();
  const { providers, error, reload } = useProviders(api, account.activeTeamId);
  const threadsSetup = useThreadsSetup(api);
  const [reconnect, setReconnect] = useState<{ handle: string; at: number } | null>(null);
  // Meta's redirect back lands here (the callback answers 303 to /accounts?threads=…): the
  // outcome is read once, and taken out of the address so a reload does not show it again.
  const [threadsOutcome] = useState(() => threadsConnectOutcome(new URLSearchParams(location.search)));
  useEffect(() => {
    document.title = 'Accounts · Skein';
    if (threadsOutcome) navigate('/accounts', { replace: true });
  }, []);

  return (
    <div class="stack">
      <h1>Accounts</h1>
      {threadsOutcome?.ok && (
        <p class="connect-outcome ok" role="status">
          {threadsOutcome.text}
        </p>
      )}
      {threadsOutcome && !threadsOutcome.ok && (
        <p class="connect-outcome failed" role="alert">
          {threadsOutcome.text}
        </p>
      )}
      {/* Both parts wait for both answers, so nothing on the page moves when one arrives. */}
      {!threadsSetup.loaded || (providers === null && !error) ? (
        <p class="hint">Loading…</p>
      ) : (
        <>
          <section class="card" aria-labelledby="connect-heading">
            <h2 id="connect-heading">Connect an account</h2>
            <div class="connect-grid">
              <ConnectBluesky prefill={reconnect} onConnected={reload} />
              <ConnectThreads setup={threadsSetup.setup} setupError={threadsSetup.setupError} onConnected={reload} />
            </div>
          </section>
          <section aria-labelledby="connected-heading" class="stack">
            <h2 id="connected-heading">Connected accounts</h2>
            {error && <FormMessage message={`The accounts could not be loaded: ${error}`} />}
            {providers?.length === 0 && !error && <p class="hint">No accounts yet. Connect one above to schedule posts to it.</p>}
            {providers?.map((p) => (
              <ProviderCard
                key={p.id}
                provider={p}
                onChanged={reload}
                onReconnectBluesky={() => setReconnect({ handle: p.username, at: Date.now() })}
                threadsOAuthReady={threadsSetup.setup?.oauthReady ?? false}
              />
            ))}
          </section>
        </>
      )}
    </div>
  );
}

function ConnectBluesky(props: { prefill: { handle: string; at: number } | null; onConnected: () => Promise<void> }) {
  const { api } = useApp();
  const [identifier, setIdentifier] = useState('');
  const [appPassword, setAppPassword] = useState('');
  const [service, setService] = useState('');
  const [connected, setConnected] = useState<string | null>(null);
  const { busy, error, run } = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);

  // "Reconnect" on an account: its handle here, the cursor in the app password field.
  useEffect(() => {
    if (!props.prefill) return;
    setIdentifier(props.prefill.handle);
    setAppPassword('');
    formRef.current?.scrollIntoView({ block: 'center' });
    (formRef.current?.querySelector('input[name="appPassword"]') as HTMLInputElement | null)?.focus();
  }, [props.prefill]);

  const submit = (event: Event) => {
    event.preventDefault();
    setConnected(null);
    void run(async () => {
      const provider = await api.providers.connectBluesky({
        identifier: identifier.trim(),
        appPassword: appPassword.trim(),
        ...(service.trim() ? { service: service.trim() } : {}),
      });
      setAppPassword('');
      setIdentifier('');
      setConnected(`Connected ${providerLabel(provider)}.`);
      await props.onConnected();
    });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="bluesky-heading">
      <h3 id="bluesky-heading">Bluesky</h3>
      <TextField
        label="Handle or email"
        name="identifier"
        autoComplete="username"
        spellcheck={false}
        value={identifier}
        onValue={setIdentifier}
        error={error?.at('identifier')}
        placeholder="you.bsky.social"
      />
      <TextField
        label="App password"
        name="appPassword"
        type="password"
        autoComplete="off"
        value={appPassword}
        onValue={setAppPassword}
        error={error?.at('appPassword')}
        hint={<>Make one in Bluesky under Settings → Privacy and security → App passwords. Never your account password.</>}
      />
      <TextField
        label="Server (optional)"
        name="service"
        autoComplete="off"
        spellcheck={false}
        value={service}
        onValue={setService}
        error={error?.at('service')}
        placeholder="https://bsky.social"
        hint="Only for an account on another server (a self-hosted PDS). Leave empty for the usual one."
      />
      <FormMessage message={formMessage(error, ['identifier', 'appPassword', 'service'])} />
      <div class="actions">
        <Submit busy={busy}>Connect Bluesky</Submit>
        <span class="status" role="status">
          {connected ?? ''}
        </span>
      </div>
    </form>
  );
}

/** Reconnecting Threads without Meta's sign-in: a new token in the token form. */
function focusThreadsToken(): void {
  const field = document.querySelector<HTMLInputElement>('input[name="accessToken"]');
  field?.scrollIntoView({ block: 'center' });
  field?.focus();
}

const STATUS_ADVICE: Record<ProviderStatus, string> = {
  ACTIVE: 'Connected: scheduled posts publish to it.',
  EXPIRED:
    'The network no longer accepts Skein’s sign-in (a changed password, a revoked app password or an expired token). Posts due now fail until you reconnect; reconnecting keeps its schedule.',
  REVOKED: 'Disconnected: Skein holds no sign-in for it, and its scheduled posts fail when due. Reconnect to use it again.',
};

function ProviderCard(props: { provider: Provider; onChanged: () => Promise<void>; onReconnectBluesky: () => void; threadsOAuthReady: boolean }) {
  const { api, account } = useApp();
  const p = props.provider;
  const disconnect = useSubmit();
  const reconnect = useSubmit();
  const headingId = useId();

  const onDisconnect = () => {
    if (!window.confirm(`Disconnect ${providerLabel(p)}? Its scheduled posts will fail when they come due until you reconnect it.`)) return;
    void disconnect.run(async () => {
      await api.providers.disconnect(p.id);
      await props.onChanged();
    });
  };
  const onReconnect = () => {
    if (p.provider === 'BLUESKY') props.onReconnectBluesky();
    else if (props.threadsOAuthReady) void reconnect.run(() => startThreadsConnect(api));
    else focusThreadsToken();
  };

  return (
    <section class="card provider" aria-labelledby={headingId} data-provider-id={p.id}>
      <div class="provider-head">
        <h3 id={headingId}>
          <span class={`network network-${p.provider.toLowerCase()}`}>{NETWORK_NAMES[p.provider]}</span> @{p.username}
        </h3>
        <span class={`badge status-${p.status.toLowerCase()}`} data-status={p.status}>
          {p.status}
        </span>
      </div>
      <p class="hint">
        {STATUS_ADVICE[p.status]} Connected {formatInZone(p.connectedAt, account.timezone, { dateStyle: 'medium' })}.
      </p>
      <div class="actions">
        {p.status !== 'ACTIVE' && (
          <button type="button" class="primary" onClick={onReconnect} disabled={reconnect.busy}>
            Reconnect
          </button>
        )}
        {p.status !== 'REVOKED' && (
          <button type="button" class="danger" onClick={onDisconnect} disabled={disconnect.busy} aria-label={`Disconnect ${providerLabel(p)}`}>
            Disconnect
          </button>
        )}
      </div>
      <FormMessage message={disconnect.error?.detail ?? reconnect.error?.detail ?? null} />
      {p.status !== 'REVOKED' && <TimeSlots provider={p} />}
    </section>
  );
}

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The grid's rows: each posting time (and zone) any day uses, in time order. */
function slotRows(slots: TimeSlot[]): Array<{ time: string; timezone: string }> {
  const seen = new Map<string, { time: string; timezone: string }>();
  for (const s of slots) seen.set(`${s.time} ${s.timezone}`, { time: s.time, timezone: s.timezone });
  return [...seen.values()].sort((a, b) => a.time.localeCompare(b.time) || a.timezone.localeCompare(b.timezone));
}

function TimeSlots({ provider }: { provider: Provider }) {
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

function AddSlotForm(props: { defaultZone: string; onAdd: (day: number, time: string, zone: string) => Promise<void> }) {
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
