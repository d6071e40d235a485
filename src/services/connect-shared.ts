import type { AppContext } from '../context.js';
import type { ProviderRow } from '../db/schema/index.js';
import { UpstreamError, ValidationError } from '../errors/index.js';
import { PublishError } from '../networks/platform.js';
import { scheduleFollowerJobs } from '../repos/followers.js';

// What every network's connect service shares (connections.ts, mastodon-connect.ts), apart
// from both so neither imports the other.

/** A network call failed: the user's input when the network refused it, otherwise the network. */
export function networkFailure(err: unknown, field: string, what: string): Error {
  if (err instanceof PublishError && (err.kind === 'auth' || err.kind === 'permanent')) {
    return new ValidationError({ path: field, message: `${what} refused: ${err.message}` });
  }
  return new UpstreamError(`${what} could not be reached; try again.`, { cause: err });
}

/**
 * A connected (or reconnected) account gets its follower count at once unless it has one for
 * the current UTC day (decisions.md): its FOLLOWERS job is made due and the publisher woken.
 */
export async function scheduleFollowerFetch(ctx: AppContext, provider: ProviderRow): Promise<ProviderRow> {
  if ((await scheduleFollowerJobs(ctx.db, ctx.clock.now(), provider.id)) > 0) ctx.scheduleSignal.ring();
  return provider;
}
