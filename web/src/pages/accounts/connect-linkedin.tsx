import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, useSubmit } from '../../form.js';

/**
 * LinkedIn connects through the server owner's LinkedIn app: the browser goes to LinkedIn's
 * sign-in, whose redirect back ends on the accounts page with the member or, when the app may
 * manage pages and the member administers some, a choice of the member and each page
 * (pick-accounts.tsx). A server without the app's settings answers with the settings it lacks,
 * shown here.
 */
export function ConnectLinkedIn() {
  const { api } = useApp();
  const oauth = useSubmit();

  const signIn = (event: Event) => {
    event.preventDefault();
    void oauth.run(async () => {
      window.location.assign(await api.providers.authorizeUrl('linkedin'));
    });
  };

  return (
    <div>
      <h3 id="linkedin-heading">LinkedIn</h3>
      <form onSubmit={signIn} noValidate aria-labelledby="linkedin-heading">
        <p class="hint">
          You sign in at LinkedIn and allow Skein to post as you and, if this server's LinkedIn app may, as the pages you administer. Then you choose which of
          them to add: each becomes its own account here. <a href="/guide/connect-linkedin">Setting up the LinkedIn app</a>
        </p>
        <FormMessage message={formMessage(oauth.error, [])} />
        <div class="actions">
          <Submit busy={oauth.busy}>Connect LinkedIn</Submit>
        </div>
      </form>
    </div>
  );
}

/** The outcome LinkedIn's redirect back left in the accounts page's address (`?linkedin=…`), or null. */
export function linkedinConnectOutcome(search: URLSearchParams): { ok: boolean; text: string } | null {
  const outcome = search.get('linkedin');
  if (outcome === 'connected') return { ok: true, text: `LinkedIn account ${search.get('username') ?? ''} connected, with the pages it administers.` };
  if (outcome === 'error') {
    const message = search.get('message') || 'LinkedIn did not complete the sign-in.';
    return { ok: false, text: `LinkedIn was not connected: ${message}${/[.!?]$/.test(message) ? '' : '.'} Try Connect LinkedIn again.` };
  }
  return null;
}
