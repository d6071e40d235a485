import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api.js';

/**
 * Connected network accounts (providers) of the active workspace, shared by the Accounts and
 * Analytics pages, and the date helpers both use.
 */

export type Network = 'THREADS' | 'BLUESKY';
export type ProviderStatus = 'ACTIVE' | 'EXPIRED' | 'REVOKED';

export interface Provider {
  id: string;
  provider: Network;
  providerUserId: string;
  username: string;
  teamId: string | null;
  status: ProviderStatus;
  connectedAt: string;
}

export const NETWORK_NAMES: Record<Network, string> = { THREADS: 'Threads', BLUESKY: 'Bluesky' };

export function providerLabel(p: Provider): string {
  return `@${p.username} on ${NETWORK_NAMES[p.provider]}`;
}

/** The providers list, `null` while it loads; `reload` fetches it again. */
export function useProviders(api: Api, teamId: string | null) {
  const [providers, setProviders] = useState<Provider[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = async () => {
    try {
      const r = await api.get<{ providers: Provider[] }>(`/api/v1/providers?teamId=${encodeURIComponent(teamId ?? 'personal')}`);
      setProviders(r.providers);
      setError(null);
    } catch (err) {
      setProviders([]);
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  useEffect(() => {
    void reload();
  }, [api, teamId]);
  return { providers, error, reload };
}

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/** A YYYY-MM-DD date moved by whole days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** An instant as a weekday, date and time of a zone ("Mon, 30 Nov, 09:00"). */
export function formatInstant(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone }).format(
    new Date(iso),
  );
}

/** An instant as a date of a zone ("30 Nov 2026"). */
export function formatDate(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone }).format(new Date(iso));
}
