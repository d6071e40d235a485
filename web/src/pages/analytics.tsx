import { useEffect, useId, useState } from 'preact/hooks';
import type { ProviderAnalytics as AnalyticsView, Followers } from '../api/analytics.js';
import type { ApiError } from '../api/client.js';
import type { Provider } from '../api/providers.js';
import { useApp } from '../app-state.js';
import { FormMessage } from '../form.js';
import { providerLabel, useProviders } from '../providers.js';
import { addDays, formatDay, formatInZone, todayIn } from '../time.js';
import './analytics.css';
import { networkHref } from '../network-links.js';

/**
 * Analytics: per account, views, likes, replies and reposts per day over a range (small bar
 * charts, each with a table), the follower count over time, and the top posts.
 */

const METRICS = ['views', 'likes', 'replies', 'reposts'] as const;
type Metric = (typeof METRICS)[number];
const METRIC_NAMES: Record<Metric, string> = { views: 'Views', likes: 'Likes', replies: 'Replies', reposts: 'Reposts' };

type Counts = AnalyticsView['totals'];
type DayCounts = AnalyticsView['days'][number];
type TopPost = AnalyticsView['topPosts'][number];

const RANGES = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 365 days' },
];

function shortDate(date: string): string {
  return formatDay(date, { day: 'numeric', month: 'short' });
}

function number(n: number | null): string {
  return n === null ? '–' : new Intl.NumberFormat().format(n);
}

export function AnalyticsPage() {
  const { api, account } = useApp();
  const { providers, error: providersError } = useProviders(api, account.activeTeamId);
  const [providerId, setProviderId] = useState<string | null>(null);
  const [rangeDays, setRangeDays] = useState(30);
  const providerFieldId = useId();
  const rangeFieldId = useId();
  useEffect(() => {
    document.title = 'Analytics · Skein';
  }, []);
  useEffect(() => {
    if (providers && !providers.some((p) => p.id === providerId)) {
      setProviderId((providers.find((p) => p.status === 'ACTIVE') ?? providers[0])?.id ?? null);
    }
  }, [providers]);

  const provider = providers?.find((p) => p.id === providerId) ?? null;
  return (
    <div class="stack analytics-page">
      <h1>Analytics</h1>
      <div class="card analytics-controls">
        <div class="field">
          <label for={providerFieldId}>Account</label>
          <select
            id={providerFieldId}
            name="providerId"
            value={providerId ?? ''}
            disabled={!providers?.length}
            onChange={(e) => setProviderId((e.currentTarget as HTMLSelectElement).value)}
          >
            {providers === null && <option value="">Loading…</option>}
            {providers?.length === 0 && <option value="">No accounts connected</option>}
            {providers?.map((p) => (
              <option key={p.id} value={p.id}>
                {providerLabel(p)}
                {p.status === 'ACTIVE' ? '' : ` (${p.status.toLowerCase()})`}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={rangeFieldId}>Range</label>
          <select id={rangeFieldId} name="range" value={String(rangeDays)} onChange={(e) => setRangeDays(Number((e.currentTarget as HTMLSelectElement).value))}>
            {RANGES.map((r) => (
              <option key={r.days} value={String(r.days)}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {providersError && <FormMessage message={`The accounts could not be loaded: ${providersError}`} />}
      {providers?.length === 0 && (
        <p>
          No accounts yet: <a href="/accounts">connect one</a> to see its analytics.
        </p>
      )}
      {provider && <ProviderAnalytics key={`${provider.id} ${rangeDays}`} provider={provider} rangeDays={rangeDays} />}
    </div>
  );
}

function ProviderAnalytics({ provider, rangeDays }: { provider: Provider; rangeDays: number }) {
  const { api, account } = useApp();
  const [data, setData] = useState<AnalyticsView | null>(null);
  const [followers, setFollowers] = useState<Followers | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const to = todayIn(account.timezone);
    const from = addDays(to, -(rangeDays - 1));
    const range = { from: `${from}T00:00:00`, to: `${to}T23:59:59` };
    api.analytics
      .get(provider.id, range)
      .then(setData)
      .catch((err: ApiError) => setError(err.detail));
    api.analytics
      .followers(provider.id, range)
      .then(setFollowers)
      .catch(() => setFollowers({ providerId: provider.id, current: null, history: [] }));
  }, [api, provider.id, rangeDays, account.timezone]);

  if (error) return <FormMessage message={`The analytics could not be loaded: ${error}`} />;
  return (
    <>
      <section class="card" aria-labelledby="per-day-heading">
        <h2 id="per-day-heading">Per day</h2>
        <Totals totals={data?.totals ?? null} />
        <div class="charts">
          {METRICS.map((m) => (
            <MetricChart key={m} metric={m} days={data?.days ?? null} notReported={data?.totals[m] === null} />
          ))}
        </div>
        {data && <DaysTable days={data.days} />}
      </section>
      <FollowerSection followers={followers} />
      <TopPosts posts={data?.topPosts ?? null} />
    </>
  );
}

function Totals({ totals }: { totals: Counts | null }) {
  return (
    <dl class="totals">
      <div>
        <dt>Posts</dt>
        <dd>{totals ? number(totals.posts) : '…'}</dd>
      </div>
      {METRICS.map((m) => (
        <div key={m}>
          <dt>{METRIC_NAMES[m]}</dt>
          <dd>{totals ? number(totals[m]) : '…'}</dd>
        </div>
      ))}
    </dl>
  );
}

const CHART_W = 300;
const CHART_H = 80;

/**
 * One metric per day as bars; days without a value are gaps. `notReported`: no post of the range
 * has the metric (the network does not report it, or nothing was fetched yet).
 */
function MetricChart({ metric, days, notReported }: { metric: Metric; days: DayCounts[] | null; notReported: boolean }) {
  const values = (days ?? []).map((d) => d[metric]);
  const reported = values.filter((v): v is number => v !== null);
  const peak = reported.length ? Math.max(...reported) : 0;
  const max = Math.max(1, peak);
  const total = reported.reduce((a, b) => a + b, 0);
  const peakIndex = values.indexOf(peak);
  const name = METRIC_NAMES[metric];
  const summary =
    days === null
      ? `${name} per day: loading`
      : notReported
        ? `${name} per day: not reported for these days`
        : `${name} per day from ${shortDate(days[0]!.date)} to ${shortDate(days[days.length - 1]!.date)}: ${number(total)} in all${
            total > 0 ? `, most on ${shortDate(days[peakIndex]!.date)} (${number(peak)})` : ''
          }`;
  const slot = values.length ? CHART_W / values.length : CHART_W;
  return (
    <figure class="chart">
      <figcaption>
        <span>{name}</span>
        <span class="chart-max">{days && !notReported ? `max ${number(peak)}` : ''}</span>
      </figcaption>
      <svg viewBox={`0 0 ${CHART_W} ${CHART_H}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        <line x1="0" y1={CHART_H - 0.5} x2={CHART_W} y2={CHART_H - 0.5} class="axis" vector-effect="non-scaling-stroke" />
        {values.map((v, i) =>
          v === null || v === 0 ? null : (
            <rect key={days![i]!.date} x={i * slot + slot * 0.15} width={slot * 0.7} y={CHART_H - (v / max) * (CHART_H - 2)} height={(v / max) * (CHART_H - 2)}>
              <title>{`${shortDate(days![i]!.date)}: ${number(v)}`}</title>
            </rect>
          ),
        )}
      </svg>
      <div class="chart-axis" aria-hidden="true">
        <span>{days?.length ? shortDate(days[0]!.date) : ''}</span>
        <span>{days?.length ? shortDate(days[days.length - 1]!.date) : ''}</span>
      </div>
      {days !== null && notReported && <p class="hint">Not reported by this network, or not fetched yet.</p>}
    </figure>
  );
}

function DaysTable({ days }: { days: DayCounts[] }) {
  return (
    <details class="days-table">
      <summary>The numbers per day (table)</summary>
      <div class="table-wrap">
        <table class="numbers">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Posts</th>
              {METRICS.map((m) => (
                <th key={m} scope="col">
                  {METRIC_NAMES[m]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{d.date}</th>
                <td>{number(d.posts)}</td>
                {METRICS.map((m) => (
                  <td key={m}>{number(d[m])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function FollowerSection({ followers }: { followers: Followers | null }) {
  const { account } = useApp();
  const history = followers?.history ?? [];
  const counts = history.map((h) => h.count);
  const min = Math.min(...counts);
  const max = Math.max(...counts);
  const span = Math.max(1, max - min);
  const points = history
    .map((h, i) => `${history.length === 1 ? CHART_W / 2 : (i / (history.length - 1)) * CHART_W},${CHART_H - 4 - ((h.count - min) / span) * (CHART_H - 8)}`)
    .join(' ');
  const summary =
    history.length === 0
      ? 'Follower count over time: no counts recorded in this range'
      : `Follower count from ${shortDate(history[0]!.date)} (${number(history[0]!.count)}) to ${shortDate(history[history.length - 1]!.date)} (${number(history[history.length - 1]!.count)})`;
  return (
    <section class="card" aria-labelledby="followers-heading">
      <h2 id="followers-heading">Followers</h2>
      <p class="followers-now">
        {followers === null ? (
          '…'
        ) : followers.current ? (
          <>
            <strong>{number(followers.current.count)}</strong> followers{' '}
            <span class="hint">(counted {formatInZone(followers.current.fetchedAt, account.timezone, { dateStyle: 'medium' })})</span>
          </>
        ) : (
          <span class="hint">Not counted yet: Skein counts followers once a day, and shortly after an account is connected.</span>
        )}
      </p>
      <figure class="chart">
        <svg viewBox={`0 0 ${CHART_W} ${CHART_H}`} preserveAspectRatio="none" role="img" aria-label={summary}>
          <line x1="0" y1={CHART_H - 0.5} x2={CHART_W} y2={CHART_H - 0.5} class="axis" vector-effect="non-scaling-stroke" />
          {history.length > 1 && <polyline points={points} class="line" vector-effect="non-scaling-stroke" />}
          {history.length === 1 && <line x1="0" x2={CHART_W} y1={CHART_H / 2} y2={CHART_H / 2} class="line" vector-effect="non-scaling-stroke" />}
        </svg>
        <div class="chart-axis" aria-hidden="true">
          <span>{history.length ? `${shortDate(history[0]!.date)}: ${number(counts[0]!)}` : ''}</span>
          <span>{history.length ? `${shortDate(history[history.length - 1]!.date)}: ${number(counts[counts.length - 1]!)}` : ''}</span>
        </div>
      </figure>
    </section>
  );
}

function TopPosts({ posts }: { posts: TopPost[] | null }) {
  const { account } = useApp();
  return (
    <section class="card" aria-labelledby="top-heading">
      <h2 id="top-heading">Top posts</h2>
      {posts === null ? (
        <p class="hint">Loading…</p>
      ) : posts.length === 0 ? (
        <p class="hint">No published posts in this range.</p>
      ) : (
        <div class="table-wrap">
          <table class="keys numbers">
            <thead>
              <tr>
                <th scope="col">Published</th>
                {METRICS.map((m) => (
                  <th key={m} scope="col">
                    {METRIC_NAMES[m]}
                  </th>
                ))}
                <th scope="col">Post</th>
              </tr>
            </thead>
            <tbody>
              {posts.map((p) => (
                <tr key={p.postId}>
                  <td data-label="Published">{formatInZone(p.publishedAt, account.timezone, { dateStyle: 'medium' })}</td>
                  {METRICS.map((m) => (
                    <td key={m} data-label={METRIC_NAMES[m]}>
                      {number(p[m])}
                    </td>
                  ))}
                  <td data-label="Post">
                    {networkHref(p.permaLink) ? (
                      <a href={networkHref(p.permaLink)!} target="_blank" rel="noopener noreferrer">
                        Open<span class="visually-hidden"> the post of {formatInZone(p.publishedAt, account.timezone, { dateStyle: 'medium' })}</span>
                      </a>
                    ) : (
                      'no link yet'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
