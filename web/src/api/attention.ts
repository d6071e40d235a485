import { type Answer, type Client, ok } from './client.js';
import { everyPage, PAGE_LIMIT } from './threads.js';

/** The items the home page shows: the newest, in one request (an agency's backlog of failures is not read whole). */
const FIRST_PAGE = '100';

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
    /** The newest items, one request: `more` tells whether older ones are left out. */
    first: async (teamId?: string): Promise<{ items: AttentionItem[]; more: boolean }> => {
      const page = await ok(client.GET('/api/v1/attention', { params: { query: { ...(teamId ? { teamId } : {}), limit: FIRST_PAGE } } }));
      return { items: page.items, more: !!page.nextCursor };
    },
  };
}
