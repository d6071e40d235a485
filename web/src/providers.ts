import { useEffect, useState } from 'preact/hooks';
import { NETWORK_KINDS, NETWORKS, type NetworkKind } from '../../src/networks/index.js';
import type { Api } from './api/index.js';
import type { Network, Provider } from './api/providers.js';

/** Connected network accounts (providers) of the active workspace, shared by the Accounts and Analytics pages. */

/** Each network's name, from its entry in src/networks/ (which the API's kinds are checked against). */
export const NETWORK_NAMES: Record<Network, string> = Object.fromEntries(NETWORK_KINDS.map((kind) => [kind, NETWORKS[kind].name])) as Record<
  NetworkKind,
  string
>;

/** How many posts a thread may have on each of these networks (on every network when none is given). */
export function postsPerThread(networks: readonly Network[]): number {
  return Math.min(...(networks.length ? networks : NETWORK_KINDS).map((kind) => NETWORKS[kind].limits.postsPerThread));
}

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
