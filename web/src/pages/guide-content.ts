import { marked } from 'marked';
import connectThreads from '../../../docs/connect-threads.md?raw';

/**
 * The guide is docs/connect-threads.md itself, rendered at build time's bundle load: one text for
 * the repository and the app. It is the project's own file, so its HTML is trusted. Links to
 * other docs/ files point at the repository's copies, which the app does not serve.
 */
export const connectThreadsHtml = marked.parse(connectThreads, { async: false });
