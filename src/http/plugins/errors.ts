import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type FieldFault, RateLimitedError, ValidationError } from '../../errors/index.js';
import { PROBLEM_CONTENT_TYPE, problem, toProblem } from '../../errors/problem.js';

/** Ajv's error → our fault: `path` names the field itself, e.g. `posts.0.text`. */
function toFault(e: { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }, dataVar: string): FieldFault {
  const segments = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') {
    segments.push(e.params.missingProperty);
    return { path: segments.join('.'), message: 'is required' };
  }
  const path = segments.join('.') || (dataVar === 'body' ? '' : dataVar);
  return { path, message: e.message ?? 'is not valid' };
}

/** One place where every error becomes an RFC 9457 problem. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError & { validationContext?: string }, request, reply) => {
    let body;
    if (err.validation) {
      const faults = err.validation.map((v) => toFault(v as never, err.validationContext ?? 'body'));
      body = toProblem(new ValidationError(dedupe(faults)));
    } else {
      body = toProblem(err);
    }
    if (body.status >= 500) request.log.error({ err }, 'request failed');
    if (err instanceof RateLimitedError) reply.header('retry-after', String(err.retryAfterSeconds));
    reply.status(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problem(404, 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`));
  });
});

function dedupe(faults: FieldFault[]): FieldFault[] {
  const seen = new Set<string>();
  return faults.filter((f) => {
    const key = `${f.path}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
