import type { XRPCError } from '@atproto/api';
import { GuardedFetchError } from '../../lib/guarded-fetch.js';
import { PublishError } from '../platform.js';
import { atproto } from './sdk.js';

/**
 * Turns what @atproto/api throws into the PublishError kinds the publisher acts on:
 * transient (retry with backoff), auth (the account must be reconnected), permanent (the post
 * itself is refused and retrying cannot help).
 */

/** XRPCError.status values (@atproto/xrpc's ResponseType, which @atproto/api does not re-export). */
const NO_RESPONSE = 1;
const INVALID_RESPONSE = 2;
const UNAUTHORIZED = 401;
const PAYLOAD_TOO_LARGE = 413;
const RATE_LIMITED = 429;

/** Token problems that a fresh login can cure. */
const SESSION_ERRORS = new Set(['ExpiredToken', 'InvalidToken', 'AuthMissing', 'AuthenticationRequired']);
/** Account states that no login cures. */
const ACCOUNT_ERRORS = new Set(['AccountTakedown', 'AccountDeactivated', 'AuthFactorTokenRequired']);

/** True when the PDS refused the session's tokens (as opposed to the request). */
export function isSessionRejected(err: unknown): boolean {
  return isXrpc(err) && (SESSION_ERRORS.has(err.error) || err.status === UNAUTHORIZED) && !ACCOUNT_ERRORS.has(err.error);
}

export function isXrpcError(err: unknown, name: string): err is XRPCError {
  return isXrpc(err) && err.error === name;
}

export function isXrpcStatus(err: unknown, status: number): err is XRPCError {
  return isXrpc(err) && err.status === status;
}

/** Only an Error can be an XRPCError, so nothing else loads the SDK to find out. */
function isXrpc(err: unknown): err is XRPCError {
  return err instanceof Error && err instanceof atproto().XRPCError;
}

export function toPublishError(err: unknown, action: string, nowMs: number = Date.now()): PublishError {
  if (err instanceof PublishError) return err;
  // The address policy refused where the agent was sent (a PDS on a private address): no retry
  // cures that, a reconnect to a public server does. The address itself is never shown.
  if (isXrpc(err) && refusedByPolicy(err.cause)) {
    return new PublishError(
      'auth',
      'AUTH_FAILED',
      `Bluesky ${action} refused: the account's server is not at a public address (SKEIN_ALLOW_PRIVATE_MEDIA=1 allows private ones, for tests); reconnect the account`,
      { cause: err },
    );
  }
  if (!isXrpc(err)) {
    return new PublishError('transient', 'BLUESKY_UNAVAILABLE', `Bluesky ${action} failed: ${describe(err)}`, { outcomeUnknown: true, cause: err });
  }
  const text = `Bluesky ${action} failed: ${err.error}${err.message && err.message !== err.error ? `: ${err.message}` : ''}`;
  if (err.status === RATE_LIMITED) {
    return new PublishError('transient', 'RATE_LIMITED', text, { retryAfterMs: retryAfterMs(err.headers, nowMs), outcomeUnknown: false, cause: err });
  }
  if (isTransientStatus(err.status)) {
    // No answer, a gateway error or an unreadable success: the write may have happened.
    return new PublishError('transient', 'BLUESKY_UNAVAILABLE', text, { outcomeUnknown: true, cause: err });
  }
  if (ACCOUNT_ERRORS.has(err.error) || SESSION_ERRORS.has(err.error) || err.status === UNAUTHORIZED) {
    return new PublishError('auth', 'AUTH_FAILED', text, { cause: err });
  }
  if (err.status === PAYLOAD_TOO_LARGE || /blob/i.test(err.message)) {
    return new PublishError('permanent', 'INVALID_MEDIA', text, { cause: err });
  }
  return new PublishError('permanent', 'REJECTED', text, { cause: err });
}

/** A GuardedFetchError('refused-address') in the cause chain of an agent's error (@atproto/api wraps fetch's errors). */
function refusedByPolicy(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof GuardedFetchError && e.fault === 'refused-address') return true;
  }
  return false;
}

function isTransientStatus(status: number): boolean {
  return status === NO_RESPONSE || status === INVALID_RESPONSE || status >= 500 || status === 408;
}

/**
 * Milliseconds until a retry may succeed. `Retry-After` is in seconds; `RateLimit-Reset` is an
 * epoch second on Bluesky but seconds-from-now in the IETF draft, so small values are read
 * as a delay.
 */
export function retryAfterMs(headers: Record<string, string | undefined> | undefined, nowMs: number): number | undefined {
  const retryAfter = numberHeader(headers, 'retry-after');
  if (retryAfter !== undefined) return Math.max(0, retryAfter * 1000);
  const reset = numberHeader(headers, 'ratelimit-reset');
  if (reset === undefined) return undefined;
  return reset > 1_000_000_000 ? Math.max(0, reset * 1000 - nowMs) : Math.max(0, reset * 1000);
}

function numberHeader(headers: Record<string, string | undefined> | undefined, name: string): number | undefined {
  const entry = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1] === undefined ? NaN : Number(entry[1]);
  return Number.isFinite(value) ? value : undefined;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
