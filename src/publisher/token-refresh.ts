import type { AppContext } from '../context.js';
import type { ProviderKind, ProviderRow } from '../db/schema/index.js';
import { lapsingTokens } from '../networks/index.js';
import type { LinkedInClient } from '../networks/linkedin/client.js';
import { PublishError } from '../networks/platform.js';
import type { ThreadsClient } from '../networks/threads/client.js';
import { queueExpiryEmails } from '../repos/email.js';
import { listTokensExpiringBefore, markProviderExpired, saveRefreshedToken, THREADS_REFRESH_WINDOW_MS } from '../repos/providers.js';

/** A network whose long-lived tokens Skein renews before they run out (decisions.md "Threads", "LinkedIn"). */
interface TokenRefresher {
  kind: ProviderKind;
  /**
   * A new access token for the provider (and a new refresh token when the network gives one), or
   * null when it cannot be renewed (no refresh token, no app): it then expires as its network says.
   */
  refresh(provider: ProviderRow, accessToken: string): Promise<{ accessToken: string; expiresAt: Date; refreshToken?: string | null } | null>;
}

type RefreshClients = { threads: ThreadsClient; linkedin: LinkedInClient };

function refreshers(ctx: AppContext, clients: RefreshClients): TokenRefresher[] {
  const linkedinApp =
    ctx.config.linkedin.clientId && ctx.appSecrets.linkedin ? { clientId: ctx.config.linkedin.clientId, clientSecret: ctx.appSecrets.linkedin } : null;
  return [
    { kind: 'THREADS', refresh: (_provider, accessToken) => clients.threads.refreshLongLived(accessToken) },
    {
      kind: 'LINKEDIN',
      async refresh(provider) {
        if (!provider.refresh_token_enc || !linkedinApp) return null;
        const tokens = await clients.linkedin.refresh(linkedinApp, ctx.secrets.decrypt(provider.refresh_token_enc));
        if (!tokens.expiresAt) throw new PublishError('transient', 'LINKEDIN_BAD_ANSWER', 'LinkedIn refreshed the token without saying when it expires.');
        return { accessToken: tokens.accessToken, expiresAt: tokens.expiresAt, refreshToken: tokens.refreshToken };
      },
    },
  ];
}

/**
 * The hourly sweep of every network's long-lived tokens that expire within the window: each is
 * refreshed when its network can; a refused refresh, or a token past its expiry that cannot be
 * refreshed, turns the provider EXPIRED (publishing for it then fails with a clear error); a
 * network fault waits for the next round. Then the accounts whose tokens will lapse (no refresh
 * token, within their network's notice period) get their one warning email. Returns how many
 * were refreshed.
 */
export async function refreshExpiringTokens(ctx: AppContext, clients?: Partial<RefreshClients>): Promise<number> {
  const all = clients?.threads && clients.linkedin ? (clients as RefreshClients) : { ...(await ctx.network()), ...clients };
  let refreshed = 0;
  for (const refresher of refreshers(ctx, all)) {
    const due = await listTokensExpiringBefore(ctx.db, refresher.kind, new Date(ctx.clock.now().getTime() + THREADS_REFRESH_WINDOW_MS));
    for (const provider of due) if (await refreshOne(ctx, refresher, provider)) refreshed++;
  }
  await queueExpiryEmails(ctx.db, lapsingTokens(ctx.clock.now()), ctx.clock.now());
  return refreshed;
}

async function refreshOne(ctx: AppContext, refresher: TokenRefresher, provider: ProviderRow): Promise<boolean> {
  const tokenEnc = provider.access_token_enc!;
  try {
    const token = await refresher.refresh(provider, ctx.secrets.decrypt(tokenEnc));
    if (token) {
      const next = {
        tokenEnc: ctx.secrets.encrypt(token.accessToken),
        expiresAt: token.expiresAt,
        ...(token.refreshToken ? { refreshTokenEnc: ctx.secrets.encrypt(token.refreshToken) } : {}),
      };
      return await saveRefreshedToken(ctx.db, provider.id, tokenEnc, next, ctx.clock.now());
    }
    if (provider.token_expires_at && provider.token_expires_at <= ctx.clock.now()) {
      const reason = `The ${provider.kind} access token ran out and the network gave no refresh token: reconnect the account.`;
      await markProviderExpired(ctx.db, provider.id, tokenEnc, ctx.clock.now(), reason);
    }
  } catch (err) {
    const refused = err instanceof PublishError && err.kind !== 'transient';
    ctx.logger.warn({ providerId: provider.id, kind: provider.kind, refused }, 'refreshing a token failed');
    if (refused) await markProviderExpired(ctx.db, provider.id, tokenEnc, ctx.clock.now());
  }
  return false;
}
