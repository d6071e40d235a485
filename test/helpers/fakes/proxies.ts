/**
 * HTTP proxies in front of the local fakes of the networks (the fake Graph API, a Bluesky PDS):
 * each request is described and handed to the test's `decide`, which delays it, holds it, or
 * kills the worker before or after the fake carries it out. The crash, race and fault tests
 * (test/system/) put them between the `skein worker` processes and the fakes.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---- a proxy in front of the fake Graph API ----

export type GraphCall = 'limit' | 'create' | 'status' | 'publish' | 'permalink' | 'list' | 'other';

export interface ProxiedRequest {
  /** 1-based count of requests since the proxy was last reset. */
  seq: number;
  method: string;
  path: string;
  call: GraphCall;
  params: Record<string, string>;
}

/**
 * What to do with one request: `forward` (after `delayMs`, answering after `answerDelayMs`), `kill-before` (the hook kills the
 * worker; the request never reaches the fake), `kill-after` (the fake carries it out, then the
 * hook kills the worker before the answer is delivered).
 */
export type ProxyDecision =
  | {
      action: 'forward';
      delayMs?: number;
      /** Holds the fake's answer back this long (Meta slow to answer). */
      answerDelayMs?: number;
      /** Holds the request until this settles (a test arranging a state while a call is in flight), then forwards it. */
      until?: Promise<unknown>;
    }
  | { action: 'kill-before' | 'kill-after'; kill: () => Promise<void> }
  /** The proxy answers in the network's place (a 5xx, a 429): the fake never sees the request. A string body goes as text. */
  | { action: 'answer'; status: number; headers?: http.OutgoingHttpHeaders; body: unknown };

export function classify(method: string, path: string, params: Record<string, string>): GraphCall {
  if (method === 'POST' && /\/threads_publish$/.test(path)) return 'publish';
  if (method === 'POST' && /\/me\/threads$/.test(path)) return 'create';
  if (method === 'GET' && /\/threads_publishing_limit$/.test(path)) return 'limit';
  if (method === 'GET' && /\/me\/(threads|replies)$/.test(path)) return 'list';
  if (method === 'GET' && /^\/v1\.0\/[^/]+$/.test(path)) {
    const fields = params.fields ?? '';
    if (fields.includes('status')) return 'status';
    if (fields.includes('permalink')) return 'permalink';
  }
  return 'other';
}

/**
 * An HTTP proxy in front of a local fake of a network: each request is described (`describe`)
 * and handed to `decide`, which forwards it (after a delay, or once a promise settles, the
 * answer held back as long as asked) or kills the worker before or after the fake carries it
 * out. GraphProxy and XrpcProxy are its two descriptions.
 */
class InterceptingProxy<R> {
  seq = 0;
  decide: (req: R) => ProxyDecision = () => ({ action: 'forward' });
  readonly #server: http.Server;
  readonly #target: URL;
  #url = '';

  protected constructor(
    target: string,
    private readonly describe: (seq: number, req: IncomingMessage, url: URL, body: Buffer) => R,
  ) {
    this.#target = new URL(target);
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res).catch(() => res.destroy());
    });
  }

  protected async listen(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
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
    const decision = this.decide(this.describe(++this.seq, req, url, body));
    if (decision.action === 'kill-before') {
      await decision.kill();
      res.destroy();
      return;
    }
    if (decision.action === 'answer') {
      const text = typeof decision.body === 'string';
      res.writeHead(decision.status, { 'content-type': text ? 'text/plain' : 'application/json', ...decision.headers });
      res.end(text ? decision.body : JSON.stringify(decision.body));
      return;
    }
    if (decision.action === 'forward' && decision.until) await decision.until;
    if (decision.action === 'forward' && decision.delayMs) await sleep(decision.delayMs);
    const answer = await this.#forward(req, url, body);
    if (decision.action === 'kill-after') {
      await decision.kill();
      res.destroy();
      return;
    }
    if (decision.action === 'forward' && decision.answerDelayMs) await sleep(decision.answerDelayMs);
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

/** The proxy in front of the fake Graph API: requests described by the Graph call they make. */
export class GraphProxy extends InterceptingProxy<ProxiedRequest> {
  static start(target: string): Promise<GraphProxy> {
    return new GraphProxy(target).listen();
  }

  private constructor(target: string) {
    super(target, (seq, req, url, body) => {
      const params: Record<string, string> = { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
      const method = req.method ?? 'GET';
      return { seq, method, path: url.pathname, call: classify(method, url.pathname, params), params };
    });
  }
}

// ---- a proxy in front of any network's fake ----

export interface HttpRequestSeen {
  seq: number;
  method: string;
  path: string;
}

/** The proxy in front of any fake, requests described by their method and path (the fault test's). */
export class HttpProxy extends InterceptingProxy<HttpRequestSeen> {
  static start(target: string): Promise<HttpProxy> {
    return new HttpProxy(target).listen();
  }

  private constructor(target: string) {
    super(target, (seq, req, url) => ({ seq, method: req.method ?? 'GET', path: url.pathname }));
  }
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
 * The proxy in front of a Bluesky PDS. Point a provider's service_url at it (the worker's agent
 * then sends every call here: a resumed session dispatches to its service URL until its access
 * token is refreshed, 2 h on the dev-env PDS) and `decide` where the worker dies.
 */
export class XrpcProxy extends InterceptingProxy<XrpcRequest> {
  static start(target: string): Promise<XrpcProxy> {
    return new XrpcProxy(target).listen();
  }

  private constructor(target: string) {
    super(target, (seq, req, url, body) => {
      let json: Record<string, unknown> | null = null;
      if (body.length && (req.headers['content-type'] ?? '').includes('json')) {
        try {
          json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        } catch {
          json = null;
        }
      }
      return { seq, method: req.method ?? 'GET', nsid: url.pathname.replace(/^\/xrpc\//, ''), body: json };
    });
  }
}

/** The text of the post record a putRecord call writes, or null for any other call. */
export function writtenPostText(req: XrpcRequest): string | null {
  if (req.nsid !== 'com.atproto.repo.putRecord' || req.body?.collection !== 'app.bsky.feed.post') return null;
  const record = req.body.record as { text?: unknown } | undefined;
  return typeof record?.text === 'string' ? record.text : null;
}

// ---- a proxy in front of the fake Mastodon server ----

export interface MastodonRequest {
  seq: number;
  method: string;
  path: string;
  /** The JSON body, null for a request without one. */
  body: Record<string, unknown> | null;
}

/** The proxy in front of the fake Mastodon server: point a provider's server URL at it. */
export class MastodonProxy extends InterceptingProxy<MastodonRequest> {
  static start(target: string): Promise<MastodonProxy> {
    return new MastodonProxy(target).listen();
  }

  private constructor(target: string) {
    super(target, (seq, req, url, body) => {
      let json: Record<string, unknown> | null = null;
      if (body.length && (req.headers['content-type'] ?? '').includes('json')) {
        try {
          json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        } catch {
          json = null;
        }
      }
      return { seq, method: req.method ?? 'GET', path: url.pathname, body: json };
    });
  }
}
