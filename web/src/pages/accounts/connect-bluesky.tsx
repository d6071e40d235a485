import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';
import { providerLabel } from '../../providers.js';

/** Connecting a Bluesky account with an app password ("Reconnect" on a card fills in its handle). */
export function ConnectBluesky(props: { prefill: { handle: string; at: number } | null; onConnected: () => Promise<void> }) {
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
