import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationError } from '../../errors/index.js';

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * JSON bodies, with two differences from Fastify's parser: an empty body is "no body" (a DELETE
 * sent with a JSON content type is fine), and a syntax error is a 400 problem naming the body.
 * Text anywhere in the request (body, path, query) must not hold U+0000: PostgreSQL cannot store
 * it, and it is never meaningful in a post, a tag or an id.
 */
export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  // JSON only: any other content type (text/plain included) is answered 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new ValidationError({ path: '', message: 'the body is not valid JSON' }), undefined);
    }
    const nul = pathOfNul(parsed, '');
    done(nul === null ? null : new ValidationError({ path: nul, message: NUL_MESSAGE }), parsed);
  });
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query]) {
      const nul = pathOfNul(part, '');
      if (nul !== null) throw new ValidationError({ path: nul, message: NUL_MESSAGE });
    }
  });
});

/** The path (`posts.0.text`) of the first string, or object key, holding U+0000; null if none. */
function pathOfNul(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return here;
    const found = pathOfNul(item, here);
    if (found !== null) return found;
  }
  return null;
}
