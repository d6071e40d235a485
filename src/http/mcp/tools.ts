import { type Static, type TObject, Type } from '@sinclair/typebox';
import { AnalyticsQuery } from '../schemas/analytics.js';
import { AttentionQuery } from '../schemas/attention.js';
import { Id } from '../schemas/common.js';
import { ImportJsonBody } from '../schemas/import.js';
import { MediaFromUrlBody, UploadQuery } from '../schemas/media.js';
import { CreatePostBody, EditThreadBody, ListPostsQuery, RescheduleBody, RetryBody, TeamQuery } from '../schemas/threads.js';
import { NextTimeSlotsQuery } from '../schemas/time-slots.js';

/** The REST request a tool call becomes: the route's own path, query, body and headers. */
export interface RestRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  query?: Record<string, string>;
  body?: unknown;
  /** If-Match, from the tool's `etag` argument. */
  ifMatch?: string;
  /** Set on the tools whose route takes an Idempotency-Key (creates and imports). */
  idempotent?: boolean;
}

/** A REST answer as the tool gives it back. */
interface RestAnswer {
  body: unknown;
  etag: string | undefined;
}

export interface Tool<S extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** A change (not a read): MCP's readOnlyHint is the opposite. */
  writes: boolean;
  destructive?: boolean;
  request(args: Static<S>): RestRequest;
  /** What the model reads back; the REST body by default. */
  answer?(rest: RestAnswer): unknown;
}

const TIME_RULE =
  "Times such as 2026-12-01T09:00:00 without an offset are read in the user's Skein account time zone (get_account shows it); add Z or ±hh:mm to give an instant.";

const Etag = Type.String({
  description: 'The etag get_thread answered (such as "12", quotes included). A thread changed since is refused (PRECONDITION_FAILED): read it again.',
});
const IdempotencyKey = Type.String({
  minLength: 1,
  maxLength: 255,
  description:
    'Optional: the same key with the same arguments never creates twice (kept 24 hours). Without it, one is derived from the tool, its arguments and your API key, so an exact retry creates nothing new.',
});
const ThreadId = { threadId: Id };

/** A query's defined values, as the route's query string. */
function queryOf(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(args).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])));
}

function tool<S extends TObject>(definition: Tool<S>): Tool {
  return definition as unknown as Tool;
}

/** The MCP tools, each one REST operation (decisions.md "Agents: MCP (implementation)"). */
export const TOOLS: Tool[] = [
  tool({
    name: 'get_account',
    title: "The user's Skein account",
    description:
      'The Skein account the API key acts for: its email, its time zone (every time you write without an offset is read in it) and its active workspace. Call it once before writing times.',
    input: Type.Object({}),
    writes: false,
    request: () => ({ method: 'GET', url: '/api/v1/account' }),
  }),
  tool({
    name: 'list_accounts',
    title: 'List connected accounts',
    description:
      'The connected social accounts (providers) of the workspace: id, network, handle, status and limits. Use it first: the other tools name a social account by its id (providerId).',
    input: TeamQuery,
    writes: false,
    request: (args) => ({ method: 'GET', url: '/api/v1/providers', query: queryOf(args) }),
  }),
  tool({
    name: 'list_networks',
    title: 'List networks and their limits',
    description:
      "Each network's facts: characters per post, posts per thread, media per post and the options it takes (replyControl, polls, quotes, languages). Read it before writing for a network you do not know.",
    input: Type.Object({}),
    writes: false,
    request: () => ({ method: 'GET', url: '/api/v1/networks' }),
  }),
  tool({
    name: 'list_threads',
    title: 'List scheduled and published threads',
    description: `Threads scheduled or published between from and to, optionally of one account (providerId) or one approval state (approval: PENDING, APPROVED or REJECTED, in a team whose writers' threads wait for an editor); include: "tags" adds each thread's tags. Drafts are not here: use list_drafts. ${TIME_RULE}`,
    input: ListPostsQuery,
    writes: false,
    request: (args) => ({ method: 'GET', url: '/api/v1/posts', query: queryOf(args) }),
  }),
  tool({
    name: 'get_thread',
    title: 'Get one thread',
    description:
      'One thread with its posts, status, time, permalinks and analytics, and its etag: pass that etag to edit_thread (and optionally to reschedule, delete or retry) so that you never overwrite a change you did not see.',
    input: Type.Object(ThreadId),
    writes: false,
    request: (args) => ({ method: 'GET', url: `/api/v1/posts/${encodeURIComponent(args.threadId)}` }),
    answer: (rest) => ({ etag: rest.etag, ...(rest.body as object) }),
  }),
  tool({
    name: 'create_thread',
    title: 'Create a thread or a draft',
    description: `Create a thread of one or more posts on one account (providerId from list_accounts). With scheduleAt it is scheduled; with queue: true it takes the account's next free time slot; with neither it is a draft. Optional: tags, repeat, network options, media by URL (an upload's url or a public image URL). ${TIME_RULE} A refusal names every faulty field by its path (posts.0.text).`,
    input: Type.Object({ ...CreatePostBody.properties, idempotencyKey: Type.Optional(IdempotencyKey) }),
    writes: true,
    request: ({ idempotencyKey: _key, ...body }) => ({ method: 'POST', url: '/api/v1/posts', body, idempotent: true }),
  }),
  tool({
    name: 'edit_thread',
    title: 'Replace the posts of a thread',
    description: `Replace all posts of a thread not yet published (posts with an id keep it, posts without one are new, posts left out are deleted), with the etag get_thread gave. Also sets tags (the complete set) and scheduleAt or queue: true in the same change. ${TIME_RULE}`,
    input: Type.Object({ ...ThreadId, etag: Etag, ...EditThreadBody.properties }),
    writes: true,
    request: ({ threadId, etag, ...body }) => ({ method: 'PUT', url: `/api/v1/posts/${encodeURIComponent(threadId)}/edit`, body, ifMatch: etag }),
  }),
  tool({
    name: 'reschedule_thread',
    title: 'Reschedule a thread',
    description: `Move a thread not yet published (or schedule a draft) to scheduleAt. ${TIME_RULE}`,
    input: Type.Object({ ...ThreadId, etag: Type.Optional(Etag), ...RescheduleBody.properties }),
    writes: true,
    request: ({ threadId, etag, ...body }) => ({ method: 'PUT', url: `/api/v1/posts/${encodeURIComponent(threadId)}/reschedule`, body, ifMatch: etag }),
  }),
  tool({
    name: 'delete_thread',
    title: 'Delete a thread',
    description:
      "Delete a thread from Skein (a draft, a scheduled or a failed one, or the record of a published one: what is already on the network stays there). Can't be undone.",
    input: Type.Object({ ...ThreadId, etag: Type.Optional(Etag) }),
    writes: true,
    destructive: true,
    request: ({ threadId, etag }) => ({ method: 'DELETE', url: `/api/v1/posts/${encodeURIComponent(threadId)}`, ifMatch: etag }),
  }),
  tool({
    name: 'retry_thread',
    title: 'Retry a failed thread',
    description: `Publish a FAILED thread again from its first unpublished post: now, or at scheduleAt. ${TIME_RULE}`,
    input: Type.Object({ ...ThreadId, etag: Type.Optional(Etag), ...RetryBody.properties }),
    writes: true,
    request: ({ threadId, etag, ...body }) => ({ method: 'POST', url: `/api/v1/posts/${encodeURIComponent(threadId)}/retry`, body, ifMatch: etag }),
  }),
  tool({
    name: 'list_drafts',
    title: 'List drafts',
    description: 'The drafts (threads without a time) of the workspace. Schedule one with reschedule_thread, or edit it with edit_thread.',
    input: TeamQuery,
    writes: false,
    request: (args) => ({ method: 'GET', url: '/api/v1/posts/drafts', query: queryOf(args) }),
  }),
  tool({
    name: 'next_slots',
    title: "An account's next free time slots",
    description:
      'The next free instants (UTC) of the account\'s weekly posting schedule, earliest first: count (a whole number written as a string, "1" to "50"; default "5"). create_thread with queue: true takes the first.',
    input: NextTimeSlotsQuery,
    writes: false,
    request: (args) => ({ method: 'GET', url: '/api/v1/time-slots/next', query: queryOf(args) }),
  }),
  tool({
    name: 'upload_media_from_url',
    title: 'Upload an image or video from a URL',
    description:
      "Fetch the image (JPEG, PNG, WebP, GIF) or video (MP4, MOV) at a public URL and keep it in Skein's media: answers its id and url. Put that url in a post's media (create_thread, edit_thread) with altText. Any public image URL also works in media directly; an upload is checked now and served by Skein.",
    input: Type.Object({ ...MediaFromUrlBody.properties, ...UploadQuery.properties }),
    writes: true,
    request: ({ url, teamId }) => ({ method: 'POST', url: '/api/v1/media/from-url', query: queryOf({ teamId }), body: { url } }),
  }),
  tool({
    name: 'get_analytics',
    title: "An account's analytics",
    description: `Totals (views, likes, replies, reposts…), every day in the user's time zone and the top posts of one account (providerId) between from and to. ${TIME_RULE}`,
    input: AnalyticsQuery,
    writes: false,
    request: (args) => ({ method: 'GET', url: '/api/v1/analytics', query: queryOf(args) }),
  }),
  tool({
    name: 'get_attention',
    title: 'What needs the user',
    description:
      'What needs the user now, newest first: failed threads (with the network\'s error: retry_thread), accounts to reconnect, threads due on them. Check it when asked "is everything OK?".',
    input: AttentionQuery,
    writes: false,
    request: (args) => ({ method: 'GET', url: '/api/v1/attention', query: queryOf(args) }),
  }),
  tool({
    name: 'import_threads',
    title: 'Import many threads at once',
    description: `Create up to 1,000 threads at once, all or nothing: rows are create_thread bodies (without idempotencyKey). Run it first with dryRun: true to see every row's faults (rows.N.posts.0.text) without creating anything, then without dryRun. ${TIME_RULE}`,
    input: Type.Object({
      rows: ImportJsonBody,
      dryRun: Type.Optional(Type.Boolean({ description: 'true: check and answer as the import would, creating nothing' })),
      teamId: Type.Optional(Type.String()),
      idempotencyKey: Type.Optional(IdempotencyKey),
    }),
    writes: true,
    request: ({ rows, dryRun, teamId }) => ({
      method: 'POST',
      url: '/api/v1/posts/import',
      query: queryOf({ dryRun, teamId }),
      body: rows,
      idempotent: dryRun !== true,
    }),
  }),
];
