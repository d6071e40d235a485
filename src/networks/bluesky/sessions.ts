import type { AtpAgent, AtpSessionData, AtpSessionEvent } from '@atproto/api';
import { type PlatformAccount, PublishError } from '../platform.js';
import { isSessionRejected, toPublishError } from './errors.js';
import { atproto } from './sdk.js';

/**
 * Bluesky sessions: one login when the account is connected, then the saved session is reused
 * by every publish. The agent refreshes the access token by itself when the PDS answers
 * ExpiredToken (the refresh token rotates, so each new session is saved); only when the
 * refresh token is refused too does Skein log in again with the stored app password.
 */

export type BlueskySession = AtpSessionData;

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** Where sessions live between processes (in production: the encrypted providers table). */
export interface BlueskySessions {
  load(providerId: string): Promise<BlueskySession | null>;
  save(providerId: string, session: BlueskySession): Promise<void>;
}

export interface AgentOptions {
  sessions: BlueskySessions;
  /** Used when the account has no serviceUrl. */
  defaultServiceUrl: string;
  fetch: typeof globalThis.fetch;
  onSaveError: (err: unknown) => void;
  /** Refuses a PDS the address policy does not allow, before an agent is made for it. */
  checkService?: (service: string) => Promise<void>;
}

interface PooledAgent {
  agent: AtpAgent;
  /** Every refresh token this agent has held; once refused, none of them is worth resuming. */
  refreshTokens: Set<string>;
  /** True when the agent logged in itself (rather than resuming a saved session). */
  freshLogin: boolean;
  /** Resolves once every session change seen so far is saved. */
  saved: () => Promise<void>;
}

interface PoolEntry {
  ready: Promise<PooledAgent>;
}

/** Enough for: the pooled agent, then a newer session saved by another process, then a login. */
const MAX_SESSION_ATTEMPTS = 3;

/** One agent per connected account, for this process. */
export class AgentPool {
  readonly #entries = new Map<string, PoolEntry>();

  constructor(private readonly options: AgentOptions) {}

  /**
   * Runs `work` with a signed-in agent. When the PDS refuses the session even after the
   * agent's own refresh, `work` runs again with the next best session: one another process
   * saved meanwhile, else a fresh login. A refused request wrote nothing, and Skein's writes
   * are idempotent anyway. Errors are thrown as @atproto/api raised them.
   */
  async withAgent<T>(account: PlatformAccount, work: (agent: AtpAgent) => Promise<T>): Promise<T> {
    const refused = new Set<string>();
    for (let attempt = 1; ; attempt++) {
      const { entry, created } = this.#entryFor(account, refused);
      const pooled = await entry.ready;
      try {
        return await work(pooled.agent);
      } catch (err) {
        // @atproto/api drops a refused session from the agent: such an agent is of no more use
        // to anyone, whoever logged it in, so it leaves the pool before anything else.
        if (!isSessionRejected(err) && pooled.agent.session) throw err;
        for (const token of pooled.refreshTokens) refused.add(token);
        this.#forget(account.providerId, entry);
        // A session this very call logged in with is refused: the app password is no good.
        if ((created && pooled.freshLogin) || attempt >= MAX_SESSION_ATTEMPTS) throw err;
      } finally {
        await pooled.saved();
      }
    }
  }

  #entryFor(account: PlatformAccount, refused: Set<string>): { entry: PoolEntry; created: boolean } {
    const cached = this.#entries.get(account.providerId);
    if (cached) return { entry: cached, created: false };
    const entry: PoolEntry = { ready: this.#createAgent(account, refused) };
    this.#entries.set(account.providerId, entry);
    entry.ready.catch(() => this.#forget(account.providerId, entry));
    return { entry, created: true };
  }

  #forget(providerId: string, entry: PoolEntry): void {
    if (this.#entries.get(providerId) === entry) this.#entries.delete(providerId);
  }

  async #createAgent(account: PlatformAccount, refused: Set<string>): Promise<PooledAgent> {
    const refreshTokens = new Set<string>();
    let pending: Promise<void> = Promise.resolve();
    const persist = (event: AtpSessionEvent, session: AtpSessionData | undefined) => {
      if (!session || (event !== 'create' && event !== 'update')) return;
      const copy = { ...session };
      refreshTokens.add(copy.refreshJwt);
      // Saves are chained so a rotated refresh token is never overwritten by an older one.
      pending = pending.then(() => this.options.sessions.save(account.providerId, copy)).catch(this.options.onSaveError);
    };
    const service = account.serviceUrl ?? this.options.defaultServiceUrl;
    await this.options.checkService?.(service);
    const agent = new (atproto().AtpAgent)({ service, fetch: this.options.fetch, persistSession: persist });
    const saved = await this.options.sessions.load(account.providerId);
    const resumable = saved !== null && !refused.has(saved.refreshJwt);
    if (resumable) {
      // Used as is: the agent refreshes it on the first ExpiredToken, so no call is spent here.
      agent.sessionManager.session = { ...saved };
      refreshTokens.add(saved.refreshJwt);
    } else {
      await login(agent, account);
    }
    return { agent, refreshTokens, freshLogin: !resumable, saved: () => pending };
  }
}

async function login(agent: AtpAgent, account: PlatformAccount): Promise<void> {
  if (!account.accessToken) throw new PublishError('auth', 'AUTH_FAILED', 'Bluesky account has no app password; reconnect it');
  const identifier = account.providerUserId || account.username;
  try {
    await agent.login({ identifier, password: account.accessToken });
  } catch (err) {
    throw loginError(err);
  }
}

function loginError(err: unknown): PublishError {
  const mapped = toPublishError(err, 'login');
  // A 400 from createSession (bad identifier shape, wrong password on some PDSes) is an auth problem too.
  if (mapped.kind === 'permanent' || isSessionRejected(err)) {
    return new PublishError('auth', 'AUTH_FAILED', mapped.message, { cause: err });
  }
  return mapped;
}

export interface ConnectedAccount {
  did: string;
  handle: string;
  session: BlueskySession;
  /** The account's own PDS (from its DID document); store it as the provider's serviceUrl. */
  pdsUrl: string;
}

/** Logs in once with an app password, for the connect endpoint. */
export async function connectBluesky(input: {
  service: string;
  identifier: string;
  appPassword: string;
  fetch?: typeof globalThis.fetch;
}): Promise<ConnectedAccount> {
  const fetch = withTimeout(input.fetch ?? globalThis.fetch, DEFAULT_REQUEST_TIMEOUT_MS);
  const agent = new (atproto().AtpAgent)({ service: input.service, fetch });
  try {
    await agent.login({ identifier: input.identifier.trim().replace(/^@/, ''), password: input.appPassword });
  } catch (err) {
    throw loginError(err);
  }
  const session = agent.session!;
  return { did: session.did, handle: session.handle, session: { ...session }, pdsUrl: (agent.pdsUrl ?? agent.serviceUrl).href.replace(/\/$/, '') };
}

/**
 * How long a blob upload may take beyond the fixed limit: Bluesky's largest blob (a 100 MB video)
 * at 256 KiB/s, which a home connection's upload meets. @atproto/api sends the blob as a Request
 * without a Content-Length, so the allowance cannot follow each blob's size.
 */
const BLOB_UPLOAD_ALLOWANCE_MS = Math.ceil(((100 * 1024 * 1024) / (256 * 1024)) * 1000);

/** A request's deadline: `ms`, and for a blob upload the allowance above on top. */
export function requestDeadlineMs(ms: number, url: string): number {
  return new URL(url).pathname.endsWith('/xrpc/com.atproto.repo.uploadBlob') ? ms + BLOB_UPLOAD_ALLOWANCE_MS : ms;
}

/**
 * @atproto/api has no timeout of its own; a hung PDS must not hold a publish or a connect forever.
 * A blob's upload gets longer: a fixed 30 s would fail a large video on a healthy but modest
 * connection.
 */
export function withTimeout(fetchFn: typeof globalThis.fetch, ms: number): typeof globalThis.fetch {
  return (input, init) => {
    const request = new Request(input, init);
    return fetchFn(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(requestDeadlineMs(ms, request.url))]) });
  };
}
