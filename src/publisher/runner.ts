import type { AppContext } from '../context.js';
import { PublisherLoop } from './loop.js';
import { createPlatforms } from './platforms/index.js';

export interface RunningPublisher {
  stop(): Promise<void>;
}

export function startPublisher(ctx: AppContext): RunningPublisher {
  const loop = new PublisherLoop(ctx, createPlatforms(ctx));
  loop.start();
  ctx.logger.info({ workerId: loop.workerId }, 'publisher started');
  return { stop: () => loop.stop() };
}
