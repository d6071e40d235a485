import { addressPolicy } from '../lib/ip-policy.js';
import { postWebhook, signatureHeader } from '../lib/webhook-http.js';
import { type ClaimedDelivery, deliveryQueue, recordAttempt } from '../repos/webhook-deliveries.js';
import { runDue } from './claim.js';
import type { PublishDeps } from './deps.js';

/**
 * Webhook deliveries (decisions.md "Events: webhooks"), run by the publisher like its other
 * claimable work: claimed with a lease, renewed by the heartbeat, handed back at shutdown, taken
 * over after a crash (at least once). Each attempt is a signed POST of `{ id, type, createdAt,
 * data }`; a 2xx within 10 s delivers it, anything else is a failed attempt, retried with
 * `webhookBackoffMs` until 24 h have passed since the event's delivery was due first.
 */

/** decisions.md: "anything but a 2xx within 10 s" fails the attempt. */
const WEBHOOK_TIMEOUT_MS = 10_000;
/** Retrying goes on until the first failed attempt after this long; then the delivery is FAILED. */
export const WEBHOOK_RETRY_FOR_MS = 24 * 3600_000;
const FIRST_RETRY_MS = 60_000;
const MAX_BACKOFF_MS = 3600_000;

/**
 * The wait after failed attempt `attempt` (1, 2, …): 60 s doubling to at most 1 h, each drawn
 * from the upper half (50–100 %) so the first retry is never later than 60 s and deliveries
 * failed together spread out. Over 24 h that is about 30 attempts.
 */
function webhookBackoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), MAX_BACKOFF_MS);
  return Math.round(base * (0.5 + random() * 0.5));
}

/** The body sent, byte for byte what is signed. */
function webhookBody(delivery: Pick<ClaimedDelivery, 'event_id' | 'type' | 'event_created_at' | 'data'>): string {
  return JSON.stringify({ id: delivery.event_id, type: delivery.type, createdAt: new Date(delivery.event_created_at).toISOString(), data: delivery.data });
}

/** Claims due deliveries and sends them all at once (each waits on a different endpoint); returns how many were claimed. */
export function runDueWebhookDeliveries(deps: PublishDeps, limit: number): Promise<number> {
  return runDue(
    deps,
    deliveryQueue,
    limit,
    (delivery) => deliver(deps, delivery),
    { what: 'webhook delivery', ids: (delivery) => ({ eventId: delivery.event_id, webhookId: delivery.webhook_id }) },
    true,
  );
}

async function deliver(deps: PublishDeps, delivery: ClaimedDelivery): Promise<void> {
  const { ctx } = deps;
  const body = webhookBody(delivery);
  const result = await postWebhook({
    url: delivery.url,
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Skein-Webhooks/1',
      'skein-signature': signatureHeader(ctx.secrets.decrypt(delivery.secret_enc), Math.floor(ctx.clock.now().getTime() / 1000), body),
      'skein-event-id': delivery.event_id,
      'skein-event-type': delivery.type,
    },
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    lookup: ctx.dnsLookup,
    allowAddress: addressPolicy(ctx.config.media.allowPrivate),
  });
  const now = ctx.clock.now();
  const delivered = result.status !== null && result.status >= 200 && result.status < 300;
  const error = result.status === null ? result.error : delivered ? null : `answered HTTP ${result.status}`;
  const givingUp = !delivered && now.getTime() - new Date(delivery.created_at).getTime() >= WEBHOOK_RETRY_FOR_MS;
  const retryAt = delivered || givingUp ? null : new Date(now.getTime() + webhookBackoffMs(delivery.attempts));
  ctx.metrics.webhookAttempt(delivered ? 'delivered' : 'failed');
  if (!delivered) {
    ctx.logger.info(
      { eventId: delivery.event_id, webhookId: delivery.webhook_id, attempt: delivery.attempts, error, retryAt },
      givingUp ? 'webhook delivery failed; giving up after 24 h' : 'webhook delivery failed; will retry',
    );
  }
  await recordAttempt(ctx.db, delivery, deps.workerId, { delivered, responseStatus: result.status, error, retryAt }, now);
}
