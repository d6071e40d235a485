import type { AppContext } from '../../context.js';
import type { AccountRow } from '../../db/schema/index.js';
import { type FieldFault, type NotFoundError, ValidationError } from '../../errors/index.js';
import { saveIdempotentResponse } from '../../repos/idempotency.js';
import { mediaOfPosts, mediaReach, urlsFetchedBy } from '../media/media-reach.js';
import { isRecord } from '../threads/content-rules.js';
import {
  type CheckedThread,
  type CreateLookup,
  type CreateThreadInput,
  claimIdempotency,
  findIdempotentReplay,
  lookUpCreateTarget,
  readCreateBody,
  requestHash,
  writeThreads,
} from '../threads/threads.js';

/**
 * Bulk import (decisions.md "Import"): up to 1,000 Create Post bodies, each read and checked by
 * Create Post's own code (readCreateBody, readImportRows) and saved by its writeThreads,
 * all in one transaction. The JSON form's bodies come as sent; the CSV form's are made from its
 * rows (import-csv.ts), and `locate` names a fault by the CSV row and column instead.
 */

export const IMPORT_MAX_THREADS = 1000;

/** What an import reads: one Create Post body per thread, and how to name their faults. */
export interface ImportSource {
  bodies: CreateThreadInput[];
  /** The row each body answers as (`threads[].row`): its index (JSON), its first CSV data row. */
  rows: number[];
  /** A fault of body `index` (its path from the body's root) as the answer names it. */
  locate(index: number, fault: FieldFault): FieldFault;
  /** Faults found reading the source (a CSV's), answered with the rows' own. */
  faults?: FieldFault[];
}

export interface ImportOptions {
  teamId?: string;
  dryRun: boolean;
  idempotencyKey?: string;
}

export interface ImportResult {
  created: number;
  threads: Array<{ row: number; threadId: string | null; status: 'scheduled' | 'draft'; scheduledAt: string | null }>;
}

/** A JSON import's rows: `rows.12.posts.0.text`. */
export function locateJsonRow(index: number, fault: FieldFault): FieldFault {
  return { path: fault.path ? `rows.${index}.${fault.path}` : `rows.${index}`, message: fault.message };
}

/** The body a row stands for: the import's teamId unless the row names its own. */
function withTeam<Body extends { teamId?: unknown }>(body: Body, teamId: string | undefined): Body {
  return body.teamId === undefined && teamId !== undefined ? { ...body, teamId } : body;
}

/** Thrown inside a dry run's transaction to roll it back, carrying the answer. */
class DryRunDone extends Error {
  constructor(readonly result: ImportResult) {
    super('dry run');
  }
}

export async function importThreads(ctx: AppContext, account: AccountRow, source: ImportSource, options: ImportOptions): Promise<ImportResult> {
  if (source.bodies.length > IMPORT_MAX_THREADS)
    throw new ValidationError({ path: 'rows', message: `has ${source.bodies.length} threads; an import takes at most ${IMPORT_MAX_THREADS}` });
  const bodies = source.bodies.map((body) => withTeam(body, options.teamId));
  const key = options.dryRun ? undefined : options.idempotencyKey;
  const hash = requestHash({ import: bodies });
  if (key) {
    const replay = await findIdempotentReplay<ImportResult>(ctx.db, account.id, key, hash, ctx.clock.now());
    if (replay) return replay;
  }
  const now = ctx.clock.now();
  const read = await readImportRows(ctx, account, bodies, options.teamId, source.locate, now);
  if (read.refused) throw read.refused;
  const faults = [...(source.faults ?? []), ...read.faults];
  if (faults.length) throw new ValidationError(faults);
  // No fault: every row's target was found, so every row was checked.
  const checked = read.checked;

  const write = async (): Promise<ImportResult> =>
    ctx.db.transaction().execute(async (trx) => {
      if (key) {
        const replay = await claimIdempotency<ImportResult>(trx, account.id, key, hash, now);
        if (replay) return replay;
      }
      const written = await writeThreads(trx, account, checked, now, (i, fault) => source.locate(i, fault));
      const result: ImportResult = {
        created: written.length,
        threads: written.map((t, i) => ({ row: source.rows[i]!, threadId: options.dryRun ? null : t.threadId, status: t.status, scheduledAt: t.scheduledAt })),
      };
      // Everything was checked and written as for real: the rollback undoes it (queue slots too).
      if (options.dryRun) throw new DryRunDone(result);
      if (key) await saveIdempotentResponse(trx, account.id, key, 201, result);
      return result;
    });
  try {
    const result = await write();
    if (result.threads.some((t) => t.scheduledAt)) ctx.scheduleSignal.ring();
    return result;
  } catch (err) {
    if (err instanceof DryRunDone) return err.result;
    throw err;
  }
}

/** What readImportRows found: every fault of the rows, named as the answer names them, and the rows to save. */
interface ImportRead<Body> {
  faults: FieldFault[];
  checked: CheckedThread<Body>[];
  /** The import's own team (its `teamId`) is not one of the caller's: the import is 404, as Create Post would be. */
  refused: NotFoundError | null;
}

/**
 * Reads an import's rows with Create Post's own readCreateBody: the one check of both the writing
 * path and the validation guard's faults-only path (whose rows may be of the wrong shape in
 * places; a row that is not an object is a shape fault only). Each distinct team and provider is
 * read once; every THREADS row's media hosts are resolved at once, each host once. A team or
 * provider not found is a fault of its rows (the import's own team refuses the import too), and
 * the rules that need no provider still speak.
 */
async function readImportRows<Body>(
  ctx: AppContext,
  account: AccountRow,
  rows: Body[],
  teamId: string | undefined,
  locate: (index: number, fault: FieldFault) => FieldFault,
  now: Date,
): Promise<ImportRead<Body>> {
  const read: ImportRead<Body> = { faults: [], checked: [], refused: null };
  const lookups = new Map<string, Promise<CreateLookup>>();
  const lookupOf = (fields: Record<string, unknown>) => {
    const key = JSON.stringify({ teamId: fields.teamId, providerId: fields.providerId });
    if (!lookups.has(key)) lookups.set(key, lookUpCreateTarget(ctx.db, account, fields));
    return lookups.get(key)!;
  };
  const records = rows.map((row) => (isRecord(row) ? row : null));
  const found: Array<CreateLookup | null> = [];
  for (const fields of records) found.push(fields && (await lookupOf(fields)));
  const reach = mediaReach(
    ctx,
    records.flatMap((fields, i) =>
      fields
        ? urlsFetchedBy(
            found[i]?.target?.provider.kind ?? null,
            mediaOfPosts(fields.posts).map((m) => m.url),
          )
        : [],
    ),
  );
  for (const [i, row] of rows.entries()) {
    const lookup = found[i];
    if (!lookup) continue;
    if (lookup.missing) {
      if (lookup.missing.message.startsWith('Team ') && records[i]!.teamId === teamId) read.refused ??= lookup.missing;
      read.faults.push(locate(i, notFoundFault(lookup.missing)));
    }
    const body = await readCreateBody(ctx, account, row, { now, lookup, reach });
    read.faults.push(...body.faults.list.map((fault) => locate(i, fault)));
    if (body.value) read.checked.push(body.value);
  }
  return read;
}

/** A row's team or provider that lookUpCreateTarget did not find, as a fault of the row. */
function notFoundFault(err: NotFoundError): FieldFault {
  return err.message.startsWith('Team ')
    ? { path: 'teamId', message: 'is not a team of yours' }
    : { path: 'providerId', message: 'is not a connected account of this workspace' };
}

/**
 * Every content fault of an import that has shape faults, named as the answer names them: the
 * faults readImportRows finds in its rows, as the writing path's own.
 */
export async function importFaults(
  ctx: AppContext,
  account: AccountRow,
  bodies: unknown,
  teamId: string | undefined,
  locate = locateJsonRow,
): Promise<FieldFault[]> {
  // Too many rows: the import is refused whole; its rows are checked once it fits.
  if (!Array.isArray(bodies) || bodies.length > IMPORT_MAX_THREADS) return [];
  const rows = bodies.map((body: unknown) => (isRecord(body) ? withTeam(body, teamId) : body));
  return (await readImportRows(ctx, account, rows, teamId, locate, ctx.clock.now())).faults;
}
