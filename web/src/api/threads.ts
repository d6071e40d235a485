import { type Answer, answer, type Client, ifMatch, ok, type RequestBody } from './client.js';
import type { components } from './openapi.js';

/** Threads (the API's posts routes), their tags and follow-up replies. */

export type Thread = components['schemas']['Thread'];
type Post = Thread['posts'][number];
export type PostAnalytics = NonNullable<Post['analytics']>;
export type SpoilerRange = Post['spoilerRanges'][number];
export type ListedThread = Answer<'/api/v1/posts', 'get'>['threads'][number];
/** A thread of List Posts asked with `include=tags`: its tags come with it, in the same request. */
export type TaggedThread = ListedThread & { tags: NonNullable<ListedThread['tags']> };
export type Draft = Answer<'/api/v1/posts/drafts', 'get'>['drafts'][number];
/** Threads per local day of a range (a calendar's month of any size in one request). */
export type ThreadDays = Answer<'/api/v1/posts/days', 'get'>;
export type ThreadDay = ThreadDays['days'][number];
export type Tag = Answer<'/api/v1/tags', 'get'>['tags'][number];
export type FollowUp = Answer<'/api/v1/posts/{threadId}/follow-ups', 'get'>['followUps'][number];
export type NewThread = RequestBody<'/api/v1/posts', 'post'>;
export type ThreadEdit = RequestBody<'/api/v1/posts/{threadId}/edit', 'put'>;
export type NewFollowUp = RequestBody<'/api/v1/posts/{threadId}/follow-ups', 'post'>;
export type ImportAnswer = Answer<'/api/v1/posts/import', 'post'>;
export type ImportFile = { csv: string } | { rows: NewThread[] };
export type ApprovalState = NonNullable<Thread['approval']>['state'];
export type Comment = Answer<'/api/v1/posts/{threadId}/comments', 'get'>['comments'][number];

/** List Posts spans at most 366 days: the threads waiting in `state` are read a year back and a year ahead. */
const YEAR_MS = 366 * 86_400_000;
const instant = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

const thread = (threadId: string) => ({ params: { path: { threadId } } });

/**
 * Items per page of a paged list (the API's most). A range holding more than the unpaged answer's
 * cap (2,000 threads, 1,000 attention items: an agency's month) is a 400 without `limit`, so the
 * app always pages and reads on while there is a `nextCursor`.
 */
export const PAGE_LIMIT = '1000';

/** Every item of a paged list: `fetchPage` with each `nextCursor` in turn, from the first page. */
async function everyPage<T>(fetchPage: (cursor: string | null) => Promise<{ items: T[]; nextCursor?: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    cursor = page.nextCursor ?? null;
  } while (cursor);
  return items;
}

export function threadsApi(client: Client) {
  return {
    /** A thread and its ETag: a change sent with it (If-Match) is refused if the thread changed since. */
    get: async (threadId: string) => {
      const { body, etag } = await answer(client.GET('/api/v1/posts/{threadId}', thread(threadId)));
      return { thread: body.thread, etag };
    },
    /** Threads scheduled or published between two local times of the account's zone, with their tags. */
    list: async (query: { from: string; to: string; providerId?: string }): Promise<TaggedThread[]> =>
      (
        await everyPage(async (cursor) => {
          const page = await ok(
            client.GET('/api/v1/posts', { params: { query: { ...query, include: 'tags', limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) } } }),
          );
          return { items: page.threads, nextCursor: page.nextCursor };
        })
      ).map((t) => ({ ...t, tags: t.tags ?? [] })),
    /** Threads per local date of the account's zone in a range of at most 62 days, by status and approval. */
    days: (query: { from: string; to: string; providerId?: string; tagId?: string }) => ok(client.GET('/api/v1/posts/days', { params: { query } })),
    /** One page of a range's threads (of one tag, with `tagId`) with their tags, `limit` a page, from `cursor` (null: the first page). */
    page: async (query: { from: string; to: string; providerId?: string; tagId?: string }, limit: number, cursor: string | null) => {
      const page = await ok(
        client.GET('/api/v1/posts', { params: { query: { ...query, include: 'tags', limit: String(limit), ...(cursor ? { cursor } : {}) } } }),
      );
      return { threads: page.threads.map((t): TaggedThread => ({ ...t, tags: t.tags ?? [] })), nextCursor: page.nextCursor ?? null };
    },
    /** The active workspace's threads in one approval state, scheduled from a year ago to a year ahead, earliest first. */
    inApproval: async (approval: ApprovalState): Promise<ListedThread[]> => {
      const now = Date.now();
      const ranges = [
        { from: instant(now - YEAR_MS), to: instant(now) },
        { from: instant(now), to: instant(now + YEAR_MS) },
      ];
      const lists = await Promise.all(
        ranges.map((range) =>
          everyPage(async (cursor) => {
            const page = await ok(client.GET('/api/v1/posts', { params: { query: { ...range, approval, limit: PAGE_LIMIT, ...(cursor ? { cursor } : {}) } } }));
            return { items: page.threads, nextCursor: page.nextCursor };
          }),
        ),
      );
      // Both ends are included: a thread at the very second both ranges share comes twice.
      return [...new Map(lists.flat().map((t) => [t.threadId, t])).values()];
    },
    /** `note`: why, shown to the writer (optional). Sent with the ETag read: a 412 if the thread changed since. */
    decide: (threadId: string, decision: 'approve' | 'reject', note: string | null, etag: string | null) => {
      const request = { params: { path: { threadId }, header: ifMatch(etag) }, body: note ? { note } : {} };
      return answer(
        decision === 'approve' ? client.POST('/api/v1/posts/{threadId}/approve', request) : client.POST('/api/v1/posts/{threadId}/reject', request),
      );
    },
    drafts: async () => (await ok(client.GET('/api/v1/posts/drafts'))).drafts,
    create: (body: NewThread) => ok(client.POST('/api/v1/posts', { body })),
    /** The whole thread in one request: posts, tags and the time (or the queue). */
    edit: (threadId: string, body: ThreadEdit, etag: string | null) =>
      ok(client.PUT('/api/v1/posts/{threadId}/edit', { params: { path: { threadId }, header: ifMatch(etag) }, body })),
    /** `at`: a local `YYYY-MM-DDThh:mm:ss` of the account's zone. */
    reschedule: (threadId: string, at: string) => ok(client.PUT('/api/v1/posts/{threadId}/reschedule', { ...thread(threadId), body: { scheduleAt: at } })),
    retry: (threadId: string, etag: string | null) =>
      ok(client.POST('/api/v1/posts/{threadId}/retry', { params: { path: { threadId }, header: ifMatch(etag) }, body: {} })),
    delete: (threadId: string, etag: string | null) => ok(client.DELETE('/api/v1/posts/{threadId}', { params: { path: { threadId }, header: ifMatch(etag) } })),
    refreshAnalytics: async (threadId: string) =>
      (await ok(client.POST('/api/v1/posts/{threadId}/analytics/refresh', { ...thread(threadId), body: {} }))).thread,
    tags: async (threadId: string) => (await ok(client.GET('/api/v1/posts/{threadId}/tags', thread(threadId)))).tags,
    /**
     * Bulk import, all or nothing: a CSV file's text, or JSON rows (Create Post bodies). With
     * `dryRun` the server checks everything and creates nothing (its faults are an ApiError).
     */
    import: (file: ImportFile, dryRun: boolean) => {
      const query = { params: { query: dryRun ? { dryRun: 'true' as const } : {} } };
      return 'csv' in file
        ? ok(
            client.POST('/api/v1/posts/import', {
              ...query,
              body: file.csv,
              headers: { 'content-type': 'text/csv' },
              bodySerializer: (csv: unknown) => csv as string,
            }),
          )
        : ok(client.POST('/api/v1/posts/import', { ...query, body: file.rows }));
    },
  };
}

export function tagsApi(client: Client) {
  return {
    /** The workspace's tags. */
    list: async () => (await ok(client.GET('/api/v1/tags'))).tags,
  };
}

export function followUpsApi(client: Client) {
  return {
    list: async (threadId: string) => (await ok(client.GET('/api/v1/posts/{threadId}/follow-ups', thread(threadId)))).followUps,
    add: (threadId: string, body: NewFollowUp) => ok(client.POST('/api/v1/posts/{threadId}/follow-ups', { ...thread(threadId), body })),
    delete: (threadId: string, id: string) => ok(client.DELETE('/api/v1/posts/{threadId}/follow-ups/{id}', { params: { path: { threadId, id } } })),
    /** A FAILED follow-up published again now. */
    retry: (threadId: string, id: string) =>
      ok(client.POST('/api/v1/posts/{threadId}/follow-ups/{id}/retry', { params: { path: { threadId, id } }, body: {} })),
  };
}

export function commentsApi(client: Client) {
  return {
    /** A thread's comments, oldest first. */
    list: async (threadId: string) => (await ok(client.GET('/api/v1/posts/{threadId}/comments', thread(threadId)))).comments,
    /** On the thread, or on one of its posts (`postId`). */
    add: (threadId: string, text: string, postId: string | null) =>
      ok(client.POST('/api/v1/posts/{threadId}/comments', { ...thread(threadId), body: { text, ...(postId ? { postId } : {}) } })),
  };
}

/** The provider a thread belongs to (a thread names its network account, not the provider id). */
export function providerOf<P extends { provider: string; providerUserId: string }>(
  t: Pick<Thread, 'provider' | 'providerUserId'>,
  providers: P[],
): P | undefined {
  return providers.find((p) => p.provider === t.provider && p.providerUserId === t.providerUserId);
}

/** The web app's address of a thread's page (the editor). */
export function threadPath(threadId: string): string {
  return `/threads/${encodeURIComponent(threadId)}`;
}
