import { AppError, type ErrorCode, type FieldFault } from './index.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const PROBLEM_BASE = 'https://skein.dev/problems/';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldFault[];
}

const TITLES: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'Validation failed',
  INVALID_LOCAL_TIME: 'Local time does not exist',
  SCHEDULE_IN_PAST: 'Scheduled time is in the past',
  UNAUTHENTICATED: 'Unauthenticated',
  NOT_FOUND: 'Not found',
  NOT_EDITABLE: 'Not editable',
  PUBLISH_IN_PROGRESS: 'Publish in progress',
  IDEMPOTENCY_KEY_REUSED: 'Idempotency key reused',
  CONFLICT: 'Conflict',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  RATE_LIMITED: 'Too many requests',
  UPSTREAM_FAILED: 'Upstream failure',
  INTERNAL: 'Internal server error',
};

export function problem(status: number, code: ErrorCode, detail: string, errors?: FieldFault[]): Problem {
  const body: Problem = { type: PROBLEM_BASE + code.toLowerCase().replaceAll('_', '-'), title: TITLES[code], status, detail, code };
  if (errors) body.errors = errors;
  return body;
}

/** Shape of the errors Fastify itself raises (content type, body size, JSON syntax). */
interface FrameworkError {
  code?: string;
  statusCode?: number;
  message?: string;
}

/** Any thrown value → the problem we answer with. 5xx details never leave the process. */
export function toProblem(err: unknown): Problem {
  if (err instanceof AppError) {
    const errors = 'errors' in err ? (err.errors as FieldFault[]) : undefined;
    if (err.status >= 500) return problem(err.status, err.code, err.status === 502 ? err.message : 'An internal error occurred.');
    return problem(err.status, err.code, err.message, errors);
  }
  const fw = (err ?? {}) as FrameworkError;
  switch (fw.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send request bodies as application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return problem(400, 'VALIDATION_FAILED', 'The Content-Length header does not match the body.', [{ path: '', message: 'invalid content length' }]);
  }
  if (fw.statusCode && fw.statusCode >= 400 && fw.statusCode < 500) {
    const detail = fw.message ?? 'Bad request.';
    return problem(
      fw.statusCode,
      fw.statusCode === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED',
      detail,
      fw.statusCode === 400 ? [{ path: '', message: detail }] : undefined,
    );
  }
  return problem(500, 'INTERNAL', 'An internal error occurred.');
}
