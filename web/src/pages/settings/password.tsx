import { useState } from 'preact/hooks';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';

/** Changing the password (the session is renewed, other browsers signed out). */
export function PasswordSettings() {
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
