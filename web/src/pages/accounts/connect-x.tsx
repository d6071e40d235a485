import { useEffect, useState } from 'preact/hooks';
import type { XSetup } from '../../api/providers.js';
import { useApp } from '../../app-state.js';
import { FormMessage, useSubmit } from '../../form.js';

const GUIDE_PATH = '/guide/connect-x';

/**
 * X connects through its sign-in page with the server's own X app (X_CLIENT_ID); what the server
 * still lacks for it is said before anyone clicks. Scripts use the token path of the API.
 */
export function ConnectX() {
  const { api } = useApp();
  const [setup, setSetup] = useState<XSetup | null>(null);
  const [setupError, setSetupError] = useState<string | null>(null);
  const oauth = useSubmit();
  useEffect(() => {
    api.providers.xSetup().then(setSetup, (err: Error) => setSetupError(err.message));
  }, []);

  return (
    <div>
      <h3 id="x-heading">X</h3>
      {setupError && <FormMessage message={`The X settings could not be read: ${setupError}`} />}
      {setup?.oauthReady && (
        <>
          <p class="hint">You sign in on X's page and allow Skein to post; X sends you back here.</p>
          <FormMessage message={oauth.error?.detail ?? null} />
          <button
            type="button"
            class="primary"
            disabled={oauth.busy}
            aria-busy={oauth.busy ? 'true' : undefined}
            onClick={() => void oauth.run(async () => window.location.assign(await api.providers.authorizeUrl('x')))}
          >
            Connect X
          </button>
        </>
      )}
      {setup && !setup.oauthReady && (
        <div class="setup-check" role="note" aria-labelledby="x-setup-heading">
          <p id="x-setup-heading">
            <strong>Signing in through X is not set up on this server.</strong> It needs:
          </p>
          <ul>
            {setup.missing.map((m) => (
              <li key={m.setting}>
                <code>{m.setting}</code>: {m.message}
              </li>
            ))}
          </ul>
          <p class="hint">
            The <a href={GUIDE_PATH}>step-by-step guide</a> shows how to create the X app and which callback URL to register (<code>{setup.redirectUri}</code>).
          </p>
        </div>
      )}
    </div>
  );
}

/** What the callback's redirect says: `x=connected&username=U` or `x=error&code=C&message=M`. */
export function xConnectOutcome(search: URLSearchParams): { ok: boolean; text: string } | null {
  const outcome = search.get('x');
  if (outcome === 'connected') return { ok: true, text: `X account @${search.get('username') ?? ''} connected.` };
  if (outcome === 'error') {
    const message = search.get('message') || 'X did not complete the sign-in.';
    return { ok: false, text: `X was not connected: ${message}${/[.!?]$/.test(message) ? '' : '.'} Try Connect X again.` };
  }
  return null;
}
