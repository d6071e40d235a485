import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { createFollowUp, createFollowUpFaults, deleteFollowUp, listFollowUps, retryFollowUp } from '../../services/threads/follow-ups.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { ThreadIdParams, withProblems } from '../schemas/common.js';
import { CreateFollowUpBody, DeletedFollowUp, FollowUp, FollowUpList, FollowUpParams } from '../schemas/follow-ups.js';
import { RetryBody } from '../schemas/threads.js';

const tags = ['Follow-ups'];

export const followUpRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/api/v1/posts/:threadId/follow-ups', {
    config: {
      access: ACCESS.createFollowUp,
      contentFaults: (request) => createFollowUpFaults(ctx, caller(request), (request.params as { threadId: string }).threadId, request.body),
    },
    schema: {
      tags,
      summary: "Add a reply published delayMinutes after the thread's last post (at most 10 per thread)",
      params: ThreadIdParams,
      body: CreateFollowUpBody,
      response: withProblems({ 201: FollowUp }, [409]),
    },
    handler: async (request, reply) => reply.status(201).send(await createFollowUp(ctx, caller(request), request.params.threadId, request.body)),
  });

  app.get('/api/v1/posts/:threadId/follow-ups', {
    config: { access: ACCESS.listFollowUps },
    schema: {
      tags,
      summary: "A thread's follow-ups, by dueAt (unscheduled last), then creation",
      params: ThreadIdParams,
      response: withProblems({ 200: FollowUpList }),
    },
    handler: async (request) => {
      const followUps = await listFollowUps(ctx, caller(request), request.params.threadId);
      return { followUps, count: followUps.length };
    },
  });

  app.delete('/api/v1/posts/:threadId/follow-ups/:id', {
    config: { access: ACCESS.deleteFollowUp },
    schema: {
      tags,
      summary: "Delete a follow-up (Skein's record only; a published reply stays on the network)",
      params: FollowUpParams,
      response: withProblems({ 200: DeletedFollowUp }, [409]),
    },
    handler: async (request) => deleteFollowUp(ctx, caller(request), request.params.threadId, request.params.id),
  });

  app.post('/api/v1/posts/:threadId/follow-ups/:id/retry', {
    config: { access: ACCESS.retryFollowUp },
    schema: {
      tags,
      summary: 'Publish a FAILED follow-up again, now or at scheduleAt',
      params: FollowUpParams,
      body: RetryBody,
      response: withProblems({ 200: FollowUp }, [409]),
    },
    // The body is optional, as for a thread's retry: no body means "retry now".
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => retryFollowUp(ctx, caller(request), request.params.threadId, request.params.id, request.body?.scheduleAt),
  });
};
