import { useRef, useState } from 'preact/hooks';
import type { AttentionItem } from '../../api/attention.js';
import { ApiError } from '../../api/client.js';
import type { Provider } from '../../api/providers.js';
import { type ListedThread, threadPath } from '../../api/threads.js';
import { useApp } from '../../app-state.js';
import { providerLabel } from '../../providers.js';
import { formatInZone } from '../../time.js';
import { startThreadsConnect } from '../connect-threads.js';

/**
 * "Needs your attention": GET /api/v1/attention's items, newest first, each with what to do in
 * place: Retry for a failed thread (the thread's retry endpoint; the result is announced in a
 * live region and the item leaves the list), Reconnect for an expired or disconnected account
 * (Meta's sign-in for Threads when the server has it, else the accounts page's forms).
 */

const TITLES: Record<AttentionItem['kind'], string> = {
  THREAD_FAILED: 'A thread failed to publish',
  FOLLOW_UP_FAILED: 'A follow-up reply failed',
  PROVIDER_EXPIRED: 'An account needs reconnecting',
  PROVIDER_EXPIRING: 'An account’s sign-in runs out soon',
  PROVIDER_REVOKED: 'An account is disconnected',
  PROVIDER_NOT_ACTIVE_FOR_DUE: 'A thread is due on an account that cannot publish',
  PROVIDER_RATE_LIMITED: 'A thread waits for its account’s daily posting limit',
  THREAD_AWAITING_APPROVAL: 'A thread is past its time and waits for approval',
};

/** The first words of a text, for naming its thread. */
function cut(text: string | undefined, length: number): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  return trimmed.length > length ? `${trimmed.slice(0, length - 1)}…` : trimmed;
}

/** The first words of a thread's first post, for naming it. */
export function snippet(thread: ListedThread | undefined, length = 80): string | null {
  return cut(thread?.posts[0]?.content, length);
}

interface Props {
  items: AttentionItem[] | null;
  /** Older items than those listed are left out (the list is one page). */
  more: boolean;
  providers: Provider[];
  threadsOAuthReady: boolean;
  onChanged: () => Promise<void>;
}

export function AttentionSection(props: Props) {
  const [announcement, setAnnouncement] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const { items } = props;
  return (
    <section class="card attention" aria-labelledby="home-attention">
      <h2 id="home-attention" ref={heading} tabIndex={-1}>
        Needs your attention{items && items.length > 0 ? ` (${items.length}${props.more ? '+' : ''})` : ''}
      </h2>
      <p class="announcement" role="status">
        {announcement}
      </p>
      {items === null ? (
        <p class="status">Loading…</p>
      ) : items.length === 0 ? (
        <p class="all-clear">Nothing needs you: no failed posts, and every account can publish.</p>
      ) : (
        <ul class="attention-list">
          {items.map((item) => (
            <Item
              key={`${item.kind}-${item.followUpId ?? item.threadId ?? item.providerId}`}
              item={item}
              {...props}
              announce={(text, moved) => {
                setAnnouncement(text);
                // The item a Retry removed had the focus: it goes to the list's heading, not to the page's top.
                if (moved) heading.current?.focus();
              }}
            />
          ))}
        </ul>
      )}
      {items !== null && props.more && <p class="hint">Older items are not shown here: the newest {items.length} are.</p>}
    </section>
  );
}

function Item(props: Props & { item: AttentionItem; announce: (text: string, moved: boolean) => void }) {
  const { api, account } = useApp();
  const { item } = props;
  const [busy, setBusy] = useState(false);
  const provider = props.providers.find((p) => p.id === item.providerId);
  // The item names its thread itself (its first post's text, up to 100 characters): no thread is read for it.
  const name = cut(item.threadText, 80);
  const accountName = provider ? providerLabel(provider) : 'an account';
  const titleId = `attention-${item.kind}-${item.followUpId ?? item.threadId ?? item.providerId}`;

  const retry = async () => {
    if (!item.threadId || busy) return;
    setBusy(true);
    try {
      if (item.followUpId) await api.followUps.retry(item.threadId, item.followUpId);
      else await api.threads.retry(item.threadId, null);
      await props.onChanged();
      props.announce(`Retried${name ? ` “${name}”` : ''}: it is scheduled to publish now.`, true);
    } catch (err) {
      props.announce(`Retry failed: ${err instanceof ApiError ? err.detail : String(err)}`, false);
      setBusy(false);
    }
  };
  const reconnect = () => {
    if (provider?.provider === 'THREADS' && props.threadsOAuthReady) {
      startThreadsConnect(api).catch((err) => props.announce(`Reconnect failed: ${err instanceof ApiError ? err.detail : String(err)}`, false));
    }
  };
  const reconnectAction =
    provider?.provider === 'THREADS' && props.threadsOAuthReady ? (
      <button type="button" class="primary" onClick={reconnect} aria-describedby={titleId}>
        Reconnect
      </button>
    ) : (
      <a class="button-link primary" href="/accounts" aria-describedby={titleId}>
        Reconnect
      </a>
    );

  return (
    <li class="attention-item" data-kind={item.kind} data-thread-id={item.threadId} data-provider-id={item.providerId} aria-labelledby={titleId}>
      <h3 id={titleId}>
        {TITLES[item.kind]}
        {name && <span class="subject">: “{name}”</span>}
      </h3>
      <p class="meta">
        {item.kind === 'PROVIDER_NOT_ACTIVE_FOR_DUE' ? 'Due ' : item.kind === 'PROVIDER_EXPIRING' ? 'Runs out ' : ''}
        <time dateTime={item.at}>{formatInZone(item.at, account.timezone)}</time> · {accountName}
      </p>
      {item.error && (
        <p class="network-error">
          {item.error.message} (<code>{item.error.code}</code>)
        </p>
      )}
      {(item.kind === 'PROVIDER_EXPIRED' || item.kind === 'PROVIDER_NOT_ACTIVE_FOR_DUE') && (
        <p class="hint">
          {item.kind === 'PROVIDER_EXPIRED'
            ? 'The network no longer accepts Skein’s sign-in. Its posts fail when due until you reconnect it; reconnecting keeps its schedule.'
            : `${accountName} is ${provider?.status.toLowerCase() ?? 'not connected'}: this thread fails when due unless you reconnect it or move it to another account.`}
        </p>
      )}
      {item.kind === 'PROVIDER_RATE_LIMITED' && (
        <p class="hint">The network’s daily limit on posts for {accountName} is used up: the rest of this thread goes out by itself when it resets.</p>
      )}
      {item.kind === 'PROVIDER_EXPIRING' && (
        <p class="hint">The network gives no way to renew this sign-in: reconnect the account before then, or its posts due after that fail.</p>
      )}
      {item.kind === 'PROVIDER_REVOKED' && <p class="hint">Skein holds no sign-in for it; its scheduled posts fail when due. Reconnect to use it again.</p>}
      <div class="actions wrap">
        {(item.kind === 'THREAD_FAILED' || item.kind === 'FOLLOW_UP_FAILED') && (
          <button type="button" class="primary" onClick={retry} disabled={busy} aria-describedby={titleId}>
            {busy ? 'Retrying…' : 'Retry'}
          </button>
        )}
        {(item.kind === 'PROVIDER_EXPIRED' ||
          item.kind === 'PROVIDER_EXPIRING' ||
          item.kind === 'PROVIDER_REVOKED' ||
          item.kind === 'PROVIDER_NOT_ACTIVE_FOR_DUE') &&
          reconnectAction}
        {item.kind === 'THREAD_AWAITING_APPROVAL' && (
          <a class="button-link primary" href="/approvals" aria-describedby={titleId}>
            Go to approvals
          </a>
        )}
        {item.threadId && (
          <a href={threadPath(item.threadId)} aria-describedby={titleId}>
            {item.kind === 'FOLLOW_UP_FAILED' ? 'Open the thread and its follow-ups' : 'Open the thread'}
          </a>
        )}
      </div>
    </li>
  );
}
