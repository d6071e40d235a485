import type { AppContext } from '../context.js';
import { claimTokenRefresh, getProvider, markProviderExpired, releaseTokenRefresh, saveRotatedTokens } from '../repos/providers.js';
import { type Platform, type PlatformAccount, PublishError } from './platform.js';

/** A network whose access tokens are short-lived and whose refresh tokens rotate (X): each refresh answers a new pair, and the refresh token used dies at once. */
export interface RotatingTokens {
  /** The network's name, for messages. */
  name: string;
  /** An access token expiring within this long is refreshed before it is used. */
  marginMs: number;
  /** A new pair for the refresh token; throws a PublishError (`transient` when the network could not be asked). */
  refresh(refreshToken: string): Promise<{ accessToken: string; refreshToken: string | null; expiresAt: Date }>;
}

/** How long one process holds a provider's refresh: past it (the process died), another may refresh. */
const CLAIM_MS = 60_000;
/** How often a process waiting on another's refresh looks again. */
const WAIT_STEP_MS = 250;

type Deps = Pick<AppContext, 'db' | 'secrets' | 'clock' | 'logger'>;

/**
 * A platform whose every call gets an account with a live access token: one that expires within
 * the margin is refreshed first, by one process at a time (a claim on the provider row), and the
 * new pair is stored in one statement before the call goes on (decisions.md "X"). Killed between
 * the network's answer and that statement, the stored refresh token is dead: the next refresh is
 * refused and the account turns EXPIRED with that reason (reconnecting mends it), never silently
 * broken.
 */
export function withFreshTokens<P extends Platform<string>>(platform: P, tokens: RotatingTokens, deps: Deps): P {
  const fresh = (account: PlatformAccount) => freshAccount(deps, tokens, account);
  const wrap =
    <A extends unknown[], R>(call: (account: PlatformAccount, ...rest: A) => Promise<R>) =>
    async (account: PlatformAccount, ...rest: A): Promise<R> =>
      call(await fresh(account), ...rest);
  const publishPost = platform.publishPost.bind(platform);
  platform.publishPost = async (input) => publishPost({ ...input, account: await fresh(input.account) });
  platform.repost = wrap(platform.repost.bind(platform));
  platform.fetchAnalytics = wrap(platform.fetchAnalytics.bind(platform));
  platform.fetchFollowers = wrap(platform.fetchFollowers.bind(platform));
  platform.lookUpPermalink = wrap(platform.lookUpPermalink.bind(platform));
  if (platform.fetchLimits) platform.fetchLimits = wrap(platform.fetchLimits.bind(platform));
  if (platform.afterThread) platform.afterThread = wrap(platform.afterThread.bind(platform));
  return platform;
}

/** The account as it is, when its token lives past the margin; else with the pair a refresh (this process's or another's) stored. */
export async function freshAccount(deps: Deps, tokens: RotatingTokens, account: PlatformAccount): Promise<PlatformAccount> {
  if (!needsRefresh(deps, tokens, account)) return account;
  const deadline = deps.clock.now().getTime() + CLAIM_MS;
  for (;;) {
    const row = await getProvider(deps.db, account.providerId);
    const current = accountOf(deps, account, row);
    if (row.status !== 'ACTIVE')
      throw new PublishError('auth', 'PROVIDER_NOT_ACTIVE', `The ${tokens.name} account is ${row.status}${row.status_reason ? `: ${row.status_reason}` : ''}.`);
    if (!needsRefresh(deps, tokens, current)) return current;
    if (!row.refresh_token_enc) return current; // Nothing to refresh with: the network will say when the token dies.
    const now = deps.clock.now();
    if (await claimTokenRefresh(deps.db, row.id, row.refresh_token_enc, now, new Date(now.getTime() + CLAIM_MS))) {
      return refreshClaimed(deps, tokens, current, { refreshEnc: row.refresh_token_enc, accessEnc: row.access_token_enc });
    }
    // Another process is refreshing: its pair is read at the next look.
    if (deps.clock.now().getTime() > deadline) return current;
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

function needsRefresh(deps: Deps, tokens: RotatingTokens, account: PlatformAccount): boolean {
  const expiresAt = account.tokenExpiresAt?.getTime();
  return expiresAt !== undefined && expiresAt - deps.clock.now().getTime() < tokens.marginMs;
}

function accountOf(deps: Deps, account: PlatformAccount, row: Awaited<ReturnType<typeof getProvider>>): PlatformAccount {
  const open = (value: string | null) => (value ? deps.secrets.decrypt(value) : null);
  return { ...account, accessToken: open(row.access_token_enc), refreshToken: open(row.refresh_token_enc), tokenExpiresAt: row.token_expires_at };
}

async function refreshClaimed(
  deps: Deps,
  tokens: RotatingTokens,
  account: PlatformAccount,
  stored: { refreshEnc: string; accessEnc: string | null },
): Promise<PlatformAccount> {
  const usedEnc = stored.refreshEnc;
  let pair: Awaited<ReturnType<RotatingTokens['refresh']>>;
  try {
    pair = await tokens.refresh(deps.secrets.decrypt(usedEnc));
  } catch (err) {
    if (err instanceof PublishError && err.kind !== 'transient') {
      const reason = `${tokens.name} refused the stored refresh token (${err.message}); if a refresh's answer was lost, that token was already used. Reconnect the account.`;
      await markProviderExpired(deps.db, account.providerId, stored.accessEnc, deps.clock.now(), reason);
      throw new PublishError('auth', 'TOKEN_REFRESH_REFUSED', reason, { cause: err });
    }
    await releaseTokenRefresh(deps.db, account.providerId, usedEnc);
    // Still valid for a while: go on with it; expired: the call could not succeed.
    if (account.tokenExpiresAt && account.tokenExpiresAt.getTime() > deps.clock.now().getTime()) return account;
    throw err;
  }
  const next = {
    accessTokenEnc: deps.secrets.encrypt(pair.accessToken),
    // No new refresh token (offline.access withdrawn): none is kept, and the account lives as long as its access token.
    refreshTokenEnc: pair.refreshToken === null ? null : deps.secrets.encrypt(pair.refreshToken),
    expiresAt: pair.expiresAt,
  };
  if (!(await saveRotatedTokens(deps.db, account.providerId, usedEnc, next, deps.clock.now()))) {
    deps.logger.warn({ providerId: account.providerId }, 'a refreshed token pair was not stored: the account changed meanwhile');
  }
  return { ...account, accessToken: pair.accessToken, refreshToken: pair.refreshToken, tokenExpiresAt: pair.expiresAt };
}
