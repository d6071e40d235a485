import { useEffect, useState } from 'preact/hooks';
import { useApp } from '../../app-state.js';
import { FormMessage } from '../../form.js';
import { useProviders } from '../../providers.js';
import { navigate } from '../../router.js';
import { ConnectThreads, threadsConnectOutcome, useThreadsSetup } from '../connect-threads.js';
import './accounts.css';
import { ConnectBluesky } from './connect-bluesky.js';
import { ConnectLinkedIn, linkedinConnectOutcome } from './connect-linkedin.js';
import { ConnectMastodon, mastodonConnectOutcome } from './connect-mastodon.js';
import { ConnectX, xConnectOutcome } from './connect-x.js';
import { PickAccounts } from './pick-accounts.js';
import { ProviderCard } from './provider-card.js';

/**
 * Accounts: the Threads, Bluesky, Mastodon, X and LinkedIn accounts of the active workspace, connecting and
 * disconnecting them, and each one's weekly time slots (the queue's posting times) on a grid.
 */
export function AccountsPage() {
  const { api, account } = useApp();
  const { providers, error, reload } = useProviders(api, account.activeTeamId);
  const threadsSetup = useThreadsSetup(api);
  const [reconnect, setReconnect] = useState<{ handle: string; at: number } | null>(null);
  // Meta's (or the Mastodon server's, X's or LinkedIn's) redirect back lands here (the callback answers 303 to
  // /accounts?threads=…, ?mastodon=…, ?x=… or ?linkedin=…): the outcome is read once, and taken out of the address
  // so a reload does not show it again.
  const [threadsOutcome] = useState(() => {
    const search = new URLSearchParams(location.search);
    return threadsConnectOutcome(search) ?? mastodonConnectOutcome(search) ?? xConnectOutcome(search) ?? linkedinConnectOutcome(search);
  });
  // A sign-in that offered several accounts (LinkedIn's member and pages) comes back with ?<network>=pick&pick=ID.
  const [pickId, setPickId] = useState(() => new URLSearchParams(location.search).get('pick'));
  const [picked, setPicked] = useState<string | null>(null);
  useEffect(() => {
    document.title = 'Accounts · Skein';
    if (threadsOutcome || pickId) navigate('/accounts', { replace: true });
  }, []);
  const pickDone = (text: string | null) => {
    setPickId(null);
    setPicked(text);
    void reload();
  };

  return (
    <div class="stack accounts-page">
      <h1>Accounts</h1>
      {threadsOutcome?.ok && (
        <p class="connect-outcome ok" role="status">
          {threadsOutcome.text}
        </p>
      )}
      {picked && (
        <p class="connect-outcome ok" role="status">
          {picked}
        </p>
      )}
      {pickId && <PickAccounts id={pickId} onDone={pickDone} />}
      {threadsOutcome && !threadsOutcome.ok && (
        <p class="connect-outcome failed" role="alert">
          {threadsOutcome.text}
        </p>
      )}
      {/* Both parts wait for both answers, so nothing on the page moves when one arrives. */}
      {!threadsSetup.loaded || (providers === null && !error) ? (
        <p class="hint">Loading…</p>
      ) : (
        <>
          <section class="card" aria-labelledby="connect-heading">
            <h2 id="connect-heading">Connect an account</h2>
            <div class="connect-grid">
              <ConnectBluesky prefill={reconnect} onConnected={reload} />
              <ConnectThreads setup={threadsSetup.setup} setupError={threadsSetup.setupError} onConnected={reload} />
              <ConnectMastodon onConnected={reload} />
              <ConnectLinkedIn />
              <ConnectX />
            </div>
          </section>
          <section aria-labelledby="connected-heading" class="stack">
            <h2 id="connected-heading">Connected accounts</h2>
            {error && <FormMessage message={`The accounts could not be loaded: ${error}`} />}
            {providers?.length === 0 && !error && <p class="hint">No accounts yet. Connect one above to schedule posts to it.</p>}
            {providers?.map((p) => (
              <ProviderCard
                key={p.id}
                provider={p}
                onChanged={reload}
                onReconnectBluesky={() => setReconnect({ handle: p.username, at: Date.now() })}
                threadsOAuthReady={threadsSetup.setup?.oauthReady ?? false}
              />
            ))}
          </section>
        </>
      )}
    </div>
  );
}
