import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../errors/index.js';
import { IF_MATCH_PATTERN, type IfMatch, parseIfMatch } from '../lib/etag.js';

/** The request headers of a change that honours If-Match. */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      pattern: IF_MATCH_PATTERN,
      description:
        'The ETag of Get Thread as read (`"12"`), a list of them, or `*` (any existing thread). A stale one is a 412 PRECONDITION_FAILED and changes nothing; weak tags (`W/"12"`) never match. Without it the change is made whatever the version.',
    }),
  ),
});

/** Get Thread's ETag header, for the OpenAPI document. */
export const ETagHeader = {
  etag: Type.String({ description: 'The thread\'s version as a strong entity tag (`"12"`): send it back in If-Match to change only what you read.' }),
};

/** The If-Match condition of a request, if it sent one. */
export function ifMatchOf(request: FastifyRequest): IfMatch | undefined {
  const value = request.headers['if-match'];
  if (value === undefined) return undefined;
  const condition = parseIfMatch(value);
  if (!condition) throw new ValidationError({ path: 'if-match', message: 'must be * or a list of entity tags such as "12"' });
  return condition;
}
