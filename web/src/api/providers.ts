import { type Answer, type Client, ok, type RequestBody } from './client.js';
import type { paths } from './openapi.js';

/** Connected network accounts (providers), connecting them, and their weekly time slots. */

export type Provider = Answer<'/api/v1/providers', 'get'>['providers'][number];
export type Network = Provider['provider'];
export type ProviderStatus = Provider['status'];
export type ConnectPick = Answer<'/api/v1/providers/connect/picks/{id}', 'get'>;
export type ThreadsSetup = Answer<'/api/v1/providers/threads/setup', 'get'>;
export type XSetup = Answer<'/api/v1/providers/x/setup', 'get'>;
/** A network that connects through its sign-in page, as its connect path names it. */
type OAuthNetwork = paths['/api/v1/providers/{network}/connect']['get']['parameters']['path']['network'];
export type BlueskySignIn = RequestBody<'/api/v1/providers/bluesky', 'post'>;
export type TimeSlot = Answer<'/api/v1/time-slots', 'get'>['timeSlots'][number];
export type NewTimeSlot = RequestBody<'/api/v1/time-slots', 'post'>;

export function providersApi(client: Client) {
  return {
    /** The accounts of a workspace (a team id or "personal"), or of the active one. */
    list: async (teamId?: string) => (await ok(client.GET('/api/v1/providers', { params: { query: teamId ? { teamId } : {} } }))).providers,
    connectBluesky: (body: BlueskySignIn) => ok(client.POST('/api/v1/providers/bluesky', { body })),
    connectThreadsToken: (accessToken: string) => ok(client.POST('/api/v1/providers/threads', { body: { accessToken } })),
    /** What the server's settings allow for Threads' own sign-in, read before any click. */
    threadsSetup: () => ok(client.GET('/api/v1/providers/threads/setup')),
    /** What the server's settings allow for X's sign-in, read before any click. */
    xSetup: () => ok(client.GET('/api/v1/providers/x/setup')),
    /** The address of a network's sign-in page (every OAuth network, one path); its redirect back ends on the accounts page. */
    authorizeUrl: async (network: OAuthNetwork) =>
      (await ok(client.GET('/api/v1/providers/{network}/connect', { params: { path: { network }, query: { returnTo: 'web' } } }))).authorizeUrl,
    /** The address of the Mastodon server's sign-in page (Skein registers itself there first); its redirect back ends on the accounts page. */
    mastodonAuthorizeUrl: async (instance: string) =>
      (await ok(client.POST('/api/v1/providers/mastodon/connect', { body: { instance, returnTo: 'web' } }))).authorizeUrl,
    connectMastodonToken: (body: { instance: string; accessToken: string }) => ok(client.POST('/api/v1/providers/mastodon', { body })),
    /** Confirms a connect started with an API key, in the browser the network sent back (signed in as the account that started it). */
    confirmConnect: (state: string) => ok(client.POST('/api/v1/providers/connect/confirm', { body: { state } })),
    /** The accounts a sign-in offered (LinkedIn's member and pages), to pick from. */
    pick: (id: string) => ok(client.GET('/api/v1/providers/connect/picks/{id}', { params: { path: { id } } })),
    /** Adds the offered accounts picked; the others are forgotten. */
    completePick: async (id: string, providerUserIds: string[]) =>
      (await ok(client.POST('/api/v1/providers/connect/picks/{id}', { params: { path: { id } }, body: { providerUserIds } }))).providers,
    disconnect: (id: string) => ok(client.DELETE('/api/v1/providers/{id}', { params: { path: { id } } })),
  };
}

export function timeSlotsApi(client: Client) {
  return {
    list: async (providerId: string) => (await ok(client.GET('/api/v1/time-slots', { params: { query: { providerId } } }))).timeSlots,
    /** The provider's next free slots (instants). */
    next: async (providerId: string, count: number) =>
      (await ok(client.GET('/api/v1/time-slots/next', { params: { query: { providerId, count: String(count) } } }))).slots,
    /** Every free slot instant of the workspace's providers (or one) from `from` to `to`, local times: one request for a calendar view. */
    free: async (query: { from: string; to: string; providerId?: string }) => (await ok(client.GET('/api/v1/time-slots/free', { params: { query } }))).slots,
    add: (body: NewTimeSlot) => ok(client.POST('/api/v1/time-slots', { body })),
    delete: (id: string) => ok(client.DELETE('/api/v1/time-slots/{id}', { params: { path: { id } } })),
  };
}
