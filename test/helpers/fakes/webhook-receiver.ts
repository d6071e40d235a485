import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
}

/**
 * A webhook endpoint on loopback that records every request and answers with `answer(request,
 * n)` (n counts from 1), 200 by default. `stop()` and `start()` take it down and bring it back
 * on the same port (connections refused meanwhile).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (request: ReceivedWebhook, n: number) => number | { status: number; location?: string } = () => 200;
  #server: Server | null = null;
  #port = 0;

  get running(): boolean {
    return this.#server !== null;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}/hook`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const request = { headers: req.headers, rawBody, body: JSON.parse(rawBody) };
        this.received.push(request);
        const answer = this.answer(request, this.received.length);
        const { status, location } = typeof answer === 'number' ? { status: answer, location: undefined } : answer;
        res.writeHead(status, location ? { location } : {});
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(this.#port, '127.0.0.1', resolve));
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  uniqueIds(): Set<string> {
    return new Set(this.received.map((r) => r.body.id));
  }
}
