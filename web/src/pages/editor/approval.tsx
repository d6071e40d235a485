import type { Role } from '../../api/account.js';
import type { Thread } from '../../api/threads.js';
import { formatInZone } from '../../time.js';

/** Where a thread stands with its approval (decisions.md "Teams"): nothing when none was asked. */
export function ApprovalStatus({ thread, zone }: { thread: Thread; zone: string }) {
  const approval = thread.approval;
  if (!approval) return null;
  const when = approval.at ? `, ${formatInZone(approval.at, zone)}` : '';
  if (approval.state === 'PENDING') {
    const late = thread.scheduledAt !== null && Date.parse(thread.scheduledAt) < Date.now();
    return (
      <p class="approval-status approval-pending" data-approval="PENDING">
        <strong>Waiting for approval</strong>: an editor approves it before it is published{late ? '; it is past its time and publishes when approved' : ''}.
      </p>
    );
  }
  if (approval.state === 'APPROVED') {
    return (
      <p class="approval-status approval-approved" data-approval="APPROVED">
        <strong>Approved</strong> by {approval.by ?? 'an editor'}
        {when}.
      </p>
    );
  }
  return (
    <div class="approval-status approval-rejected" data-approval="REJECTED" role="note">
      <p>
        <strong>Rejected</strong> by {approval.by ?? 'an editor'}
        {when}
        {approval.note ? ':' : ', with no note.'}
      </p>
      {approval.note && <blockquote>{approval.note}</blockquote>}
      <p class="hint">It is not published. Change it and save to ask for approval again.</p>
    </div>
  );
}

/**
 * What a writer's save does to the approval (a scheduled thread, or one being scheduled, asks an
 * editor; an approved one asks again). Null for an editor and above: their saves ask nothing.
 */
export function writerSaveHint(role: Role | null, thread: Thread | null): string | null {
  if (role !== 'writer') return null;
  return thread?.approval?.state === 'APPROVED'
    ? 'This thread is approved: saving a change asks an editor to approve it again, and it is not published until then.'
    : 'A thread you schedule waits for an editor’s approval: it is not published until then.';
}
