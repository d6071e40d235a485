import type { AppContext } from '../../context.js';
import { findSessionEnc, saveSessionEnc } from '../../repos/providers.js';
import type { Platforms } from '../publish-thread.js';
import { BlueskyPlatform, type BlueskySession, type BlueskySessions } from './bluesky/platform.js';
import { ThreadsClient } from './threads/client.js';
import { ThreadsPlatform } from './threads/platform.js';

/** Bluesky sessions live encrypted on the provider row, so every process and restart shares them. */
export function providerSessionStore(ctx: AppContext): BlueskySessions {
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

export function createThreadsClient(ctx: AppContext): ThreadsClient {
  return new ThreadsClient({
    apiUrl: ctx.config.threads.apiUrl,
    appId: ctx.config.threads.appId,
    appSecret: ctx.threadsAppSecret,
    now: () => ctx.clock.now().getTime(),
  });
}

/** The network clients the publisher uses, built once per process (they pool sessions). */
export function createPlatforms(ctx: AppContext): Platforms {
  return {
    THREADS: new ThreadsPlatform({ client: createThreadsClient(ctx) }),
    BLUESKY: new BlueskyPlatform({
      sessions: providerSessionStore(ctx),
      allowPrivateMedia: ctx.config.media.allowPrivate,
      defaultServiceUrl: ctx.config.bluesky.serviceUrl,
      clock: ctx.clock,
      onSessionSaveError: (err) => ctx.logger.warn({ err }, 'saving a Bluesky session failed; the next publish may log in again'),
    }),
  };
}
