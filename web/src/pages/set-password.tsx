import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../api/account.js';
import type { Api } from '../api/index.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../form.js';
import { navigate } from '../router.js';

/**
 * The one-time link's page: `/set-password#token=…`. The token is in the fragment, which the
 * browser never sends; it is read once and removed from the address bar.
 */
export function SetPasswordPage({ api, onSignedIn }: { api: Api; onSignedIn: (s: Session) => void }) {
  const [token] = useState(() => new URLSearchParams(location.hash.slice(1)).get('token') ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const { busy, error, run } = useSubmit();

  useEffect(() => {
    document.title = 'Set your password · Skein';
    if (location.hash) history.replaceState(null, '', location.pathname);
  }, []);

  const submit = (event: Event) => {
    event.preventDefault();
    setMismatch(password !== confirm);
    if (password !== confirm) return;
    void run(async () => {
      const s = await api.auth.setPassword(token, password);
      onSignedIn(s);
      navigate('/settings', { replace: true });
    });
  };

  if (!token) {
    return (
      <section>
        <h1>Set your password</h1>
        <p>
          This page needs the one-time link Skein printed. Make a new one with <code>npx skein user sign-in-link --email you@example.com</code>, or{' '}
          <a href="/sign-in">sign in</a>.
        </p>
      </section>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <h1>Set your password</h1>
      <p class="hint">At least 10 characters. This link works once; it then signs you in.</p>
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        value={password}
        onValue={setPassword}
        error={error?.at('password')}
      />
      <TextField
        label="Repeat the password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        value={confirm}
        onValue={setConfirm}
        error={mismatch ? 'the two passwords differ' : undefined}
      />
      <FormMessage message={formMessage(error, ['password'])} />
      <Submit busy={busy}>Set password and sign in</Submit>
    </form>
  );
}
