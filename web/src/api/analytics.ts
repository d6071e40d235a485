import { type Answer, type Client, ok } from './client.js';

/** A provider's analytics and follower counts over a range of days. */

export type ProviderAnalytics = Answer<'/api/v1/analytics', 'get'>;
export type AnalyticsSummary = Answer<'/api/v1/analytics/summary', 'get'>;
export type Followers = Answer<'/api/v1/providers/{id}/followers', 'get'>;

/** `from` and `to`: local `YYYY-MM-DDThh:mm:ss` of the account's zone. */
interface Range {
  from: string;
  to: string;
}

export function analyticsApi(client: Client) {
  return {
    get: (providerId: string, range: Range) => ok(client.GET('/api/v1/analytics', { params: { query: { providerId, ...range } } })),
    /**
     * The workspace's range at a glance (its threads published and failed, its top posts across
     * every account, each with its text): one request whatever the number of accounts.
     */
    summary: (range: Range, teamId?: string) => ok(client.GET('/api/v1/analytics/summary', { params: { query: { ...range, ...(teamId ? { teamId } : {}) } } })),
    followers: (providerId: string, range: Range) => ok(client.GET('/api/v1/providers/{id}/followers', { params: { path: { id: providerId }, query: range } })),
  };
}
