import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { RangeNotSatisfiableError, RateLimitedError, RefusedUploadError, ShuttingDownError, ValidationError } from '../../errors/index.js';
import { clientErrorProblem, PROBLEM_CONTENT_TYPE, problem, toProblem } from '../../errors/problem.js';
import type { WebAppHandler } from '../web-app.js';
import { dedupe, shapeFaults } from './validation.js';

/** Answers any error with its problem; the one place an error becomes a response. */
function sendProblem(err: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const body = toProblem(err);
  if (body.status >= 500 && body.status !== 503) request.log.error({ err }, 'request failed');
  if (err instanceof RateLimitedError) reply.header('retry-after', String(err.retryAfterSeconds));
  if (err instanceof ShuttingDownError) reply.header('connection', 'close');
  // The rest of a refused upload is not read: the connection closes once the answer is sent.
  if (err instanceof RefusedUploadError && !request.raw.complete) {
    reply.header('connection', 'close');
    lingeringClose(request.raw);
  }
  if (err instanceof RangeNotSatisfiableError) reply.header('content-range', `bytes */${err.size}`);
  reply.status(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

/** How long a closing connection takes in (and discards) what still arrives before it is cut. */
const LINGER_MS = 2_000;

/**
 * Closing a connection whose request is still arriving resets it (TCP sends RST for unread
 * data), and a reset can destroy the answer before the client reads it. So, as Apache's and
 * nginx's lingering close do, once the answer is sent the socket's sending side is closed, what
 * still arrives is discarded until the client closes its side or for LINGER_MS at most, and then
 * the socket is destroyed: the client reads its 413 and stops.
 *
 * What arrives goes through Node's HTTP parser into the request, so it is the request that is
 * read. Unread, its buffer fills and the parser stops reading the socket; a socket that does not
 * read keeps nothing running, so the client's close is never seen and a server closing waits for
 * that connection with nothing left to run (the event loop ends mid-close). It is read with
 * `read()` because a reader that gave up may have left a 'readable' listener, which keeps
 * `resume()` from starting the flow. The timer is referenced for the same reason: the connection
 * ends at most LINGER_MS after the answer, whatever the parser does.
 */
function lingeringClose(request: IncomingMessage): void {
  const socket = request.socket;
  if (!socket) return;
  socket.destroySoon = function lingering(this: Socket) {
    const discard = () => {
      while (request.read() !== null);
    };
    const stop = () => {
      clearTimeout(timer);
      request.off('readable', discard);
      this.destroy();
    };
    const timer = setTimeout(stop, LINGER_MS);
    this.once('end', stop);
    this.once('close', stop);
    this.once('error', stop);
    this.end();
    request.on('readable', discard);
    discard();
    this.resume();
  };
}

/**
 * Fastify's `frameworkErrors` option: errors its router raises before any hook runs
 * (FST_ERR_BAD_URL for `%ZZ`, FST_ERR_MAX_PARAM_LENGTH for an over-long id).
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No hook runs for these (not even onSend), so the request id is set here.
  reply.header('x-request-id', request.id);
  sendProblem(err, request, reply);
}

/**
 * Fastify's `clientErrorHandler` option: Node's HTTP parser refused the request before Fastify
 * saw it (headers or URL over 16 KiB: 431; not HTTP: 400; a request not received in time: 408).
 * The answer is written on the socket as problem+json, then the connection is closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this connection cannot be followed by another.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const answer = clientErrorProblem(err);
    const body = JSON.stringify(answer);
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * An `Expect` header other than `100-continue`: Node would answer 417 with an empty body on its
 * own; the same answer, as a problem.
 */
export function answerUnmetExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify(problem(417, 'EXPECTATION_FAILED', 'Only "Expect: 100-continue" is supported.'));
  response.writeHead(417, { 'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.end(body);
}

/** `/api/v1/posts/:threadId/tags` → a pattern matching the paths of that route. */
function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** One place where every error becomes an RFC 9457 problem. */
export const errorsPlugin = fp(async (app: FastifyInstance, { webApp }: { webApp?: WebAppHandler | null }) => {
  const routes: Array<{ methods: string[]; pattern: RegExp }> = [];
  app.addHook('onRoute', (route) => {
    routes.push({ methods: [route.method].flat(), pattern: routePattern(route.url) });
  });

  // Fastify's own 503 while closing is plain JSON (return503OnClosing is off in app.ts): this is
  // the first onRequest hook, so a request arriving on a kept-alive connection during shutdown
  // is refused before any work, as problem+json.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style, as every hook that does nothing on most requests: no promise per request.
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? new ShuttingDownError() : undefined);
  });

  app.setErrorHandler((err: FastifyError & { validationContext?: string }, request, reply) => {
    if (err.validation) {
      // Only if a route were registered without the validation guard (validation.ts).
      const faults = [...shapeFaults(err.validation as never, err.validationContext ?? 'body'), ...(request.inputFaults ?? [])];
      return sendProblem(new ValidationError(dedupe(faults)), request, reply);
    }
    sendProblem(err, request, reply);
  });

  app.setNotFoundHandler((request, reply) => {
    // The web app's files, and its index.html for the paths it routes in the browser.
    if (webApp?.(request, reply)) return;
    const path = request.url.split('?')[0]!;
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))];
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply
        .status(405)
        .header('allow', allowed.sort().join(', '))
        .type(PROBLEM_CONTENT_TYPE)
        .send(problem(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}.`));
      return;
    }
    reply
      .status(404)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problem(404, 'NOT_FOUND', `No route ${request.method} ${path}.`));
  });
});
