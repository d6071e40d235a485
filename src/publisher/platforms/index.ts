import type { AppContext } from '../../context.js';
import type { Platforms } from '../publish-thread.js';
import { BlueskyPlatform, type BlueskySession, type BlueskySessions } from './bluesky/platform.js';
import { ThreadsClient } from './threads/client.js';
import { ThreadsPlatform } from './threads/platform.js';

/** Bluesky sessions live encrypted on the provider row, so every process and restart shares them. */
export function providerSessionStore(ctx: AppContext): BlueskySessions {
  return {
    async load(providerId) {
      const row = await ctx.db.selectFrom('providers').select('session_enc').where('id', '=', providerId).executeTakeFirst();
      return row?.session_enc ? (JSON.parse(ctx.secrets.decrypt(row.session_enc)) as BlueskySession) : null;
    },
    async save(providerId, session) {
      await ctx.db
        .updateTable('providers')
        .set({ session_enc: ctx.secrets.encrypt(JSON.stringify(session)), updated_at: ctx.clock.now() })
        .where('id', '=', providerId)
        .execute();
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
