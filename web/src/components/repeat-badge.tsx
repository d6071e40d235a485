import type { Thread } from '../api/threads.js';
import { repeatName } from '../pages/editor/repeat.js';

/** A small mark on a thread that repeats (the waiting occurrence of a series), named for screen readers: "Repeats every 2 weeks". */
export function RepeatBadge({ repeat }: { repeat: Thread['repeat'] }) {
  if (!repeat) return null;
  const name = repeatName(repeat);
  return (
    <span class="repeat-mark" role="img" aria-label={name} title={name} data-repeat={`${repeat.every} ${repeat.unit}`}>
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
        <path d="M3 7a5 5 0 0 1 9-2.5M13 9a5 5 0 0 1-9 2.5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" />
        <path d="M12.5 1.5v3h-3M3.5 14.5v-3h3" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round" />
      </svg>
    </span>
  );
}
