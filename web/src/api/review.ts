import { type Answer, type Client, ok, type RequestBody } from './client.js';

/**
 * Review links: a team's admins create, list and revoke them (reviewLinksApi); the page a link
 * opens reads and acts without sign-in, the link's token its only credential (reviewApi).
 */

export type ReviewLink = Answer<'/api/v1/review-links', 'get'>['reviewLinks'][number];
export type NewReviewLink = RequestBody<'/api/v1/review-links', 'post'>;
export type ReviewPage = Answer<'/api/v1/review/{token}', 'get'>;
export type ReviewThread = ReviewPage['threads'][number];

export function reviewLinksApi(client: Client) {
  return {
    list: async (teamId: string) => (await ok(client.GET('/api/v1/review-links', { params: { query: { teamId } } }))).reviewLinks,
    /** The new link with its url (shown only once: its token is not kept). */
    create: (body: NewReviewLink) => ok(client.POST('/api/v1/review-links', { body })),
    revoke: (id: string) => ok(client.DELETE('/api/v1/review-links/{id}', { params: { path: { id } } })),
  };
}

export function reviewApi(client: Client) {
  const at = (token: string, threadId: string) => ({ params: { path: { token, threadId } } });
  return {
    page: (token: string) => ok(client.GET('/api/v1/review/{token}', { params: { path: { token } } })),
    approve: async (token: string, threadId: string, name: string) =>
      (await ok(client.POST('/api/v1/review/{token}/threads/{threadId}/approve', { ...at(token, threadId), body: { name } }))).thread,
    reject: async (token: string, threadId: string, name: string, note: string) =>
      (await ok(client.POST('/api/v1/review/{token}/threads/{threadId}/reject', { ...at(token, threadId), body: { name, note: note.trim() || null } }))).thread,
    comment: (token: string, threadId: string, name: string, text: string) =>
      ok(client.POST('/api/v1/review/{token}/threads/{threadId}/comments', { ...at(token, threadId), body: { name, text } })),
  };
}
