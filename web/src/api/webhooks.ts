import { type Answer, type Client, ok, type RequestBody } from './client.js';

/** A workspace's webhook endpoints and their delivery attempts. */

export type Webhook = Answer<'/api/v1/webhooks', 'get'>['webhooks'][number];
export type WebhookEvent = Webhook['events'][number];
export type Delivery = Answer<'/api/v1/webhooks/{id}/deliveries', 'get'>['deliveries'][number];
export type NewWebhook = RequestBody<'/api/v1/webhooks', 'post'>;
/** The new endpoint, with its signing secret (shown only once). */
export type NewWebhookAnswer = Answer<'/api/v1/webhooks', 'post'>;

export function webhooksApi(client: Client) {
  const hook = (id: string) => ({ params: { path: { id } } });
  return {
    list: async (teamId: string) => (await ok(client.GET('/api/v1/webhooks', { params: { query: { teamId } } }))).webhooks,
    /** The new endpoint, with its signing secret (shown only once). */
    create: (body: NewWebhook) => ok(client.POST('/api/v1/webhooks', { body })),
    delete: (id: string) => ok(client.DELETE('/api/v1/webhooks/{id}', hook(id))),
    /** Queues a ping to the endpoint. */
    test: (id: string) => ok(client.POST('/api/v1/webhooks/{id}/test', { ...hook(id), body: {} })),
    deliveries: async (id: string) => (await ok(client.GET('/api/v1/webhooks/{id}/deliveries', hook(id)))).deliveries,
  };
}
