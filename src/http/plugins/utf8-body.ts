import { pipeline, Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationError } from '../../errors/index.js';

const JSON_TYPE = /^\s*application\/json\s*(;|$)/i;

function notUtf8(): ValidationError {
  return new ValidationError({ path: '', message: 'the body is not valid UTF-8' });
}

/**
 * A JSON body must be UTF-8 (RFC 8259 §8.1). Decoding it leniently would turn each invalid byte
 * into U+FFFD and store that in place of what the user wrote; the bytes are checked as they
 * arrive instead, and a body that is not UTF-8 is a 400 naming the body.
 */
export const utf8BodyPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const type = request.headers['content-type'];
    if (type === undefined || !JSON_TYPE.test(type)) return done(null, payload);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const checked = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        try {
          decoder.decode(chunk, { stream: true });
        } catch {
          return done(notUtf8());
        }
        done(null, chunk);
      },
      flush(done) {
        try {
          decoder.decode();
        } catch {
          return done(notUtf8());
        }
        done();
      },
    });
    pipeline(payload, checked, () => undefined);
    done(null, checked);
  });
});
