import { useEffect, useId, useState } from 'preact/hooks';
import type { AutoPlug } from '../../api/account.js';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';

/** The active workspace's auto-plug: a reply posted once a thread's first post has enough likes. */
export function AutoPlugSettings() {
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
