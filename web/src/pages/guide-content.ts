import { marked } from 'marked';
import connectLinkedIn from '../../../docs/connect-linkedin.md?raw';
import connectThreads from '../../../docs/connect-threads.md?raw';
import connectX from '../../../docs/connect-x.md?raw';
import errors from '../../../docs/errors.md?raw';

/**
 * The guides are docs/ files themselves, rendered when this chunk loads: one text for the
 * repository and the app. They are the project's own files, so their HTML is trusted. Links to
 * other docs/ files point at the repository's copies, which the app does not serve.
 */
export const GUIDES = {
  'connect-threads': { title: 'Connecting Threads', html: marked.parse(connectThreads, { async: false }) },
  'connect-linkedin': { title: 'Connecting LinkedIn', html: marked.parse(connectLinkedIn, { async: false }) },
  'connect-x': { title: 'Connecting X', html: marked.parse(connectX, { async: false }) },
  errors: { title: 'Errors', html: marked.parse(errors, { async: false }) },
};
