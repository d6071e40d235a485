/**
 * Helpers that let the crash and fault tests arrange the case they need instead of hoping the
 * machine's speed produces it: a clock for the fake Graph API that only makes a container ready
 * when the test says so, a gate a proxied call can be held on, and a proxy in front of a Bluesky
 * PDS that kills the worker at a chosen write (the XRPC counterpart of harness.ts's GraphProxy).
 */
import type { Clock } from '../../../src/lib/clock.js';
import { InterceptingProxy } from './harness.js';

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
