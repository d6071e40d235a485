import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import type { ApiKey, AutoPlug, Team } from '../api/account.js';
import { useApp } from '../app.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../form.js';
import { formatInZone } from '../time.js';
import { WebhookSettings } from './webhooks.js';

/** Settings: time zone and workspace, password, API keys, auto-plug, webhooks. */
export function SettingsPage() {
  useEffect(() => {
    document.title = 'Settings · Skein';
  }, []);
  return (
    <div class="stack">
      <h1>Settings</h1>
      <AccountSettings />
      <ApiKeys />
      <AutoPlugSettings />
      <WebhookSettings />
      <PasswordSettings />
    </div>
  );
}

function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

function AccountSettings() {
  const { api, account, setAccount } = useApp();
  const [timezone, setTimezone] = useState(account.timezone);
  const [workspace, setWorkspace] = useState(account.activeTeamId ?? 'personal');
  const [teams, setTeams] = useState<Team[] | null>(null);
  const [saved, setSaved] = useState(false);
  const zones = useMemo(() => timeZones(account.timezone), [account.timezone]);
  const { busy, error, run } = useSubmit();
  const listId = useId();
  const workspaceId = useId();

  useEffect(() => {
    api.teams
      .list()
      .then(setTeams)
      .catch(() => setTeams([]));
  }, [api]);

  const submit = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    void run(async () => {
      const updated = await api.account.update({ timezone: timezone.trim(), activeTeamId: workspace });
      setAccount(updated);
      setSaved(true);
    });
  };
  const workspaceError = error?.at('activeTeamId');

  return (
    <section class="card" aria-labelledby="account-heading">
      <h2 id="account-heading">Account</h2>
      <p class="hint">
        Signed in as <strong>{account.email}</strong>.
      </p>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Time zone"
          name="timezone"
          list={listId}
          autoComplete="off"
          spellcheck={false}
          value={timezone}
          onValue={(v) => {
            setTimezone(v);
            setSaved(false);
          }}
          error={error?.at('timezone')}
          hint="Type to search, for example Berlin or New_York. Scheduled posts keep their moment when it changes."
        />
        <datalist id={listId}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <div class={`field${workspaceError ? ' field-invalid' : ''}`}>
          <label for={workspaceId}>Active workspace</label>
          <select
            id={workspaceId}
            name="activeTeamId"
            value={workspace}
            onChange={(e) => {
              setWorkspace((e.currentTarget as HTMLSelectElement).value);
              setSaved(false);
            }}
            aria-invalid={workspaceError ? 'true' : undefined}
          >
            <option value="personal">Personal</option>
            {(teams ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.role})
              </option>
            ))}
          </select>
          {workspaceError && <p class="field-error">{workspaceError}</p>}
        </div>
        <FormMessage message={formMessage(error, ['timezone', 'activeTeamId'])} />
        <div class="actions">
          <Submit busy={busy}>Save</Submit>
          <span class="status" role="status">
            {saved ? 'Saved.' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}

function formatTime(iso: string | null, timeZone: string): string {
  return iso ? formatInZone(iso, timeZone) : 'never';
}

function ApiKeys() {
  const { api, account } = useApp();
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const { busy, error, run } = useSubmit();
  const revoke = useSubmit();

  const load = () =>
    api.keys
      .list()
      .then(setKeys)
      .catch(() => setKeys([]));
  useEffect(() => {
    void load();
  }, [api]);

  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const key = await api.keys.create(name);
      setCreated({ name: key.name, key: key.key });
      setCopied(false);
      setName('');
      await load();
    });
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      // No clipboard access (an insecure origin): select the text so Ctrl+C copies it.
      const field = document.getElementById('new-key-value') as HTMLInputElement | null;
      field?.select();
    }
  };

  return (
    <section class="card" aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <p class="hint">For scripts and integrations: send one as Authorization: Bearer &lt;key&gt;.</p>
      {created && (
        <section class="new-key" aria-label="New API key">
          <p>
            <strong>{created.name}</strong>: copy this key now. It is shown only once.
          </p>
          <div class="copy-row">
            <input
              id="new-key-value"
              aria-label="New API key value"
              readOnly
              value={created.key}
              onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
            />
            <button type="button" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
          <button type="button" class="link-button" onClick={() => setCreated(null)}>
            Done, hide it
          </button>
        </section>
      )}
      <div class="table-wrap">
        <table class="keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys === null && (
              <tr>
                <td colSpan={5}>Loading…</td>
              </tr>
            )}
            {keys?.length === 0 && (
              <tr>
                <td colSpan={5}>No keys yet.</td>
              </tr>
            )}
            {keys?.map((k) => (
              <tr key={k.id} data-key-id={k.id}>
                <td data-label="Name">{k.name}</td>
                <td data-label="Key">
                  <code>…{k.last4}</code>
                </td>
                <td data-label="Created">{formatTime(k.createdAt, account.timezone)}</td>
                <td data-label="Last used">{formatTime(k.lastUsedAt, account.timezone)}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Revoke key ${k.name} ending ${k.last4}`}
                    disabled={revoke.busy}
                    onClick={() => {
                      if (!window.confirm(`Revoke "${k.name}" (…${k.last4})? Scripts using it stop working at once.`)) return;
                      void revoke.run(async () => {
                        await api.keys.revoke(k.id);
                        await load();
                      });
                    }}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FormMessage message={revoke.error?.detail ?? null} />
      <form onSubmit={submit} noValidate class="inline-form">
        <TextField label="New key name" name="name" value={name} onValue={setName} error={error?.at('name')} placeholder="for example zapier" />
        <FormMessage message={formMessage(error, ['name'])} />
        <Submit busy={busy}>Create key</Submit>
      </form>
    </section>
  );
}

function AutoPlugSettings() {
  const { api, account } = useApp();
  const [plug, setPlug] = useState<AutoPlug | null>(null);
  const [minLikes, setMinLikes] = useState('');
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useSubmit();
  const team = account.activeTeamId ?? 'personal';
  const enabledId = useId();
  const textId = useId();

  useEffect(() => {
    setPlug(null);
    api.autoPlug
      .get(team)
      .then((p) => {
        setPlug(p);
        setMinLikes(String(p.minLikes));
      })
      .catch(() => setPlug({ enabled: false, text: '', minLikes: 0 }));
  }, [api, team]);

  const submit = (event: Event) => {
    event.preventDefault();
    if (!plug) return;
    setSaved(false);
    void run(async () => {
      const likes = minLikes.trim() === '' ? Number.NaN : Number(minLikes);
      // Not a whole number: sent as typed, so the API's answer names the field.
      const body = { ...plug, minLikes: Number.isInteger(likes) ? likes : minLikes };
      const updated = await api.autoPlug.save(team, body);
      setPlug(updated);
      setSaved(true);
    });
  };
  const textError = error?.at('text');

  return (
    <section class="card" aria-labelledby="plug-heading">
      <h2 id="plug-heading">Auto-plug</h2>
      <p class="hint">In the active workspace: once a thread's first post has enough likes, this text is posted as a reply to its last post.</p>
      <form onSubmit={submit} noValidate>
        <div class="field checkbox">
          <input
            id={enabledId}
            type="checkbox"
            name="enabled"
            checked={plug?.enabled ?? false}
            disabled={!plug}
            onChange={(e) => plug && setPlug({ ...plug, enabled: (e.currentTarget as HTMLInputElement).checked })}
          />
          <label for={enabledId}>Enabled</label>
        </div>
        <div class={`field${textError ? ' field-invalid' : ''}`}>
          <label for={textId}>Text</label>
          <textarea
            id={textId}
            name="text"
            rows={3}
            value={plug?.text ?? ''}
            disabled={!plug}
            aria-invalid={textError ? 'true' : undefined}
            aria-describedby={textError ? `${textId}-error` : undefined}
            onInput={(e) => plug && setPlug({ ...plug, text: (e.currentTarget as HTMLTextAreaElement).value })}
          />
          {textError && (
            <p class="field-error" id={`${textId}-error`} data-field-error="text">
              {textError}
            </p>
          )}
        </div>
        <TextField
          label="Likes needed"
          name="minLikes"
          inputMode="numeric"
          value={minLikes}
          disabled={!plug}
          onValue={(v) => {
            setMinLikes(v);
            setSaved(false);
          }}
          error={error?.at('minLikes')}
        />
        <FormMessage message={formMessage(error, ['enabled', 'text', 'minLikes'])} />
        <div class="actions">
          <Submit busy={busy || !plug}>Save auto-plug</Submit>
          <span class="status" role="status">
            {saved ? 'Saved.' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}

function PasswordSettings() {
  const { api } = useApp();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useSubmit();
  const submit = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    void run(async () => {
      const s = await api.account.changePassword(current, next);
      // The session was renewed (other browsers were signed out): use its new CSRF token.
      api.setCsrf(s.csrfToken);
      setCurrent('');
      setNext('');
      setSaved(true);
    });
  };
  return (
    <section class="card" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={current}
          onValue={setCurrent}
          error={error?.at('currentPassword')}
        />
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={next}
          onValue={setNext}
          error={error?.at('password')}
          hint="At least 10 characters. Other browsers signed in to this account are signed out."
        />
        <FormMessage message={formMessage(error, ['currentPassword', 'password'])} />
        <div class="actions">
          <Submit busy={busy}>Change password</Submit>
          <span class="status" role="status">
            {saved ? 'Password changed.' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}
