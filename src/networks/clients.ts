import type { AppContext } from '../context.js';
import { httpUrlOrNull } from '../lib/http-url.js';
import { findMediaFile } from '../repos/media.js';
import { findSessionEnc, saveSessionEnc } from '../repos/providers.js';
import { blueskyAddressPolicy, blueskyFetch } from './bluesky/address-policy.js';
import { BlueskyPlatform, type BlueskySession, type BlueskySessions, type ConnectedAccount, connectBluesky } from './bluesky/platform.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './bluesky/sessions.js';
import { withFreshTokens } from './fresh-tokens.js';
import { LinkedInClient } from './linkedin/client.js';
import { LinkedInPlatform } from './linkedin/platform.js';
import { MastodonClient } from './mastodon/client.js';
import { MastodonPlatform } from './mastodon/platform.js';
import type { Platform, Platforms } from './platform.js';
import { ThreadsClient } from './threads/client.js';
import { ThreadsPlatform } from './threads/platform.js';
import { XClient } from './x/client.js';
import { XPlatform } from './x/platform.js';

/** Logs in to Bluesky once with an app password (connecting an account). */
export type BlueskyConnector = (input: { service: string; identifier: string; appPassword: string }) => Promise<ConnectedAccount>;

/**
 * Every client of a social network, built once per process by the context (`ctx.network()`)
 * and replaced by fakes in tests (ContextOverrides.network). The services use them to connect
 * accounts, the publisher to publish and to refresh tokens.
 */
export interface NetworkClients {
  /** Publishing, reposts and analytics, one client per network (they pool sessions). */
  platforms: Platforms;
  /** Threads OAuth (connect) and the long-lived token refresh. */
  threads: ThreadsClient;
  /** Bluesky app-password login (connect). */
  connectBluesky: BlueskyConnector;
  /** Any Mastodon server: app registration, OAuth, limits (connect). */
  mastodon: MastodonClient;
  /** X: OAuth 2.0 with PKCE through the user's own app, rotating refresh tokens (connect). */
  x: XClient;
  /** LinkedIn: OAuth through the user's own app, the member and the pages it administers (connect). */
  linkedin: LinkedInClient;
}

type NetworkDeps = Pick<AppContext, 'config' | 'db' | 'clock' | 'logger' | 'secrets' | 'threadsAppSecret' | 'appSecrets' | 'dnsLookup' | 'media'>;

export function createNetworkClients(ctx: NetworkDeps): NetworkClients {
  // One X client for connecting and publishing: the rate-limit holds one learns, the other knows.
  const x = createXClient(ctx);
  return {
    platforms: createPlatforms(ctx, { x }),
    threads: createThreadsClient(ctx),
    // The connect's agent under the same address policy as publishing's (address-policy.ts).
    connectBluesky: (input) => connectBluesky({ ...input, fetch: blueskyFetch(blueskyAddressPolicy(ctx), DEFAULT_REQUEST_TIMEOUT_MS) }),
    mastodon: createMastodonClient(ctx),
    x,
    linkedin: createLinkedInClient(ctx),
  };
}

/** Bluesky sessions live encrypted on the provider row, so every process and restart shares them. */
function providerSessionStore(ctx: NetworkDeps): BlueskySessions {
  return {
    async load(providerId) {
      const sessionEnc = await findSessionEnc(ctx.db, providerId);
      return sessionEnc ? (JSON.parse(ctx.secrets.decrypt(sessionEnc)) as BlueskySession) : null;
    },
    async save(providerId, session) {
      await saveSessionEnc(ctx.db, providerId, ctx.secrets.encrypt(JSON.stringify(session)), ctx.clock.now());
    },
  };
}

export function createThreadsClient(ctx: NetworkDeps): ThreadsClient {
  return new ThreadsClient({
    apiUrl: ctx.config.threads.apiUrl,
    appId: ctx.config.threads.appId,
    appSecret: ctx.threadsAppSecret,
    now: () => ctx.clock.now().getTime(),
  });
}

/** A Mastodon server's address is held to the address policy of media and webhooks. */
function createMastodonClient(ctx: NetworkDeps): MastodonClient {
  return new MastodonClient({ allowPrivate: ctx.config.media.allowPrivate, lookup: ctx.dnsLookup, now: () => ctx.clock.now().getTime() });
}

/** X's sign-in page is x.com's; a fake (X_API_URL set elsewhere) serves it beside its API. */
function createXClient(ctx: NetworkDeps): XClient {
  const apiUrl = ctx.config.x.apiUrl;
  return new XClient({
    apiUrl,
    ...(apiUrl === X_API_URL ? {} : { authorizeUrl: `${apiUrl}/i/oauth2/authorize` }),
    clientId: ctx.config.x.clientId,
    clientSecret: ctx.appSecrets.x,
    now: () => ctx.clock.now().getTime(),
  });
}

/** LinkedIn's sign-in lives on www.linkedin.com; a fake (LINKEDIN_API_URL set elsewhere) serves it beside its API. */
function createLinkedInClient(ctx: NetworkDeps): LinkedInClient {
  const apiUrl = ctx.config.linkedin.apiUrl;
  return new LinkedInClient({
    apiUrl,
    authUrl: apiUrl === LINKEDIN_API_URL ? 'https://www.linkedin.com' : apiUrl,
    now: () => ctx.clock.now().getTime(),
  });
}

/** How long before its two-hour expiry an X access token is refreshed. */
const X_REFRESH_MARGIN_MS = 10 * 60_000;
const X_API_URL = 'https://api.x.com';
const LINKEDIN_API_URL = 'https://api.linkedin.com';

/**
 * A platform whose permalinks are http(s) or null, whatever its network answered: they are stored,
 * served and put in links (decisions.md "Security rules").
 */
export function withHttpPermalinks<P extends Platform>(platform: P): P {
  const publishPost = platform.publishPost.bind(platform);
  const lookUpPermalink = platform.lookUpPermalink.bind(platform);
  platform.publishPost = async (input) => {
    const ref = await publishPost(input);
    return { ...ref, permalink: httpUrlOrNull(ref.permalink) };
  };
  platform.lookUpPermalink = async (account, ref) => httpUrlOrNull(await lookUpPermalink(account, ref));
  return platform;
}

/** The publishing clients, one per network; `x`: the process's X client, when it has one already. */
export function createPlatforms(ctx: NetworkDeps, shared: { x?: XClient } = {}): Platforms {
  const x = shared.x ?? createXClient(ctx);
  return {
    THREADS: withHttpPermalinks(
      new ThreadsPlatform({
        client: createThreadsClient(ctx),
        mediaCheck: {
          allowPrivate: ctx.config.media.allowPrivate,
          publicUrl: ctx.config.http.publicUrl,
          lookup: ctx.dnsLookup,
        },
      }),
    ),
    BLUESKY: withHttpPermalinks(
      new BlueskyPlatform({
        sessions: providerSessionStore(ctx),
        allowPrivateMedia: ctx.config.media.allowPrivate,
        linkCards: { onSkip: (url, reason) => ctx.logger.info({ url, reason }, 'no link card for a Bluesky post') },
        defaultServiceUrl: ctx.config.bluesky.serviceUrl,
        lookup: ctx.dnsLookup,
        uploads: { publicUrl: ctx.config.http.publicUrl, storage: ctx.media, find: (id) => findMediaFile(ctx.db, id) },
        clock: ctx.clock,
        onSessionSaveError: (err) => ctx.logger.warn({ err }, 'saving a Bluesky session failed; the next publish may log in again'),
      }),
    ),
    MASTODON: withHttpPermalinks(
      new MastodonPlatform({
        client: createMastodonClient(ctx),
        uploads: { publicUrl: ctx.config.http.publicUrl, storage: ctx.media, find: (id) => findMediaFile(ctx.db, id) },
        allowPrivateMedia: ctx.config.media.allowPrivate,
        lookup: ctx.dnsLookup,
      }),
    ),
    X: withFreshTokens(
      withHttpPermalinks(
        new XPlatform({
          client: x,
          uploads: { publicUrl: ctx.config.http.publicUrl, storage: ctx.media, find: (id) => findMediaFile(ctx.db, id) },
          allowPrivateMedia: ctx.config.media.allowPrivate,
          lookup: ctx.dnsLookup,
        }),
      ),
      { name: 'X', marginMs: X_REFRESH_MARGIN_MS, refresh: (refreshToken) => x.refresh(refreshToken) },
      ctx,
    ),
    LINKEDIN: withHttpPermalinks(
      new LinkedInPlatform({
        client: createLinkedInClient(ctx),
        uploads: { publicUrl: ctx.config.http.publicUrl, storage: ctx.media, find: (id) => findMediaFile(ctx.db, id) },
        allowPrivateMedia: ctx.config.media.allowPrivate,
        lookup: ctx.dnsLookup,
      }),
    ),
  };
}
