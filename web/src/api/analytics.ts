import { type Answer, type Client, ok } from './client.js';

/** A provider's analytics and follower counts over a range of days. */

export type ProviderAnalytics = Answer<'/api/v1/analytics', 'get'>;
export type Followers = Answer<'/api/v1/providers/{id}/followers', 'get'>;

/** `from` and `to`: local `YYYY-MM-DDThh:mm:ss` of the account's zone. */
interface Range {
  from: string;
  to: string;
}

export function analyticsApi(client: Client) {
  return {
    get: (providerId: string, range: Range) => ok(client.GET('/api/v1/analytics', { params: { query: { providerId, ...range } } })),
    followers: (providerId: string, range: Range) => ok(client.GET('/api/v1/providers/{id}/followers', { params: { path: { id: providerId }, query: range } })),
  };
}
