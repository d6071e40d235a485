import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api/index.js';
import type { Network, Provider } from './api/providers.js';

/** Connected network accounts (providers) of the active workspace, shared by the Accounts and Analytics pages. */

export const NETWORK_NAMES: Record<Network, string> = { THREADS: 'Threads', BLUESKY: 'Bluesky', MASTODON: 'Mastodon' };

export function providerLabel(p: Provider): string {
  return `@${p.username} on ${NETWORK_NAMES[p.provider]}`;
}

/** The providers list, `null` while it loads; `reload` fetches it again. */
export function useProviders(api: Api, teamId: string | null) {
  const [providers, setProviders] = useState<Provider[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = async () => {
    try {
      setProviders(await api.providers.list(teamId ?? 'personal'));
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
