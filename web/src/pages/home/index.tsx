import { useEffect, useState } from 'preact/hooks';
import type { AnalyticsSummary } from '../../api/analytics.js';
import type { AttentionItem } from '../../api/attention.js';
import { ApiError } from '../../api/client.js';
import type { ListedThread } from '../../api/threads.js';
import { useApp } from '../../app-state.js';
import { FormMessage } from '../../form.js';
import { useProviders } from '../../providers.js';
import { addDays, todayIn } from '../../time.js';
import { useThreadsSetup } from '../connect-threads.js';
import { AttentionSection } from './attention.js';
import { ComingNext, type FreeSlot, LastWeek, SHOWN_NEXT } from './summary.js';
import './home.css';

/**
 * The home page: what needs the user first (GET /api/v1/attention: failures with Retry,
 * accounts to reconnect), then what comes next (the next scheduled threads, today's free queue
 * slots), then the last 7 days at a glance. Each part is one bounded request, whatever the number
 * of accounts and threads (issue 43: an agency's 100 accounts and 3,000 threads a day): the
 * attention list's first page (each item names its thread), one page of List Posts from now, the
 * free slots, and the workspace's analytics summary. With the accounts and the Threads setup the
 * page makes six requests (the account's limit is 60 a minute); Retry reads the attention list,
 * the next threads and the summary again.
 */

/** Threads of List Posts read for "Coming next": one page from now (see nextThreads). */
const NEXT_PAGE = 50;
const DAY_MS = 86_400_000;
/** An instant as the API's range takes it (UTC, to the millisecond: a thread failed a moment ago is in the range ending now). */
const instant = (ms: number) => new Date(ms).toISOString();

export function HomePage() {
  const { api, account } = useApp();
  const zone = account.timezone;
  const { providers, error: providersError } = useProviders(api, account.activeTeamId);
  const threadsSetup = useThreadsSetup(api);
  const [attention, setAttention] = useState<{ items: AttentionItem[]; more: boolean } | null>(null);
  const [next, setNext] = useState<ListedThread[] | null>(null);
  const [slots, setSlots] = useState<FreeSlot[] | null>(null);
  const [week, setWeek] = useState<AnalyticsSummary | 'unread' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const today = todayIn(zone);
  const teamId = account.activeTeamId ?? 'personal';

  useEffect(() => {
    document.title = 'Home · Skein';
  }, []);

  const fail = (err: unknown) => setError(err instanceof ApiError ? err.detail : String(err));

  /**
   * The next READY threads: List Posts from now to two weeks ahead, earliest first, one page.
   * Every thread of that range is READY but the few a worker is publishing this very second (a
   * thread is published only once due, and failed or published ones were due): a page of 50
   * holds the next five unless 45 are in flight at once; then one page more is read, never more.
   */
  const nextThreads = async (): Promise<ListedThread[]> => {
    const now = Date.now();
    const range = { from: instant(now), to: instant(now + 14 * DAY_MS) };
    const ready = (threads: ListedThread[]) => threads.filter((t) => t.status === 'READY');
    const first = await api.threads.page(range, NEXT_PAGE, null);
    if (ready(first.threads).length >= SHOWN_NEXT || !first.nextCursor) return first.threads;
    const second = await api.threads.page(range, NEXT_PAGE, first.nextCursor);
    return [...first.threads, ...second.threads];
  };

  /** The attention list, the next threads and the last 7 days: read when the page opens and after a Retry. */
  const reload = async () => {
    const now = Date.now();
    await Promise.all([
      // The last 7 days of the workspace, every account at once: one request.
      api.analytics
        .summary({ from: instant(now - 7 * DAY_MS), to: instant(now) }, teamId)
        .then(setWeek)
        .catch((err) => {
          setWeek('unread');
          fail(err);
        }),
      api.attention
        .first(teamId)
        .then(setAttention)
        .catch((err) => {
          setAttention({ items: [], more: false });
          fail(err);
        }),
      nextThreads()
        .then(setNext)
        .catch((err) => {
          setNext([]);
          fail(err);
        }),
    ]);
  };
  useEffect(() => {
    void reload();
  }, [api, account.activeTeamId]);

  // The accounts' free queue instants (a week of every account's in one request; today's are shown).
  useEffect(() => {
    if (providers === null) return;
    // Weekly slots: none in the week means none set, or all taken.
    const active = new Set(providers.filter((p) => p.status === 'ACTIVE').map((p) => p.id));
    api.timeSlots
      .free({ from: `${today}T00:00:00`, to: `${addDays(today, 7)}T23:59:59` })
      .then((free) => setSlots(free.filter((s) => active.has(s.providerId))))
      .catch(() => setSlots([]));
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
        items={attention?.items ?? null}
        more={attention?.more ?? false}
        providers={providers ?? []}
        threadsOAuthReady={threadsSetup.setup?.oauthReady ?? false}
        onChanged={reload}
      />
      <ComingNext threads={next} slots={slots} providers={providers ?? []} hasProviders={providers === null || providers.length > 0} />
      <LastWeek summary={week} providers={providers ?? []} />
    </div>
  );
}
