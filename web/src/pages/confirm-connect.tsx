import { useEffect, useState } from 'preact/hooks';
import { useApp } from '../app-state.js';
import { FormMessage, useSubmit } from '../form.js';
import { NETWORK_NAMES } from '../providers.js';
import { navigate, useLocation } from '../router.js';

/**
 * `/connect/confirm?network=N&state=S`: where the network's redirect lands for a connect started
 * with an API key. The signed-in user of the account that started it confirms it here (in this
 * browser, which the callback marked with the connect cookie); then the accounts page.
 */
export function ConfirmConnectPage() {
  const { api, account } = useApp();
  const { search } = useLocation();
  const [state] = useState(() => search.get('state') ?? '');
  const network = search.get('network') ?? '';
  // The network as its connect path names it (`threads`): every OAuth network of the registry.
  const name = (NETWORK_NAMES as Record<string, string>)[network.toUpperCase()] ?? 'the network';
  const { busy, error, run } = useSubmit();

  useEffect(() => {
    document.title = `Confirm the ${name} connection · Skein`;
  }, []);

  const confirm = () =>
    void run(async () => {
      const done = await api.providers.confirmConnect(state);
      // A sign-in that offered several accounts (LinkedIn's member and pages): the accounts page asks which to add.
      const next = 'pickId' in done ? { [network]: 'pick', pick: done.pickId } : { [network]: 'connected', username: done.username };
      navigate(`/accounts?${new URLSearchParams(next)}`, { replace: true });
    });

  return (
    <section aria-labelledby="confirm-heading">
      <h1 id="confirm-heading">Connect the {name} account?</h1>
      <p>
        A connection of a {name} account was started with an API key of your Skein account ({account.email}), and you approved Skein on {name}. Connect the
        account you approved to your workspace? Only if you started this yourself.
      </p>
      <FormMessage message={error?.detail ?? null} />
      <div class="actions">
        <button type="button" class="primary" disabled={busy || !state} aria-busy={busy ? 'true' : undefined} onClick={confirm}>
          Connect
        </button>
        <a href="/accounts">Cancel</a>
      </div>
    </section>
  );
}
