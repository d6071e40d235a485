import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { ValidationError } from '../../errors/index.js';
import { type ImportSource, importFaults, importThreads, locateJsonRow } from '../../services/import/import.js';
import { readImportCsv } from '../../services/import/import-csv.js';
import type { CreateThreadInput } from '../../services/threads/threads.js';
import { ACCESS } from '../access.js';
import { caller } from '../plugins/auth-and-limits.js';
import { shapeFaults } from '../plugins/validation.js';
import { withProblems } from '../schemas/common.js';
import { ImportCsvBody, ImportJsonBody, ImportQuery, ImportResponse } from '../schemas/import.js';

/** 1,000 threads of long posts fit; a larger body is 413 while it arrives, never parsed whole. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;
const CSV_TYPE = /^\s*text\/csv\s*(;|$)/i;

function isCsv(request: FastifyRequest): boolean {
  return CSV_TYPE.test(request.headers['content-type'] ?? '');
}

/**
 * The CSV form's threads as Create Post bodies, checked for shape as the JSON form's are (a
 * thread of more than 25 rows, say), their faults named by CSV row.
 */
function csvSource(request: FastifyRequest, text: string): ImportSource {
  const source = readImportCsv(text);
  const validate = request.compileValidationSchema(ImportJsonBody);
  if (source.bodies.length === 0 || validate(source.bodies)) return source;
  const faults = shapeFaults((validate.errors ?? []) as Parameters<typeof shapeFaults>[0], 'body').map((fault) => {
    const [index, ...path] = fault.path.split('.');
    return source.locate(Number(index), { path: path.join('.'), message: fault.message });
  });
  throw new ValidationError([...(source.faults ?? []), ...faults]);
}

export const importRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // The CSV form: strict UTF-8 (an invalid byte is a 400, never a U+FFFD in a post).
  app.addContentTypeParser('text/csv', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, new TextDecoder('utf-8', { fatal: true }).decode(body as Buffer));
    } catch {
      done(new ValidationError({ path: '', message: 'the body is not valid UTF-8' }), undefined);
    }
  });

  app.post('/api/v1/posts/import', {
    bodyLimit: IMPORT_BODY_LIMIT,
    config: {
      access: ACCESS.importThreads,
      bodyFaultPath: (path) => (path ? `rows.${path}` : 'rows'),
      contentFaults: (request) => (isCsv(request) ? [] : importFaults(ctx, caller(request), request.body, (request.query as { teamId?: string }).teamId)),
    },
    schema: {
      tags: ['Posts'],
      summary: 'Import up to 1,000 threads at once (CSV or a JSON array of Create Post bodies): all or nothing; dryRun=true checks without creating',
      querystring: ImportQuery,
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
      body: { content: { 'application/json': { schema: ImportJsonBody }, 'text/csv': { schema: ImportCsvBody } } },
      response: withProblems({ 200: ImportResponse, 201: ImportResponse }, [409]),
    },
    handler: async (request, reply) => {
      const body = request.body as unknown;
      // No body at all (no Content-Type, so no schema ran): said as the JSON form's shape fault.
      if (typeof body !== 'string' && !Array.isArray(body))
        throw new ValidationError({ path: 'rows', message: 'the body must be a JSON array of Create Post bodies, or a CSV file (text/csv)' });
      const source: ImportSource =
        typeof body === 'string'
          ? csvSource(request, body)
          : { bodies: body as CreateThreadInput[], rows: (body as unknown[]).map((_, i) => i), locate: locateJsonRow };
      const dryRun = request.query.dryRun === 'true';
      const result = await importThreads(ctx, caller(request), source, {
        dryRun,
        ...(request.query.teamId !== undefined ? { teamId: request.query.teamId } : {}),
        ...(request.headers['idempotency-key'] !== undefined ? { idempotencyKey: request.headers['idempotency-key'] } : {}),
      });
      return reply.status(dryRun ? 200 : 201).send(result);
    },
  });
};
