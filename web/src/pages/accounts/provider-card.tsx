import { useId } from 'preact/hooks';
import type { Provider, ProviderStatus } from '../../api/providers.js';
import { useApp } from '../../app-state.js';
import { FormMessage, useSubmit } from '../../form.js';
import { NETWORK_NAMES, providerLabel } from '../../providers.js';
import { formatInZone } from '../../time.js';
import { startThreadsConnect } from '../connect-threads.js';
import { focusMastodonServer } from './connect-mastodon.js';
import { TimeSlots } from './time-slots.js';

/** Reconnecting Threads without Meta's sign-in: a new token in the token form. */
function focusThreadsToken(): void {
  const field = document.querySelector<HTMLInputElement>('input[name="accessToken"]');
  field?.scrollIntoView({ block: 'center' });
  field?.focus();
}

const STATUS_ADVICE: Record<ProviderStatus, string> = {
  ACTIVE: 'Connected: scheduled posts publish to it.',
  EXPIRED:
    'The network no longer accepts Skein’s sign-in (a changed password, a revoked app password or an expired token). Posts due now fail until you reconnect; reconnecting keeps its schedule.',
  REVOKED: 'Disconnected: Skein holds no sign-in for it, and its scheduled posts fail when due. Reconnect to use it again.',
};

/** One connected account: its status, reconnecting or disconnecting it, and its posting times. */
export function ProviderCard(props: { provider: Provider; onChanged: () => Promise<void>; onReconnectBluesky: () => void; threadsOAuthReady: boolean }) {
  const { api, account } = useApp();
  const p = props.provider;
  const disconnect = useSubmit();
  const reconnect = useSubmit();
  const headingId = useId();

  const onDisconnect = () => {
    if (!window.confirm(`Disconnect ${providerLabel(p)}? Its scheduled posts will fail when they come due until you reconnect it.`)) return;
    void disconnect.run(async () => {
      await api.providers.disconnect(p.id);
      await props.onChanged();
    });
  };
  const onReconnect = () => {
    if (p.provider === 'BLUESKY') props.onReconnectBluesky();
    else if (p.provider === 'MASTODON') focusMastodonServer();
    else if (p.provider === 'LINKEDIN') void reconnect.run(async () => window.location.assign(await api.providers.authorizeUrl('linkedin')));
    else if (p.provider === 'X') void reconnect.run(async () => window.location.assign(await api.providers.authorizeUrl('x')));
    else if (props.threadsOAuthReady) void reconnect.run(() => startThreadsConnect(api));
    else focusThreadsToken();
  };

  return (
    <section class="card provider" aria-labelledby={headingId} data-provider-id={p.id}>
      <div class="provider-head">
        <h3 id={headingId}>
          <span class={`network network-${p.provider.toLowerCase()}`}>{NETWORK_NAMES[p.provider]}</span> @{p.username}
        </h3>
        <span class={`badge status-${p.status.toLowerCase()}`} data-status={p.status}>
          {p.status}
        </span>
      </div>
      <p class="hint">
        {STATUS_ADVICE[p.status]} Connected {formatInZone(p.connectedAt, account.timezone, { dateStyle: 'medium' })}.
      </p>
      <div class="actions">
        {p.status !== 'ACTIVE' && (
          <button type="button" class="primary" onClick={onReconnect} disabled={reconnect.busy}>
            Reconnect
          </button>
        )}
        {p.status !== 'REVOKED' && (
          <button type="button" class="danger" onClick={onDisconnect} disabled={disconnect.busy} aria-label={`Disconnect ${providerLabel(p)}`}>
            Disconnect
          </button>
        )}
      </div>
      <FormMessage message={disconnect.error?.detail ?? reconnect.error?.detail ?? null} />
      {p.status !== 'REVOKED' && <TimeSlots provider={p} />}
    </section>
  );
}
