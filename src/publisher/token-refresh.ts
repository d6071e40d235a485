import type { AppContext } from '../context.js';
import { PublishError } from '../networks/platform.js';
import type { ThreadsClient } from '../networks/threads/client.js';
import { listThreadsTokensExpiringBefore, markProviderExpired, saveRefreshedToken, THREADS_REFRESH_WINDOW_MS } from '../repos/providers.js';

/**
 * Refreshes long-lived Threads tokens that expire within the window. A refused refresh turns the
 * provider EXPIRED (publishing for it then fails with a clear error); a network fault waits for
 * the next round. Returns how many were refreshed.
 */
export async function refreshExpiringThreadsTokens(ctx: AppContext, client?: ThreadsClient): Promise<number> {
  const threads = client ?? (await ctx.network()).threads;
  const now = ctx.clock.now();
  const due = await listThreadsTokensExpiringBefore(ctx.db, new Date(now.getTime() + THREADS_REFRESH_WINDOW_MS));
  let refreshed = 0;
  for (const provider of due) {
    try {
      const token = await threads.refreshLongLived(ctx.secrets.decrypt(provider.access_token_enc!));
      const next = { tokenEnc: ctx.secrets.encrypt(token.accessToken), expiresAt: token.expiresAt };
      if (await saveRefreshedToken(ctx.db, provider.id, provider.access_token_enc!, next, ctx.clock.now())) refreshed++;
    } catch (err) {
      const refused = err instanceof PublishError && err.kind !== 'transient';
      ctx.logger.warn({ providerId: provider.id, refused }, 'refreshing a Threads token failed');
      if (refused) await markProviderExpired(ctx.db, provider.id, provider.access_token_enc, ctx.clock.now());
    }
  }
  return refreshed;
}
