import { useEffect } from 'preact/hooks';
import { useApp } from '../app.js';

export function HomePage() {
  const { account } = useApp();
  useEffect(() => {
    document.title = 'Skein';
  }, []);
  return (
    <section>
      <h1>Welcome</h1>
      <p>
        Signed in as <strong>{account.email}</strong>; times are shown in <strong>{account.timezone}</strong>.
      </p>
      <ul class="links">
        <li>
          <a href="/accounts">Accounts</a>: connect a Threads or Bluesky account first; its weekly posting times.
        </li>
        <li>
          <a href="/calendar">Calendar</a>: scheduled and published threads, the queue's free slots, drafts; New thread writes one.
        </li>
        <li>
          <a href="/settings">Settings</a>: API keys, time zone, workspace, auto-plug.
        </li>
        <li>
          <a href="/docs">API reference</a>: every endpoint, for scripts and integrations.
        </li>
      </ul>
    </section>
  );
}
