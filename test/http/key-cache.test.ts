/**
 * The key cache: an authenticated request needs no round trip for its key, yet a
 * revocation or an account change is seen at the next request, on every instance.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import { openPostgres } from '../../src/db/database.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { updateAccount } from '../../src/services/accounts/accounts.js';
import { authenticate } from '../../src/services/accounts/api-keys.js';
import { describeEachDb, TEST_SECRET } from '../helpers/context.js';
import { openTestDb, postgresSkipReason } from '../helpers/db.js';
import { RoundTripCounter, untilKeyCached } from '../helpers/round-trips.js';
import { createUser } from '../helpers/seeds.js';
import { until } from '../helpers/wait.js';

const counter = new RoundTripCounter();

describeEachDb(
  'key cache',
  (env) => {
    test('a cached key costs no round trip; its uses are written together, at most a minute late', async () => {
      const { app, ctx, clock } = env();
      const a = await createUser(ctx);
      const b = await createUser(ctx);
      const use = (user: typeof a) => user.call(app, { method: 'GET', url: '/api/v1/keys' });
      const lastUsed = async (accountId: string) =>
        (await ctx.db.selectFrom('api_keys').select('last_used_at').where('account_id', '=', accountId).executeTakeFirstOrThrow()).last_used_at?.toISOString();
      await untilKeyCached(ctx, a.key, () => use(a));
      await untilKeyCached(ctx, b.key, () => use(b));
      const firstUse = clock.now().toISOString();
      assert.equal(await lastUsed(a.account.id), firstUse, 'the first use is written at once');
      clock.advance(20_000);
      const cached = await counter.measure(async () => {
        assert.equal((await use(a)).statusCode, 200);
        assert.equal((await use(b)).statusCode, 200);
      });
      assert.deepEqual(
        cached.statements.filter((s) => s.includes('api_keys') && !s.includes('where "account_id"')),
        [],
        'the key is not read or written',
      );
      assert.equal(await lastUsed(a.account.id), firstUse);
      const flushed = await counter.measure(() => ctx.apiKeys.flushUses());
      assert.equal(flushed.count, 1, 'both keys in one statement');
      assert.equal(await lastUsed(a.account.id), clock.now().toISOString());
      assert.equal(await lastUsed(b.account.id), clock.now().toISOString());
    });

    test('an account change is seen at the next request (the cache holds the account)', async () => {
      const { ctx } = env();
      const user = await createUser(ctx, { timezone: 'UTC' });
      assert.equal((await authenticate(ctx, user.key)).account.timezone, 'UTC');
      assert.equal((await authenticate(ctx, user.key)).account.timezone, 'UTC');
      await updateAccount(ctx, user.account, { timezone: 'Asia/Tokyo' });
      assert.equal((await authenticate(ctx, user.key)).account.timezone, 'Asia/Tokyo');
    });
  },
  { countRoundTrips: counter },
);

const skip = postgresSkipReason();
describe('key cache across two instances on one PostgreSQL database', { skip: skip ?? false }, () => {
  let close: () => Promise<void> = async () => {};
  let instances: Array<Awaited<ReturnType<typeof makeInstance>>> = [];
  let url: string;

  async function makeInstance() {
    const handle = openPostgres(url, 3);
    const config = loadConfig({ LOG_LEVEL: 'silent', SKEIN_PUBLISHER: '0' });
    const ctx = await createContext(
      { ...config, rateLimit: { ...config.rateLimit, perAccount: 1_000_000, perIp: 1_000_000 } },
      { skeinSecret: TEST_SECRET, threadsAppSecret: null },
      { db: handle, clock: new ManualClock('2026-11-22T12:00:00.000Z'), logger: createLogger('silent'), skipMigrations: true },
    );
    const app = await buildApp(ctx);
    await app.ready();
    const close = async () => {
      await app.close();
      await ctx.close();
      await handle.close();
    };
    return { ctx, app, close };
  }

  before(async () => {
    const db = await openTestDb('postgres');
    url = db.url!;
    instances = [await makeInstance(), await makeInstance()];
    close = async () => {
      for (const i of instances) await i.close();
      await db.close();
    };
  });
  after(() => close());

  test('a key revoked through one instance is refused by the other, which had it cached, once it hears the NOTIFY', async () => {
    const [a, b] = instances as [Awaited<ReturnType<typeof makeInstance>>, Awaited<ReturnType<typeof makeInstance>>];
    const user = await createUser(a.ctx);
    const key = (await user.call(a.app, { method: 'POST', url: '/api/v1/keys', payload: { name: 'second' } })).json();
    const viaB = () => b.app.inject({ method: 'GET', url: '/api/v1/account', headers: { 'x-api-key': key.key } });
    const hash = b.ctx.secrets.hashApiKey(key.key);
    // Until B listens for changes it reads keys from the database; wait until it serves this one from its cache.
    await untilKeyCached(b.ctx, key.key, async () => assert.equal((await viaB()).statusCode, 200));
    assert.ok(b.ctx.apiKeys.lookup(hash, b.ctx.clock.now().getTime()), 'B caches the key');
    assert.equal((await user.call(a.app, { method: 'DELETE', url: `/api/v1/keys/${key.id}` })).statusCode, 200);
    // B hears the NOTIFY on its own connection, a moment after A has heard its own. Here, in one
    // process with no network between the client and B, that moment can come after B's next
    // request; across processes (test/system/multi-instance.test.ts) the next request is refused.
    await until('B to forget the key', () => b.ctx.apiKeys.lookup(hash, b.ctx.clock.now().getTime()) === undefined, { intervalMs: 10 });
    assert.equal((await viaB()).statusCode, 401);
  });
});
