import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { MemoryRateLimitStore } from '../../src/lib/rate-limit/memory-store.js';
import { RedisRateLimitStore } from '../../src/lib/rate-limit/redis-store.js';
import type { RateLimitStore } from '../../src/lib/rate-limit/store.js';
import { createApiKey } from '../../src/services/accounts/api-keys.js';
import { createTestEnv, type TestEnv } from '../helpers/context.js';
import { createUser } from '../helpers/seeds.js';

const REDIS_URL = `redis://${process.env.SKEIN_TEST_REDIS_HOST ?? '127.0.0.1:6379'}`;

async function redisSkipReason(): Promise<string | null> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (err) {
    if (process.env.CI) throw new Error(`CI needs Redis at ${REDIS_URL}: ${(err as Error).message}`);
    return `Redis at ${REDIS_URL} is not reachable (${(err as Error).message})`;
  } finally {
    probe.disconnect();
  }
}

const STORES: Array<{ name: string; make: () => RateLimitStore }> = [
  { name: 'memory', make: () => new MemoryRateLimitStore() },
  { name: 'redis', make: () => new RedisRateLimitStore(REDIS_URL, `skein-test:${randomBytes(6).toString('hex')}:`) },
];

const redisSkip = await redisSkipReason();

for (const store of STORES) {
  const skip = store.name === 'redis' ? redisSkip : null;
  describe(`rate limits over HTTP [${store.name} store]`, { skip: skip ?? false }, () => {
    let env: TestEnv & { close(): Promise<void> };
    before(async () => {
      env = await createTestEnv('pglite', { realRateLimits: true, rateLimits: store.make() });
    });
    after(async () => {
      await env.ctx.rateLimits.close();
      await env.close();
    });

    test('the 61st request in a window gets 429; 429s do not count; the window rolls', async (t) => {
      const { app, ctx, clock } = env;
      const user = await createUser(ctx);
      const t0 = clock.now().getTime();
      t.after(() => clock.set(t0 + 10 * 60_000)); // the window passes for the next test, even if this one fails
      for (let i = 0; i < 60; i++) {
        clock.set(t0 + i * 500); // spread over 30 s
        const res = await user.call(app, { method: 'GET', url: '/api/v1/account', remoteAddress: '10.0.0.1' });
        assert.equal(res.statusCode, 200, `request ${i + 1}`);
        assert.equal(res.headers['ratelimit-limit'], '60');
        assert.equal(res.headers['ratelimit-remaining'], String(59 - i));
      }
      clock.set(t0 + 40_000);
      for (let i = 0; i < 5; i++) {
        const refused = await user.call(app, { method: 'GET', url: '/api/v1/account', remoteAddress: '10.0.0.1' });
        assert.equal(refused.statusCode, 429);
        assert.equal(refused.json().code, 'RATE_LIMITED');
        assert.match(String(refused.headers['content-type']), /problem\+json/);
        assert.equal(refused.headers['retry-after'], '20'); // the first request leaves at t0+60s
        assert.equal(refused.headers['ratelimit-remaining'], '0');
      }
      clock.set(t0 + 60_000); // the first allowed request has left the window; refusals never counted
      const again = await user.call(app, { method: 'GET', url: '/api/v1/account', remoteAddress: '10.0.0.1' });
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers['ratelimit-remaining'], '0');
      const blocked = await user.call(app, { method: 'GET', url: '/api/v1/account', remoteAddress: '10.0.0.1' });
      assert.equal(blocked.statusCode, 429);
      clock.set(t0 + 60_500);
      assert.equal((await user.call(app, { method: 'GET', url: '/api/v1/account', remoteAddress: '10.0.0.1' })).statusCode, 200);
    });

    test('two keys of one account share the account limit, from any address', async (t) => {
      const { app, ctx, clock } = env;
      t.after(() => clock.advance(10 * 60_000)); // the window passes for the next test, even if this one fails
      const user = await createUser(ctx);
      const second = await createApiKey(ctx, user.account, 'second');
      for (let i = 0; i < 60; i++) {
        const key = i % 2 ? user.key : second.key;
        const res = await app.inject({ method: 'GET', url: '/api/v1/account', headers: { 'x-api-key': key }, remoteAddress: `10.0.1.${i}` });
        assert.equal(res.statusCode, 200);
      }
      const res = await app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `Bearer ${second.key}` }, remoteAddress: '10.0.2.1' });
      assert.equal(res.statusCode, 429);
      const other = await createUser(ctx);
      assert.equal(
        (await other.call(app, { method: 'GET', url: '/api/v1/account', remoteAddress: '10.0.2.1' })).statusCode,
        200,
        'another account is not limited',
      );
    });

    test('300 per IP, unauthenticated requests included', async (t) => {
      const { app, ctx, clock } = env;
      t.after(() => clock.advance(10 * 60_000)); // the window passes for the next test, even if this one fails
      const users = await Promise.all(Array.from({ length: 5 }, () => createUser(ctx)));
      for (let i = 0; i < 250; i++) {
        const res = await users[i % 5]!.call(app, { method: 'GET', url: '/api/v1/account', remoteAddress: '10.9.9.9' });
        assert.equal(res.statusCode, 200, `request ${i}`);
      }
      for (let i = 0; i < 50; i++) {
        const res = await app.inject({ method: 'GET', url: '/api/v1/account', remoteAddress: '10.9.9.9' });
        assert.equal(res.statusCode, 401);
      }
      const limited = await users[0]!.call(app, { method: 'GET', url: '/api/v1/account', remoteAddress: '10.9.9.9' });
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.headers['ratelimit-limit'], '300');
      const unauthenticated = await app.inject({ method: 'GET', url: '/api/v1/account', remoteAddress: '10.9.9.9' });
      assert.equal(unauthenticated.statusCode, 429);
      assert.equal((await users[0]!.call(app, { method: 'GET', url: '/api/v1/account', remoteAddress: '10.9.9.10' })).statusCode, 200);
    });

    test('responses outside /api carry the headers and count; health probes are never limited', async (t) => {
      const { app, clock } = env;
      t.after(() => clock.advance(10 * 60_000)); // the window passes for the next test, even if this one fails
      const from = { remoteAddress: '10.8.8.8' };
      for (const url of ['/docs', '/no/such/page', '/api/v1/openapi.json']) {
        const res = await app.inject({ method: 'GET', url, ...from });
        assert.ok(
          res.headers['ratelimit-limit'] && res.headers['ratelimit-remaining'] && res.headers['ratelimit-reset'] !== undefined,
          `${url} has RateLimit headers`,
        );
      }
      for (let i = 3; i < 300; i++) assert.notEqual((await app.inject({ method: 'GET', url: '/no/such/page', ...from })).statusCode, 429, `request ${i}`);
      const limited = await app.inject({ method: 'GET', url: '/docs', ...from });
      assert.equal(limited.statusCode, 429, 'the 301st request from the address, wherever it goes');
      for (const url of ['/healthz', '/readyz']) {
        const probe = await app.inject({ method: 'GET', url, ...from });
        assert.equal(probe.statusCode, 200, `${url} answers even now`);
        assert.equal(probe.headers['ratelimit-limit'], undefined, `${url} is not counted`);
      }
    });
  });
}
