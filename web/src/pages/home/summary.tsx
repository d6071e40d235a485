import type { AnalyticsSummary } from '../../api/analytics.js';
import type { Provider } from '../../api/providers.js';
import { type ListedThread, threadPath } from '../../api/threads.js';
import { useApp } from '../../app-state.js';
import { networkHref } from '../../network-links.js';
import { providerLabel } from '../../providers.js';
import { dateKey, formatInZone, partsIn } from '../../time.js';
import { snippet } from './attention.js';

export interface FreeSlot {
  providerId: string;
  at: string;
}

/** "Coming next" and "Last 7 days": the home page's summaries, from List Posts, the queue's free times and the workspace's analytics summary. */

export const SHOWN_NEXT = 5;

/** The account of a thread (a thread names its network account, not its provider id). */
function accountOf(thread: ListedThread, providers: Provider[]): string {
  const p = providers.find((x) => x.provider === thread.provider && x.providerUserId === thread.providerUserId);
  return p ? providerLabel(p) : `@${thread.providerUserId}`;
}

export function ComingNext(props: { threads: ListedThread[] | null; slots: FreeSlot[] | null; providers: Provider[]; hasProviders: boolean }) {
  const { account } = useApp();
  const zone = account.timezone;
  const now = Date.now();
  const next = (props.threads ?? [])
    .filter((t) => t.status === 'READY' && t.scheduledAt && Date.parse(t.scheduledAt) >= now)
    .sort((a, b) => Date.parse(a.scheduledAt!) - Date.parse(b.scheduledAt!))
    .slice(0, SHOWN_NEXT);
  const today = dateKey(partsIn(new Date(), zone));
  const todaySlots = (props.slots ?? []).filter((s) => dateKey(partsIn(s.at, zone)) === today).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const time = (at: string) => formatInZone(at, zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return (
    <section class="card coming-next" aria-labelledby="home-next">
      <h2 id="home-next">Coming next</h2>
      <h3 id="home-next-threads" class="sub first">
        Next scheduled threads
      </h3>
      {props.threads === null ? (
        <p class="status">Loading…</p>
      ) : next.length === 0 ? (
        <p class="empty">
          Nothing is scheduled in the next two weeks.{' '}
          {props.hasProviders ? <a href="/threads/new">Write a thread</a> : <a href="/accounts">Connect an account</a>} to fill the queue.
        </p>
      ) : (
        <ol class="next-threads" aria-labelledby="home-next-threads">
          {next.map((t) => (
            <li key={t.threadId}>
              <time dateTime={t.scheduledAt!}>{formatInZone(t.scheduledAt!, zone)}</time> <a href={threadPath(t.threadId)}>{snippet(t, 100) ?? 'A thread'}</a>{' '}
              <span class="account">{accountOf(t, props.providers)}</span>
            </li>
          ))}
        </ol>
      )}
      <h3 id="home-next-slots" class="sub">
        Free queue slots today
      </h3>
      {props.slots === null ? (
        <p class="status">Loading…</p>
      ) : todaySlots.length === 0 ? (
        <p class="empty">
          {props.slots.length === 0 ? (
            <>
              No free posting times: set an account's weekly posting times on <a href="/accounts">Accounts</a>, then add threads to its queue.
            </>
          ) : (
            'No free posting time is left today.'
          )}
        </p>
      ) : (
        <ul class="free-slots" aria-labelledby="home-next-slots">
          {todaySlots.map((s) => {
            const p = props.providers.find((x) => x.id === s.providerId);
            return (
              <li key={`${s.providerId}-${s.at}`}>
                <a href={`/threads/new?at=${encodeURIComponent(s.at)}&providerId=${encodeURIComponent(s.providerId)}`}>
                  <time dateTime={s.at}>{time(s.at)}</time>
                  <span class="visually-hidden"> free: write a thread</span>
                </a>{' '}
                <span class="account">{p ? providerLabel(p) : ''}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The workspace's last 7 days (GET /api/v1/analytics/summary): its published and failed threads, and its top post. */
export function LastWeek(props: { summary: AnalyticsSummary | 'unread' | null; providers: Provider[] }) {
  const { account } = useApp();
  const summary = props.summary === 'unread' ? null : props.summary;
  // A post counts once the network has given a count for it (analytics are read after publishing):
  // the summary's order puts such a post first whenever there is one.
  const top = summary?.topPosts.find((p) => p.views !== null || p.likes !== null);
  const topProvider = top ? props.providers.find((p) => p.id === top.providerId) : undefined;
  const n = (v: number | null | undefined) => (v === null || v === undefined ? '–' : new Intl.NumberFormat().format(v));
  return (
    <section class="card last-week" aria-labelledby="home-week">
      <h2 id="home-week">Last 7 days</h2>
      {props.summary === 'unread' ? (
        <p class="empty">The last 7 days could not be read.</p>
      ) : summary === null ? (
        <p class="status">Loading…</p>
      ) : (
        <>
          <dl class="week-totals">
            <div>
              <dt>Published</dt>
              <dd data-count="published">{summary.published}</dd>
            </div>
            <div>
              <dt>Failed</dt>
              <dd data-count="failed">{summary.failed}</dd>
            </div>
          </dl>
          {summary.published === 0 && summary.failed === 0 && <p class="empty">Nothing was published in the last 7 days.</p>}
          <h3 id="home-top" class="sub">
            Top post
          </h3>
          {top ? (
            <p class="top-post">
              <a href={threadPath(top.threadId)}>{top.text ?? 'A post'}</a> <span class="account">{topProvider ? providerLabel(topProvider) : ''}</span>:{' '}
              {n(top.views)} views, {n(top.likes)} likes, published{' '}
              <time dateTime={top.publishedAt}>{formatInZone(top.publishedAt, account.timezone, { dateStyle: 'medium' })}</time>
              {networkHref(top.permaLink) && (
                <>
                  {' '}
                  · <a href={networkHref(top.permaLink)!}>View on the network</a>
                </>
              )}
            </p>
          ) : (
            <p class="empty">No analytics yet: they are read from the network in the hours after a post is published.</p>
          )}
        </>
      )}
    </section>
  );
}
