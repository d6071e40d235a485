import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationError } from '../../errors/index.js';

/**
 * JSON bodies, with two differences from Fastify's parser: an empty body is "no body" (a DELETE
 * sent with a JSON content type is fine), and a syntax error is a 400 problem naming the body.
 */
export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  // JSON only: any other content type (text/plain included) is answered 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ValidationError({ path: '', message: 'the body is not valid JSON' }), undefined);
    }
  });
});
