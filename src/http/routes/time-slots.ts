import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { queueThread } from '../../services/threads/queue.js';
import { createTimeSlot, deleteTimeSlot, freeTimeSlots, listTimeSlots, nextTimeSlots } from '../../services/threads/time-slots.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { IfMatchHeaders, ifMatchOf } from '../preconditions.js';
import { Id, IsoDateTime, ThreadIdParams, withProblems } from '../schemas/common.js';
import {
  CreateTimeSlotBody,
  DeletedTimeSlot,
  FreeTimeSlots,
  FreeTimeSlotsQuery,
  ListTimeSlotsQuery,
  NextTimeSlots,
  NextTimeSlotsQuery,
  QueueBody,
  TimeSlot,
  TimeSlotIdParams,
  TimeSlotList,
} from '../schemas/time-slots.js';

const tags = ['Time slots'];

export const timeSlotRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/api/v1/time-slots', {
    config: { access: ACCESS.listTimeSlots },
    schema: {
      tags,
      summary: "List the time slots of a workspace's providers, by provider, day and time",
      querystring: ListTimeSlotsQuery,
      response: withProblems({ 200: TimeSlotList }),
    },
    handler: async (request) => {
      const timeSlots = await listTimeSlots(ctx, caller(request), request.query);
      return { timeSlots, count: timeSlots.length };
    },
  });

  app.post('/api/v1/time-slots', {
    config: { access: ACCESS.createTimeSlot },
    schema: {
      tags,
      summary: 'Add a weekly posting time to a provider',
      body: CreateTimeSlotBody,
      response: withProblems({ 201: TimeSlot }, [409]),
    },
    handler: async (request, reply) => reply.status(201).send(await createTimeSlot(ctx, caller(request), request.body)),
  });

  app.get('/api/v1/time-slots/next', {
    config: { access: ACCESS.nextTimeSlots },
    schema: {
      tags,
      summary: "A provider's next free time-slot instants after now, within 366 days",
      querystring: NextTimeSlotsQuery,
      response: withProblems({ 200: NextTimeSlots }),
    },
    handler: async (request) => nextTimeSlots(ctx, caller(request), request.query),
  });

  app.get('/api/v1/time-slots/free', {
    config: { access: ACCESS.freeTimeSlots },
    schema: {
      tags,
      summary: "Every free time-slot instant of the workspace's providers in a range of at most 62 days (a calendar's view, in one request)",
      querystring: FreeTimeSlotsQuery,
      response: withProblems({ 200: FreeTimeSlots }),
    },
    handler: async (request) => freeTimeSlots(ctx, caller(request), request.query),
  });

  app.delete('/api/v1/time-slots/:id', {
    config: { access: ACCESS.deleteTimeSlot },
    schema: {
      tags,
      summary: 'Delete a time slot (threads already scheduled stay where they are)',
      params: TimeSlotIdParams,
      response: withProblems({ 200: DeletedTimeSlot }),
    },
    handler: async (request) => deleteTimeSlot(ctx, caller(request), request.params.id),
  });

  app.post('/api/v1/posts/:threadId/queue', {
    config: { access: ACCESS.queueThread },
    schema: {
      tags: ['Posts', ...tags],
      summary: "Move a draft or a scheduled READY thread to its provider's next free time slot",
      params: ThreadIdParams,
      headers: IfMatchHeaders,
      body: QueueBody,
      response: withProblems({ 200: Type.Object({ threadId: Id, scheduledAt: IsoDateTime, postsUpdated: Type.Integer() }) }, [409]),
    },
    // An empty body counts as no body, and means the same as {}.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => queueThread(ctx, caller(request), request.params.threadId, ifMatchOf(request)),
  });
};
