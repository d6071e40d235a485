import { AppError, type ErrorCode, type FieldFault } from './index.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
/**
 * A problem's `type` is the row of its code in docs/errors.md, which every server serves in its
 * web app: a URI reference relative to the server that answered (RFC 9457 allows it), so it
 * claims no domain and always points at the documentation of the version that sent it.
 */
export function problemType(code: string): string {
  return `/guide/errors#${code.toLowerCase().replaceAll('_', '-')}`;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldFault[];
  /** FORBIDDEN: the least team role that may make the request. */
  neededRole?: string;
}

/** Every code a problem carries (but `NOT_READY`, which only /readyz answers), with its title. */
export const PROBLEM_TITLES: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'Validation failed',
  INVALID_LOCAL_TIME: 'Local time does not exist',
  SCHEDULE_IN_PAST: 'Scheduled time is in the past',
  UNAUTHENTICATED: 'Unauthenticated',
  SIGN_IN_FAILED: 'Sign-in failed',
  CSRF_FAILED: 'CSRF check failed',
  CONNECT_REFUSED: 'Connection refused',
  FORBIDDEN: 'Forbidden',
  MALFORMED_REQUEST: 'Malformed request',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  NOT_ACCEPTABLE: 'Not acceptable',
  REQUEST_TIMEOUT: 'Request timeout',
  EXPECTATION_FAILED: 'Expectation failed',
  NOT_EDITABLE: 'Not editable',
  PUBLISH_IN_PROGRESS: 'Publish in progress',
  NOT_PUBLISHED: 'Not published',
  NOT_PENDING: 'Not pending approval',
  IDEMPOTENCY_KEY_REUSED: 'Idempotency key reused',
  CONFLICT: 'Conflict',
  NETWORK_NOT_CONFIGURED: 'Network not configured',
  PRECONDITION_FAILED: 'Precondition failed',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  RANGE_NOT_SATISFIABLE: 'Range not satisfiable',
  MEDIA_IN_USE: 'Media in use',
  LIMIT_REACHED: 'Limit reached',
  HEADERS_TOO_LARGE: 'Request header fields too large',
  RATE_LIMITED: 'Too many requests',
  UPSTREAM_FAILED: 'Upstream failure',
  SHUTTING_DOWN: 'Service unavailable',
  INTERNAL: 'Internal server error',
};

export function problem(status: number, code: ErrorCode, detail: string, errors?: FieldFault[]): Problem {
  const body: Problem = { type: problemType(code), title: PROBLEM_TITLES[code], status, detail, code };
  if (errors) body.errors = errors;
  return body;
}

/** Shape of the errors Fastify and Node raise before a route runs. */
interface FrameworkError {
  code?: string;
  statusCode?: number;
  message?: string;
}

/** 4xx statuses Fastify or Node may answer with on their own, and our code for each. */
const FRAMEWORK_STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'HEADERS_TOO_LARGE',
};

/**
 * Any thrown value → the problem we answer with. 5xx details never leave the process.
 * Every error the framework can raise before a route runs has its own answer here (the
 * client errors of Node's HTTP parser are answered by `clientErrorProblem`).
 */
export function toProblem(err: unknown): Problem {
  if (err instanceof AppError) {
    const errors = 'errors' in err ? (err.errors as FieldFault[]) : undefined;
    if (err.status >= 500 && err.status !== 503) return problem(err.status, err.code, err.status === 502 ? err.message : 'An internal error occurred.');
    const body = problem(err.status, err.code, err.message, errors);
    if ('neededRole' in err) body.neededRole = err.neededRole as string;
    return body;
  }
  const fw = (err ?? {}) as FrameworkError;
  switch (fw.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send request bodies as application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return problem(400, 'VALIDATION_FAILED', 'The Content-Length header does not match the body.', [{ path: '', message: 'invalid content length' }]);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return problem(400, 'VALIDATION_FAILED', 'The body is not valid JSON.', [{ path: '', message: 'the body is not valid JSON' }]);
    // A path segment that cannot be decoded (`%ZZ`) or is longer than any id: no such resource.
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return problem(404, 'NOT_FOUND', 'No such resource.');
  }
  if (fw.statusCode && fw.statusCode >= 400 && fw.statusCode < 500) {
    const code = FRAMEWORK_STATUS_CODES[fw.statusCode];
    // Node's own messages ("aborted", "Parse Error: ...") are short and name no internals.
    const detail = fw.message || 'The request could not be read.';
    return code ? problem(fw.statusCode, code, detail) : problem(400, 'MALFORMED_REQUEST', detail);
  }
  return problem(500, 'INTERNAL', 'An internal error occurred.');
}

/** Node's HTTP parser refused a request (before Fastify saw it): the problem to write on the socket. */
export function clientErrorProblem(err: { code?: string }): Problem {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return problem(
        431,
        'HEADERS_TOO_LARGE',
        'The request line and headers are larger than the server accepts (16 KiB); send a shorter URL or fewer headers.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem(408, 'REQUEST_TIMEOUT', 'The request was not received in time.');
    default:
      return problem(400, 'MALFORMED_REQUEST', 'The request is not valid HTTP/1.1.');
  }
}
