import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { createWebhook, createWebhookFaults, deleteWebhook, listDeliveries, listWebhooks, testWebhook } from '../../services/notices/webhooks.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { withProblems } from '../schemas/common.js';
import {
  CreatedWebhook,
  CreateWebhookBody,
  DeletedWebhook,
  DeliveriesQuery,
  DeliveryList,
  ListWebhooksQuery,
  QueuedPing,
  TestBody,
  WebhookIdParams,
  WebhookList,
} from '../schemas/webhooks.js';

const tags = ['Webhooks'];

export const webhookRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/api/v1/webhooks', {
    config: { access: ACCESS.createWebhook, contentFaults: (request) => createWebhookFaults(ctx, request.body) },
    schema: {
      tags,
      summary: 'Add a webhook to a workspace: its events are POSTed, signed, to url (the secret is shown only in this answer)',
      body: CreateWebhookBody,
      response: withProblems({ 201: CreatedWebhook }, [409]),
    },
    handler: async (request, reply) => reply.status(201).send(await createWebhook(ctx, caller(request), request.body)),
  });

  app.get('/api/v1/webhooks', {
    config: { access: ACCESS.listWebhooks },
    schema: { tags, summary: "A workspace's webhooks (no secrets)", querystring: ListWebhooksQuery, response: withProblems({ 200: WebhookList }) },
    handler: async (request) => {
      const webhooks = await listWebhooks(ctx, caller(request), request.query);
      return { webhooks, count: webhooks.length };
    },
  });

  app.delete('/api/v1/webhooks/:id', {
    config: { access: ACCESS.deleteWebhook },
    schema: {
      tags,
      summary: 'Delete a webhook (its pending deliveries are dropped)',
      params: WebhookIdParams,
      response: withProblems({ 200: DeletedWebhook }),
    },
    handler: async (request) => deleteWebhook(ctx, caller(request), request.params.id),
  });

  app.post('/api/v1/webhooks/:id/test', {
    config: { access: ACCESS.testWebhook },
    schema: {
      tags,
      summary: 'Queue a ping event for this webhook; it is sent (and retried) like any event',
      params: WebhookIdParams,
      body: TestBody,
      response: withProblems({ 202: QueuedPing }),
    },
    // An empty body counts as no body, and means the same as {}.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => reply.status(202).send(await testWebhook(ctx, caller(request), request.params.id)),
  });

  app.get('/api/v1/webhooks/:id/deliveries', {
    config: { access: ACCESS.listDeliveries },
    schema: {
      tags,
      summary: "A webhook's delivery attempts, newest first: the latest 100, or pages of limit (cursor: the previous page's nextCursor)",
      params: WebhookIdParams,
      querystring: DeliveriesQuery,
      response: withProblems({ 200: DeliveryList }),
    },
    handler: async (request) => {
      const { deliveries, nextCursor } = await listDeliveries(ctx, caller(request), request.params.id, request.query);
      return nextCursor === undefined ? { deliveries, count: deliveries.length } : { deliveries, count: deliveries.length, nextCursor };
    },
  });
};
