import { useEffect, useRef, useState } from 'preact/hooks';
import { roleAtLeast } from '../../../../src/lib/roles.js';
import { ApiError, isChangedElsewhere } from '../../api/client.js';
import type { Provider } from '../../api/providers.js';
import { providerOf } from '../../api/threads.js';
import { useApp } from '../../app-state.js';
import { useWorkspaceRole } from '../settings/team-members.js';
import { approvalsChanged, loadWaiting, onApprovalsChanged, type Waiting } from './data.js';
import { WaitingThread } from './waiting-thread.js';
import './approvals.css';

/**
 * /approvals (decisions.md "Teams"): the team workspace's threads waiting for approval, each as
 * its network will show it. An editor (and above) approves or rejects each, with the keyboard
 * too (j/k, a, r); a writer sees the waiting and rejected ones, with the note, and no buttons.
 */
export function ApprovalsPage() {
  const { api, account } = useApp();
  const role = useWorkspaceRole();
  const decides = role !== null && roleAtLeast(role, 'editor');
  const [waiting, setWaiting] = useState<Waiting[] | null>(null);
  const [providers, setProviders] = useState<Provider[]>([]);
  const [current, setCurrent] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const [problem, setProblem] = useState('');
  const cards = useRef<Array<HTMLElement | null>>([]);

  const reload = async () => {
    if (role === null) return;
    setWaiting(await loadWaiting(api, decides));
  };
  useEffect(() => {
    document.title = 'Approvals · Skein';
    api.providers
      .list()
      .then(setProviders)
      .catch(() => setProviders([]));
  }, [api]);
  useEffect(() => {
    reload().catch((err) => setProblem(err instanceof ApiError ? err.detail : String(err)));
  }, [api, role, account.activeTeamId]);

  const focusCard = (i: number) => {
    setCurrent(i);
    cards.current[i]?.focus();
  };

  /** One decision; a thread changed or decided elsewhere meanwhile (412, 409) is said so, and the list read again. */
  const decide = async (item: Waiting, decision: 'approve' | 'reject', note: string | null) => {
    setProblem('');
    try {
      await api.threads.decide(item.thread.threadId, decision, note, item.etag);
      setAnnouncement(decision === 'approve' ? 'Approved: it publishes at its time.' : 'Rejected: the writer sees your note.');
      const index = waiting?.indexOf(item) ?? 0;
      setWaiting((list) => (list ?? []).filter((w) => w !== item));
      approvalsChanged();
      // Focus stays in the list: on the thread that took this one's place.
      setTimeout(() => focusCard(Math.max(0, Math.min(index, (waiting?.length ?? 1) - 2))), 0);
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(0, 'CLIENT', String(err));
      setProblem(changedMessage(e));
      if (e.status === 409 || isChangedElsewhere(e)) await reload().catch(() => undefined);
      approvalsChanged();
    }
  };

  useShortcuts(decides, waiting, current, focusCard, decide);

  if (role !== null && !roleAtLeast(role, 'writer')) {
    return (
      <section class="stack">
        <h1>Approvals</h1>
        <p>Approvals are for the writers and editors of a team: a viewer only reads the calendar.</p>
      </section>
    );
  }
  return (
    <div class="stack approvals-page">
      <h1>Approvals</h1>
      {!account.activeTeamId && <p class="hint">Your personal workspace asks for no approvals: switch to a team in Settings.</p>}
      {decides ? <Shortcuts /> : <p class="hint">The team’s threads waiting for an editor, and the ones sent back with a note. An editor decides here.</p>}
      <p class="announcement" role="status">
        {announcement}
      </p>
      {problem && (
        <p class="form-message" role="alert">
          {problem}
        </p>
      )}
      {waiting === null ? (
        <p class="status">Loading…</p>
      ) : waiting.length === 0 ? (
        <p class="all-clear">{decides ? 'Nothing waits for approval.' : 'None of the threads waits for approval or was rejected.'}</p>
      ) : (
        <ol class="approvals-list">
          {waiting.map((item, i) => (
            <WaitingThread
              key={item.thread.threadId}
              item={item}
              provider={providerOf(item.thread, providers)}
              zone={account.timezone}
              decides={decides}
              cardRef={(el) => {
                cards.current[i] = el;
              }}
              onFocus={() => setCurrent(i)}
              onDecide={(decision, note) => decide(item, decision, note)}
            />
          ))}
        </ol>
      )}
    </div>
  );
}

function changedMessage(error: ApiError): string {
  if (isChangedElsewhere(error))
    return 'That thread was changed since this page read it, so nothing was decided. The list is read again: look at it once more.';
  if (error.status === 409) return `Nothing was decided: ${error.detail} The list is read again.`;
  return error.detail;
}

function Shortcuts() {
  return (
    <details class="shortcuts" open>
      <summary>Keyboard shortcuts</summary>
      <dl>
        <dt>
          <kbd>j</kbd> / <kbd>k</kbd>
        </dt>
        <dd>next / previous thread</dd>
        <dt>
          <kbd>a</kbd>
        </dt>
        <dd>approve the thread in focus</dd>
        <dt>
          <kbd>r</kbd>
        </dt>
        <dd>reject it: the note field takes the focus (Enter sends; the note may stay empty)</dd>
      </dl>
      <p class="hint">Tab reaches every button; the shortcuts work while no field has the focus.</p>
    </details>
  );
}

/** j/k move between threads, a approves, r goes to the reject note; never while typing in a field. */
function useShortcuts(
  decides: boolean,
  waiting: Waiting[] | null,
  current: number,
  focusCard: (i: number) => void,
  decide: (item: Waiting, decision: 'approve', note: null) => Promise<void>,
) {
  useEffect(() => {
    if (!decides || !waiting?.length) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.ctrlKey || event.metaKey || event.altKey || target?.closest('input, textarea, select, [contenteditable]')) return;
      const at = Math.max(0, Math.min(current, waiting.length - 1));
      const item = waiting[at]!;
      // The first j or k, from outside the list, goes to the thread in hand rather than past it.
      const inList = target?.closest('.approvals-list') != null;
      const step = inList ? (event.key === 'j' ? 1 : -1) : 0;
      if (event.key === 'j' || event.key === 'k') focusCard(Math.max(0, Math.min(waiting.length - 1, at + step)));
      else if (event.key === 'a') void decide(item, 'approve', null);
      else if (event.key === 'r') document.getElementById(`reject-note-${item.thread.threadId}`)?.focus();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [decides, waiting, current]);
}

/** The navigation's link, with the count of pending threads: in a team workspace, for writers and above. `current`: the path shown. */
export function ApprovalsNavLink({ current }: { current: string }) {
  const { api, account } = useApp();
  const role = useWorkspaceRole();
  const [count, setCount] = useState<number | null>(null);
  const shown = account.activeTeamId !== null && role !== null && roleAtLeast(role, 'writer');
  // Read on each page change too: a thread scheduled or decided elsewhere changes the count.
  useEffect(() => {
    if (!shown) return;
    const read = () =>
      api.threads
        .inApproval('PENDING')
        .then((list) => setCount(list.length))
        .catch(() => setCount(null));
    void read();
    return onApprovalsChanged(() => void read());
  }, [api, shown, account.activeTeamId, current]);
  if (!shown) return null;
  return (
    <a href="/approvals" aria-current={current === '/approvals' ? 'page' : undefined}>
      Approvals
      {count !== null && count > 0 && (
        <span class="nav-count">
          {' '}
          {count}
          <span class="visually-hidden"> waiting</span>
        </span>
      )}
    </a>
  );
}
