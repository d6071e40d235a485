import type { Api } from '../../api/index.js';
import type { Thread } from '../../api/threads.js';

/** A waiting thread as the approvals page shows it, with the ETag its decision is sent with (If-Match). */
export interface Waiting {
  thread: Thread;
  etag: string | null;
}

/**
 * The threads the page lists: for an editor (and above) every pending thread; for a writer the
 * pending and the rejected ones (the note is the point). List Posts carries no ETag, so each is
 * read again (Get Thread): a decision is then based on what was shown, and refused (412) if the
 * thread changed since.
 */
export async function loadWaiting(api: Api, decides: boolean): Promise<Waiting[]> {
  const listed = (
    await Promise.all((decides ? (['PENDING'] as const) : (['PENDING', 'REJECTED'] as const)).map((state) => api.threads.inApproval(state)))
  ).flat();
  const read = await Promise.all(listed.map((t) => api.threads.get(t.threadId).catch(() => null)));
  // A thread deleted between the two reads is simply not there any more.
  return read
    .filter((r): r is Waiting => r !== null && r.thread.approval !== null && r.thread.approval.state !== 'APPROVED')
    .sort((a, b) => (a.thread.scheduledAt ?? '').localeCompare(b.thread.scheduledAt ?? ''));
}

/** The pending count the navigation shows; the page tells it when a decision changed it. */
const listeners = new Set<() => void>();

export function onApprovalsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function approvalsChanged(): void {
  for (const listener of listeners) listener();
}
