import { type Answer, type Client, ok } from './client.js';

/** What needs the user now (GET /api/v1/attention): the home page's first list. */

export type AttentionItem = Answer<'/api/v1/attention', 'get'>['items'][number];

/**
 * The items the home page shows: the newest 100, in one request. An agency's backlog of failures
 * is not read whole on every visit; each item names its thread itself (`threadText`).
 */
const FIRST_PAGE = '100';

export function attentionApi(client: Client) {
  return {
    /** A workspace's newest items (a team id or "personal"; by default the active one), one request: `more` tells whether older ones are left out. */
    first: async (teamId?: string): Promise<{ items: AttentionItem[]; more: boolean }> => {
      const page = await ok(client.GET('/api/v1/attention', { params: { query: { ...(teamId ? { teamId } : {}), limit: FIRST_PAGE } } }));
      return { items: page.items, more: !!page.nextCursor };
    },
  };
}
