import { useEffect, useState } from 'preact/hooks';
import type { ProviderAnalytics } from '../../api/analytics.js';
import type { AttentionItem } from '../../api/attention.js';
import { ApiError } from '../../api/client.js';
import type { TaggedThread } from '../../api/threads.js';
import { useApp } from '../../app-state.js';
import { FormMessage } from '../../form.js';
import { useProviders } from '../../providers.js';
import { addDays, todayIn } from '../../time.js';
import { useThreadsSetup } from '../connect-threads.js';
import { AttentionSection } from './attention.js';
import { ComingNext, type FreeSlot, LastWeek } from './summary.js';
import './home.css';

/**
 * The home page: what needs the user first (GET /api/v1/attention: failures with Retry,
 * accounts to reconnect), then what comes next (the next scheduled threads, today's free queue
 * slots), then the last 7 days at a glance. Every list is read once when the page opens (a few
 * requests: the account's limit is 60 a minute); Retry reads the attention list and the threads again.
 */

export function HomePage() {
  const { api, account } = useApp();
  const zone = account.timezone;
  const { providers, error: providersError } = useProviders(api, account.activeTeamId);
  const threadsSetup = useThreadsSetup(api);
  const [attention, setAttention] = useState<AttentionItem[] | null>(null);
  const [threads, setThreads] = useState<TaggedThread[] | null>(null);
  const [slots, setSlots] = useState<FreeSlot[] | null>(null);
  const [analytics, setAnalytics] = useState<ProviderAnalytics[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const today = todayIn(zone);

  useEffect(() => {
    document.title = 'Home · Skein';
  }, []);

  const fail = (err: unknown) => setError(err instanceof ApiError ? err.detail : String(err));
  /** The attention list and the threads around today: read when the page opens and after a Retry. */
  // The attention list is shown once the threads are in too (it names each thread by its text): nothing moves as they arrive.
  const reload = async () => {
    await Promise.all([
      api.attention
        .list(account.activeTeamId ?? 'personal')
        .then(setAttention)
        .catch((err) => {
          setAttention([]);
          fail(err);
        }),
      api.threads
        .list({ from: `${addDays(today, -7)}T00:00:00`, to: `${addDays(today, 14)}T23:59:59` })
        .then(setThreads)
        .catch((err) => {
          setThreads([]);
          fail(err);
        }),
    ]);
  };
  useEffect(() => {
    void reload();
  }, [api, account.activeTeamId]);

  // The accounts' free queue instants, and per account its analytics of the last 7 days.
  useEffect(() => {
    if (providers === null) return;
    // A week of every account's free instants in one request (weekly slots: none in it means
    // none set, or all taken); today's are shown.
    const active = new Set(providers.filter((p) => p.status === 'ACTIVE').map((p) => p.id));
    api.timeSlots
      .free({ from: `${today}T00:00:00`, to: `${addDays(today, 7)}T23:59:59` })
      .then((free) => setSlots(free.filter((s) => active.has(s.providerId))))
      .catch(() => setSlots([]));
    Promise.all(
      providers
        .filter((p) => p.status !== 'REVOKED')
        .map((p) => api.analytics.get(p.id, { from: `${addDays(today, -6)}T00:00:00`, to: `${today}T23:59:59` }).catch(() => null)),
    ).then((all) => setAnalytics(all.filter((a) => a !== null)));
  }, [api, providers]);

  return (
    <div class="stack home-page">
      <h1>Home</h1>
      <p class="hint">
        Signed in as <strong>{account.email}</strong>; times are shown in <strong>{zone}</strong>. Scripts and other tools read the same list through the{' '}
        <a href="/docs">API</a> (<code>GET /api/v1/attention</code>).
      </p>
      <FormMessage message={providersError ?? error} />
      {providers !== null && providers.length === 0 && (
        <section class="card get-started" aria-labelledby="home-start">
          <h2 id="home-start">Get started</h2>
          <p>
            No account is connected yet. <a href="/accounts">Connect a Threads or Bluesky account</a>, then write your first thread.
          </p>
        </section>
      )}
      <AttentionSection
        items={threads === null ? null : attention}
        threads={threads ?? []}
        providers={providers ?? []}
        threadsOAuthReady={threadsSetup.setup?.oauthReady ?? false}
        onChanged={reload}
      />
      <ComingNext threads={threads} slots={slots} providers={providers ?? []} hasProviders={providers === null || providers.length > 0} />
      <LastWeek threads={threads} analytics={analytics} providers={providers ?? []} />
    </div>
  );
}
