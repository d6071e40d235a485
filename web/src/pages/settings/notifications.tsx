import { useEffect, useId, useState } from 'preact/hooks';
import type { EmailDelivery, EmailKind, EmailSettings } from '../../api/notifications.js';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, useSubmit } from '../../form.js';

const KINDS: { kind: EmailKind; label: string }[] = [
  { kind: 'THREAD_FAILED', label: 'A thread failed to publish' },
  { kind: 'FOLLOW_UP_FAILED', label: 'A follow-up reply failed' },
  { kind: 'PROVIDER_EXPIRED', label: 'An account needs reconnecting (its sign-in expired, or runs out within days)' },
  { kind: 'PROVIDER_REVOKED', label: 'An account was disconnected' },
  { kind: 'APPROVAL_REQUESTED', label: "A team's thread waits for your approval (editors, admins and owners)" },
  { kind: 'THREAD_REJECTED', label: 'A thread you wrote was rejected' },
  { kind: 'THREAD_APPROVED', label: 'A thread you wrote was approved' },
  { kind: 'COMMENT_MENTION', label: 'A comment mentions you' },
];
const CHOICES: { value: EmailDelivery; label: string }[] = [
  { value: 'immediate', label: 'Email at once' },
  { value: 'daily', label: 'In the daily digest' },
  { value: 'off', label: 'No email' },
];

/** The user's email notifications: per kind at once, in the daily digest or not at all; the digest itself. */
export function NotificationSettings() {
  const { api } = useApp();
  const [settings, setSettings] = useState<EmailSettings | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useSubmit();
  const ids = useId();

  useEffect(() => {
    api.notifications
      .get()
      .then(setSettings)
      .catch(() => setLoadError(true));
  }, [api]);

  const submit = (event: Event) => {
    event.preventDefault();
    if (!settings) return;
    setSaved(false);
    void run(async () => {
      setSettings(await api.notifications.save({ kinds: settings.kinds, digest: settings.digest }));
      setSaved(true);
    });
  };
  const change = (next: Partial<EmailSettings>) => {
    if (settings) setSettings({ ...settings, ...next });
    setSaved(false);
  };

  return (
    <section class="card" aria-labelledby="email-heading">
      <h2 id="email-heading">Email notifications</h2>
      {loadError && <p class="field-error">Could not load your email settings.</p>}
      {settings && !settings.email.enabled && (
        <p class="hint" role="note" data-email-off>
          Email is off on this server: SKEIN_SMTP_URL is not set, so no email is sent. Your choices below are kept for when it is.
        </p>
      )}
      {settings?.email.enabled && (
        <p class="hint">
          Sent to {settings.email.to}. The daily digest comes at {settings.digestAt} in your time zone ({settings.timezone}).
        </p>
      )}
      <form onSubmit={submit} noValidate>
        {KINDS.map(({ kind, label }) => (
          <div class="field" key={kind}>
            <label for={`${ids}-${kind}`}>{label}</label>
            <select
              id={`${ids}-${kind}`}
              name={kind}
              value={settings?.kinds[kind] ?? 'off'}
              disabled={!settings}
              onChange={(e) => settings && change({ kinds: { ...settings.kinds, [kind]: (e.currentTarget as HTMLSelectElement).value as EmailDelivery } })}
            >
              {CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
            {error?.at(`kinds.${kind}`) && <p class="field-error">{error.at(`kinds.${kind}`)}</p>}
          </div>
        ))}
        <div class="field checkbox">
          <input
            id={`${ids}-digest`}
            type="checkbox"
            name="digest"
            checked={settings?.digest ?? false}
            disabled={!settings}
            onChange={(e) => change({ digest: (e.currentTarget as HTMLInputElement).checked })}
          />
          <label for={`${ids}-digest`}>Daily digest of the day's outcomes (published, failed, expired), when there is something to tell</label>
        </div>
        <FormMessage message={formMessage(error, ['kinds', 'digest', ...KINDS.map((k) => `kinds.${k.kind}`)])} />
        <div class="actions">
          <Submit busy={busy || !settings}>Save email notifications</Submit>
          <span class="status" role="status">
            {saved ? 'Saved.' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}
