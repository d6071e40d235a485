import { type Answer, type Client, ok } from './client.js';

/** What needs the user now (GET /api/v1/attention): the home page's first list. */

type AttentionItem = Answer<'/api/v1/attention', 'get'>['items'][number];

export function attentionApi(client: Client) {
  return {
    /** The active workspace's items, newest first. */
    list: async (): Promise<AttentionItem[]> => (await ok(client.GET('/api/v1/attention'))).items,
  };
}
