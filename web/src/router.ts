import { useEffect, useState } from 'preact/hooks';

/**
 * History-API routing: paths are real URLs (the server answers index.html for any of them), so
 * reload, back and forward and bookmarks all work.
 */

const listeners = new Set<() => void>();

/** `keepScroll`: the same page in another state (the calendar's next week), so the view stays put. */
export function navigate(to: string, options: { replace?: boolean; keepScroll?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const listener of listeners) listener();
  if (!options.replace && !options.keepScroll) window.scrollTo(0, 0);
}

export function useLocation(): { path: string; search: URLSearchParams; hash: string } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return { path: location.pathname, search: new URLSearchParams(location.search), hash: location.hash };
}

/** A plain left click on an in-app link routes in place; any other click (new tab…) is the browser's. */
export function onLinkClick(event: MouseEvent): void {
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const href = anchor.getAttribute('href');
  if (!href?.startsWith('/') || href.startsWith('/api/') || href.startsWith('/docs') || anchor.target) return;
  event.preventDefault();
  navigate(href);
}
