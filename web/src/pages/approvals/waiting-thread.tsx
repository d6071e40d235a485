import { useState } from 'preact/hooks';
import type { Provider } from '../../api/providers.js';
import { threadPath } from '../../api/threads.js';
import { NETWORK_NAMES } from '../../providers.js';
import { formatInZone } from '../../time.js';
import { savedChain } from '../editor/chains.js';
import { ChainPreview } from '../editor/preview.js';
import type { Waiting } from './data.js';

interface Props {
  item: Waiting;
  provider: Provider | undefined;
  zone: string;
  decides: boolean;
  cardRef: (el: HTMLElement | null) => void;
  onFocus: () => void;
  onDecide: (decision: 'approve' | 'reject', note: string | null) => Promise<void>;
}

/** One waiting (or, for its writer, rejected) thread: where and when, as its network will show it, and the decision. */
export function WaitingThread({ item, provider, zone, decides, cardRef, onFocus, onDecide }: Props) {
  const { thread } = item;
  const approval = thread.approval!;
  const late = thread.scheduledAt !== null && Date.parse(thread.scheduledAt) < Date.now();
  const headingId = `waiting-${thread.threadId}`;
  const account = provider ? `${NETWORK_NAMES[provider.provider]} · @${provider.username}` : NETWORK_NAMES[thread.provider];
  return (
    <li>
      <article
        class={`card waiting approval-${approval.state.toLowerCase()}`}
        tabIndex={-1}
        ref={cardRef}
        onFocusCapture={onFocus}
        aria-labelledby={headingId}
        data-thread={thread.threadId}
      >
        <h2 id={headingId}>
          <a href={threadPath(thread.threadId)}>{account}</a>
        </h2>
        <p class="waiting-when">
          {thread.scheduledAt ? `${formatInZone(thread.scheduledAt, zone)} (${zone})` : 'No time set'}
          {late && approval.state === 'PENDING' && <strong class="late"> · past its time, publishes when approved</strong>}
        </p>
        {approval.state === 'REJECTED' && (
          <p class="rejected-note">
            Rejected by {approval.by ?? 'an editor'}
            {approval.at ? `, ${formatInZone(approval.at, zone)}` : ''}: {approval.note ? <q>{approval.note}</q> : 'no note.'} Change the thread to ask again.
          </p>
        )}
        {provider ? <ChainPreview chain={savedChain(provider, thread)} /> : <p class="hint">Its account is no longer connected here.</p>}
        {decides && approval.state === 'PENDING' && <Decision threadId={thread.threadId} account={account} onDecide={onDecide} />}
      </article>
    </li>
  );
}

function Decision({ threadId, account, onDecide }: { threadId: string; account: string; onDecide: Props['onDecide'] }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async (decision: 'approve' | 'reject') => {
    if (busy) return;
    setBusy(true);
    try {
      await onDecide(decision, decision === 'reject' && note.trim() ? note.trim() : null);
    } finally {
      setBusy(false);
    }
  };
  const noteId = `reject-note-${threadId}`;
  return (
    <form
      class="decision"
      onSubmit={(e) => {
        e.preventDefault();
        void send('reject');
      }}
    >
      <button type="button" class="primary" onClick={() => void send('approve')} disabled={busy} aria-label={`Approve the thread on ${account}`}>
        Approve
      </button>
      <div class="field">
        <label for={noteId}>Note for the writer (optional)</label>
        <input id={noteId} name="note" maxLength={2000} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      </div>
      <button type="submit" class="danger" disabled={busy} aria-label={`Reject the thread on ${account}`}>
        Reject
      </button>
    </form>
  );
}
