import { buildApp } from './app.js';
import { createOwnerIfEmpty } from './bootstrap.js';
import type { Config } from './config/config.js';
import type { Secrets } from './config/secrets.js';
import { createContext } from './context.js';
import { type RunningPublisher, startPublisher } from './publisher/runner.js';

/**
 * `skein serve` / `npm start`: the API and (unless disabled) the publisher in one process.
 * SIGTERM/SIGINT: stop taking requests, let those in flight and the post being published finish.
 */
export async function runServer(config: Config, secrets: Secrets): Promise<void> {
  // A signal while the database opens (and migrates) is kept and acted on once it is open, so the
  // process still closes it and exits 0 instead of dying half-way through start-up.
  let early: string | null = null;
  const onEarlyTerm = () => (early ??= 'SIGTERM');
  const onEarlyInt = () => (early ??= 'SIGINT');
  process.once('SIGTERM', onEarlyTerm);
  process.once('SIGINT', onEarlyInt);
  let ctx: Awaited<ReturnType<typeof createContext>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    ctx = await createContext(config, secrets);
    app = await buildApp(ctx);
  } finally {
    process.off('SIGTERM', onEarlyTerm);
    process.off('SIGINT', onEarlyInt);
  }
  let publisher: RunningPublisher | null = null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, 'shutting down');
    await app.close();
    await publisher?.stop();
    await ctx.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  if (early) return stop(early);

  const banner = await createOwnerIfEmpty(ctx);
  await app.listen({ host: config.http.host, port: config.http.port });
  if (banner) process.stdout.write(`${banner}\n`);
  if (config.publisher.enabled) publisher = startPublisher(ctx);
}
