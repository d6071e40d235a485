import type { AppContext } from '../context.js';
import { PublisherLoop } from './loop.js';
import { refreshExpiringThreadsTokens } from './token-refresh.js';

export interface RunningPublisher {
  stop(): Promise<void>;
}

const TOKEN_REFRESH_EVERY_MS = 3600_000;

/** The claim loop plus the hourly refresh of Threads tokens that are close to expiry. */
export function startPublisher(ctx: AppContext): RunningPublisher {
  const loop = new PublisherLoop(ctx);
  const refreshTokens = () => refreshExpiringThreadsTokens(ctx).catch((err) => ctx.logger.error({ err }, 'refreshing Threads tokens failed'));
  void refreshTokens();
  const timer = setInterval(refreshTokens, TOKEN_REFRESH_EVERY_MS);
  timer.unref();
  loop.start();
  ctx.logger.info({ workerId: loop.workerId }, 'publisher started');
  return {
    stop: async () => {
      clearInterval(timer);
      await loop.stop();
    },
  };
}
