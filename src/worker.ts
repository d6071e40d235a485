import type { Config } from './config/config.js';
import type { Secrets } from './config/secrets.js';
import { createContext } from './context.js';
import { onStopSignal } from './lib/stop-signal.js';
import { startMetricsServer } from './metrics/server.js';
import { startPublisher } from './publisher/runner.js';

/** `skein worker`: only the publisher, no HTTP. Any number may run against one PostgreSQL. */
export async function runWorker(config: Config, secrets: Secrets): Promise<void> {
  const signals = onStopSignal();
  const ctx = await createContext(config, secrets);
  const metricsServer = config.metrics ? await startMetricsServer(ctx.metrics, config.metrics.host, config.metrics.port, ctx.logger) : null;
  const publisher = signals.received ? null : await startPublisher(ctx);
  signals.handle(async () => {
    await metricsServer?.close();
    await publisher?.stop();
    await ctx.close();
    process.exit(0);
  });
}
