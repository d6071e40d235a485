import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import type { Team } from '../../api/account.js';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';

function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

/** The account's time zone and active workspace. */
export function AccountSettings() {
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
