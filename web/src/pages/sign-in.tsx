import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../api/account.js';
import type { Api } from '../api/index.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../form.js';
import { navigate, useLocation } from '../router.js';

/** Only paths of this app are followed after signing in (never another site). */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/calendar';
}

export function SignInPage({ api, session, onSignedIn }: { api: Api; session: Session | null; onSignedIn: (s: Session) => void }) {
  const { search } = useLocation();
  const next = safeNext(search.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useSubmit();

  useEffect(() => {
    if (session) navigate(next, { replace: true });
  }, [session, next]);

  useEffect(() => {
    document.title = 'Sign in · Skein';
  }, []);

  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const s = await api.auth.signIn(email, password);
      onSignedIn(s);
      navigate(next, { replace: true });
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <h1>Sign in</h1>
      <TextField label="Email" name="email" type="email" autoComplete="username" required value={email} onValue={setEmail} error={error?.at('email')} />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onValue={setPassword}
        error={error?.at('password')}
      />
      <FormMessage message={formMessage(error, ['email', 'password'])} />
      <Submit busy={busy}>Sign in</Submit>
      <p class="hint">
        No password yet? Use the one-time link Skein printed at its first start, or make a new one with{' '}
        <code>npx skein user sign-in-link --email you@example.com</code>.
      </p>
    </form>
  );
}
