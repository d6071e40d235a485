import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The web app's files (web/, built by vite into dist/web), served by the API process itself.
 * Read once at start (a few small files), so a request costs no disk access and start-up
 * loads nothing more. Vite puts content-hashed files under /assets/: those are cached for a
 * year; index.html is revalidated on every load (no-cache + ETag), so a deploy shows at once.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The page may load only its own scripts, styles and API: an injected script has nowhere to go. */
const HTML_HEADERS = {
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

interface WebFile {
  body: Buffer;
  type: string;
  etag: string;
  headers: Record<string, string>;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

export type WebAppHandler = (request: FastifyRequest, reply: FastifyReply) => boolean;

/**
 * A handler for GET/HEAD requests no route took, or null when the web app is not built. It
 * answers a file of the build, or index.html for any other path outside /api/ and /assets/
 * (the app routes in the browser); it returns false for what stays a 404 problem.
 */
export function webAppHandler(dir: string): WebAppHandler | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const files = new Map<string, WebFile>();
  for (const path of listFiles(dir)) {
    const url = `/${relative(dir, path).split(sep).join('/')}`;
    const body = readFileSync(path);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const type = TYPES[extname(path)] ?? 'application/octet-stream';
    const headers: Record<string, string> =
      url === '/index.html' ? HTML_HEADERS : { 'cache-control': url.startsWith('/assets/') ? IMMUTABLE : 'public, max-age=3600' };
    files.set(url, { body, type, etag, headers: { ...headers, 'x-content-type-options': 'nosniff' } });
  }
  const index = files.get('/index.html')!;
  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/api/') || path === '/api') return false;
    if (path.startsWith('/review/')) {
      // A review link's page: its token is in the address, so nothing keeps a copy (no cache,
      // no ETag) and no request from it sends the address on (no-referrer, in HTML_HEADERS).
      reply
        .headers({ ...index.headers, 'cache-control': 'no-store' })
        .status(200)
        .type(index.type)
        .send(index.body);
      return true;
    }
    const file = files.get(path) ?? (path.startsWith('/assets/') ? undefined : index);
    if (!file) return false;
    reply.headers(file.headers).header('etag', file.etag);
    if (request.headers['if-none-match'] === file.etag) {
      reply.status(304).send();
      return true;
    }
    reply.status(200).type(file.type).send(file.body);
    return true;
  };
}
