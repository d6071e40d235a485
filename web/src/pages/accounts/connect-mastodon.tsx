import { useState } from 'preact/hooks';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';
import { providerLabel } from '../../providers.js';

/** Reconnecting a Mastodon account: its server in the form, the cursor there. */
export function focusMastodonServer(): void {
  const field = document.querySelector<HTMLInputElement>('input[name="instance"]');
  field?.scrollIntoView({ block: 'center' });
  field?.focus();
}

/**
 * Mastodon connects on any server the user names: Skein registers itself there (once per
 * server) and sends the browser to the server's own sign-in page, whose redirect back ends on
 * the accounts page; or, for a server Skein cannot be reached from, with an access token made
 * on the server (Preferences → Development). Both take the same server address.
 */
export function ConnectMastodon(props: { onConnected: () => Promise<void> }) {
  const { api } = useApp();
  const [instance, setInstance] = useState('');
  const [accessToken, setAccessToken] = useState('');
  const [connected, setConnected] = useState<string | null>(null);
  const oauth = useSubmit();
  const token = useSubmit();
  // The server field belongs to both: the last attempt's fault at `instance` shows there.
  const instanceError = oauth.error?.at('instance') ?? token.error?.at('instance');

  const signIn = (event: Event) => {
    event.preventDefault();
    setConnected(null);
    token.setError(null);
    void oauth.run(async () => {
      window.location.assign(await api.providers.mastodonAuthorizeUrl(instance.trim()));
    });
  };
  const withToken = (event: Event) => {
    event.preventDefault();
    setConnected(null);
    oauth.setError(null);
    void token.run(async () => {
      const provider = await api.providers.connectMastodonToken({ instance: instance.trim(), accessToken: accessToken.trim() });
      setAccessToken('');
      setConnected(`Connected ${providerLabel(provider)}.`);
      await props.onConnected();
    });
  };

  return (
    <div>
      <h3 id="mastodon-heading">Mastodon</h3>
      <form onSubmit={signIn} noValidate aria-labelledby="mastodon-heading">
        <TextField
          label="Mastodon server"
          name="instance"
          autoComplete="url"
          spellcheck={false}
          value={instance}
          onValue={setInstance}
          error={instanceError}
          placeholder="mastodon.social"
          hint="The server your account is on, as in @you@server. You sign in there and allow Skein to post; the server sends you back here."
        />
        <FormMessage message={formMessage(oauth.error, ['instance'])} />
        <div class="actions">
          <Submit busy={oauth.busy}>Connect Mastodon</Submit>
        </div>
      </form>
      <form onSubmit={withToken} noValidate aria-labelledby="mastodon-token-heading">
        <h4 id="mastodon-token-heading">Or connect with an access token</h4>
        <TextField
          label="Mastodon access token"
          name="mastodonAccessToken"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={accessToken}
          onValue={setAccessToken}
          error={token.error?.at('accessToken')}
          hint="For the server above: Preferences → Development → New application, with the scopes read, write:statuses and write:media; copy “Your access token”."
        />
        <FormMessage message={formMessage(token.error, ['instance', 'accessToken'])} />
        <div class="actions">
          <Submit busy={token.busy}>Connect with Mastodon token</Submit>
          <span class="status" role="status">
            {connected ?? ''}
          </span>
        </div>
      </form>
    </div>
  );
}

/** What the callback's redirect says: `mastodon=connected&username=U` or `mastodon=error&code=C&message=M`. */
export function mastodonConnectOutcome(search: URLSearchParams): { ok: boolean; text: string } | null {
  const outcome = search.get('mastodon');
  if (outcome === 'connected') return { ok: true, text: `Mastodon account @${search.get('username') ?? ''} connected.` };
  if (outcome === 'error') {
    const message = search.get('message') || 'The server did not complete the sign-in.';
    return { ok: false, text: `Mastodon was not connected: ${message}${/[.!?]$/.test(message) ? '' : '.'} Try Connect Mastodon again.` };
  }
  return null;
}
