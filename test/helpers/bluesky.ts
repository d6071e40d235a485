/** Helpers shared by the Bluesky platform tests (not a test file itself). */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { newId } from '../../src/lib/ids.js';
import type { BlueskySession, BlueskySessions } from '../../src/networks/bluesky/platform.js';
import type { MediaItem, PlatformAccount, PostProgress, PostToPublish } from '../../src/networks/platform.js';
import type { LocalAccount } from './fakes/bluesky-pds.js';

/** dev-env's PDS signs session tokens with this HS256 secret (@atproto/dev-env const JWT_SECRET). */
const DEV_ENV_JWT_SECRET = 'jwt-secret';

export class MemorySessions implements BlueskySessions {
  readonly sessions = new Map<string, BlueskySession>();
  saves = 0;

  async load(providerId: string): Promise<BlueskySession | null> {
    const session = this.sessions.get(providerId);
    return session ? { ...session } : null;
  }

  async save(providerId: string, session: BlueskySession): Promise<void> {
    this.saves += 1;
    this.sessions.set(providerId, { ...session });
  }
}

/** A fetch that counts XRPC calls by method name, and can lose the response of one call. */
export class CountingFetch {
  readonly calls = new Map<string, number>();
  #dropResponseOf: string | null = null;

  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const method = new URL(request.url).pathname.replace('/xrpc/', '');
    this.calls.set(method, this.count(method) + 1);
    const response = await globalThis.fetch(request);
    if (this.#dropResponseOf === method) {
      this.#dropResponseOf = null;
      await response.body?.cancel();
      throw new TypeError('fetch failed (test: response lost after the server handled the request)');
    }
    return response;
  };

  count(method: string): number {
    return this.calls.get(method) ?? 0;
  }

  get logins(): number {
    return this.count('com.atproto.server.createSession');
  }

  /** The next call of `method` reaches the server, but its answer never arrives. */
  loseNextResponse(method: string): void {
    this.#dropResponseOf = method;
  }
}

export function platformAccount(account: LocalAccount, serviceUrl: string, providerId = `prov-${account.handle}`): PlatformAccount {
  return {
    providerId,
    providerUserId: account.did,
    username: account.handle,
    accessToken: account.appPassword,
    refreshToken: null,
    tokenExpiresAt: null,
    serviceUrl,
  };
}

export function newPost(text: string, media: MediaItem[] = []): PostToPublish {
  return { id: newId(), text, topic: null, media, spoilerRanges: [], isSpoilerMedia: false, writtenAt: new Date() };
}

export function emptyProgress(): PostProgress {
  return { containerId: null, networkPostId: null, cid: null };
}

/** Records what the platform reports through onProgress. */
export function progressLog(): { saved: PostProgress[]; onProgress: (p: PostProgress) => Promise<void> } {
  const saved: PostProgress[] = [];
  return { saved, onProgress: async (p) => void saved.push({ ...p }) };
}

/** The same access token with `exp` in the past, validly signed: the PDS answers ExpiredToken. */
export function expireAccessToken(jwt: string): string {
  const [header, payload] = jwt.split('.') as [string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp: number; iat?: number };
  const nowSeconds = Math.floor(Date.now() / 1000);
  const expired = Buffer.from(JSON.stringify({ ...claims, iat: nowSeconds - 7200, exp: nowSeconds - 60 })).toString('base64url');
  const signature = createHmac('sha256', DEV_ENV_JWT_SECRET).update(`${header}.${expired}`).digest('base64url');
  return `${header}.${expired}.${signature}`;
}

/** A local HTTP server serving fixed files, for media URLs. */
export async function startFileServer(files: Record<string, { type: string; body: Buffer }>): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
