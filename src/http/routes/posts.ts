import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { etagOf } from '../../lib/etag.js';
import { threadDays } from '../../services/threads/thread-days.js';
import { editPost, editPostFaults, editThread, editThreadFaults } from '../../services/threads/thread-edits.js';
import { listThreads } from '../../services/threads/thread-list.js';
import { createThread, deleteThread, getVersionedThread, listDrafts, readCreateBody, rescheduleThread, retryThread } from '../../services/threads/threads.js';
import { ACCESS } from '../access.js';
import { keptJson } from '../kept-json.js';
import { caller } from '../plugins/auth-and-limits.js';
import { ETagHeader, IfMatchHeaders, ifMatchOf } from '../preconditions.js';
import { Id, IsoDateTime, NextCursor, ThreadIdParams, withProblems } from '../schemas/common.js';
import {
  CreatePostBody,
  CreatePostResponse,
  Draft,
  EditPostBody,
  EditThreadBody,
  ListedThread,
  ListPostsQuery,
  RescheduleBody,
  RetryBody,
  TeamQuery,
  Thread,
  ThreadDays,
  ThreadDaysQuery,
} from '../schemas/threads.js';

const tags = ['Posts'];

export const postRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/posts', {
    config: { access: ACCESS.listPosts },
    schema: {
      tags,
      summary: 'List scheduled and published threads in a date range',
      querystring: ListPostsQuery,
      response: withProblems({
        200: Type.Object({
          threads: Type.Array(ListedThread, { description: 'By scheduledAt, then threadId' }),
          count: Type.Integer({ description: 'The threads in this answer (this page, when paged)' }),
          nextCursor: Type.Optional(NextCursor),
        }),
      }),
    },
    handler: async (request, reply) => {
      const list = await listThreads(ctx, caller(request), request.query);
      const { threads, nextCursor } = list;
      // A kept page is the kept object itself; an unpaged answer's kept part is its threads (the approval filter makes a new list).
      if (nextCursor !== undefined) return keptJson(reply, list, () => ({ threads, count: threads.length, nextCursor }), { compress: true });
      return keptJson(reply, threads, () => ({ threads, count: threads.length }), { compress: true });
    },
  });

  app.get('/api/v1/posts/days', {
    config: { access: ACCESS.threadDays },
    schema: {
      tags,
      summary: 'Threads per local day of a range of at most 62 days, by status (a calendar month of any size, in one request)',
      querystring: ThreadDaysQuery,
      response: withProblems({ 200: ThreadDays }),
    },
    handler: async (request) => threadDays(ctx, caller(request), request.query),
  });

  app.post('/api/v1/posts', {
    config: {
      access: ACCESS.createThread,
      contentFaults: async (request) => (await readCreateBody(ctx, caller(request), request.body, { now: ctx.clock.now() })).faults.list,
    },
    schema: {
      tags,
      summary: 'Create a thread (scheduled) or a draft (no scheduleAt)',
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
      body: CreatePostBody,
      response: withProblems({ 201: CreatePostResponse }, [409]),
    },
    handler: async (request, reply) => {
      const result = await createThread(ctx, caller(request), request.body, request.headers['idempotency-key']);
      return reply.status(201).send(result);
    },
  });

  app.get('/api/v1/posts/drafts', {
    config: { access: ACCESS.listDrafts },
    schema: {
      tags,
      summary: 'List drafts',
      querystring: TeamQuery,
      response: withProblems({ 200: Type.Object({ drafts: Type.Array(Draft), count: Type.Integer() }) }),
    },
    handler: async (request, reply) => {
      const list = await listDrafts(ctx, caller(request), request.query.teamId);
      return keptJson(reply, list, () => ({ drafts: list.drafts, count: list.drafts.length }), { compress: true });
    },
  });

  app.get('/api/v1/posts/:threadId', {
    config: { access: ACCESS.getThread },
    schema: {
      tags,
      summary: 'Get one thread with its posts and analytics',
      params: ThreadIdParams,
      response: withProblems({ 200: Type.Object({ thread: Thread }, { headers: ETagHeader }) }),
    },
    handler: async (request, reply) => {
      const found = await getVersionedThread(ctx, caller(request), request.params.threadId);
      reply.header('etag', etagOf(found.version));
      return keptJson(reply, found, () => ({ thread: found.thread }));
    },
  });

  app.delete('/api/v1/posts/:threadId', {
    config: { access: ACCESS.deleteThread },
    schema: {
      tags,
      summary: 'Delete a thread (Skein records only; published posts stay on the network)',
      params: ThreadIdParams,
      headers: IfMatchHeaders,
      response: withProblems({ 200: Type.Object({ deleted: Type.Boolean(), threadId: Id, postsDeleted: Type.Integer() }) }, [409]),
    },
    handler: async (request) => deleteThread(ctx, caller(request), request.params.threadId, ifMatchOf(request)),
  });

  app.patch('/api/v1/posts/:threadId/posts/:postId', {
    config: {
      access: ACCESS.editPost,
      contentFaults: (request) => {
        const { threadId, postId } = request.params as { threadId: string; postId: string };
        return editPostFaults(ctx, caller(request), threadId, postId, request.body);
      },
    },
    schema: {
      tags,
      summary: 'Edit one READY post',
      params: Type.Object({ threadId: Id, postId: Id }),
      headers: IfMatchHeaders,
      body: EditPostBody,
      response: withProblems(
        {
          200: Type.Object({
            postId: Id,
            threadId: Id,
            updated: Type.Object({
              content: Type.Boolean(),
              topic: Type.Boolean(),
              media: Type.Boolean(),
              spoilerRanges: Type.Boolean(),
              isSpoilerMedia: Type.Boolean(),
            }),
          }),
        },
        [409],
      ),
    },
    handler: async (request) => editPost(ctx, caller(request), request.params.threadId, request.params.postId, request.body, ifMatchOf(request)),
  });

  app.put('/api/v1/posts/:threadId/edit', {
    config: {
      access: ACCESS.editThread,
      contentFaults: (request) => editThreadFaults(ctx, caller(request), (request.params as { threadId: string }).threadId, request.body),
    },
    schema: {
      tags,
      summary: 'Replace all posts of a thread whose posts are all READY; with tags and scheduleAt or queue, save them in the same transaction',
      params: ThreadIdParams,
      headers: IfMatchHeaders,
      body: EditThreadBody,
      response: withProblems(
        {
          200: Type.Object({
            threadId: Id,
            postsUpdated: Type.Integer(),
            postsCreated: Type.Integer(),
            postsDeleted: Type.Integer(),
            totalPosts: Type.Integer(),
          }),
        },
        [409],
      ),
    },
    handler: async (request) => editThread(ctx, caller(request), request.params.threadId, request.body, ifMatchOf(request)),
  });

  app.put('/api/v1/posts/:threadId/reschedule', {
    config: { access: ACCESS.rescheduleThread },
    schema: {
      tags,
      summary: 'Change the scheduled time (also schedules a draft)',
      params: ThreadIdParams,
      headers: IfMatchHeaders,
      body: RescheduleBody,
      response: withProblems({ 200: Type.Object({ threadId: Id, scheduledAt: IsoDateTime, postsUpdated: Type.Integer() }) }, [409]),
    },
    handler: async (request) => rescheduleThread(ctx, caller(request), request.params.threadId, request.body.scheduleAt, ifMatchOf(request)),
  });

  app.post('/api/v1/posts/:threadId/retry', {
    config: { access: ACCESS.retryThread },
    schema: {
      tags,
      summary: 'Retry a FAILED thread after its last published post',
      params: ThreadIdParams,
      headers: IfMatchHeaders,
      body: RetryBody,
      response: withProblems({ 200: Type.Object({ thread: Thread }) }, [409]),
    },
    // The body is optional: no body means "retry now".
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => ({ thread: await retryThread(ctx, caller(request), request.params.threadId, request.body?.scheduleAt, ifMatchOf(request)) }),
  });
};
