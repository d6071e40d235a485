import { createOwnerIfEmpty } from './bootstrap.js';
import { type ControlServer, runControlCommand, startControlSocket } from './cli/control-socket.js';
import type { Config } from './config/config.js';
import type { Secrets } from './config/secrets.js';
import { createContext } from './context.js';
import type { EarlyStart } from './early-start.js';
import { onStopSignal } from './lib/stop-signal.js';
import { type MetricsServer, startMetricsServer } from './metrics/server.js';
import { type RunningPublisher, startPublisher } from './publisher/runner.js';

/**
 * `skein serve` / `npm start`: the API and (unless disabled) the publisher in one process.
 * SIGTERM/SIGINT: stop taking requests, let those in flight and the post being published finish.
 * A signal that arrives while the server is still starting stops it once it has started.
 */
export async function runServer(config: Config, secrets: Secrets, early?: EarlyStart): Promise<void> {
  const signals = early?.signals ?? onStopSignal();
  // The HTTP modules (Fastify, the schemas) load while the database opens.
  const [ctx, { buildApp }] = await Promise.all([createContext(config, secrets, early?.embedded ? { embedded: early.embedded } : {}), import('./app.js')]);
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let publisher: RunningPublisher | null = null;
  let metricsServer: MetricsServer | null = null;
  let control: ControlServer | null = null;
  try {
    app = await buildApp(ctx);
    const banner = await createOwnerIfEmpty(ctx);
    // The CLI's account, key and provider commands reach the embedded database through this
    // server; the socket is up before /readyz answers, so a script may run them from then on.
    if (!config.db.url) control = await startControlSocket(config.db.dataDir, (request) => runControlCommand(ctx, request), ctx.logger);
    await app.listen({ host: config.http.host, port: config.http.port });
    // The routes' schema functions are compiled at first use; the rest now, between requests.
    app.warmUpSchemas().catch((err: unknown) => ctx.logger.error({ err }, 'a route schema does not compile'));
    if (banner) process.stdout.write(`${banner}\n`);
    if (config.metrics) metricsServer = await startMetricsServer(ctx.metrics, config.metrics.host, config.metrics.port, ctx.logger);
    if (config.publisher.enabled && !signals.received) publisher = await startPublisher(ctx);
  } catch (err) {
    // A start that fails (the port taken, say) must end the process, not leave it holding the
    // database, Redis and the data folder's lock with nothing served.
    await app?.close().catch(() => {});
    await control?.close().catch(() => {});
    await metricsServer?.close().catch(() => {});
    await publisher?.stop().catch(() => {});
    await ctx.close().catch(() => {});
    throw err;
  }
  const started = app;
  signals.handle(async (signal) => {
    ctx.logger.info({ signal }, 'shutting down');
    await started.close();
    await control?.close();
    await metricsServer?.close();
    await publisher?.stop();
    await ctx.close();
    process.exit(0);
  });
}
