import { useEffect, useState } from 'preact/hooks';
import './guide.css';

/** The guides the app serves at /guide/<name>: docs/connect-threads.md, docs/connect-x.md, docs/connect-linkedin.md and docs/errors.md. */
export const GUIDE_PATHS = ['/guide/connect-threads', '/guide/connect-x', '/guide/connect-linkedin', '/guide/errors'];

/**
 * A guide from docs/, readable signed in or not: whoever sets up the server reads the Threads
 * guide first, and a problem's `type` links to its row of the errors guide. Loaded on demand, so
 * the Markdown renderer stays out of the app's bundle.
 */
export function GuidePage({ name }: { name: string }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    void import('./guide-content.js').then(({ GUIDES }) => {
      const guide = GUIDES[name as keyof typeof GUIDES];
      document.title = `${guide.title} · Skein`;
      setHtml(guide.html);
    });
  }, [name]);
  // The browser looked for the #fragment before the guide was there: show the row it names now.
  useEffect(() => {
    if (html !== null && location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }, [html]);
  if (html === null) return <p class="hint">Loading the guide…</p>;
  // The project's own Markdown, bundled at build time: no user input reaches this HTML.
  return <article class="guide" dangerouslySetInnerHTML={{ __html: html }} />;
}
