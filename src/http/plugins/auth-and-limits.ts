import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, InjectOptions, LightMyRequestResponse } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { RateLimitedError, UnauthenticatedError } from '../../errors/index.js';
import { tighterLimit } from '../../lib/rate-limit/store.js';
import { authenticate } from '../../services/accounts/api-keys.js';
import { authenticateSession, checkCsrf } from '../../services/accounts/web-auth.js';
import { readCookie } from '../cookies.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on every authenticated route; handlers read it through `caller(request)`. */
    account: AccountRow | null;
    /** The session cookie's token when the session cookie (not a key) authenticated the request. */
    sessionToken: string | null;
    /** The id of the API key that authenticated the request (null for a session or no caller). */
    apiKeyId: string | null;
  }
  interface FastifyContextConfig {
    /** No API key needed (OpenAPI document). */
    public?: boolean;
    /** Outside /api, yet an API key is needed, and only a key (no session cookie): /mcp. */
    apiKeyOnly?: boolean;
  }
  interface FastifyInstance {
    /**
     * A request to one of this app's own routes on behalf of `request`'s caller (its key, never
     * its cookies), in process: authenticated and checked as any request, but not counted again
     * toward the rate limits (the request it serves was counted). The MCP tools call the REST API
     * this way, so every rule stays the route's own.
     */
    injectAsCaller(request: FastifyRequest, options: InjectOptions): Promise<LightMyRequestResponse>;
  }
}

export function caller(request: FastifyRequest): AccountRow {
  if (!request.account) throw new UnauthenticatedError();
  return request.account;
}

function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1] : '';
  }
  const apiKey = request.headers['x-api-key'];
  return Array.isArray(apiKey) ? apiKey[0] : apiKey;
}

/** The header that marks an in-process request of injectAsCaller (its value a per-app secret). */
const INNER_CALL_HEADER = 'x-skein-inner-call';

/** Methods that change nothing: no CSRF token needed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A presented key wins (a script's request carrying a browser's cookie too is the script's);
 * without one, the session cookie authenticates, and a state change needs its CSRF token.
 */
async function authenticateRequest(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const key = presentedKey(request);
  const keyOnly = request.routeOptions.config?.apiKeyOnly === true;
  const sessionToken = key === undefined && !keyOnly ? readCookie(request, ctx.config.http.publicUrl, 'skein_session') : undefined;
  if (sessionToken === undefined) {
    const { account, keyId } = await authenticate(ctx, key);
    request.account = account;
    request.apiKeyId = keyId;
    return;
  }
  const account = await authenticateSession(ctx, sessionToken);
  if (!account) throw new UnauthenticatedError();
  request.account = account;
  request.sessionToken = sessionToken;
}

/**
 * Whether the route a request reached needs a key: decided by the matched route's own path (the
 * router decodes the URL, so `/%61pi/v1/…` reaches `/api/v1/…`), never by the raw URL's spelling.
 */
function routeNeedsKey(request: FastifyRequest): boolean {
  if (request.is404) return false;
  const config = request.routeOptions.config;
  return (request.routeOptions.url?.startsWith('/api/') === true || config?.apiKeyOnly === true) && !config?.public;
}

/** Liveness and readiness probes: never limited, so a load balancer can always ask. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Authentication first (so the account is known), then both rate limits in one atomic step.
 * An unauthenticated request counts toward its IP's limit only; a refused one counts nowhere.
 * Every response but a probe's carries the RateLimit headers (decisions.md), so requests outside
 * /api (the docs page, unknown paths) count toward their IP's limit too.
 */
export const authAndLimitsPlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  app.decorateRequest('account', null);
  app.decorateRequest('sessionToken', null);
  app.decorateRequest('apiKeyId', null);
  // Marks this app's own in-process requests (injectAsCaller): random per app, never sent out.
  const innerToken = Buffer.from(randomBytes(32).toString('base64url'));
  const isInnerCall = (request: FastifyRequest) => {
    const given = request.headers[INNER_CALL_HEADER];
    return typeof given === 'string' && given.length === innerToken.length && timingSafeEqual(Buffer.from(given), innerToken);
  };
  let innerCalls = 0;
  app.decorate('injectAsCaller', (request: FastifyRequest, options: InjectOptions) => {
    const { authorization, 'x-api-key': apiKey } = request.headers;
    const headers: Record<string, string> = {
      ...(options.headers as Record<string, string> | undefined),
      [INNER_CALL_HEADER]: innerToken.toString(),
      // The inner request's log lines carry the outer one's id, numbered.
      'x-request-id': `${request.id}.${++innerCalls}`.slice(-128),
    };
    if (typeof authorization === 'string') headers.authorization = authorization;
    if (typeof apiKey === 'string') headers['x-api-key'] = apiKey;
    return app.inject({ ...options, headers });
  });
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    const query = url.indexOf('?');
    if (PROBES.has(query === -1 ? url : url.slice(0, query))) return;
    const needsKey = routeNeedsKey(request);
    let authError: unknown = null;
    if (isInnerCall(request)) {
      if (needsKey) await authenticateRequest(ctx, request);
      return;
    }
    if (needsKey) {
      try {
        await authenticateRequest(ctx, request);
        if (request.sessionToken && !SAFE_METHODS.has(request.method)) {
          const header = request.headers['x-csrf-token'];
          checkCsrf(ctx, request.sessionToken, Array.isArray(header) ? header[0] : header);
        }
      } catch (err) {
        authError = err;
      }
    }
    const { perAccount, perIp, windowMs } = ctx.config.rateLimit;
    const rules = [{ key: `ip:${request.ip}`, limit: perIp }];
    if (request.account) rules.push({ key: `acct:${request.account.id}`, limit: perAccount });
    let result;
    try {
      result = await ctx.rateLimits.hit(rules, ctx.clock.now().getTime(), windowMs);
    } catch (err) {
      // The shared store (Redis) is down: serve rather than refuse everyone, and say so loudly.
      request.log.error({ err }, 'rate-limit store unavailable; request served without a limit check');
      if (authError) throw authError;
      return;
    }
    const shown = tighterLimit(result.limits);
    reply.header('ratelimit-limit', String(shown.limit));
    reply.header('ratelimit-remaining', String(shown.remaining));
    reply.header('ratelimit-reset', String(shown.resetSeconds));
    if (!result.allowed) {
      // The refusing limit is the one with nothing left (an allowing one keeps at least 1).
      ctx.metrics.rateLimitRefusal(result.limits.some((l) => l.remaining === 0 && l.key.startsWith('acct:')) ? 'account' : 'ip');
      throw new RateLimitedError(result.retryAfterSeconds ?? 1);
    }
    if (authError) throw authError;
  });
  // A second lock on the same door: no handler of a keyed route runs without its caller, whatever
  // the hook above decided (a handler that never calls `caller(request)` is still covered).
  app.addHook('preHandler', async (request: FastifyRequest) => {
    if (routeNeedsKey(request) && !request.account) throw new UnauthenticatedError();
  });
});
