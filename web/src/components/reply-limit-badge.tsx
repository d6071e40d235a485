import type { Thread } from '../api/threads.js';

const WHO: Record<Exclude<Thread['replyControl'], 'everyone'>, string> = {
  following: 'accounts you follow',
  followers: 'your followers',
  mentioned: 'accounts mentioned',
  nobody: 'nobody',
};

/** A small mark on a thread whose replies are limited (replyControl other than everyone), named for screen readers. */
export function ReplyLimitBadge({ replyControl }: { replyControl: Thread['replyControl'] }) {
  if (replyControl === 'everyone') return null;
  const name = `Replies limited to ${WHO[replyControl]}`;
  return (
    <span class="reply-limit" role="img" aria-label={name} title={name} data-reply-limit={replyControl}>
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
        <path d="M2 3h12v7H8l-3 3v-3H2z" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round" />
        <path d="M3 14 14 2" stroke="currentColor" stroke-width="1.6" />
      </svg>
    </span>
  );
}
