import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the one given when 0 was asked for). */
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on its own port (SKEIN_METRICS_PORT), never on the public API port: a plain
 * node:http server, so scrapes pass no API key, rate limit or request log.
 */
export async function startMetricsServer(metrics: Metrics, host: string, port: number, logger: Logger): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    metrics.scrape().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        logger.error({ err }, 'collecting the metrics failed');
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Collecting the metrics failed (is the database reachable?)\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  logger.info({ host, port: address.port }, 'metrics served at /metrics');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
