/**
 * Helpers that let the crash and fault tests arrange the case they need instead of hoping the
 * machine's speed produces it: a clock for the fake Graph API that only makes a container ready
 * when the test says so, a gate a proxied call can be held on, and a proxy in front of a Bluesky
 * PDS that kills the worker at a chosen write (the XRPC counterpart of harness.ts's GraphProxy).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../src/lib/clock.js';
import type { WorkerProcess } from './harness.js';

/**
 * The fake Graph API's clock in the crash tests: real time plus the jumps the test makes. With a
 * container processing time far longer than any test runs, a container is IN_PROGRESS until the
 * test jumps the clock past it, whatever the speed of the machine; the jumps only ever move the
 * fake's time forward, so its publish times stay in order.
 */
export class JumpClock implements Clock {
  #offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  jump(ms: number): void {
    this.#offsetMs += ms;
  }
}

/** A promise opened from outside: a held call waits on it. */
export class Gate {
  readonly opened: Promise<void>;
  #open!: () => void;
  isOpen = false;

  constructor() {
    this.opened = new Promise<void>((resolve) => {
      this.#open = resolve;
    });
  }

  open(): void {
    this.isOpen = true;
    this.#open();
  }
}

/** Resolves when a line of the worker's log contains `text` (polls its collected lines). */
export function logLine(worker: WorkerProcess, text: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const line = worker.lines.find((l) => l.includes(text));
      if (line !== undefined) {
        clearInterval(timer);
        resolve(line);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for "${text}" in ${worker.name}'s log`));
      }
    }, 20);
  });
}

// ---- a proxy in front of a Bluesky PDS ----

export interface XrpcRequest {
  /** 1-based count of requests since the proxy started. */
  seq: number;
  method: string;
  /** The XRPC method, e.g. com.atproto.repo.putRecord. */
  nsid: string;
  /** The JSON body of a procedure call, null for a query. */
  body: Record<string, unknown> | null;
}

/**
 * `forward`; `kill-before`: `kill` runs (it may first wait: the request is held meanwhile), the
 * request never reaches the PDS; `kill-after`: the PDS carries it out, then `kill` runs before
 * the answer is delivered (the worker never learns the outcome).
 */
export type XrpcDecision = { action: 'forward' } | { action: 'kill-before' | 'kill-after'; kill: () => Promise<void> };

/**
 * Forwards every request to the PDS. Point a provider's service_url at it (the worker's agent
 * then sends every call here: a resumed session dispatches to its service URL until its access
 * token is refreshed, 2 h on the dev-env PDS) and `decide` where the worker dies.
 */
export class XrpcProxy {
  seq = 0;
  decide: (req: XrpcRequest) => XrpcDecision = () => ({ action: 'forward' });
  readonly #server: http.Server;
  readonly #target: URL;
  #url = '';

  private constructor(target: string) {
    this.#target = new URL(target);
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res).catch(() => res.destroy());
    });
  }

  static async start(target: string): Promise<XrpcProxy> {
    const proxy = new XrpcProxy(target);
    await new Promise<void>((r) => proxy.#server.listen(0, '127.0.0.1', r));
    proxy.#url = `http://127.0.0.1:${(proxy.#server.address() as AddressInfo).port}`;
    return proxy;
  }

  get url(): string {
    return this.#url;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((r) => this.#server.close(() => r()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    let json: Record<string, unknown> | null = null;
    if (body.length && (req.headers['content-type'] ?? '').includes('json')) {
      try {
        json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        json = null;
      }
    }
    const decision = this.decide({ seq: ++this.seq, method: req.method ?? 'GET', nsid: url.pathname.replace(/^\/xrpc\//, ''), body: json });
    if (decision.action === 'kill-before') {
      await decision.kill();
      res.destroy();
      return;
    }
    const answer = await this.#forward(req, url, body);
    if (decision.action === 'kill-after') {
      await decision.kill();
      res.destroy();
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }

  #forward(req: IncomingMessage, url: URL, body: Buffer): Promise<{ status: number; headers: http.OutgoingHttpHeaders; body: Buffer }> {
    return new Promise((resolveAnswer, reject) => {
      const headers = { ...req.headers, host: this.#target.host };
      const out = http.request(
        { host: this.#target.hostname, port: this.#target.port, method: req.method, path: url.pathname + url.search, headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const { 'transfer-encoding': _te, connection: _c, ...rest } = answer.headers;
            resolveAnswer({ status: answer.statusCode ?? 502, headers: rest, body: Buffer.concat(parts) });
          });
          answer.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }
}

/** The text of the post record a putRecord call writes, or null for any other call. */
export function writtenPostText(req: XrpcRequest): string | null {
  if (req.nsid !== 'com.atproto.repo.putRecord' || req.body?.collection !== 'app.bsky.feed.post') return null;
  const record = req.body.record as { text?: unknown } | undefined;
  return typeof record?.text === 'string' ? record.text : null;
}
