import { type Answer, type Client, ok, type RequestBody } from './client.js';

/** The calling user's email notifications: whether email is on, and which kinds come when. */

export type EmailSettings = Answer<'/api/v1/account/notifications', 'get'>;
export type EmailKind = keyof EmailSettings['kinds'];
export type EmailDelivery = EmailSettings['kinds'][EmailKind];
type EmailChange = RequestBody<'/api/v1/account/notifications', 'patch'>;

export function notificationsApi(client: Client) {
  return {
    get: () => ok(client.GET('/api/v1/account/notifications')),
    /** Changes the kinds and the digest given, in one request. */
    save: (change: EmailChange) => ok(client.PATCH('/api/v1/account/notifications', { body: change })),
  };
}
