import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, type FieldFault, ValidationError } from '../../errors/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's content faults over the request as received (`request.body` may be of the
     * wrong shape in places: only the well-formed parts are checked). Called only when the
     * request already has faults, so that the answer names all of them. It calls the reader its
     * service's writing path calls (readCreateBody, readThreadEdit...), never a copy of its rules.
     */
    contentFaults?: (request: FastifyRequest) => Promise<FieldFault[]> | FieldFault[];
    /** How the route names a shape fault of its body (the import's: `rows.12.posts.0.text`); default as is. */
    bodyFaultPath?: (path: string) => string;
  }
}

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Ajv's errors → our faults: `path` names the field itself, e.g. `posts.0.text`. */
export function shapeFaults(errors: readonly AjvError[], context: string): FieldFault[] {
  // A value that fits no branch of a union (`topic`: string or null) is one fault, not one per branch.
  const unions = new Map<string, AjvError[]>();
  for (const e of errors) if (e.keyword === 'anyOf') unions.set(e.instancePath, [...(unions.get(e.instancePath) ?? []), e]);
  const inUnion = (e: AjvError) => unions.get(e.instancePath)?.find((u) => u !== e && e.schemaPath.startsWith(`${u.schemaPath}/`));
  // The type each branch wanted, by union: `must be string or null`.
  const branches = new Map<AjvError, AjvError[]>();
  for (const e of errors) {
    const union = inUnion(e);
    if (union && (e.keyword === 'type' || e.keyword === 'const')) branches.set(union, [...(branches.get(union) ?? []), e]);
  }
  // A value of one branch's type with faults inside it (`repeat: { every: 0.5 }` or `{}` against
  // object or null) is named at those faults only (a missing property included), not as fitting
  // no branch.
  const fitted = new Set<AjvError>();
  const promoted = new Set<AjvError>();
  for (const [path, list] of unions) {
    for (const u of list) {
      const byBranch = new Map<string, AjvError[]>();
      for (const e of errors) {
        if (e === u || !e.schemaPath.startsWith(`${u.schemaPath}/`) || !(e.instancePath === path || e.instancePath.startsWith(`${path}/`))) continue;
        const branch = e.schemaPath.slice(u.schemaPath.length + 1).split('/')[0]!;
        byBranch.set(branch, [...(byBranch.get(branch) ?? []), e]);
      }
      const fitting = [...byBranch.values()].find((own) => !own.some((e) => e.instancePath === path && (e.keyword === 'type' || e.keyword === 'const')));
      if (!fitting) continue;
      fitted.add(u);
      for (const e of fitting) if (e.instancePath === path && e.keyword === 'required') promoted.add(e);
    }
  }
  const faults: FieldFault[] = [];
  for (const e of errors) {
    if (fitted.has(e) || (inUnion(e) && !promoted.has(e))) continue;
    const segments = e.instancePath
      .split('/')
      .filter(Boolean)
      .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') {
      segments.push(e.params.missingProperty);
      faults.push({ path: segments.join('.'), message: 'is required' });
      continue;
    }
    const path = segments.join('.') || (context === 'body' ? '' : context);
    let message = e.message ?? 'is not valid';
    if (e.keyword === 'anyOf') {
      const failed = branches.get(e) ?? [];
      const types = failed.filter((b) => b.keyword === 'type').map((b) => String(b.params.type));
      // A union of literals (an enumeration such as replyControl) names its values.
      const values = failed.filter((b) => b.keyword === 'const').map((b) => String(b.params.allowedValue));
      if (values.length) message = `must be one of ${values.join(', ')}`;
      else if (types.length) message = `must be ${types.join(' or ')}`;
    }
    faults.push({ path, message });
  }
  return dedupe(faults);
}

export function dedupe(faults: FieldFault[]): FieldFault[] {
  const seen = new Set<string>();
  return faults.filter((f) => {
    const key = `${f.path}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The route's content rules over a request that has faults already. What a rule needs and
 * cannot have (a thread or provider that is not there) only means fewer rules can run: the
 * answer stays the 400 of the faults found.
 */
async function contentFaultsOf(request: FastifyRequest): Promise<FieldFault[]> {
  const rules = request.routeOptions.config.contentFaults;
  if (!rules) return [];
  try {
    return await rules(request);
  } catch (err) {
    if (err instanceof ValidationError) return err.errors;
    if (err instanceof AppError && err.status < 500) return [];
    throw err;
  }
}

/**
 * Every fault of a request in one answer. Fastify's schema check does not stop the request
 * (attachValidation); this guard, the first preHandler of every route, answers a 400 naming the
 * shape faults, the faults found while reading the request (NUL characters) and the route's
 * content rules over the well-formed parts, all together. No handler runs with a faulty request.
 */
const checkRequest = async (request: FastifyRequest): Promise<void> => {
  const error = request.validationError as (Error & { validation?: AjvError[]; validationContext?: string }) | undefined;
  const faults = [...(error?.validation ? routeShapeFaults(request, error.validation, error.validationContext ?? 'body') : []), ...(request.inputFaults ?? [])];
  if (error && !error.validation) throw error;
  // Fastify stops at the first part with a fault, and checks the headers last (If-Match,
  // Idempotency-Key): their faults join those of the body.
  if (error && error.validationContext !== 'headers') faults.push(...headerFaults(request));
  if (faults.length === 0) return;
  faults.push(...(await contentFaultsOf(request)));
  throw new ValidationError(dedupe(faults));
};

/** The guard itself: a request with nothing to answer (nearly all) goes on with no promise made. */
const validationGuard: preHandlerHookHandler = function validationGuard(request, _reply, done) {
  if (request.validationError === undefined && request.inputFaults === null) return done();
  checkRequest(request).then(() => done(), done);
};

function routeShapeFaults(request: FastifyRequest, errors: readonly AjvError[], context: string): FieldFault[] {
  const faults = shapeFaults(errors, context);
  const rename = request.routeOptions.config.bodyFaultPath;
  return rename && context === 'body' ? faults.map((f) => ({ path: rename(f.path), message: f.message })) : faults;
}

function headerFaults(request: FastifyRequest): FieldFault[] {
  const validate = request.getValidationFunction('headers');
  if (!validate || validate(request.headers)) return [];
  return shapeFaults((validate.errors ?? []) as AjvError[], 'headers');
}

export const validationPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    route.attachValidation = true;
    const own = route.preHandler;
    route.preHandler = [validationGuard, ...(own === undefined ? [] : Array.isArray(own) ? own : [own])];
  });
});
