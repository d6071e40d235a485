import type { AppContext } from '../../context.js';
import { type AccountRow, WEBHOOK_EVENT_TYPES, type WebhookEventType, type WebhookRow } from '../../db/schema/index.js';
import { Faults, type FieldFault, LimitReachedError, NotFoundError, ValidationError } from '../../errors/index.js';
import { GuardedFetchError, permittedAddresses } from '../../lib/guarded-fetch.js';
import { newId } from '../../lib/ids.js';
import { addressPolicy } from '../../lib/ip-policy.js';
import { cutPage, ID_KEY, keyAfter, type PageQuery, pageScope, readPage, TIME_KEY } from '../../lib/pages.js';
import { iso } from '../../lib/time.js';
import { generateWebhookSecret, webhookUrlFault } from '../../lib/webhook-http.js';
import { insertPing } from '../../repos/webhook-outbox.js';
import * as repo from '../../repos/webhooks.js';
import { canAccess, resolveWorkspace } from '../accounts/accounts.js';

/** Webhooks one workspace may have (decisions.md "Security rules": every stored set is bounded). */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;

/** decisions.md: the deliveries list shows the latest 100 attempts. */
const DELIVERIES_SHOWN = 100;
/** A name server that does not answer makes the request fail, not hang. */
const RESOLVE_TIMEOUT_MS = 5_000;

export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEventType[];
  teamId: string | null;
  createdAt: string;
}

function webhookView(row: WebhookRow): WebhookView {
  return { id: row.id, url: row.url, events: row.events, teamId: row.team_id, createdAt: iso(row.created_at) };
}

export interface CreateWebhookInput {
  url: string;
  events: string[];
  teamId?: string;
}

/**
 * Every content fault of a create body, the one check of both the writing path and the
 * validation guard's faults-only path (over the body's well-formed parts): the URL (http or https, and every address
 * its host resolves to public unless SKEIN_ALLOW_PRIVATE_MEDIA; the same rule as media, checked
 * again at each send) and the event types (each once; `events.<i>` names the fault).
 */
export async function createWebhookFaults(ctx: AppContext, body: unknown): Promise<FieldFault[]> {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const faults: FieldFault[] = [];
  if (typeof input.url === 'string') {
    const fault = webhookUrlFault(input.url) ?? (await addressFault(ctx, input.url));
    if (fault) faults.push({ path: 'url', message: fault });
  }
  if (Array.isArray(input.events)) {
    const seen = new Set<unknown>();
    // An unknown type is a fault of the schema's (its enum); here, a known one listed twice.
    input.events.forEach((type, i) => {
      if (typeof type !== 'string' || !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) return;
      if (seen.has(type)) faults.push({ path: `events.${i}`, message: `${type} is listed twice` });
      seen.add(type);
    });
  }
  return faults;
}

async function addressFault(ctx: AppContext, raw: string): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS);
    });
    await Promise.race([permittedAddresses(new URL(raw), ctx.dnsLookup, addressPolicy(ctx.config.media.allowPrivate)), timeout]);
    return null;
  } catch (err) {
    if (err instanceof GuardedFetchError && err.fault === 'refused-address')
      return `must not point at a private, loopback, link-local or reserved address: ${err.message}`;
    return 'its host name does not resolve';
  } finally {
    clearTimeout(timer);
  }
}

export async function createWebhook(ctx: AppContext, account: AccountRow, input: CreateWebhookInput): Promise<WebhookView & { secret: string }> {
  // No event at all is the schema's fault (minItems), on both paths.
  const faults = await createWebhookFaults(ctx, input);
  if (faults.length) throw new ValidationError(faults);
  const workspace = await resolveWorkspace(ctx.db, account, input.teamId);
  if ((await repo.countWebhooks(ctx.db, workspace)) >= MAX_WEBHOOKS_PER_WORKSPACE)
    throw new LimitReachedError(`A workspace has at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one first.`);
  const secret = generateWebhookSecret();
  const row = await repo.insertWebhook(ctx.db, {
    id: newId(),
    account_id: workspace.ownerAccountId ?? account.id,
    team_id: workspace.teamId,
    url: input.url,
    events: input.events as WebhookEventType[],
    secret_enc: ctx.secrets.encrypt(secret),
    created_at: ctx.clock.now(),
  });
  return { ...webhookView(row), secret };
}

export async function listWebhooks(ctx: AppContext, account: AccountRow, query: { teamId?: string }): Promise<WebhookView[]> {
  const workspace = await resolveWorkspace(ctx.db, account, query.teamId);
  return (await repo.listWebhooks(ctx.db, workspace)).map(webhookView);
}

/** The webhook when the caller's workspaces include it; 404 otherwise, the same as for an unknown id. */
async function requireWebhook(ctx: AppContext, account: AccountRow, id: string): Promise<WebhookRow> {
  const row = await repo.findWebhook(ctx.db, id);
  if (!row || !(await canAccess(ctx.db, account.id, row))) throw new NotFoundError(`Webhook ${id}`);
  return row;
}

export async function deleteWebhook(ctx: AppContext, account: AccountRow, id: string): Promise<{ deleted: true; id: string }> {
  const row = await requireWebhook(ctx, account, id);
  await repo.deleteWebhook(ctx.db, row.id);
  return { deleted: true, id: row.id };
}

/** Queues a `ping` to this webhook through the ordinary outbox and delivery; the publisher sends it. */
export async function testWebhook(ctx: AppContext, account: AccountRow, id: string): Promise<{ eventId: string; type: 'ping' }> {
  const row = await requireWebhook(ctx, account, id);
  const eventId = await insertPing(ctx.db, row, ctx.clock.now());
  ctx.scheduleSignal.ring();
  return { eventId, type: 'ping' };
}

export interface DeliveryView {
  eventId: string;
  type: string;
  attempt: number;
  status: 'DELIVERED' | 'FAILED';
  responseStatus: number | null;
  error: string | null;
  at: string;
}

/**
 * A webhook's deliveries list: a page of attempts, newest first. Without `limit` and `cursor`
 * the latest DELIVERIES_SHOWN, as always (the answer documented them as the latest, never as
 * all): unchanged while there are no more, and with the next page's cursor when there are.
 */
export async function listDeliveries(
  ctx: AppContext,
  account: AccountRow,
  id: string,
  query: PageQuery,
): Promise<{ deliveries: DeliveryView[]; nextCursor?: string | null }> {
  const faults = new Faults();
  const asked = readPage(query, faults, 'deliveries', [TIME_KEY, ID_KEY], DELIVERIES_SHOWN);
  const page = asked ?? { limit: DELIVERIES_SHOWN, after: null };
  faults.throwIfAny();
  const row = await requireWebhook(ctx, account, id);
  const scope = pageScope([row.id]);
  const key = keyAfter(page, scope);
  const rows = await repo.latestAttempts(ctx.db, row.id, page.limit + 1, key ? { at: key[0]!, id: key[1]! } : null);
  const cut = cutPage(rows, page.limit, 'deliveries', scope, (a) => [a.pageKey, a.id]);
  const deliveries = cut.rows.map((a) => ({
    eventId: a.event_id,
    type: a.type,
    attempt: a.attempt,
    status: a.status,
    responseStatus: a.response_status,
    error: a.error,
    at: iso(a.at),
  }));
  return asked === null && cut.nextCursor === null ? { deliveries } : { deliveries, nextCursor: cut.nextCursor };
}
