import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, ValidationError } from '../../errors/index.js';
import { deleteMedia, getMedia, listMedia, serveMedia, uploadMedia } from '../../services/media/media.js';
import { uploadMediaFromUrl } from '../../services/media/media-from-url.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { withProblems } from '../schemas/common.js';
import { DeletedMedia, Media, MediaBytes, MediaFromUrlBody, MediaIdParams, MediaList, ServedMediaParams, UploadQuery } from '../schemas/media.js';

const tags = ['Media'];
/** Beyond the largest upload (1 GiB): the service stops at its own limits first. */
const MULTIPART_FILE_BYTES = 1024 * 1024 * 1024 + 1;

/**
 * The upload's bytes: the raw body as it arrives, or the stream of the multipart part named
 * `file` (null: no body). Neither is buffered here.
 */
async function uploadStream(request: FastifyRequest): Promise<Readable | null> {
  // No body at all (no Content-Type either): no parser ran.
  if (!request.isMultipart()) return (request.body as Readable | undefined) ?? null;
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await request.file({ limits: { files: 1, fileSize: MULTIPART_FILE_BYTES, fields: 10, fieldSize: 1024, parts: 20 } });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new ValidationError({ path: '', message: `the multipart body cannot be read: ${(err as Error).message}` });
  }
  if (!part) throw new ValidationError({ path: 'file', message: 'the multipart body has no file part' });
  if (part.fieldname !== 'file') throw new ValidationError({ path: part.fieldname, message: 'the file part must be named file' });
  return part.file;
}

export const mediaRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Uploads are read as streams: this group's routes take any content type and hand the body
  // through unread (no JSON parsing, no body limit: the service enforces the media limits).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await app.register(multipart, { limits: { files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 100 } });

  app.post('/api/v1/media', {
    config: { access: ACCESS.uploadMedia },
    schema: {
      tags,
      summary:
        'Upload one image (JPEG, PNG, WebP, GIF: 8 MiB, 50 megapixels) or video (MP4, MOV: 1 GiB): the raw bytes as the body, or multipart/form-data with one part named file. The kind is read from the bytes.',
      querystring: UploadQuery,
      response: withProblems({ 201: Media }, [409]),
    },
    handler: async (request, reply) => {
      const length = request.headers['content-length'];
      const declared = { bytes: length && /^\d+$/.test(length) ? Number(length) : null, multipart: request.isMultipart() };
      const media = await uploadMedia(ctx, caller(request), request.query.teamId, declared, () => uploadStream(request));
      return reply.status(201).send(media);
    },
  });

  app.get('/api/v1/media', {
    config: { access: ACCESS.listMedia },
    schema: { tags, summary: "A workspace's uploads, newest first", querystring: UploadQuery, response: withProblems({ 200: MediaList }) },
    handler: async (request) => {
      const media = await listMedia(ctx, caller(request), request.query.teamId);
      return { media, count: media.length };
    },
  });

  app.get('/api/v1/media/:id', {
    config: { access: ACCESS.getMedia },
    schema: { tags, summary: 'One upload', params: MediaIdParams, response: withProblems({ 200: Media }) },
    handler: async (request) => getMedia(ctx, caller(request), request.params.id),
  });

  app.delete('/api/v1/media/:id', {
    config: { access: ACCESS.deleteMedia },
    schema: {
      tags,
      summary: 'Delete an upload (409 MEDIA_IN_USE while a thread or follow-up not yet published uses it)',
      params: MediaIdParams,
      response: withProblems({ 200: DeletedMedia }, [409]),
    },
    handler: async (request) => deleteMedia(ctx, caller(request), request.params.id),
  });

  app.get('/media/:name', {
    config: { public: true },
    // Served on the app's own origin: an upload opened directly (an SVG, an HTML file named .png)
    // runs no script and reaches no cookie of this origin, whatever its bytes say.
    onRequest: async (_request, reply) => {
      reply.header('content-security-policy', 'sandbox');
    },
    schema: {
      tags,
      summary: "An upload's bytes, for anyone with its url (the networks fetch it): ETag, immutable caching, Range",
      security: [],
      params: ServedMediaParams,
      response: withProblems({ 200: MediaBytes, 206: MediaBytes, 304: Type.Null({ description: 'If-None-Match matched' }) }, [416]),
    },
    handler: async (request, reply) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const served = await serveMedia(ctx, request.params.name, { range: header('range'), ifNoneMatch: header('if-none-match') });
      reply.header('etag', served.etag);
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      if ('notModified' in served) return reply.status(304).send(null);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('accept-ranges', 'bytes');
      reply.type(served.mimeType);
      if (served.range) {
        reply.status(206);
        reply.header('content-range', `bytes ${served.range.start}-${served.range.end}/${served.size}`);
        reply.header('content-length', String(served.range.end - served.range.start + 1));
      } else {
        reply.header('content-length', String(served.size));
      }
      return reply.send(served.body);
    },
  });
};

/** Uploads fetched from a URL: a JSON body, so outside the group above that reads bodies as streams. */
export const mediaFromUrlRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/api/v1/media/from-url', {
    config: { access: ACCESS.uploadMedia },
    schema: {
      tags,
      summary:
        'Upload the file at a public http(s) URL (fetched under the media address policy: private addresses refused, redirects checked), stored and checked as an upload of the same bytes',
      querystring: UploadQuery,
      body: MediaFromUrlBody,
      response: withProblems({ 201: Media }, [409]),
    },
    handler: async (request, reply) => reply.status(201).send(await uploadMediaFromUrl(ctx, caller(request), request.query.teamId, request.body.url)),
  });
};
