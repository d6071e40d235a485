import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../db/schema/index.js';
import { Id, IsoDateTime, NextCursor, pageQuery, TeamIdQuery } from './common.js';

const EventType = Type.Unsafe<WebhookEventType>({ type: 'string', enum: [...WEBHOOK_EVENT_TYPES], description: 'An event type' });
const Url = Type.String({
  maxLength: 2048,
  description: 'https (or http); its host must resolve to public addresses only (checked again at each send)',
  examples: ['https://example.com/hooks/skein'],
});

export const CreateWebhookBody = Type.Object({
  url: Url,
  events: Type.Array(EventType, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, description: 'The event types to send, each once' }),
  teamId: TeamIdQuery,
});

const Webhook = Type.Object({
  id: Id,
  url: Type.String(),
  events: Type.Array(EventType),
  teamId: Type.Union([Type.String(), Type.Null()], { description: 'Null for the personal workspace' }),
  createdAt: IsoDateTime,
});

export const CreatedWebhook = Type.Object({
  id: Id,
  url: Type.String(),
  events: Type.Array(EventType),
  secret: Type.String({ description: 'The signing secret (`whsec_…`), shown only in this answer' }),
  createdAt: IsoDateTime,
});

export const ListWebhooksQuery = Type.Object({ teamId: TeamIdQuery });

export const WebhookList = Type.Object({ webhooks: Type.Array(Webhook), count: Type.Integer() });

export const WebhookIdParams = Type.Object({ id: Id });

export const DeletedWebhook = Type.Object({ deleted: Type.Literal(true), id: Id });

export const TestBody = Type.Object({}, { description: 'Empty: a `ping` event is queued for this webhook' });

export const QueuedPing = Type.Object({
  eventId: Id,
  type: Type.Literal('ping'),
});

const Delivery = Type.Object({
  eventId: Id,
  type: Type.String(),
  attempt: Type.Integer({ description: '1 for the first attempt of this event to this webhook' }),
  status: Type.Union([Type.Literal('DELIVERED'), Type.Literal('FAILED')]),
  responseStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status answered; null when none came in time' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed' }),
  at: IsoDateTime,
});

export const DeliveriesQuery = Type.Object(
  pageQuery('Attempts', 'Without limit and cursor: the latest 100, as ever; nextCursor is then given only when there are older ones.'),
);

export const DeliveryList = Type.Object({
  deliveries: Type.Array(Delivery, { description: 'Newest first (by at, then attempt id): the latest 100 without limit, or one page' }),
  count: Type.Integer({ description: 'The attempts in this answer' }),
  nextCursor: Type.Optional(NextCursor),
});
