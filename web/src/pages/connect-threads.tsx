import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api/index.js';
import type { ThreadsSetup } from '../api/providers.js';
import { useApp } from '../app-state.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../form.js';
import { providerLabel } from '../providers.js';

const GUIDE_PATH = '/guide/connect-threads';

/** The setup check, read once when the page opens; `loaded` once it answered either way. */
export function useThreadsSetup(api: Api): { setup: ThreadsSetup | null; setupError: string | null; loaded: boolean } {
  const [setup, setSetup] = useState<ThreadsSetup | null>(null);
  const [setupError, setSetupError] = useState<string | null>(null);
  useEffect(() => {
    api.providers.threadsSetup().then(setSetup, (err: Error) => setSetupError(err.message));
  }, []);
  return { setup, setupError, loaded: setup !== null || setupError !== null };
}

/**
 * Threads connects two ways: Meta's sign-in page (OAuth; the API gives the address to go to,
 * and with `returnTo=web` Meta's redirect back ends on the accounts page), which needs a Meta
 * app and an https address Meta can reach; or a token from the user's own Meta app, which works
 * on a laptop. What the first one lacks is said before anyone clicks.
 */
export function ConnectThreads(props: { setup: ThreadsSetup | null; setupError: string | null; onConnected: () => Promise<void> }) {
  const { api } = useApp();
  const { setup, setupError } = props;
  const oauth = useSubmit();

  return (
    <div>
      <h3 id="threads-heading">Threads</h3>
      {setupError && <FormMessage message={`The Threads settings could not be read: ${setupError}`} />}
      {setup?.oauthReady && (
        <>
          <p class="hint">You sign in on Meta's page and allow Skein to post; Meta sends you back here.</p>
          <FormMessage message={oauth.error?.detail ?? null} />
          <button
            type="button"
            class="primary"
            disabled={oauth.busy}
            aria-busy={oauth.busy ? 'true' : undefined}
            onClick={() => void oauth.run(() => startThreadsConnect(api))}
          >
            Connect Threads
          </button>
        </>
      )}
      {setup && !setup.oauthReady && <MissingSettings setup={setup} />}
      <ConnectThreadsWithToken setup={setup} onConnected={props.onConnected} />
    </div>
  );
}

function MissingSettings({ setup }: { setup: ThreadsSetup }) {
  return (
    <div class="setup-check" role="note" aria-labelledby="threads-setup-heading">
      <p id="threads-setup-heading">
        <strong>Signing in through Meta is not set up on this server.</strong> It needs:
      </p>
      <ul>
        {setup.missing.map((m) => (
          <li key={m.setting}>
            <code>{m.setting}</code>: {m.message}
          </li>
        ))}
      </ul>
      <p class="hint">
        The <a href={GUIDE_PATH}>step-by-step guide</a> shows how to create the Meta app and which redirect URL to register (<code>{setup.redirectUri}</code>).
        Until then, connect with an access token below.
      </p>
    </div>
  );
}

function ConnectThreadsWithToken(props: { setup: ThreadsSetup | null; onConnected: () => Promise<void> }) {
  const { api } = useApp();
  const [accessToken, setAccessToken] = useState('');
  const [connected, setConnected] = useState<string | null>(null);
  const { busy, error, run } = useSubmit();
  const submit = (event: Event) => {
    event.preventDefault();
    setConnected(null);
    void run(async () => {
      const provider = await api.providers.connectThreadsToken(accessToken.trim());
      setAccessToken('');
      setConnected(`Connected ${providerLabel(provider)}.`);
      await props.onConnected();
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="threads-token-heading">
      <h4 id="threads-token-heading">{props.setup?.oauthReady ? 'Or connect with an access token' : 'Connect with an access token'}</h4>
      <TextField
        label="Threads access token"
        name="accessToken"
        type="password"
        autoComplete="off"
        spellcheck={false}
        value={accessToken}
        onValue={setAccessToken}
        error={error?.at('accessToken')}
        hint={
          <>
            From your Meta app: Use cases → Access the Threads API → Settings → User Token Generator (your account must be one of the app's Threads testers).{' '}
            {props.setup?.exchangesTokens === false ? 'Without THREADS_APP_SECRET on the server, give a long-lived (60-day) token. ' : ''}
            <a href={GUIDE_PATH}>How to get one</a>.
          </>
        }
      />
      <FormMessage message={formMessage(error, ['accessToken'])} />
      <div class="actions">
        <Submit busy={busy}>Connect with token</Submit>
        <span class="status" role="status">
          {connected ?? ''}
        </span>
      </div>
    </form>
  );
}

export async function startThreadsConnect(api: Api): Promise<void> {
  window.location.assign(await api.providers.authorizeUrl('threads'));
}

/** What the callback's redirect says: `threads=connected&username=U` or `threads=error&code=C&message=M`. */
export function threadsConnectOutcome(search: URLSearchParams): { ok: boolean; text: string } | null {
  const outcome = search.get('threads');
  if (outcome === 'connected') return { ok: true, text: `Threads account @${search.get('username') ?? ''} connected.` };
  if (outcome === 'error') {
    const message = search.get('message') || 'Meta did not complete the sign-in.';
    return { ok: false, text: `Threads was not connected: ${message}${/[.!?]$/.test(message) ? '' : '.'} Try Connect Threads again.` };
  }
  return null;
}
