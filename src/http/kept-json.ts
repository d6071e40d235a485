import type { FastifyReply } from 'fastify';

/** Kept answers' bodies, by the kept object they were serialised from. */
const bodies = new WeakMap<object, Buffer>();

/**
 * The JSON body of an answer built from `kept`, an object the thread view cache hands out (the
 * same object at every hit, for as long as it is kept): serialised once, by the route's own
 * response serialiser (`reply.serialize`, so the bytes are exactly those Fastify would send), and
 * kept beside it, so a cache hit writes those bytes again with no serialisation and no UTF-8
 * encoding. The body lives as long as `kept` does (a WeakMap): a view the cache drops takes its
 * body with it, and a view read past the cache is serialised for its one answer. Per-account views
 * are distinct objects, so a body is never shared across accounts the cache keeps apart.
 * `kept` must not change once handed out (cached views never do).
 */
export function keptJson(reply: FastifyReply, kept: object, answer: () => unknown): Buffer {
  let body = bodies.get(kept);
  if (body === undefined) {
    // The route's JSON serialiser (fast-json-stringify) returns a string.
    body = Buffer.from(reply.serialize(answer()) as string, 'utf8');
    bodies.set(kept, body);
  }
  reply.type('application/json; charset=utf-8');
  return body;
}
