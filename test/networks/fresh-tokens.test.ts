/**
 * Rotating refresh tokens (X): an access token near its expiry is refreshed before the call, by
 * one process at a time, and the new pair is stored in one statement; a refresh the network
 * refuses (its refresh token already used by a refresh whose answer was lost) turns the account
 * EXPIRED with that reason. The network here is a small model of X's token endpoint (each refresh
 * token works once); test/system/crash-x.test.ts kills a real process between X's answer and the write.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProviderRow } from '../../src/db/schema/index.js';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { freshAccount, type RotatingTokens, withFreshTokens } from '../../src/networks/fresh-tokens.js';
import { type PlatformAccount, PublishError } from '../../src/networks/platform.js';
import { decryptAccount } from '../../src/networks/rows.js';
import { listAttention } from '../../src/repos/attention.js';
import { getProvider } from '../../src/repos/providers.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { describeEachDb } from '../helpers/context.js';
import { createUser } from '../helpers/seeds.js';

const HOUR = 3_600_000;
const MARGIN = 10 * 60_000;

/** X's token endpoint as it matters here: each refresh token works once, and a refresh answers a new pair. */
class RotatingNetwork implements RotatingTokens {
  readonly name = 'X';
  readonly marginMs = MARGIN;
  refreshes = 0;
  failNext: 'refused' | 'unreachable' | null = null;
  readonly #live = new Set<string>();
  #serial = 0;

  constructor(private readonly now: () => number) {}

  issue(): { accessToken: string; refreshToken: string } {
    this.#serial++;
    const pair = { accessToken: `access-${this.#serial}`, refreshToken: `refresh-${this.#serial}` };
    this.#live.add(pair.refreshToken);
    return pair;
  }

  async refresh(refreshToken: string) {
    await new Promise((resolve) => setTimeout(resolve, 20)); // long enough for a second caller to arrive
    if (this.failNext === 'unreachable') {
      this.failNext = null;
      throw new PublishError('transient', 'X_NETWORK', 'X could not be reached');
    }
    if (this.failNext === 'refused' || !this.#live.delete(refreshToken)) {
      this.failNext = null;
      throw new PublishError('permanent', 'X_INVALID_GRANT', 'Value passed for the token was invalid.');
    }
    this.refreshes++;
    return { ...this.issue(), expiresAt: new Date(this.now() + 2 * HOUR) };
  }
}

describeEachDb('rotating tokens', (env) => {
  async function connected(network: RotatingNetwork, expiresInMs: number): Promise<ProviderRow> {
    const { ctx, clock } = env();
    const user = await createUser(ctx);
    const pair = network.issue();
    return addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
      kind: 'THREADS', // the kind does not matter to the refresh; X's own tests use X
      providerUserId: `u${Math.random()}`,
      username: 'writer',
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      tokenExpiresAt: new Date(clock.now().getTime() + expiresInMs),
    });
  }
  const deps = () => env().ctx;

  test('a token that lives past the margin is used as it is: no refresh, no write', async () => {
    const network = new RotatingNetwork(() => env().clock.now().getTime());
    const row = await connected(network, HOUR);
    const account = decryptAccount(env().ctx, row);
    assert.equal(await freshAccount(deps(), network, account), account);
    assert.equal(network.refreshes, 0);
  });

  test('near its expiry it is refreshed first; both new tokens are stored, and the next call uses them', async () => {
    const network = new RotatingNetwork(() => env().clock.now().getTime());
    const row = await connected(network, MARGIN - 1);
    const fresh = await freshAccount(deps(), network, decryptAccount(env().ctx, row));
    assert.equal(network.refreshes, 1);
    const stored = decryptAccount(env().ctx, await getProvider(env().ctx.db, row.id));
    assert.deepEqual([stored.accessToken, stored.refreshToken], [fresh.accessToken, fresh.refreshToken]);
    assert.notEqual(fresh.refreshToken, decryptAccount(env().ctx, row).refreshToken);
    assert.equal((await getProvider(env().ctx.db, row.id)).token_refresh_until, null, 'the claim ends with the write');
    // The stale account an earlier read gave (the old pair) is read again, not refreshed again.
    const again = await freshAccount(deps(), network, decryptAccount(env().ctx, row));
    assert.equal(again.accessToken, fresh.accessToken);
    assert.equal(network.refreshes, 1);
  });

  test('callers at once (two workers): one refresh, and every caller gets the new pair', async () => {
    const network = new RotatingNetwork(() => env().clock.now().getTime());
    const row = await connected(network, 60_000);
    const seen: string[] = [];
    const platform = withFreshTokens(
      {
        kind: 'X',
        publishPost: async () => ({ networkPostId: '1', cid: null, permalink: null }),
        repost: async () => {},
        fetchAnalytics: async () => ({ views: null, likes: null, replies: null, reposts: null, quotes: null, shares: null }),
        fetchFollowers: async (account: PlatformAccount) => {
          seen.push(account.accessToken!);
          return 1;
        },
        lookUpPermalink: async () => null,
      },
      network,
      deps(),
    );
    await Promise.all(Array.from({ length: 5 }, () => platform.fetchFollowers(decryptAccount(env().ctx, row))));
    assert.equal(network.refreshes, 1);
    const stored = decryptAccount(env().ctx, await getProvider(env().ctx.db, row.id));
    assert.deepEqual(seen, Array(5).fill(stored.accessToken));
  });

  test('X unreachable: the claim is released and the still valid token is used; the next call refreshes', async () => {
    const network = new RotatingNetwork(() => env().clock.now().getTime());
    const row = await connected(network, 60_000);
    network.failNext = 'unreachable';
    const account = await freshAccount(deps(), network, decryptAccount(env().ctx, row));
    assert.equal(account.accessToken, decryptAccount(env().ctx, row).accessToken);
    assert.equal((await getProvider(env().ctx.db, row.id)).token_refresh_until, null);
    await freshAccount(deps(), network, decryptAccount(env().ctx, row));
    assert.equal(network.refreshes, 1);
  });

  test('a refresh whose answer was lost (the process died before the write): the next one is refused, and the account is EXPIRED with that reason', async () => {
    const { ctx, clock } = env();
    const network = new RotatingNetwork(() => clock.now().getTime());
    const row = await connected(network, 60_000);
    const stale = decryptAccount(ctx, row);
    // X answered a new pair to a process that died before storing it: the stored refresh token is spent.
    await network.refresh(stale.refreshToken!);
    await assert.rejects(freshAccount(deps(), network, stale), (err: unknown) => {
      assert.ok(err instanceof PublishError);
      assert.equal(err.kind, 'auth');
      assert.equal(err.code, 'TOKEN_REFRESH_REFUSED');
      return true;
    });
    const after = await getProvider(ctx.db, row.id);
    assert.equal(after.status, 'EXPIRED');
    assert.match(after.status_reason ?? '', /refused the stored refresh token.*Reconnect/);
    const items = await listAttention(ctx.db, personalWorkspace(row.account_id), { limit: 1000, after: null }, clock.now());
    assert.ok(items.some((i) => i.kind === 'PROVIDER_EXPIRED' && i.providerId === row.id));
  });
});
