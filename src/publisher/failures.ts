import { PublishError } from '../networks/platform.js';

/**
 * What a run that threw failed with: the PublishError a network client threw, or, for anything
 * else (a database fault, a bug), a transient error whose outcome is unknown, so it is retried
 * with the same care as a lost answer.
 */
export function asPublishError(err: unknown): PublishError {
  if (err instanceof PublishError) return err;
  return new PublishError('transient', 'UNEXPECTED', err instanceof Error ? err.message : String(err), { outcomeUnknown: true, cause: err });
}

/** A failure as `last_error` keeps it. */
export function lastError(error: { code: string; message: string }): string {
  return `${error.code}: ${error.message}`;
}
