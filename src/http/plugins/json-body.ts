import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type FieldFault, ValidationError } from '../../errors/index.js';

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * How deeply a request body may nest arrays and objects. Every body Skein reads is at most 5
 * levels deep (`posts.0.media.0`); the bound keeps every later walk over client data (the NUL
 * check here, the idempotency hash, a logger) safe from a body built to exhaust the stack.
 */
export const MAX_JSON_DEPTH = 64;

declare module 'fastify' {
  interface FastifyRequest {
    /** Faults found before validation (NUL characters); answered with the shape and content faults. */
    inputFaults: FieldFault[] | null;
  }
}

/** Records faults found in the request; the validation guard answers them with the others. */
function addInputFaults(request: FastifyRequest, faults: FieldFault[]): void {
  if (faults.length === 0) return;
  request.inputFaults ??= [];
  request.inputFaults.push(...faults);
}

/**
 * JSON bodies, with four differences from Fastify's parser: an empty body is "no body" (a DELETE
 * sent with a JSON content type is fine), a syntax error is a 400 problem naming the body, a
 * body nested deeper than MAX_JSON_DEPTH is a 400 naming where, and a body that is not UTF-8 is a
 * 400 naming the body. A JSON body must be UTF-8 (RFC 8259 §8.1): decoding it leniently would
 * turn each invalid byte into U+FFFD and store that in place of what the user wrote. The bytes
 * are checked whole, once read (a stream transform checking them as they arrived cost more than
 * the parse itself for a Create Post).
 * Text anywhere in the request (body, path, query) must not hold U+0000: PostgreSQL cannot store
 * it, and it is never meaningful in a post, a tag or an id.
 */
export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('inputFaults', null);
  // JSON only: any other content type (text/plain included) is answered 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(new ValidationError({ path: '', message: 'the body is not valid UTF-8' }), undefined);
    const text = bytes.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      // V8 parses iteratively; another engine may run out of stack on deep input instead.
      const message = err instanceof RangeError ? `is nested too deeply (at most ${MAX_JSON_DEPTH} levels)` : 'the body is not valid JSON';
      return done(new ValidationError({ path: '', message }), undefined);
    }
    const scan = scanJson(parsed);
    if (scan.tooDeep !== null) {
      return done(new ValidationError({ path: scan.tooDeep, message: `is nested more than ${MAX_JSON_DEPTH} levels deep` }), undefined);
    }
    addInputFaults(
      request,
      scan.nul.map((path) => ({ path, message: NUL_MESSAGE })),
    );
    done(null, parsed);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.params, request.query]) {
      if (!mayHoldNul(part)) continue;
      addInputFaults(
        request,
        scanJson(part).nul.map((path) => ({ path, message: NUL_MESSAGE })),
      );
    }
    done();
  });
});

/**
 * False when `part` (the path parameters or the query: an object of strings, or of arrays of
 * strings for a repeated query field) surely holds no U+0000, checked without allocating; true
 * when it might (then scanJson finds where).
 */
function mayHoldNul(part: unknown): boolean {
  if (typeof part !== 'object' || part === null) return part !== undefined && part !== null;
  for (const key in part) {
    if (!Object.hasOwn(part, key)) continue;
    const value = (part as Record<string, unknown>)[key];
    if (key.includes('\u0000') || typeof value !== 'string' || value.includes('\u0000')) return true;
  }
  return false;
}

/**
 * One iterative pass over parsed JSON (no recursion, whatever the depth): the paths
 * (`posts.0.text`) of strings and keys holding U+0000, in document order, and the path of the
 * first array or object nested deeper than MAX_JSON_DEPTH (null if none; then `nul` is complete).
 */
function scanJson(root: unknown): { nul: string[]; tooDeep: string | null } {
  const nul: string[] = [];
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 1 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) nul.push(path);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_JSON_DEPTH) return { nul, tooDeep: path };
    const children: Array<{ value: unknown; path: string; depth: number }> = [];
    for (const [key, item] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) nul.push(here);
      children.push({ value: item, path: here, depth: depth + 1 });
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return { nul, tooDeep: null };
}
