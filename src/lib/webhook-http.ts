import { createHmac, randomBytes } from 'node:crypto';
import { guardedFetch, type LookupAll } from './guarded-fetch.js';

export type { LookupAll } from './guarded-fetch.js';

/**
 * Sending one webhook request: the body signed as Stripe signs (`t=<unix s>,v1=<hex
 * HMAC-SHA256(secret, "<t>.<raw body>")>`), sent through the guarded fetch (only to addresses the
 * policy allows, the socket pinned to the addresses checked, so a name that resolves
 * differently a moment later cannot redirect it: DNS rebinding), no redirect followed, one
 * deadline for the whole answer.
 */

/** `whsec_` + 43 URL-safe characters (256 random bits). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/** Why a URL cannot be a webhook's, or null: http(s) with a host, no credentials. */
export function webhookUrlFault(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use https (or http)';
  if (!url.hostname) return 'must name a host';
  if (url.username || url.password) return 'must not carry a user name or password';
  return null;
}

export interface WebhookPost {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  lookup: LookupAll;
  allowAddress: (address: string) => boolean;
}

/** The HTTP status answered, or why none was (`error`). Never throws. */
export type WebhookPostResult = { status: number } | { status: null; error: string };

export async function postWebhook(request: WebhookPost): Promise<WebhookPostResult> {
  try {
    const res = await guardedFetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: Buffer.from(request.body, 'utf8'),
      timeoutMs: request.timeoutMs,
      maxRedirects: 0,
      lookup: request.lookup,
      allowAddress: request.allowAddress,
    });
    // Only the status matters; the answer's body is not read (nor kept).
    res.close();
    return { status: res.status };
  } catch (err) {
    return { status: null, error: err instanceof Error ? err.message : String(err) };
  }
}
