/**
 * How the platform reports a PDS that misbehaves in ways a real local PDS will not: rate
 * limits, gateway errors, silence. A tiny fake XRPC server answers putRecord as each test says.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { BlueskyPlatform } from '../../../src/networks/bluesky/platform.js';
import { type PlatformAccount, PublishError } from '../../../src/networks/platform.js';
import { emptyProgress, MemorySessions, newPost } from '../../helpers/bluesky.js';

type Answer = (res: http.ServerResponse) => void;

describe('XRPC failures during publishPost', () => {
  let server: http.Server;
  let answer: Answer;
  let account: PlatformAccount;
  const sessions = new MemorySessions();

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/xrpc/com.atproto.repo.putRecord')) return answer(res);
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'XRPCNotSupported' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    account = {
      providerId: 'prov-fake',
      providerUserId: 'did:plc:fake',
      username: 'fake.test',
      accessToken: 'aaaa-bbbb-cccc-dddd',
      refreshToken: null,
      tokenExpiresAt: null,
      serviceUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    };
  });
  beforeEach(async () => {
    // A saved session, so no login is needed before the call under test.
    await sessions.save(account.providerId, { did: 'did:plc:fake', handle: 'fake.test', accessJwt: 'access', refreshJwt: 'refresh', active: true });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
    return (res) => void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  }

  // The fake PDS on loopback is the operator's BLUESKY_SERVICE_URL (trusted by the address policy).
  async function publishFails(
    platform = new BlueskyPlatform({ sessions, allowPrivateMedia: false, defaultServiceUrl: account.serviceUrl! }),
  ): Promise<PublishError> {
    const attempt = platform.publishPost({
      account,
      post: newPost('hello'),
      replyTo: null,
      progress: emptyProgress(),
      onProgress: async () => {},
      confirmLease: async () => {},
    });
    const err = await attempt.then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof PublishError, String(err));
    return err;
  }

  test('429 is transient, with the wait from RateLimit-Reset', async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    answer = json(429, { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }, { 'ratelimit-reset': String(reset), 'ratelimit-limit': '5000' });
    const err = await publishFails();
    assert.equal(err.kind, 'transient');
    assert.equal(err.code, 'RATE_LIMITED');
    assert.ok(err.options.retryAfterMs! > 100_000 && err.options.retryAfterMs! <= 120_000, String(err.options.retryAfterMs));
  });

  test('a gateway error, or an HTML error page, is transient with unknown outcome', async () => {
    for (const reply of [
      json(502, { error: 'UpstreamFailure' }),
      (res: http.ServerResponse) => void res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>down</h1>'),
    ]) {
      answer = reply;
      const err = await publishFails();
      assert.equal(err.kind, 'transient');
      assert.equal(err.options.outcomeUnknown, true);
    }
  });

  test('a PDS that does not answer times out as transient with unknown outcome', async () => {
    answer = () => {}; // never responds
    const err = await publishFails(new BlueskyPlatform({ sessions, allowPrivateMedia: false, requestTimeoutMs: 300, defaultServiceUrl: account.serviceUrl! }));
    assert.equal(err.kind, 'transient');
    assert.equal(err.options.outcomeUnknown, true);
  });

  test('a taken-down account is an auth error without a login attempt', async () => {
    answer = json(401, { error: 'AccountTakedown', message: 'Account has been taken down' });
    const err = await publishFails();
    assert.equal(err.kind, 'auth');
  });
});
