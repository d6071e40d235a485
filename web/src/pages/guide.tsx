import { useEffect, useState } from 'preact/hooks';
import './guide.css';

/**
 * The step-by-step guide to connecting Threads, readable signed in or not (whoever sets up the
 * server reads it first). Loaded on demand: the Markdown renderer stays out of the app's bundle.
 */
export function GuidePage() {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    document.title = 'Connecting Threads · Skein';
    void import('./guide-content.js').then((m) => setHtml(m.connectThreadsHtml));
  }, []);
  if (html === null) return <p class="hint">Loading the guide…</p>;
  // The project's own Markdown, bundled at build time: no user input reaches this HTML.
  return <article class="guide" dangerouslySetInnerHTML={{ __html: html }} />;
}
