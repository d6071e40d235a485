import type { Config } from './config/config.js';
import type { Secrets } from './config/secrets.js';
import { createContext } from './context.js';
import { startPublisher } from './publisher/runner.js';

/** `skein worker`: only the publisher, no HTTP. Any number may run against one PostgreSQL. */
export async function runWorker(config: Config, secrets: Secrets): Promise<void> {
  const ctx = await createContext(config, secrets);
  const publisher = await startPublisher(ctx);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await publisher.stop();
    await ctx.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
