/**
 * Domain errors. Services throw these; one handler (http/plugins/errors.ts) turns any error
 * into an RFC 9457 problem. Codes are the stable, documented part of the contract.
 */
export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'INVALID_LOCAL_TIME'
  | 'SCHEDULE_IN_PAST'
  | 'UNAUTHENTICATED'
  | 'NOT_FOUND'
  | 'NOT_EDITABLE'
  | 'PUBLISH_IN_PROGRESS'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'UPSTREAM_FAILED'
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
    const detail = list.map((e) => `${e.path || 'body'}: ${e.message}`).join('; ');
    super(400, code, detail || 'The request is not valid.');
    this.errors = list;
  }
}

export class UnauthenticatedError extends AppError {
  constructor() {
    super(401, 'UNAUTHENTICATED', 'A valid API key is required (Authorization: Bearer <key> or X-Api-Key).');
  }
}

export class NotFoundError extends AppError {
  constructor(what: string) {
    super(404, 'NOT_FOUND', `${what} was not found.`);
  }
}

export class ConflictError extends AppError {
  constructor(code: 'NOT_EDITABLE' | 'PUBLISH_IN_PROGRESS' | 'IDEMPOTENCY_KEY_REUSED' | 'CONFLICT', message: string) {
    super(409, code, message);
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', `Too many requests; retry in ${retryAfterSeconds} s.`);
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
