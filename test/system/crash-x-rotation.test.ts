/**
 * X's refresh tokens rotate: each refresh answers a new pair and the refresh token used dies at
 * once (decisions.md "X"). A worker killed (SIGKILL) after X answered a refresh and before it
 * stored the new pair leaves a dead refresh token in the database. On PostgreSQL and on the
 * embedded database (test/helpers/crash-site.ts), the account must afterwards either still work
 * (the thread published once) or be EXPIRED with a reason that says what to do; never ACTIVE and
 * silently broken, never a post twice.
 *
 * The workers reach X through a proxy in this process (X_API_URL points at it), which kills the
 * worker once X has carried out the first `POST /2/oauth2/token`, before the answer reaches it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { personalWorkspace } from '../../src/lib/workspace.js';
import { addProvider } from '../../src/services/providers/providers.js';
import { type CrashSite, openCrashSite, SITE_KINDS } from '../helpers/crash-site.js';
import { postgresSkipReason } from '../helpers/db.js';
import { MastodonProxy, type ProxyDecision } from '../helpers/fakes/proxies.js';
import { FakeXApi } from '../helpers/fakes/x-api.js';
import { createUser } from '../helpers/seeds.js';
import { waitFor } from '../helpers/system.js';

const LEASE_MS = 3000;
/** Inside the platform's ten-minute margin: the first use refreshes the token. */
const EXPIRES_IN_MS = 5 * 60_000;

let fake: FakeXApi;
let proxy: MastodonProxy;

before(async () => {
  fake = await FakeXApi.start({ clientSecret: null });
  proxy = await MastodonProxy.start(fake.url);
});

after(async () => {
  await proxy?.close();
  await fake?.close();
});

for (const kind of SITE_KINDS) {
  const skip = kind === 'postgres' ? postgresSkipReason() : undefined;
  test(`${kind}: a worker killed between X's refresh answer and storing the new pair: the account works or is EXPIRED with a reason`, {
    skip: skip ?? false,
    timeout: 300_000,
  }, async () => {
    const site = await openCrashSite(kind, {
      threadsApiUrl: 'http://127.0.0.1:9',
      leaseMs: LEASE_MS,
      env: { X_API_URL: proxy.url, X_CLIENT_ID: fake.clientId },
    });
    try {
      await killDuringRefresh(site);
    } finally {
      await site.close();
    }
  });
}

async function killDuringRefresh(site: CrashSite): Promise<void> {
  const username = `rotator_${site.kind}`;
  const account = fake.createAccount(username);
  const { key, providerId } = await site.withDb(async (ctx) => {
    const user = await createUser(ctx);
    const provider = await addProvider(ctx, user.account.id, personalWorkspace(user.account.id), {
      kind: 'X',
      providerUserId: account.userId,
      username,
      accessToken: account.accessToken,
      refreshToken: account.refreshToken,
      tokenExpiresAt: new Date(Date.now() + EXPIRES_IN_MS),
    });
    return { key: user.key, providerId: provider.id };
  });
  let current = site.start();
  await current.ready();
  const victim = current;
  let killed: Promise<void> | null = null;
  proxy.decide = (req): ProxyDecision => {
    if (killed || req.method !== 'POST' || req.path !== '/2/oauth2/token') return { action: 'forward' };
    return {
      action: 'kill-after',
      kill: () => {
        killed ??= (async () => {
          victim.sigkill();
          await victim.exited;
        })();
        return killed;
      },
    };
  };
  const text = `rotated while posting (${site.kind} ${Date.now()})`;
  const created = await site.api(key, 'POST', '/api/v1/posts', { providerId, scheduleAt: new Date(Date.now() + 200).toISOString(), posts: [{ text }] });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const threadId: string = created.json.threadId;
  await waitFor('the kill during the refresh', async () => killed !== null, 60_000, 10);
  await killed;
  assert.ok(fake.isTokenDead(account.refreshToken!), 'X rotated the pair: the stored refresh token is dead');

  current = site.start();
  await current.ready();
  const thread = await waitFor(
    'the thread to end',
    async () => {
      const res = await site.api(key, 'GET', `/api/v1/posts/${threadId}`);
      return res.status === 200 && ['PUBLISHED', 'FAILED'].includes(res.json.thread.status) ? res.json.thread : null;
    },
    180_000,
    200,
  );
  await current.stop('SIGTERM');
  const provider = await site.withDb((ctx) => ctx.db.selectFrom('providers').selectAll().where('id', '=', providerId).executeTakeFirstOrThrow());
  const copies = fake.postsBy(account.userId).filter((t) => t.text === text).length;
  console.log(
    `# crash x rotation (${site.kind}): thread ${thread.status}, account ${provider.status} (${provider.status_reason ?? 'no reason'}), ${copies} on X`,
  );
  assert.ok(copies <= 1, 'never posted twice');
  if (provider.status === 'ACTIVE') {
    assert.equal(thread.status, 'PUBLISHED', 'an ACTIVE account published the thread');
    assert.equal(copies, 1);
  } else {
    assert.equal(provider.status, 'EXPIRED');
    assert.match(provider.status_reason ?? '', /refresh token.*Reconnect/s, 'the reason says what happened and what to do');
    assert.equal(thread.status, 'FAILED');
    assert.equal(copies, 0);
  }
}
