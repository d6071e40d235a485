import { type Answer, type Client, ok } from './client.js';

/** What needs the user now (GET /api/v1/attention): the home page's first list. */

export type AttentionItem = Answer<'/api/v1/attention', 'get'>['items'][number];

export function attentionApi(client: Client) {
  return {
    /** A workspace's items (a team id or "personal"; by default the active one), newest first. */
    list: async (teamId?: string): Promise<AttentionItem[]> =>
      (await ok(client.GET('/api/v1/attention', { params: { query: teamId ? { teamId } : {} } }))).items,
  };
}
