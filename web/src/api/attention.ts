import { type Answer, type Client, ok } from './client.js';
import { everyPage, PAGE_LIMIT } from './threads.js';

/** What needs the user now (GET /api/v1/attention): the home page's first list. */

export type AttentionItem = Answer<'/api/v1/attention', 'get'>['items'][number];

export function attentionApi(client: Client) {
  return {
    /** A workspace's items (a team id or "personal"; by default the active one), newest first. */
    list: (teamId?: string): Promise<AttentionItem[]> =>
      everyPage(async (cursor) => {
        const page = await ok(
          client.GET('/api/v1/attention', { params: { query: { ...(teamId ? { teamId } : {}), limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) } } }),
        );
        return { items: page.items, nextCursor: page.nextCursor };
      }),
  };
}
