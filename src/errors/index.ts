/**
 * Domain errors. Services throw these; one handler (http/plugins/errors.ts) turns any error
 * into an RFC 9457 problem. Codes are the stable, documented part of the contract.
 */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'INVALID_LOCAL_TIME'
  | 'SCHEDULE_IN_PAST'
  | 'UNAUTHENTICATED'
  | 'SIGN_IN_FAILED'
  | 'CSRF_FAILED'
  | 'CONNECT_REFUSED'
  | 'FORBIDDEN'
  | 'MALFORMED_REQUEST'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_ACCEPTABLE'
  | 'REQUEST_TIMEOUT'
  | 'EXPECTATION_FAILED'
  | 'NOT_EDITABLE'
  | 'PUBLISH_IN_PROGRESS'
  | 'NOT_PUBLISHED'
  | 'NOT_PENDING'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'CONFLICT'
  | 'NETWORK_NOT_CONFIGURED'
  | 'PRECONDITION_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RANGE_NOT_SATISFIABLE'
  | 'MEDIA_IN_USE'
  | 'LIMIT_REACHED'
  | 'HEADERS_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UPSTREAM_FAILED'
  | 'SHUTTING_DOWN'
  | 'INTERNAL';

export interface FieldFault {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  readonly errors: FieldFault[];
  constructor(errors: FieldFault[] | FieldFault, code: ErrorCode = 'VALIDATION_FAILED') {
    const list = Array.isArray(errors) ? errors : [errors];
    // `errors` lists every fault; the one-line detail names the first ten.
    const shown = list.slice(0, 10).map((e) => `${e.path || 'body'}: ${e.message}`);
    const detail = shown.join('; ') + (list.length > shown.length ? `; and ${list.length - shown.length} more` : '');
    super(400, code, detail || 'The request is not valid.');
    this.errors = list;
  }
}

/**
 * Collects the faults of one request, so that all of them are answered at once. A check that
 * throws a ValidationError (a schedule time) joins the others; a lone one keeps its code
 * (INVALID_LOCAL_TIME, SCHEDULE_IN_PAST), a mix is VALIDATION_FAILED.
 */
export class Faults {
  readonly list: FieldFault[] = [];
  readonly #codes = new Set<ErrorCode>();

  add(...faults: FieldFault[]): void {
    if (faults.length === 0) return;
    this.list.push(...faults);
    this.#codes.add('VALIDATION_FAILED');
  }

  /** Runs a check that may throw a ValidationError; its faults join the others. */
  check<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      this.list.push(...err.errors);
      this.#codes.add(err.code);
      return undefined;
    }
  }

  /** As check, for a check that reads the database. */
  async checkAsync<T>(fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      this.list.push(...err.errors);
      this.#codes.add(err.code);
      return undefined;
    }
  }

  throwIfAny(): void {
    if (this.list.length === 0) return;
    throw new ValidationError(this.list, this.#codes.size === 1 ? [...this.#codes][0] : 'VALIDATION_FAILED');
  }
}

/** What `lookup` finds, or null where it is not there: for a check that can do without it. */
export async function foundOrNull<T>(lookup: () => Promise<T>): Promise<T | null> {
  try {
    return await lookup();
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

export class UnauthenticatedError extends AppError {
  constructor() {
    super(401, 'UNAUTHENTICATED', 'A valid API key (Authorization: Bearer <key> or X-Api-Key) or a signed-in session is required.');
  }
}

/** Unknown email or wrong password: one answer for both, so it tells nobody which emails exist. */
export class SignInFailedError extends AppError {
  constructor(message = 'The email or the password is wrong.') {
    super(401, 'SIGN_IN_FAILED', message);
  }
}

/** A state change authenticated by the session cookie without the session's X-CSRF-Token. */
export class CsrfFailedError extends AppError {
  constructor() {
    super(403, 'CSRF_FAILED', "A request signed in by the session cookie must send the session's X-CSRF-Token header.");
  }
}

/**
 * An OAuth connect's callback or confirmation that the browser or person presenting it may not
 * finish (decisions.md "Security rules"): nothing is connected, the connect starts again in Skein.
 */
export class ConnectRefusedError extends AppError {
  constructor(message: string) {
    super(403, 'CONNECT_REFUSED', message);
  }
}

/**
 * A request beyond the caller's role in the team whose rows it touches (decisions.md "Teams"):
 * the message names the least role that may make it.
 */
export class ForbiddenError extends AppError {
  constructor(
    readonly neededRole: string,
    message = `This needs the ${neededRole} role in the team (or a higher one).`,
  ) {
    super(403, 'FORBIDDEN', message);
  }
}

/** A review link made without `canApprove`: its reviewers look, nothing more. */
export class ReviewReadOnlyError extends AppError {
  constructor() {
    super(403, 'FORBIDDEN', 'This review link lets its reviewers look, not approve, reject or comment.');
  }
}

/** A network whose sign-in this server is not set up for (no app id): the message names the settings to set. */
export class NetworkNotConfiguredError extends AppError {
  constructor(message: string) {
    super(409, 'NETWORK_NOT_CONFIGURED', message);
  }
}

export class NotFoundError extends AppError {
  constructor(what: string) {
    super(404, 'NOT_FOUND', `${what} was not found.`);
  }
}

export class ConflictError extends AppError {
  constructor(
    code: 'NOT_EDITABLE' | 'PUBLISH_IN_PROGRESS' | 'NOT_PUBLISHED' | 'NOT_PENDING' | 'IDEMPOTENCY_KEY_REUSED' | 'CONFLICT' | 'MEDIA_IN_USE',
    message: string,
  ) {
    super(409, code, message);
  }
}

/** A workspace (or account) is at one of its limits: webhooks, API keys, time slots, the media quota. */
export class LimitReachedError extends AppError {
  constructor(message: string) {
    super(409, 'LIMIT_REACHED', message);
  }
}

/** An `If-Match` the resource no longer meets: it changed since the client read it; nothing was changed. */
/** A method the route does not answer (the route sets its Allow header). */
export class MethodNotAllowedError extends AppError {
  constructor(detail: string) {
    super(405, 'METHOD_NOT_ALLOWED', detail);
  }
}

/** The MCP transport refused a message before any tool ran: not JSON-RPC, or an Accept without JSON. */
export class McpRefusedError extends AppError {
  constructor(status: 400 | 406 | 413 | 415, detail: string) {
    const codes = { 400: 'MALFORMED_REQUEST', 406: 'NOT_ACCEPTABLE', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' } as const;
    super(status, codes[status], detail);
  }
}

export class PreconditionFailedError extends AppError {
  constructor(what: string) {
    super(412, 'PRECONDITION_FAILED', `${what} changed since the version named in If-Match; read it again and redo the change on what it is now.`);
  }
}

/**
 * An upload refused while its body may still be arriving (too large, or not a kind Skein
 * takes): answered at once, and the connection closed rather than the rest read.
 */
export class RefusedUploadError extends AppError {
  constructor(status: 413 | 415, message: string) {
    super(status, status === 413 ? 'PAYLOAD_TOO_LARGE' : 'UNSUPPORTED_MEDIA_TYPE', message);
  }
}

/** A Range outside the stored bytes. */
export class RangeNotSatisfiableError extends AppError {
  constructor(readonly size: number) {
    super(416, 'RANGE_NOT_SATISFIABLE', `The range asked for is outside the file's ${size} bytes.`);
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', `Too many requests; retry in ${retryAfterSeconds} s.`);
  }
}

/** The server is closing: no new work is taken; the client should try again (another instance). */
export class ShuttingDownError extends AppError {
  constructor() {
    super(503, 'SHUTTING_DOWN', 'The server is shutting down; retry the request.');
  }
}

/** A network (Threads, Bluesky) answered badly. Not a client fault. */
export class UpstreamError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(502, 'UPSTREAM_FAILED', message, options);
  }
}

/** Invalid configuration: stops the start with one line naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}
