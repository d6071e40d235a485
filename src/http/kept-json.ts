import { gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';

/** Kept answers' bodies, by the kept object they were serialised from. */
const bodies = new WeakMap<object, Buffer>();
/** The same bodies gzip-compressed, made at the first request that accepts gzip. */
const gzipped = new WeakMap<object, Buffer>();

/**
 * Lists this size and over go gzip-compressed to clients that accept it (docs/decisions.md,
 * "Compressed lists"): one account's month is about 1 MB of JSON and 7% of that compressed.
 */
export const COMPRESS_FROM_BYTES = 8 * 1024;

/**
 * The JSON body of an answer built from `kept`, an object the thread view cache hands out (the
 * same object at every hit, for as long as it is kept): serialised once, by the route's own
 * response serialiser (`reply.serialize`, so the bytes are exactly those Fastify would send), and
 * kept beside it, so a cache hit writes those bytes again with no serialisation and no UTF-8
 * encoding. The body lives as long as `kept` does (a WeakMap): a view the cache drops takes its
 * body with it, and a view read past the cache is serialised for its one answer. Per-account views
 * are distinct objects, so a body is never shared across accounts the cache keeps apart.
 * `kept` must not change once handed out (cached views never do).
 *
 * `compress` (the lists: no entity tag to keep apart per encoding): a body of
 * COMPRESS_FROM_BYTES or more is sent gzip-compressed when the request accepts gzip, compressed
 * once and kept as the body is.
 */
export function keptJson(reply: FastifyReply, kept: object, answer: () => unknown, options: { compress?: boolean } = {}): Buffer {
  let body = bodies.get(kept);
  if (body === undefined) {
    // The route's JSON serialiser (fast-json-stringify) returns a string.
    body = Buffer.from(reply.serialize(answer()) as string, 'utf8');
    bodies.set(kept, body);
  }
  reply.type('application/json; charset=utf-8');
  if (!options.compress || body.length < COMPRESS_FROM_BYTES) return body;
  reply.header('vary', 'accept-encoding');
  if (!acceptsGzip(reply.request.headers['accept-encoding'])) return body;
  let compressed = gzipped.get(kept);
  if (compressed === undefined) {
    compressed = gzipSync(body);
    gzipped.set(kept, compressed);
  }
  reply.header('content-encoding', 'gzip');
  return compressed;
}

/**
 * Whether an Accept-Encoding header allows gzip (RFC 9110 §12.5.3): named with a weight above
 * zero, or `*` above zero while gzip is not named. No header: the identity only.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const item of header.split(',')) {
    const [coding = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const weight = params.find((p) => p.startsWith('q='));
    const allowed = weight === undefined || Number(weight.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return allowed;
    if (coding === '*') star = allowed;
  }
  return star;
}
