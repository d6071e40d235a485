/**
 * The agent pool's handling of sessions that die while cached, against a small fake PDS over
 * `fetch` (session creation, refresh and an authenticated read). The real PDS tests
 * (platform.test.ts) cover the everyday paths; this one can kill sessions at will.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AtpAgent } from '@atproto/api';
import { toPublishError } from '../../../src/networks/bluesky/errors.js';
import { AgentPool, type BlueskySession, requestDeadlineMs, withTimeout } from '../../../src/networks/bluesky/sessions.js';
import type { PlatformAccount } from '../../../src/networks/platform.js';

const DID = 'did:plc:sessionstest';

/** A JWT-shaped token (@atproto/api reads only its payload). */
function token(name: string): string {
  const payload = Buffer.from(JSON.stringify({ sub: DID, jti: name, exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url');
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.sig`;
}

class FakePds {
  logins = 0;
  refreshes = 0;
  appPasswordValid = true;
  readonly expired = new Set<string>();
  readonly revokedRefresh = new Set<string>();
  readonly #issued = new Set<string>();
  #serial = 0;

  session(): BlueskySession {
    const n = ++this.#serial;
    const session = { did: DID, handle: 'sessions.test', accessJwt: token(`access-${n}`), refreshJwt: token(`refresh-${n}`), active: true };
    this.#issued.add(session.accessJwt);
    return session;
  }

  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const method = new URL(request.url).pathname.replace('/xrpc/', '');
    const bearer = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
    const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (method === 'com.atproto.server.createSession') {
      this.logins++;
      return this.appPasswordValid ? answer(200, this.session()) : answer(401, { error: 'AuthenticationRequired', message: 'Invalid identifier or password' });
    }
    if (method === 'com.atproto.server.refreshSession') {
      this.refreshes++;
      return this.revokedRefresh.has(bearer) ? answer(400, { error: 'ExpiredToken', message: 'Token has been revoked' }) : answer(200, this.session());
    }
    if (this.expired.has(bearer)) return answer(400, { error: 'ExpiredToken', message: 'Token has expired' });
    if (!this.#issued.has(bearer)) return answer(401, { error: 'AuthenticationRequired', message: 'Authentication Required' });
    return answer(200, { did: DID, handle: 'sessions.test' });
  };
}

function setup() {
  const pds = new FakePds();
  let stored: BlueskySession | null = null;
  const pool = new AgentPool({
    sessions: {
      load: async () => stored,
      save: async (_id, session) => {
        stored = session;
      },
    },
    defaultServiceUrl: 'http://pds.invalid',
    fetch: pds.fetch,
    onSaveError: (err) => assert.fail(String(err)),
  });
  const account: PlatformAccount = {
    providerId: 'p1',
    providerUserId: DID,
    username: 'sessions.test',
    accessToken: 'abcd-efgh-ijkl-mnop',
    refreshToken: null,
    tokenExpiresAt: null,
    serviceUrl: 'http://pds.invalid',
  };
  // As the platform's calls do: the agent must hold a session (assertDid) and send it.
  const read = () =>
    pool.withAgent(account, async (agent: AtpAgent) =>
      (await agent.com.atproto.server.getSession({}, { headers: {} })).data.did === agent.assertDid ? DID : 'other',
    );
  /** The session this process holds dies: its access token expired, its refresh token revoked. */
  const killStored = () => {
    pds.expired.add(stored!.accessJwt);
    pds.revokedRefresh.add(stored!.refreshJwt);
  };
  return {
    pds,
    read,
    killStored,
    setStored: (s: BlueskySession) => {
      stored = s;
    },
    stored: () => stored,
  };
}

test('a session the pool logged in with itself, refused later, is replaced by one new login', async () => {
  const { pds, read, killStored } = setup();
  assert.equal(await read(), DID);
  assert.equal(pds.logins, 1, 'no saved session: one login');
  killStored();
  assert.equal(await read(), DID, 'the refused session is not fatal while the app password works');
  assert.equal(pds.logins, 2);
  assert.equal(await read(), DID);
  assert.equal(pds.logins, 2, 'and the new session is reused');
});

test('after an auth error the dead agent leaves the pool: a reconnected account works at once', async () => {
  const { pds, read, killStored, setStored } = setup();
  await read();
  killStored();
  pds.appPasswordValid = false; // the user revoked the app password
  const err = toPublishError(
    await read().then(
      () => assert.fail('the dead session must fail'),
      (e: unknown) => e,
    ),
    'publish',
  );
  assert.equal(err.kind, 'auth', err.message);
  // The user reconnects: a new app password and a fresh session are saved.
  pds.appPasswordValid = true;
  setStored(pds.session());
  const logins = pds.logins;
  assert.equal(await read(), DID, 'not "Not logged in" from a cached agent without a session');
  assert.equal(pds.logins, logins, 'the saved session is resumed, no login');
});

test('another process rotated the refresh token: the newer saved session is used, never an auth error', async () => {
  const { pds, read, setStored, stored } = setup();
  await read();
  const mine = stored()!;
  // Another worker refreshed the shared session; the PDS has revoked the token this process holds.
  pds.expired.add(mine.accessJwt);
  pds.revokedRefresh.add(mine.refreshJwt);
  setStored(pds.session());
  const logins = pds.logins;
  assert.equal(await read(), DID);
  assert.equal(pds.logins, logins, "resumed the other process's session instead of logging in");
});

test("a request's deadline: the fixed limit, and a blob upload 400 s more (100 MB at 256 KiB/s)", () => {
  assert.equal(requestDeadlineMs(30_000, 'https://pds.example/xrpc/com.atproto.repo.createRecord'), 30_000);
  assert.equal(requestDeadlineMs(30_000, 'https://pds.example/xrpc/com.atproto.repo.uploadBlob'), 430_000);
});

test('@atproto/api sends uploadBlob to the address the deadline recognises', async () => {
  const { AtpAgent } = await import('@atproto/api');
  const urls: string[] = [];
  const inner: typeof globalThis.fetch = async (input) => {
    urls.push((input as Request).url);
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const agent = new AtpAgent({ service: 'https://pds.invalid', fetch: withTimeout(inner, 30_000) });
  // Only the request matters here: the made-up answer is not a blob.
  await agent.uploadBlob(new Blob([new Uint8Array([1, 2, 3])]), { encoding: 'video/mp4' }).catch(() => undefined);
  assert.deepEqual(
    urls.map((u) => requestDeadlineMs(30_000, u)),
    [430_000],
  );
});
